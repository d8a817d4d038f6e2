"""Structure: ``gpu.module``, ``gpu.func``, ``gpu.binary``, the terminators, ``gpu.launch``,
``gpu.launch_func`` and ``gpu.warp_execute_on_lane_0``."""

from __future__ import annotations

from typing import Optional

from ....ir.attributes import (UNIT, ArrayAttr, DenseArrayAttr, DictionaryAttr, IntegerAttr,
                               OpaqueAttr, StringAttr, SymbolRefAttr, TypeAttr, format_symbol)
from ....ir.diagnostics import ERROR, Diagnostic
from ....ir.core import Region
from ....ir.opdef import OPTIONAL, VARIADIC, Attr, Operand, RegionDef, Result
from ....ir.types import I64, FunctionType
from ....ir.traits import (TERMINATOR, AffineScope, IsolatedFromAbove, ReturnLike,
                          SingleBlockImplicitTerminator, SingleBlockNoTerminator, Symbol,
                          SymbolTable, function_attribute_arrays_error)
from ..attributes import ObjectAttr, SelectObjectAttr
from ....text import registry
from ....text.format import parse_attr_of_storage
from ...func.syntax import function_results_text, parse_function_results
from ....text.parser import PendingLocation
from .verify_util import memref_info
from .base import (INDEX, GpuOp, attr_dict, parse_async, parse_attr_dict, parse_region,
                   parse_types, print_async, print_types, print_uses, render_region)

_KERNEL = "gpu.kernel"
_WORKGROUP = "workgroup_attributions"
# the custom syntax always records the count; the generic form may leave it out (= 0)
for _name in ("gpu.func", "gpu.launch"):
    registry.IMPLIED_ATTRIBUTES[_name] = {_WORKGROUP: IntegerAttr(0, I64)}


# -- terminators ------------------------------------------------------------------------------

class _ValuesTerminator(GpuOp):
    """``gpu.return [%v : T]`` / ``gpu.yield [%v : T]``."""

    __slots__ = ()
    TRAITS = (TERMINATOR, ReturnLike)

    @classmethod
    def parse_custom(cls, parser, state):
        name = cls.OPERANDS[0].name
        parse_attr_dict(parser, state)
        if parser.tok and parser.tok[0] == "%":
            state.operands[name] = parser.parse_comma_list(parser._parse_use)
            parser.expect(":")
            off = parser.offset
            state.set_types(name, "operand", parse_types(parser), off)

    @staticmethod
    def print_custom(printer, op):
        text = attr_dict(printer, op)
        if op.operands:
            text += (" " + print_uses(printer, op.operands) + " : "
                     + print_types([v.type for v in op.operands]))
        return text


class ReturnOp(_ValuesTerminator):
    MNEMONIC = "return"
    OPERANDS = (Operand("operands", kind=VARIADIC),)

    def verify_op(self):
        func = self.parent_op
        if func is None or func.name != "gpu.func":
            return "expects parent op 'gpu.func'"
        results = func.attributes["function_type"].value.results
        if len(results) != len(self.operands):
            diag = Diagnostic(ERROR, f"'gpu.return' op expected {len(results)} result operands",
                              self.loc)
            diag.attach_note("return type declared here", func.loc)
            return diag
        for i, (want, v) in enumerate(zip(results, self.operands)):
            if v.type != want:
                diag = Diagnostic(ERROR, f"'gpu.return' op unexpected type `'{v.type}'' for "
                                  f"operand #{i}", v.owner_op.loc if v.owner_op else self.loc)
                diag.attach_note("return type declared here", func.loc)
                return diag
        return None


class YieldOp(_ValuesTerminator):
    MNEMONIC = "yield"
    OPERANDS = (Operand("values", kind=VARIADIC),)


class TerminatorOp(GpuOp):
    """``gpu.terminator``: ends a ``gpu.launch`` body."""

    __slots__ = ()
    MNEMONIC = "terminator"
    TRAITS = (TERMINATOR, ReturnLike)

    @staticmethod
    def parse_custom(parser, state):
        parse_attr_dict(parser, state)

    @staticmethod
    def print_custom(printer, op):
        return attr_dict(printer, op)

    def verify_op(self):
        parent = self.parent_op
        if parent is None or parent.name != "gpu.launch":
            return "expects parent op 'gpu.launch'"
        return None


# -- gpu.module and gpu.binary ----------------------------------------------------------------

