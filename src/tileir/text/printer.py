"""Printer: the canonical custom form (laid out as cuda-tile-opt prints it) and the generic form.

SSA names follow MLIR's AsmPrinter: ops may suggest result names (NVIDIA's
``getAsmResultNames``: ``%cst_1_i32``, ``%tview``, ``%for``...), which are uniqued with a
printer-wide ``_N`` suffix; other values are numbered ``%0, %1, ...``; entry block arguments are
``%argN``.  Counters are inherited by nested regions and restored for siblings, so every entry
starts again at ``%0``.  With ``debuginfo=True`` locations are printed, with MLIR's aliases
(``#loc1 = loc(...)``, ``#di_file = ...``) emitted after the module.
"""

from __future__ import annotations

import re
from typing import Optional

from ..ir.attributes import DenseArrayAttr, StringAttr, format_named_attr, quote_string
from ..ir.core import Block, Operation, Region, Value
from ..ir.locations import UNKNOWN_LOC, CallSiteLoc, FusedLoc, Location, NameLoc
from ..ir.verify import property_conversion_fails
from .registry import (DISASM_FORMS, INHERENT_ATTRIBUTES, PRINT_NAME_ALIASES,
                       default_dialect_for)
from .format import print_format

__all__ = ["print_op", "OpPrinter"]

_VALID_NAME_CHAR = re.compile(r"[A-Za-z0-9$._-]")
_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9$._-]*\Z")


def sanitize_name(name: str) -> str:
    """MLIR's sanitizeIdentifier for SSA names."""
    def copy() -> str:
        out = []
        for ch in name:
            if _VALID_NAME_CHAR.match(ch):
                out.append(ch)
            elif ch == " ":
                out.append("_")
            else:
                out.append(format(ord(ch), "X"))
        return "".join(out)
    if _PLAIN_NAME.match(name):
        return name
    if name[0].isdigit():
        return "_" + copy()
    if all(_VALID_NAME_CHAR.match(ch) for ch in name):
        return name
    return copy()


def asm_result_names(op: Operation) -> Optional[list]:
    """The result names an op suggests (MLIR's ``getAsmResultNames``), or None.

    Ops may implement ``asm_result_names``; otherwise, like the ``getAsmResultNames`` that
    mlir-tblgen generates for every op with two or more declared results, each result group is
    named after its declaration (``%blockId_x, %blockId_y, ...``, ``%tile, %result_token``)."""
    hook = getattr(op, "asm_result_names", None)
    names = hook() if hook is not None else None
    if names is not None:
        return names
    spec = op.SPEC
    if spec is None or len(spec.results) < 2:
        return None
    if not spec.n_dynamic_results:
        return [r.name for r in spec.results]
    out: list = [None] * len(op.results)
    for r in spec.results:
        start, stop = spec.result_range(op, r.name)
        if stop > start:
            out[start] = r.name
    return out


def has_asm_interface(op: Operation) -> bool:
    """Whether NVIDIA's op implements ``OpAsmOpInterface`` (decides ``assume`` names)."""
    spec = op.SPEC
    if spec is None:
        return False
    cls = spec.cls
    if getattr(cls, "ASM_INTERFACE", False) or len(spec.results) >= 2:
        return True
    from ..ir.opdef import OpBase
    return cls.asm_result_names is not OpBase.asm_result_names


def _base_asm_result_names():
    from ..ir.opdef import OpBase
    return OpBase.asm_result_names