def _parse_handler(parser):
    if parser.tok == "<":
        parser.i += 1
        handler = parser.parse_attribute()
        parser.expect(">")
        return handler
    return None


def attribution_error(workgroup, private) -> Optional[str]:
    """Memory attributions must be memrefs, in their address space when it is a gpu one."""
    for values, space in ((workgroup, "workgroup"), (private, "private")):
        for v in values:
            info = memref_info(v.type)
            if info is None:
                return "expected memref type in attribution"
            if info.space and info.space.startswith("#gpu.address_space<") \
                    and info.space != f"#gpu.address_space<{space}>":
                return f"expected memory space {space} in attribution"
    return None


def is_target_attribute(attr) -> bool:
    """A GPU target (``#nvvm.target``, ``#rocdl.target<..>``...): another dialect's attribute."""
    return isinstance(attr, OpaqueAttr) and attr.text.startswith("#")


def verify_handler(op) -> Optional[str]:
    handler = op.attributes.get("offloadingHandler")
    if handler is None or isinstance(handler, SelectObjectAttr) or is_target_attribute(handler):
        return None
    return ("attribute 'offloadingHandler' failed to satisfy constraint: any attribute with "
            "the `OffloadingTranslationAttrTrait` trait.")


class ModuleOp(GpuOp):
    """``gpu.module @name [<handler>] [[targets]] [attributes {..}] { .. }``."""

    #: MLIR parses it with hand-written C++ (no attribute checks while parsing)
    DECLARATIVE_FORMAT = False

    __slots__ = ()
    MNEMONIC = "module"
    ATTRIBUTES = (Attr("sym_name", "symbol"), Attr("targets", "array", optional=True),
                  Attr("offloadingHandler", "any", optional=True))
    REGIONS = (RegionDef("bodyRegion", "sized1"),)
    TRAITS = (IsolatedFromAbove(), SingleBlockNoTerminator(), SymbolTable, Symbol)

    @staticmethod
    def parse_custom(parser, state):
        state.attrs["sym_name"] = StringAttr(parser.parse_symbol_name())
        handler = _parse_handler(parser)
        if handler is not None:
            state.attrs["offloadingHandler"] = handler
        if parser.tok == "[":
            state.attrs["targets"] = parser.parse_attribute()
        if parser.tok == "attributes":
            # (MLIR checks the op's own attributes given in the dictionary right away)
            at = parser.offset
            spelled = state.attrs
            state.attrs = {}
            parse_attr_dict(parser, state, keyword=True)
            given, state.attrs = state.attrs, spelled
            for name in sorted(given):
                msg = ModuleOp._attribute_error(name, given[name])
                if msg is not None:
                    raise parser.error(f"{parser.op_prefix()}'gpu.module' op {msg}", at)
            state.attrs.update(given)
        region = Region()
        parse_region(parser, region, isolated=True)
        if not region.blocks:
            region.add_block()
        state.regions["bodyRegion"] = region

    @staticmethod
    def _attribute_error(name: str, value) -> Optional[str]:
        """The constraint error of one of gpu.module's own attributes (None if it holds)."""
        if name == "sym_name" and not isinstance(value, StringAttr):
            return "attribute 'sym_name' failed to satisfy constraint: string attribute"
        if name == "targets" and not (isinstance(value, ArrayAttr) and value.value and all(
                is_target_attribute(t) for t in value.value)):
            return ("attribute 'targets' failed to satisfy constraint: array of GPU target "
                    "attributes with at least 1 elements")
        if name == "offloadingHandler" and not (
                isinstance(value, SelectObjectAttr) or is_target_attribute(value)):
            return ("attribute 'offloadingHandler' failed to satisfy constraint: any attribute "
                    "with the `OffloadingTranslationAttrTrait` trait.")
        return None

    def verify_op(self):
        targets = self.attributes.get("targets")
        if targets is not None:
            msg = ModuleOp._attribute_error("targets", targets)
            if msg is not None:
                return msg
        return verify_handler(self)

    @staticmethod
    def print_custom(printer, op):
        a = op.attributes
        text = " " + format_symbol(a["sym_name"].value)
        if "offloadingHandler" in a:
            text += f"<{a['offloadingHandler']}>"
        if "targets" in a:
            text += f" {a['targets']}"
        text += attr_dict(printer, op, ("sym_name", "offloadingHandler", "targets"), keyword=True)
        return text + " " + render_region(printer, op.regions[0])


class BinaryOp(GpuOp):
    """``gpu.binary @name [<handler>] [attr-dict] [#gpu.object<..>, ..]``."""

    __slots__ = ()
    MNEMONIC = "binary"
    ATTRIBUTES = (Attr("sym_name", "symbol"), Attr("offloadingHandler", "any", optional=True),
                  Attr("objects", "array"))

    @staticmethod
    def parse_custom(parser, state):
        state.attrs["sym_name"] = StringAttr(parser.parse_symbol_name())
        handler = _parse_handler(parser)
        state.attrs["offloadingHandler"] = handler or SelectObjectAttr(None)
        parse_attr_dict(parser, state)
        state.attrs["objects"] = parse_attr_of_storage(
            parser, BinaryOp.SPEC.attr_by_name["objects"])

    def verify_op(self):
        objects = self.attributes.get("objects")
        if not (isinstance(objects, ArrayAttr) and objects.value
                and all(isinstance(o, ObjectAttr) for o in objects.value)):
            return ("attribute 'objects' failed to satisfy constraint: an array of GPU object "
                    "attributes with at least 1 elements")
        return verify_handler(self)

    @staticmethod
    def print_custom(printer, op):
        a = op.attributes
        text = " " + format_symbol(a["sym_name"].value) + " "
        handler = a.get("offloadingHandler")
        if handler is not None and handler != SelectObjectAttr(None):
            text += f"<{handler}>"
        text += attr_dict(printer, op, ("sym_name", "offloadingHandler", "objects"))
        return text + f" {a['objects']}"


# -- gpu.func ---------------------------------------------------------------------------------

def _parse_arg_list(parser, with_attrs: bool, arguments: bool = False):
    """``(%a: T {attrs} loc(...), ...)`` -> [(name, type, offset, attrs, location)] (the
    location None, a location, or a pending one naming an alias defined further down).

    ``arguments``: a function's argument list (MLIR's function parser: a missing ``)`` is
    ``expected ')'``); otherwise a list of attributions, whose ``)`` is expected "in argument
    list"."""
    parser.expect("(")
    out = []

    def one():
        off = parser.offset
        t = parser.tok
        if not t or t[0] != "%":
            if arguments:
                raise parser.error(f"{parser.op_prefix()}gpu.func requires named arguments")
            raise parser.error("expected SSA identifier")
        parser.i += 1
        parser.expect(":")
        typ = parser.parse_type()
        attrs = None
        if with_attrs and parser.tok == "{":
            attrs = DictionaryAttr.of(parser.parse_attr_dict_body())
        loc = None
        if parser.tok == "loc":
            holder = PendingLocation()
            parser.parse_trailing_location(holder)
            loc = holder if holder.loc is None else holder.loc
        out.append((t, typ, off, attrs, loc))
    parser.parse_comma_list(one, ")")
    if arguments or parser.tok == ")":
        parser.expect(")")
    else:
        raise parser.wrong_token_error("expected ')' in argument list")
    return out


def _attribution_attrs(values) -> Optional[ArrayAttr]:
    """``workgroup_attrib_attrs``/``private_attrib_attrs`` of parsed attributions: absent
    unless one of them has a non-empty dictionary, then one dictionary per attribution."""
    if not any(v[3] is not None and v[3].entries for v in values):
        return None
    return ArrayAttr(tuple(v[3] or DictionaryAttr(()) for v in values))


def _three_elements(value) -> bool:
    return len(value.value) == 3