class _NameState:
    """Assigns printed names to values (MLIR's SSANameState).

    ``text`` maps each value to its spelling at a use (``%0``, ``%for#1``, ``%blockId_x``);
    ``result_lists`` maps each op with results to its result list (``%for:2``)."""

    def __init__(self, root: Operation, generic: bool = False) -> None:
        self.generic = generic
        self.text: dict = {}
        self.result_lists: dict = {}
        self.block_names: dict[int, str] = {}
        self.next_value = 0
        self.next_arg = 0
        self.next_conflict = 0
        self.used: list[set] = []
        self._number(root)

    def _used(self, name: str) -> bool:
        for s in self.used:
            if name in s:
                return True
        return False

    def unique(self, name: str) -> str:
        name = sanitize_name(name)
        if not self._used(name):
            self.used[-1].add(name)
            return name
        while True:
            probe = f"{name}_{self.next_conflict}"
            self.next_conflict += 1
            if not self._used(probe):
                self.used[-1].add(probe)
                return probe

    def _number(self, root: Operation) -> None:
        self.used.append(set())
        self._number_op(root)
        # MLIR's SSANameState: a stack of regions, each starting from the counters of its
        # parent region.  The generic form prints unique ids (shouldPrintUniqueSSAIDs): the
        # counters are never restored and the stack pops the last pushed region first.
        unique = self.generic
        stack = []
        for region in (root.regions if unique else reversed(root.regions)):
            stack.append((region, self.next_value, self.next_arg, self.next_conflict, 1))
        while stack:
            region, nv, na, nc, depth = stack.pop()
            if not unique:
                self.next_value, self.next_arg, self.next_conflict = nv, na, nc
            del self.used[depth:]
            self.used.append(set())
            self._number_region(region)
            children = []
            for block in region.blocks:
                for op in block.ops:
                    if op.regions:
                        for r in op.regions:
                            children.append((r, self.next_value, self.next_arg,
                                             self.next_conflict, depth + 1))
            stack.extend(children if unique else reversed(children))

    def _number_region(self, region: Region) -> None:
        parent = region.parent
        text = self.text
        names = None
        if parent is not None and region.blocks and not self.generic:
            hook = getattr(parent, "asm_block_arg_names", None)
            if hook is not None:
                names = hook(parent.regions.index(region))
        if names:
            for arg, name in zip(region.blocks[0].args, names):
                if name:
                    text[arg] = "%" + self.unique(name)
        number_op = self._number_op
        for bi, block in enumerate(region.blocks):
            self.block_names[id(block)] = f"^bb{bi}"
            for arg in block.args:
                if arg in text:
                    continue
                if bi == 0:
                    text[arg] = "%" + self.unique(f"arg{self.next_arg}")
                    self.next_arg += 1
                else:
                    text[arg] = f"%{self.next_value}"
                    self.next_value += 1
            for op in block.ops:
                if op.results:
                    number_op(op)

    def _number_op(self, op: Operation) -> None:
        results = op.results
        if not results:
            return
        suggested = None
        if not self.generic:
            spec = op.SPEC
            if spec is not None:
                named = spec.__dict__.get("_named")
                if named is None:
                    named = spec.__dict__["_named"] = (
                        len(spec.results) >= 2 or
                        type(op).asm_result_names is not _base_asm_result_names())
            else:
                named = False
            if named:
                suggested = asm_result_names(op)
        if suggested is None:
            # the common case: one number for the whole result list
            base = str(self.next_value)
            self.next_value += 1
            if len(results) == 1:
                self.text[results[0]] = "%" + base
                self.result_lists[op] = "%" + base
                return
            bases = {0: base}
        else:
            bases = {}
            for k, name in enumerate(suggested):
                if k >= len(results):
                    break
                if name:
                    bases[k] = self.unique(name)
                elif name is not None and name == "":
                    bases[k] = str(self.next_value)
                    self.next_value += 1
            if 0 not in bases:
                bases[0] = str(self.next_value)
                self.next_value += 1
        # a named/numbered result starts a group that extends to the next one
        starts = sorted(bases)
        n = len(results)
        parts = []
        text = self.text
        for gi, start in enumerate(starts):
            end = starts[gi + 1] if gi + 1 < len(starts) else n
            base = bases[start]
            size = end - start
            if size == 1:
                text[results[start]] = "%" + base
                parts.append("%" + base)
            else:
                for k in range(start, end):
                    text[results[k]] = f"%{base}#{k - start}"
                parts.append(f"%{base}:{size}")
        self.result_lists[op] = ", ".join(parts)

    def value(self, v: Value) -> str:
        return self.text.get(v, "<<UNKNOWN SSA VALUE>>")

    def result_list(self, op: Operation) -> str:
        return self.result_lists.get(op, "")