class FuncOp(GpuOp):
    """``gpu.func @f(%a: T) [-> R] [workgroup(..)] [private(..)] [kernel] [attributes {..}] {..}``."""

    #: MLIR parses it with hand-written C++ (no attribute checks while parsing)
    DECLARATIVE_FORMAT = False

    __slots__ = ()
    MNEMONIC = "func"
    ATTRIBUTES = (Attr("function_type", "function_type"),
                  Attr("arg_attrs", "dict_array", optional=True),
                  Attr("res_attrs", "dict_array", optional=True),
                  Attr("workgroup_attrib_attrs", "dict_array", optional=True),
                  Attr("private_attrib_attrs", "dict_array", optional=True),
                  *(Attr(name, "array_i32", optional=True, check=_three_elements,
                         summary="i32 dense array attribute with 3 elements (if present)")
                    for name in ("known_block_size", "known_grid_size", "known_cluster_size")))
    REGIONS = (RegionDef("body", "any"),)
    #: (AffineScope is the AutomaticAllocationScope marker: memref.alloca may live here)
    TRAITS = (AffineScope, IsolatedFromAbove(), Symbol)

    @staticmethod
    def parse_custom(parser, state):
        state.attrs["sym_name"] = StringAttr(parser.parse_symbol_name())
        args = _parse_arg_list(parser, with_attrs=True, arguments=True)
        results, res_attrs = parse_function_results(parser)
        workgroup = private = []
        if parser.tok == "workgroup":
            parser.i += 1
            workgroup = _parse_arg_list(parser, with_attrs=True)
        if parser.tok == "private":
            parser.i += 1
            private = _parse_arg_list(parser, with_attrs=True)
        if parser.tok == "kernel":
            parser.i += 1
            state.attrs[_KERNEL] = UNIT
        # (MLIR adds the attributes the syntax spells after the dictionary: one given in both
        # places is an error at the op)
        spelled = state.attrs
        state.attrs = {}
        parse_attr_dict(parser, state, keyword=True)
        state.attrs, given = spelled, state.attrs
        state.attrs["function_type"] = TypeAttr(FunctionType([a[1] for a in args], results))
        if any(a[3] is not None for a in args):
            state.attrs["arg_attrs"] = ArrayAttr(tuple(a[3] or DictionaryAttr(())
                                                       for a in args))
        if any(d.entries for d in res_attrs):
            state.attrs["res_attrs"] = ArrayAttr(tuple(res_attrs))
        state.attrs[_WORKGROUP] = IntegerAttr(len(workgroup), I64)
        for name, values in (("workgroup_attrib_attrs", workgroup),
                             ("private_attrib_attrs", private)):
            attrib_attrs = _attribution_attrs(values)
            if attrib_attrs is not None:
                state.attrs[name] = attrib_attrs
        for name in given:
            if name in state.attrs:
                raise parser.error(f"{parser.op_prefix()}attribute '{name}' occurs more than "
                                   "once in the attribute list", state.start)
        state.attrs.update(given)
        entry = [(n, t, off, loc) for n, t, off, _, loc in args + workgroup + private]
        region = Region()
        parse_region(parser, region, isolated=True, entry_args=entry)
        state.regions["body"] = region

    @staticmethod
    def print_custom(printer, op):
        a = op.attributes
        printer.require_signature_attrs(op)
        ftype = a["function_type"].value
        block = op.regions[0].blocks[0] if op.regions[0].blocks else None
        args = list(block.args) if block is not None else []
        arg_attrs = a.get("arg_attrs")
        n_in = len(ftype.inputs)
        parts = []
        for i, t in enumerate(ftype.inputs):
            text = f"{printer.value_name(args[i])}: {t}" if i < len(args) else str(t)
            if arg_attrs is not None and i < len(arg_attrs.value) and arg_attrs.value[i].entries:
                text += f" {arg_attrs.value[i]}"
            if i < len(args):
                text += printer.argument_loc_text(args[i])
            parts.append(text)
        text = " " + format_symbol(a["sym_name"].value) + "(" + ", ".join(parts) + ")"
        text += function_results_text(printer, ftype, a.get("res_attrs"))
        n_wg = a[_WORKGROUP].value if _WORKGROUP in a else 0
        wg = args[n_in:n_in + n_wg]
        priv = args[n_in + n_wg:]
        for keyword, values in (("workgroup", wg), ("private", priv)):
            if values:
                attrib_attrs = a.get(f"{keyword}_attrib_attrs")
                dicts = attrib_attrs.value if isinstance(attrib_attrs, ArrayAttr) else ()
                text += f" {keyword}(" + ", ".join(
                    f"{printer.value_name(v)} : {v.type}"
                    + (f" {dicts[i]}" if i < len(dicts) and dicts[i].entries else "")
                    for i, v in enumerate(values)) + ")"
        if _KERNEL in a:
            text += " kernel"
        text += attr_dict(printer, op, ("sym_name", "function_type", "arg_attrs", "res_attrs",
                                        "workgroup_attrib_attrs", "private_attrib_attrs",
                                        _WORKGROUP, _KERNEL), keyword=True)
        return text + " " + render_region(printer, op.regions[0])

    def verify_op(self):
        parent = self.parent_op
        if parent is None or parent.name != "gpu.module":
            return "expects parent op 'gpu.module'"
        error = function_attribute_arrays_error(self)
        if error is not None:
            return error
        ftype = self.attributes["function_type"].value
        if _KERNEL in self.attributes and ftype.results:
            return "expected void return type for kernel function"
        blocks = self.regions[0].blocks
        if not blocks:
            return Diagnostic(ERROR, "expected body with at least one block", self.loc)
        args = blocks[0].args
        n_wg = self.attributes.get(_WORKGROUP)
        n_wg = n_wg.value if isinstance(n_wg, IntegerAttr) else 0
        n_in = len(ftype.inputs)
        if len(args) < n_in + n_wg:
            return f"expected at least {n_in + n_wg} arguments to body region"
        for i, t in enumerate(ftype.inputs):
            if args[i].type != t:
                return f"expected body region argument #{i} to be of type {t}, got {args[i].type}"
        error = attribution_error(args[n_in:n_in + n_wg], args[n_in + n_wg:])
        if error:
            return error
        for name in ("gpu.known_block_size", "gpu.known_grid_size", "gpu.known_cluster_size"):
            value = self.attributes.get(name)
            if value is None:
                continue
            if not (isinstance(value, DenseArrayAttr) and value.element == "i32"):
                return f"{name} must be a dense i32 array"
            if len(value.value) != 3:
                return f"{name} must contain exactly 3 elements"
        return None