class _Aliases:
    """MLIR alias table for locations and debug-info attributes (``--mlir-print-debuginfo``)."""

    def __init__(self) -> None:
        # key -> [alias_prefix, depth, order]
        self.info: dict = {}
        self.names: dict = {}
        self.order = 0
        #: aliases defined before the top-level op rather than after it: MLIR prints block
        #: argument locations inline, and their aliases (unused, but made all the same) up front
        self.early: set = set()

    def visit(self, attr) -> int:
        """Register ``attr`` and what it references; return its alias depth."""
        key = attr
        if key in self.info:
            return self.info[key][1]
        children = _alias_children(attr)
        depth = 0
        for child in children:
            depth = max(depth, self.visit(child) + 1)
        prefix = "loc" if isinstance(attr, Location) else attr.ALIAS
        self.info[key] = [prefix, depth, self.order]
        self.order += 1
        return depth

    def finalize(self) -> None:
        items = sorted(self.info.items(), key=lambda kv: (kv[1][1], kv[1][0], kv[1][2]))
        counters: dict[str, int] = {}
        for attr, (prefix, _depth, _order) in items:
            n = counters.get(prefix, 0)
            counters[prefix] = n + 1
            self.names[attr] = f"#{prefix}" if n == 0 else f"#{prefix}{n}"
        self.sorted = [a for a, _ in items]

    def ref(self, attr) -> str:
        name = self.names.get(attr)
        if name is not None:
            return name
        return loc_body(attr, self.ref) if isinstance(attr, Location) else attr.generic()

    def definitions(self, early: bool = False) -> list[str]:
        """The ``#alias = ...`` lines printed before the top-level op (``early``) or after it."""
        lines = []
        for attr in self.sorted:
            if (attr in self.early) != early:
                continue
            if isinstance(attr, Location):
                if hasattr(attr, "alias_definition"):  # a dialect's location attribute
                    body = attr.alias_definition(self.ref)
                else:
                    body = f"loc({loc_body(attr, self.ref)})"
            else:
                body = attr.alias_definition(self.ref)
            lines.append(f"{self.names[attr]} = {body}")
        return lines


def _alias_children(attr) -> list:
    """What ``attr`` refers to that gets an alias too (dialect attributes printed through an
    alias define ``alias_children()`` and ``alias_definition(ref)``)."""
    dialect_children = getattr(attr, "alias_children", None)
    if dialect_children is not None:
        return dialect_children()
    if isinstance(attr, CallSiteLoc):
        return [attr.callee, attr.caller]
    if isinstance(attr, NameLoc):
        return [attr.child] if attr.child is not None else []
    if isinstance(attr, FusedLoc):
        return list(attr.locations)
    return []


def loc_body(loc: Location, ref) -> str:
    """Text inside ``loc(...)`` with nested locations spelled through ``ref``."""
    if isinstance(loc, CallSiteLoc):
        return f"callsite({ref(loc.callee)} at {ref(loc.caller)})"
    if isinstance(loc, NameLoc):
        if loc.child is None:
            return loc.body()
        from ..ir.attributes import quote_string
        return f"{quote_string(loc.name)}({ref(loc.child)})"
    if isinstance(loc, FusedLoc):
        meta = "" if loc.metadata is None else f"<{loc.metadata.generic()}>"
        return f"fused{meta}[" + ", ".join(ref(l) for l in loc.locations) + "]"
    if hasattr(loc, "alias_definition"):  # a dialect's location attribute
        return loc.body(ref)
    return loc.body()


#: op name -> its quoted spelling (the generic form's op names)
_QUOTED_NAMES: dict[str, str] = {}


class OpPrinter:
    """Prints one top-level op (usually a module) to text."""

    def __init__(self, root: Operation, *, generic: bool = False, debuginfo: bool = False,
                 disasm: bool = False, local_scope: bool = False) -> None:
        self.generic = generic
        self.debuginfo = debuginfo
        #: no alias definitions: affine maps, locations and debug info printed where used
        #: (mlir-opt's ``--mlir-print-local-scope``)
        self.local_scope = local_scope
        self.disasm = disasm
        self.names = _NameState(root, generic)
        self.indent = 0
        self.lines: list[str] = []
        self.aliases: Optional[_Aliases] = None
        self.default_dialect = [""]
        #: while collecting aliases (first of two passes with debuginfo)
        self._collecting = False

    # -- pieces used by op formats --------------------------------------------------------------

    def value_name(self, v: Value) -> str:
        return self.names.text.get(v, "<<UNKNOWN SSA VALUE>>")

    def type_text(self, t) -> str:
        return t.short

    def loc_text(self, loc: Location) -> str:
        if self._collecting:
            self.aliases.visit(loc)
            return ""
        if self.aliases is not None:
            name = self.aliases.names.get(loc)
            if name is not None:
                return f"loc({name})"
        return loc.generic()

    def attr_dict_text(self, op: Operation, elided: set, with_keyword: bool = False) -> str:
        items = [(k, v) for k, v in op.attributes.items()
                 if k not in elided and k != "operandSegmentSizes"]
        spec = op.SPEC
        if spec is not None:
            # default-valued attributes that equal their default are not printed
            items = [(k, v) for k, v in items
                     if not (k in spec.attr_by_name and spec.attr_by_name[k].default is not None
                             and spec.attr_by_name[k].default == v)]
        if not items:
            return ""
        items.sort(key=lambda kv: kv[0])
        body = "{" + ", ".join(format_named_attr(k, v) for k, v in items) + "}"
        return (" attributes " if with_keyword else " ") + body

    @staticmethod
    def argument_attrs(attrs, index: int) -> str:
        """`` {...}`` for entry ``index`` of a function's ``arg_attrs``/``res_attrs`` array
        (MLIR's function signatures), or ``""`` when that entry is absent or empty."""
        from ..ir.attributes import ArrayAttr, DictionaryAttr
        if isinstance(attrs, ArrayAttr) and index < len(attrs.value):
            d = attrs.value[index]
            if isinstance(d, DictionaryAttr) and d.entries:
                return " " + d.generic()
        return ""

    @staticmethod
    def require_signature_attrs(op: Operation, printed: tuple = ("arg_attrs", "res_attrs"),
                                canonical: tuple = ()) -> None:
        """Raise ``ValueError`` (so that ``op`` is printed in the generic form) when its
        ``arg_attrs``/``res_attrs`` cannot be carried by a custom function signature: an array
        of ``printed`` holding only empty dictionaries (a custom parser sets these arrays only
        when some entry has attributes), or any such array neither in ``printed`` nor in
        ``canonical`` (arrays the dialect's parser always sets)."""
        from ..ir.attributes import ArrayAttr, DictionaryAttr
        for key in ("arg_attrs", "res_attrs"):
            attrs = op.attributes.get(key)
            if attrs is None or key in canonical:
                continue
            if key not in printed or not (isinstance(attrs, ArrayAttr) and any(
                    isinstance(d, DictionaryAttr) and d.entries for d in attrs.value)):
                raise ValueError(f"{op.name}: {key} that its custom signature cannot carry")

    def region_text(self, region: Region, print_entry_args: bool = False,
                    print_terminator: bool = True) -> str:
        """Render a region as ``{\\n ... }`` at the current indentation."""
        return self.render_region(region, print_entry_args, print_terminator)

    def render_region(self, region: Region, print_entry_args: bool = False,
                      print_terminator: bool = True, elide_terminator_if=None) -> str:
        out = ["{"]
        self.indent += 1
        preds = _predecessors(region) if len(region.blocks) > 1 else None
        for bi, block in enumerate(region.blocks):
            if bi > 0 or (print_entry_args and block.args):
                header = "\n" + self._block_header(block)
                if bi > 0 and preds is not None:
                    header += "  // " + self._predecessor_comment(preds[bi])
                out.append(header)
            ops = block.ops
            for oi, op in enumerate(ops):
                if oi == len(ops) - 1 and not print_terminator:
                    if elide_terminator_if is None or elide_terminator_if(op):
                        continue
                out.append("\n" + "  " * self.indent + self.op_text(op))
        self.indent -= 1
        out.append("\n" + "  " * self.indent + "}")
        return "".join(out)

    def _predecessor_comment(self, indexes: list) -> str:
        """MLIR's ``// 2 preds: ^bb0, ^bb3`` after a block header."""
        if not indexes:
            return "no predecessors"
        names = ", ".join(f"^bb{k}" for k in sorted(indexes))
        return f"pred: {names}" if len(indexes) == 1 else f"{len(indexes)} preds: {names}"

    def successor_list(self, op: Operation) -> str:
        """``[^bb1, ^bb2]``: the op's successors, by their printed names."""
        return "[" + ", ".join(self.names.block_names.get(id(b), "^bb?")
                               for b in op.successors) + "]"

    def _block_header(self, block: Block) -> str:
        name = self.names.block_names.get(id(block), "^bb?")
        if not block.args:
            return "  " * (self.indent - 1) + name + ":"
        args = ", ".join(f"{self.value_name(a)}: {a.type}{self.argument_loc_text(a)}"
                         for a in block.args)
        return "  " * (self.indent - 1) + f"{name}({args}):"

    def argument_loc_text(self, arg) -> str:
        """`` loc(...)`` after a block or function argument when printing debug info.  MLIR
        prints argument locations inline (never through an alias), yet makes their aliases and
        defines them before the top-level op."""
        if not self.debuginfo:
            return ""
        loc = arg.loc or UNKNOWN_LOC
        if self._collecting:
            self.aliases.visit(loc)
            self.aliases.early.add(loc)
            return ""
        return " " + loc.generic()

    # -- ops ----------------------------------------------------------------------------------

    def op_text(self, op: Operation) -> str:
        try:
            return self._op_text(op)
        except (AttributeError, IndexError, KeyError, TypeError, ValueError):
            # IR that does not verify may not fit its op's custom syntax: print it in the
            # generic form, as MLIR does for ops that fail verification.
            if self.generic or op.SPEC is None:
                raise
            prefix = self.names.result_lists.get(op) if op.results else None
            text = (prefix + " = " if prefix else "") + self.generic_text(op)
            if self.debuginfo:
                text += " " + self.loc_text(op.loc)
            return text

    def _op_text(self, op: Operation) -> str:
        if self._collecting:
            self.aliases.visit(op.loc)  # MLIR visits an op's location before its body
        results = self.names.result_lists.get(op) if op.results else None
        prefix = results + " = " if results else ""
        spec = op.SPEC
        if not self.generic and spec is not None and (spec.cls.print_custom is not None
                                                       or spec.format is not None):
            pfn = spec.__dict__.get("_print_fn")
            if pfn is None:
                from .format import compile_printer
                pfn = False if spec.cls.print_custom is not None else \
                    compile_printer(spec.format, spec)
                spec.__dict__["_print_fn"] = pfn
            if pfn:
                # the hot path: a declarative format, printed by its generated function
                if self.disasm:
                    name = self.op_name(op)
                elif self.default_dialect[-1] == spec.cls.DIALECT_NAME:
                    name = spec.mnemonic
                else:
                    name = op.name
                if spec.regions:
                    self.default_dialect.append(self._region_dialect(spec))
                    try:
                        body = pfn(self, op)
                    finally:
                        self.default_dialect.pop()
                else:
                    body = pfn(self, op)
                # (the format decides its own leading space: none before a leading `(`)
                text = prefix + name + body
                if self.debuginfo:
                    text += " " + self.loc_text(op.loc)
                return text
            body = self.custom_text(op)
        elif not self.generic and op.name == "builtin.module":
            body = self.builtin_module_text(op)
        else:
            body = self.generic_text(op)
        text = prefix + body
        if self.debuginfo:
            text += " " + self.loc_text(op.loc)
        return text

    def _region_dialect(self, spec) -> str:
        """The default dialect inside an op's regions: its class's ``DEFAULT_DIALECT`` (None:
        the enclosing one, as for ops without ``OpAsmOpInterface::getDefaultDialect``), else
        its own dialect."""
        found = getattr(spec.cls, "DEFAULT_DIALECT", spec.cls.DIALECT_NAME)
        return self.default_dialect[-1] if found is None else found

    def op_name(self, op: Operation) -> str:
        if self.disasm:
            alias = PRINT_NAME_ALIASES.get(op.name)
            if alias is not None:
                return alias
        dialect = self.default_dialect[-1]
        if dialect and op.name.startswith(dialect + "."):
            return op.name[len(dialect) + 1:]
        return op.name

    def custom_text(self, op: Operation) -> str:
        spec = op.SPEC
        name = self.op_name(op)
        self.default_dialect.append(self._region_dialect(spec))
        try:
            if spec.cls.print_custom is not None:
                body = spec.cls.print_custom(self, op)
                if body and not body.startswith((" ", "\n", "(")):
                    body = " " + body
            else:
                # the declarative format decides its own leading space (none before `(`)
                body = print_format(self, op, spec.format)
        finally:
            self.default_dialect.pop()
        return name + body

    def builtin_module_text(self, op: Operation) -> str:
        text = "module"
        name = op.attributes.get("sym_name")
        if name is not None:
            from ..ir.attributes import format_symbol
            text += " " + format_symbol(name.value)
        attrs = self.attr_dict_text(op, {"sym_name"}, with_keyword=True)
        text += attrs
        self.default_dialect.append("")
        try:
            region = self.render_region(op.regions[0])
        finally:
            self.default_dialect.pop()
        return text + " " + region

    def generic_text(self, op: Operation) -> str:
        name = _QUOTED_NAMES.get(op.name)
        if name is None:
            name = _QUOTED_NAMES[op.name] = quote_string(op.name)
        parts = [name, "(", ", ".join(self.value_name(v) for v in op.operands), ")"]
        if op.successors:
            parts.append(self.successor_list(op))
        spec = op.SPEC
        inherent = []
        discardable = []
        engine_inherent = INHERENT_ATTRIBUTES.get(op.name, ())
        for k, v in sorted(op.attributes.items()):
            # an own attribute not of the class its property is stored as (invalid IR) cannot
            # be a property: it is printed, and read back, as an attribute
            if (spec is not None and k in spec.attr_by_name
                    and not property_conversion_fails(spec.attr_by_name[k], v)) \
                    or (k in engine_inherent and isinstance(v, StringAttr)):
                inherent.append((k, v))
            else:
                discardable.append((k, v))
        if spec is not None and spec.attr_sized_operands:
            sizes = spec.operand_sizes(op)
            inherent.append(("operandSegmentSizes", DenseArrayAttr("i32", tuple(sizes))))
            inherent.sort(key=lambda kv: kv[0])
        if inherent:
            parts.append(" <{" + ", ".join(format_named_attr(k, v) for k, v in inherent) + "}>")
        elif op.properties is not None:
            parts.append(" <{" + ", ".join(format_named_attr(k, v)
                                           for k, v in op.properties.entries) + "}>")
        if op.regions:
            # the default dialect the parser gives a generic op's regions
            self.default_dialect.append(default_dialect_for(op.name, self.default_dialect[-1]))
            try:
                regions = [self._generic_region(r) for r in op.regions]
            finally:
                self.default_dialect.pop()
            parts.append(" (" + ", ".join(regions) + ")")
        if discardable:
            parts.append(" {" + ", ".join(format_named_attr(k, v) for k, v in discardable) + "}")
        ins = ", ".join(str(v.type) for v in op.operands)
        outs = [str(r.type) for r in op.results]
        if len(outs) == 1 and not outs[0].startswith("("):
            out_text = outs[0]
        else:
            out_text = "(" + ", ".join(outs) + ")"
        parts.append(f" : ({ins}) -> {out_text}")
        return "".join(parts)

    def _generic_region(self, region: Region) -> str:
        """A region in the generic form: an empty entry block still shows its label."""
        if not region.blocks:
            return "{\n" + "  " * self.indent + "}"
        block = region.blocks[0]
        if len(region.blocks) == 1 and not block.ops and not block.args:
            return "{\n" + "  " * self.indent + "^bb0:\n" + "  " * self.indent + "}"
        return self.render_region(region, print_entry_args=True)

    def print_block_args_generic(self, block: Block) -> str:
        return ", ".join(f"{self.value_name(a)}: {a.type}" for a in block.args)

    # -- top level ------------------------------------------------------------------------------

    def print_top(self, op: Operation) -> str:
        if self.debuginfo and self.aliases is None and not self.local_scope:
            # Like MLIR, collect location aliases by "printing" once into nothing: that visits
            # the locations in print order and skips what is not printed (elided terminators).
            self.aliases = _Aliases()
            self._collecting = True
            try:
                self.print_top(op)
            finally:
                self._collecting = False
            self.aliases.finalize()
        if self.disasm:
            return self.print_disasm(op)
        text = self.op_text(op)
        out = [text]
        if ("affine_map<" in text or "affine_set<" in text) and not self.local_scope:
            out = builtin_aliases(op, text, generic=self.generic)
        if self.aliases is not None and self.aliases.names and not self._collecting:
            out = self.aliases.definitions(early=True) + out + self.aliases.definitions()
        return "\n".join(out) + "\n"

    def print_disasm(self, module: Operation) -> str:
        """The body of a container op (``cuda_tile.module``) laid out as a disassembler prints it
        (NVIDIA's ``tileirdisasm``): no module line, the ops at column 0, one after another;
        the container's header comment lines (:data:`~tileir.text.registry.DISASM_FORMS`)
        first; location aliases (``-g``) at the end."""
        out = list(DISASM_FORMS[module.name](module)) if module.name in DISASM_FORMS else []
        self.default_dialect.append(module.name.partition(".")[0])
        try:
            for region in module.regions:
                for block in region.blocks:
                    for op in block.ops:
                        out.append(self.op_text(op))
            if self.debuginfo and not any(b.ops for r in module.regions for b in r.blocks):
                # Observed (tileirdisasm 13.4.92 -g): for a module without ops the module's own
                # location still gets an alias (`#loc = loc(unknown)` after an empty line);
                # a module with ops never shows it.
                self.loc_text(module.loc)
        finally:
            self.default_dialect.pop()
        text = "\n".join(out) + "\n"
        if self.aliases is not None and self.aliases.names and not self._collecting:
            text += "".join(line + "\n" for line in self.aliases.definitions(early=True)
                            + self.aliases.definitions())
        return text