# -- gpu.launch -------------------------------------------------------------------------------

_DIMS = ("X", "Y", "Z")


class LaunchOp(GpuOp):
    """``gpu.launch [async [..]] [clusters(..) in (..)] blocks(..) in (..) threads(..) in (..)
    [dynamic_shared_memory_size %s] [module(@m) function(@f)] [workgroup(..)] [private(..)]
    { .. } [attr-dict]``."""

    #: MLIR parses it with hand-written C++ (no attribute checks while parsing)
    DECLARATIVE_FORMAT = False

    __slots__ = ()
    MNEMONIC = "launch"
    ATTR_SIZED_OPERANDS = True
    OPERANDS = ((Operand("asyncDependencies", kind=VARIADIC),)
                + tuple(Operand(f"gridSize{d}") for d in _DIMS)
                + tuple(Operand(f"blockSize{d}") for d in _DIMS)
                + tuple(Operand(f"clusterSize{d}", kind=OPTIONAL) for d in _DIMS)
                + (Operand("dynamicSharedMemorySize", kind=OPTIONAL),))
    RESULTS = (Result("asyncToken", kind=OPTIONAL),)
    ATTRIBUTES = (Attr("function", "flat_symbol", optional=True),
                  Attr("module", "flat_symbol", optional=True))
    REGIONS = (RegionDef("body", "any"),)
    #: AutomaticAllocationScope (memref.alloca in the body is per thread, freed at the end)
    TRAITS = (AffineScope,)

    @staticmethod
    def _parse_clause(parser, state, keyword: str, group: str, ids: list, sizes: list) -> None:
        parser.expect_keyword(keyword)
        parser.expect("(")
        for k in range(3):
            if k:
                parser.expect(",")
            off = parser.offset
            ids.append((parser._parse_use()[0], INDEX, off, None))
        parser.expect(")")
        parser.expect_keyword("in")
        parser.expect("(")
        for k, d in enumerate(_DIMS):
            if k:
                parser.expect(",")
            off = parser.offset
            sizes.append((parser._parse_use()[0], INDEX, off, None))
            parser.expect("=")
            state.operands[f"{group}{d}"] = [parser._parse_use()]
            state.set_types(f"{group}{d}", "operand", [INDEX], off)
        parser.expect(")")

    @classmethod
    def parse_custom(cls, parser, state):
        parse_async(parser, state)
        cluster_ids: list = []
        cluster_sizes: list = []
        if parser.tok == "clusters":
            cls._parse_clause(parser, state, "clusters", "clusterSize", cluster_ids,
                              cluster_sizes)
        block_ids: list = []
        grid_sizes: list = []
        thread_ids: list = []
        block_sizes: list = []
        cls._parse_clause(parser, state, "blocks", "gridSize", block_ids, grid_sizes)
        cls._parse_clause(parser, state, "threads", "blockSize", thread_ids, block_sizes)
        if parser.tok == "dynamic_shared_memory_size":
            parser.i += 1
            off = parser.offset
            state.operands["dynamicSharedMemorySize"] = [parser._parse_use()]
            from ....ir.types import I32
            state.set_types("dynamicSharedMemorySize", "operand", [I32], off)
        for keyword in ("module", "function"):  # each optional, in this order
            if parser.tok == keyword:
                parser.i += 1
                parser.expect("(")
                off = parser.offset
                value = parser.parse_attribute()
                # (flat symbol references, as MLIR 22 has them)
                if not isinstance(value, SymbolRefAttr) or value.nested:
                    raise parser.error(f"{parser.op_prefix()}invalid kind of attribute "
                                       "specified", off)
                state.attrs[keyword] = value
                parser.expect(")")
        workgroup = private = []
        if parser.tok == "workgroup":
            parser.i += 1
            workgroup = _parse_arg_list(parser, with_attrs=False)
        if parser.tok == "private":
            parser.i += 1
            private = _parse_arg_list(parser, with_attrs=False)
        entry = (block_ids + thread_ids + grid_sizes + block_sizes + cluster_ids + cluster_sizes
                 + [(n, t, off, loc) for n, t, off, _, loc in workgroup + private])
        region = Region()
        parse_region(parser, region, entry_args=entry)
        state.regions["body"] = region
        parse_attr_dict(parser, state)
        state.attrs[_WORKGROUP] = IntegerAttr(len(workgroup), I64)

    @staticmethod
    def print_custom(printer, op):
        spec = op.SPEC
        a = op.attributes
        block = op.regions[0].blocks[0]
        args = block.args
        name = printer.value_name

        def group(g):
            start, stop = spec.operand_range(op, g)
            return op.operands[start:stop]

        deps = group("asyncDependencies")
        head = print_async(printer, op, bool(op.results), deps)
        text = " " + head if head else ""
        has_clusters = bool(group("clusterSizeX"))
        if any(a_.type != INDEX for a_ in args[:18 if has_clusters else 12]):
            # (MLIR 22 does not check the id arguments' types; the custom form implies index,
            # so such an op is printed in the generic form)
            raise ValueError("gpu.launch id arguments that are not index")

        def clause(keyword, ids, sizes, operands):
            return (f" {keyword}(" + ", ".join(name(v) for v in ids) + ") in (" + ", ".join(
                f"{name(s)} = {name(o)}" for s, o in zip(sizes, operands)) + ")")

        if has_clusters:
            text += clause("clusters", args[12:15], args[15:18],
                           [group(f"clusterSize{d}")[0] for d in _DIMS])
        text += clause("blocks", args[0:3], args[6:9], [group(f"gridSize{d}")[0] for d in _DIMS])
        text += clause("threads", args[3:6], args[9:12],
                       [group(f"blockSize{d}")[0] for d in _DIMS])
        dyn = group("dynamicSharedMemorySize")
        if dyn:
            text += f" dynamic_shared_memory_size {name(dyn[0])}"
        for keyword in ("module", "function"):
            if keyword in a:
                text += f" {keyword}({a[keyword]})"
        n_fixed = 18 if has_clusters else 12
        n_wg = a[_WORKGROUP].value if _WORKGROUP in a else 0
        wg = args[n_fixed:n_fixed + n_wg]
        priv = args[n_fixed + n_wg:]
        for keyword, values in (("workgroup", wg), ("private", priv)):
            if values:
                text += f" {keyword}(" + ", ".join(f"{name(v)} : {v.type}" for v in values) + ")"
        text += " " + render_region(printer, op.regions[0])
        return text + attr_dict(printer, op, ("function", "module", _WORKGROUP))

    def verify_regions(self):
        for block in self.regions[0].blocks:
            if block.ops and block.ops[-1].name != "gpu.terminator" and \
                    not block.ops[-1].successors:
                last = block.ops[-1]
                diag = Diagnostic(ERROR, f"'{last.name}' op expected 'gpu.terminator' or a "
                                  "terminator with successors", last.loc)
                diag.attach_note("in 'gpu.launch' body region", self.loc)
                return diag
        return None

    def verify_op(self):
        blocks = self.regions[0].blocks
        if not blocks:
            return None
        spec = self.SPEC
        start, stop = spec.operand_range(self, "clusterSizeX")
        n = 18 if stop > start else 12
        n_wg = self.attributes.get(_WORKGROUP)
        n_wg = n_wg.value if n_wg is not None else 0
        if len(blocks[0].args) < n + n_wg:
            return "unexpected number of region arguments"
        args = blocks[0].args
        return attribution_error(args[n:n + n_wg], args[n + n_wg:])