def _predecessors(region: Region) -> list[list[int]]:
    """For each block of ``region``, the indexes of the blocks branching to it (one per
    branch edge)."""
    index = {id(b): k for k, b in enumerate(region.blocks)}
    found: list[list[int]] = [[] for _ in region.blocks]
    for k, block in enumerate(region.blocks):
        for op in block.ops:
            for succ in op.successors:
                if id(succ) in index:
                    found[index[id(succ)]].append(k)
    return found


def _walk_aliasable(obj, found: dict) -> None:
    """Record attributes printed through a builtin alias (``ALIAS`` class attribute, e.g.
    affine maps as ``#map``) inside a type or attribute, in MLIR's visiting order."""
    from ..ir.attributes import ArrayAttr, DictionaryAttr, TypeAttr
    from ..ir.types import FunctionType
    if getattr(obj, "BUILTIN_ALIAS", False):
        found.setdefault(obj, None)
        return
    if isinstance(obj, ArrayAttr):
        children = obj.value
    elif isinstance(obj, DictionaryAttr):
        children = [v for _, v in obj.entries]
    elif isinstance(obj, TypeAttr):
        children = (obj.value,)
    elif isinstance(obj, FunctionType):
        children = obj.inputs + obj.results
    else:
        sub = getattr(obj, "sub_elements", None)
        children = sub() if sub is not None else ()
    for child in children:
        if child is not None:
            _walk_aliasable(child, found)


def _walk_op_aliasable(op: Operation, found: dict) -> None:
    for region in op.regions:
        for block in region.blocks:
            for arg in block.args:
                _walk_aliasable(arg.type, found)
            for inner in block.ops:
                _walk_op_aliasable(inner, found)
    for result in op.results:
        _walk_aliasable(result.type, found)
    # (mlir-opt creates no aliases for an unregistered op's properties)
    for _, value in sorted(op.attributes.items()):
        _walk_aliasable(value, found)


def builtin_aliases(op: Operation, text: str, generic: bool = False) -> list[str]:
    """MLIR's builtin aliases (``#map = affine_map<...>``, ``#set = affine_set<...>``): the
    definitions, then ``text`` with each aliased attribute replaced by its alias name.

    Aliases are numbered in the order MLIR visits the attributes: for the generic form, each
    op's regions, then its result types, then its attributes (:func:`_walk_op_aliasable`);
    for the custom form, the order the custom printers print them in, which is the order of
    their first appearance in ``text`` (an attribute a custom printer elides, such as a
    transfer's default permutation map, is not visited there)."""
    found: dict = {}
    _walk_op_aliasable(op, found)
    # an attribute a custom form prints in its own way (memref.transpose's permutation) gets
    # no alias: MLIR only aliases what it prints as an attribute
    found = {attr: None for attr in found if attr.generic() in text}
    if not generic:
        found = dict.fromkeys(sorted(found, key=lambda attr: text.index(attr.generic())))
    counters: dict[str, int] = {}
    named: list[tuple[str, str, str]] = []  # (prefix, name, spelling)
    for attr in found:
        prefix = attr.ALIAS
        n = counters.get(prefix, 0)
        counters[prefix] = n + 1
        named.append((prefix, f"#{prefix}" if n == 0 else f"#{prefix}{n}", attr.generic()))
    named.sort(key=lambda item: item[0])
    for _, name, spelling in sorted(named, key=lambda item: -len(item[2])):
        text = text.replace(spelling, name)
    return [f"{name} = {spelling}" for _, name, spelling in named] + [text]