# -- gpu.launch_func --------------------------------------------------------------------------

def _parse_args_clause(parser, state, group: str) -> None:
    """``args(%a : T, ...)`` (launch_func's kernel operands, warp_execute's arguments)."""
    if parser.tok != "args":
        return
    parser.i += 1
    parser.expect("(")
    off = parser.offset
    uses, types = [], []

    def one():
        uses.append(parser._parse_use())
        parser.expect(":")
        types.append(parser.parse_type())
        if parser.tok not in (",", ")"):
            raise parser.wrong_token_error("expected ')' in argument list")
    parser.parse_comma_list(one, ")")
    parser.expect(")")
    state.operands[group] = uses
    state.set_types(group, "operand", types, off)


class LaunchFuncOp(GpuOp):
    """``gpu.launch_func [async [..]] [<%stream : T>] @module::@kernel [clusters in (..)]
    blocks in (..) threads in (..) [: T] [dynamic_shared_memory_size %s] [args(%a : T, ..)]``."""

    __slots__ = ()
    MNEMONIC = "launch_func"
    ATTR_SIZED_OPERANDS = True
    OPERANDS = ((Operand("asyncDependencies", kind=VARIADIC),)
                + tuple(Operand(f"gridSize{d}") for d in _DIMS)
                + tuple(Operand(f"blockSize{d}") for d in _DIMS)
                + tuple(Operand(f"clusterSize{d}", kind=OPTIONAL) for d in _DIMS)
                + (Operand("dynamicSharedMemorySize", kind=OPTIONAL),
                   Operand("kernelOperands", kind=VARIADIC),
                   Operand("asyncObject", kind=OPTIONAL)))
    RESULTS = (Result("asyncToken", kind=OPTIONAL),)
    ATTRIBUTES = (Attr("kernel", "symbol_ref"),)

    @staticmethod
    def parse_custom(parser, state):
        from ....ir.types import I32
        parse_async(parser, state)
        if parser.tok == "<":
            parser.i += 1
            off = parser.offset
            state.operands["asyncObject"] = [parser._parse_use()]
            parser.expect(":")
            state.set_types("asyncObject", "operand", [parser.parse_type()], off)
            parser.expect(">")
        off = parser.offset
        kernel = parser.parse_attribute()
        if not isinstance(kernel, SymbolRefAttr):
            raise parser.error(f"{parser.op_prefix()}invalid kind of attribute specified", off)
        state.attrs["kernel"] = kernel
        triples = []
        for keyword, g in (("clusters", "clusterSize"), ("blocks", "gridSize"),
                           ("threads", "blockSize")):
            if keyword == "clusters" and parser.tok != "clusters":
                continue
            parser.expect_keyword(keyword)
            parser.expect_keyword("in")
            parser.expect("(")
            for k, d in enumerate(_DIMS):
                if k:
                    parser.expect(",")
                state.operands[f"{g}{d}"] = [parser._parse_use()]
                triples.append(f"{g}{d}")
            parser.expect(")")
        dim_type = INDEX
        if parser.consume(":"):
            dim_type = parser.parse_type()
        for g in triples:
            state.set_types(g, "operand", [dim_type], off)
        if parser.tok == "dynamic_shared_memory_size":
            parser.i += 1
            state.operands["dynamicSharedMemorySize"] = [parser._parse_use()]
            state.set_types("dynamicSharedMemorySize", "operand", [I32], off)
        _parse_args_clause(parser, state, "kernelOperands")
        parse_attr_dict(parser, state)

    @staticmethod
    def print_custom(printer, op):
        spec = op.SPEC
        name = printer.value_name

        def group(g):
            start, stop = spec.operand_range(op, g)
            return op.operands[start:stop]

        text = " " + print_async(printer, op, bool(op.results), group("asyncDependencies"))
        obj = group("asyncObject")
        text += f"<{name(obj[0])} : {obj[0].type}> " if obj else " "
        text += str(op.attributes["kernel"])
        for keyword, g in (("clusters", "clusterSize"), ("blocks", "gridSize"),
                           ("threads", "blockSize")):
            values = [v for d in _DIMS for v in group(f"{g}{d}")]
            if values:
                text += f" {keyword} in (" + ", ".join(name(v) for v in values) + ")"
        dim_type = group("gridSizeX")[0].type
        text += " " + (f": {dim_type}" if dim_type is not INDEX else "")
        dyn = group("dynamicSharedMemorySize")
        if dyn:
            text += f" dynamic_shared_memory_size {name(dyn[0])}"
        args = group("kernelOperands")
        text += " " + ("args(" + ", ".join(f"{name(v)} : {v.type}" for v in args) + ")"
                       if args else "")
        return text + attr_dict(printer, op, ("kernel",))

    def verify_op(self):
        from .symbols import verify_launch_func
        return verify_launch_func(self)