def print_op(op: Operation, *, generic: bool = False, debuginfo: bool = False,
             disasm: bool = False, assume_verified: bool = False,
             local_scope: bool = False) -> str:
    """Print ``op`` (normally a module) as text.

    The custom form is only defined for valid IR: as MLIR does, ``op`` is verified first (unless
    the caller says it already was, ``assume_verified=True``) and printed in the generic form
    if it is invalid, so that whatever was accepted prints as text that parses back to the same
    IR.  ``disasm=True`` prints a container op of :data:`~tileir.text.registry.DISASM_FORMS` (a
    ``cuda_tile.module``, or a builtin module holding one) the way a disassembler does (NVIDIA's
    ``tileirdisasm``): the module's body only, op names through ``PRINT_NAME_ALIASES``.
    ``local_scope=True`` defines no aliases (``--mlir-print-local-scope``): affine maps and
    sets, locations and debug-info attributes are printed where they are used."""
    if disasm:
        op = disasm_root(op)
    elif not generic and not assume_verified and not is_valid(op):
        generic = True
    import gc
    gc_was_enabled = gc.isenabled()
    gc.disable()  # printing allocates much and frees nothing cyclic
    try:
        return OpPrinter(op, generic=generic, debuginfo=debuginfo, disasm=disasm,
                         local_scope=local_scope).print_top(op)
    finally:
        if gc_was_enabled:
            gc.enable()


def current_operation_text(op: Operation, debuginfo: bool = False) -> str:
    """How mlir-opt shows an op in its ``see current operation`` note: the generic form, its
    values named as in the whole top-level op, locations inline with ``debuginfo``."""
    root = op
    while root.parent_op is not None:
        root = root.parent_op
    return OpPrinter(root, generic=True, debuginfo=debuginfo).op_text(op)


def is_valid(op: Operation) -> bool:
    """Whether ``op`` verifies (no error diagnostics; warnings do not count)."""
    from ..ir.diagnostics import ERROR
    from ..ir.verify import verify_op_tree
    return not any(d.severity == ERROR for d in verify_op_tree(op))


def disasm_root(op: Operation) -> Operation:
    """The container op (``cuda_tile.module``) whose body ``print_op(..., disasm=True)`` prints."""
    if op.name not in DISASM_FORMS:
        body = [o for r in op.regions for b in r.blocks for o in b.ops]
        modules = [o for o in body if o.name in DISASM_FORMS]
        if len(modules) == 1 and len(body) == 1:
            return modules[0]
    return op