# -- gpu.warp_execute_on_lane_0 ---------------------------------------------------------------

class WarpExecuteOnLane0Op(GpuOp):
    """``gpu.warp_execute_on_lane_0(%lane)[32] [args(%v : T, ..)] [-> (T, ..)] { .. }``."""

    #: MLIR parses it with hand-written C++ (no attribute checks while parsing)
    DECLARATIVE_FORMAT = False

    __slots__ = ()
    MNEMONIC = "warp_execute_on_lane_0"
    OPERANDS = (Operand("laneid"), Operand("args", kind=VARIADIC))
    RESULTS = (Result("results", kind=VARIADIC),)
    ATTRIBUTES = (Attr("warp_size", "i64"),)
    REGIONS = (RegionDef("warpRegion", "sized1"),)
    TRAITS = (SingleBlockImplicitTerminator("gpu.yield"),)

    @staticmethod
    def parse_custom(parser, state):
        parser.expect("(")
        off = parser.offset
        state.operands["laneid"] = [parser._parse_use()]
        state.set_types("laneid", "operand", [INDEX], off)
        parser.expect(")")
        parser.expect("[")
        state.attrs["warp_size"] = IntegerAttr(parser.parse_fixed_integer(64), I64)
        parser.expect("]")
        _parse_args_clause(parser, state, "args")
        results = []
        if parser.consume("->"):
            parser.expect("(")
            results = parse_types(parser, ")")
            parser.expect(")")
        state.result_types["results"] = results
        region = Region()
        parse_region(parser, region)
        if not region.blocks:
            region.add_block()
        block = region.blocks[0]
        if not block.ops or block.ops[-1].name != "gpu.yield":
            from ....ir.opdef import make_op
            block.append(make_op("gpu.yield", loc=parser.loc_at(state.start)))
        state.regions["warpRegion"] = region
        parse_attr_dict(parser, state)

    @staticmethod
    def print_custom(printer, op):
        name = printer.value_name
        text = f"({name(op.operands[0])})[{op.attributes['warp_size'].value}]"
        if len(op.operands) > 1:
            text += " args(" + ", ".join(f"{name(v)} : {v.type}" for v in op.operands[1:]) + ")"
        if op.results:
            text += " -> (" + print_types([r.type for r in op.results]) + ")"
        block = op.regions[0].blocks[0]
        last = block.ops[-1] if block.ops else None
        elide = last is not None and last.name == "gpu.yield" and not last.operands \
            and not last.attributes
        text += " " + render_region(printer, op.regions[0], entry_args=True,
                                    terminator=not elide)
        return text + attr_dict(printer, op, ("warp_size",))

    def verify_op(self):
        blocks = self.regions[0].blocks
        if not blocks:
            return None
        args = self.operands[1:]
        if len(args) != len(blocks[0].args):
            return "expected same number op arguments and block arguments."
        last = blocks[0].ops[-1] if blocks[0].ops else None
        if last is None or last.name != "gpu.yield":
            return None
        if len(last.operands) != len(self.results):
            return "expected same number of yield operands and return values."
        warp = self.attributes["warp_size"].value
        pairs = list(zip((a.type for a in blocks[0].args), (a.type for a in args)))
        pairs += zip((v.type for v in last.operands), (r.type for r in self.results))
        for expanded, distributed in pairs:
            error = _distribution_error(expanded, distributed, warp)
            if error:
                return error
        return None


def _distribution_error(expanded, distributed, warp: int) -> Optional[str]:
    """MLIR's verifyDistributedType: ``distributed`` is ``expanded`` split over ``warp`` lanes."""
    from ...builtin.types import VectorType
    if expanded == distributed:
        return None
    if not isinstance(expanded, VectorType) or not isinstance(distributed, VectorType):
        return "expected vector type for distributed operands."
    if len(expanded.shape) != len(distributed.shape) or \
            expanded.element_type != distributed.element_type:
        return "expected distributed vectors to have same rank and element type."
    product = 1
    for i, (e, d) in enumerate(zip(expanded.shape, distributed.shape)):
        if e == d:
            continue
        if e % d:
            return (f"expected expanded vector dimension #{i} ({e}) to be a multipler of the "
                    f"distributed vector dimension ({d})")
        product *= e // d
    if product != warp:
        return (f"incompatible distribution dimensions from '{expanded}' to '{distributed}' "
                f"with warp size = {warp}")
    return None
