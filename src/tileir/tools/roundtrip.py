"""The round-trip invariant, checked on any module we accept.

*Whatever we accept (parse or read), we print as text -- custom and generic form -- that parses
back to the same IR, and write as bytecode -- every version that can carry it -- that reads back
to the same IR; the verifier's verdict does not change across either trip.*  Where a form cannot
carry a module (a bytecode version without an op, a non-entry function) the writer must refuse
it with a diagnostic before writing anything.

"The same IR" is compared on the generic text of the module without locations (locations are
metadata: the custom form without ``-mlir-print-debuginfo`` drops them by design).  Bytecode has
no module name and keeps a producer string only from 13.3 on, so for the bytecode forms the
``cuda_tile.module`` is compared without its ``sym_name`` and ``producer``.

Both registries are open: a front end or dialect adds its way in with :func:`register_input`
(used by ``benchmarks/fuzz_roundtrip.py`` to pick seeds, mutate and accept inputs) and its ways
out with :func:`register_form`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional, Union

from ..ir.diagnostics import ERROR, DiagnosticError
from ..ir.core import Operation

__all__ = ["RoundTripForm", "InputFormat", "FORMS", "INPUTS", "register_form", "register_input",
           "Violation", "check_module", "ir_key", "verdict"]

Data = Union[str, bytes]


class Violation(AssertionError):
    """A broken invariant: ``kind`` names it (stable across shrinking), ``detail`` explains."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


@dataclass(frozen=True)
class RoundTripForm:
    """A way out and back in: ``write`` turns a module into text or bytes (or raises a
    :class:`DiagnosticError` to refuse it), ``read`` turns that back into a module."""

    name: str
    write: Callable[[Operation], Data]
    read: Callable[[Data], Operation]
    #: module-level attributes this form does not carry (compared without them)
    drops_module_attrs: tuple = ()
    #: whether every location is carried exactly (and compared)
    keeps_locations: bool = True
    #: whether the locations the verifier checks (debug info) are carried: if not, the verdict
    #: is compared with the verdict on the module without locations
    keeps_debug_info: bool = True


@dataclass
class InputFormat:
    """A way in, as the fuzzer sees it: ``seeds`` returns valid inputs to mutate, ``mutators``
    make variants of one input, ``accept`` returns the module an input denotes or raises a
    :class:`DiagnosticError` (a clean rejection)."""

    name: str
    seeds: Callable[[], list]
    mutators: list = field(default_factory=list)
    accept: Callable[[Data], Operation] = None  # type: ignore[assignment]
    #: how the shrinker cuts a failing input into pieces it may drop, coarsest first: pairs of
    #: ``split(input) -> list`` and ``join(list) -> input`` (lines then tokens, bytes)
    shrink_levels: list = field(default_factory=list)
    #: the invariant for what ``accept`` returns (default :func:`check_module`) and the key
    #: that says two accepted inputs are the same (default :func:`ir_key`); for front ends
    #: whose programs are not IR modules (tinytc)
    check: Optional[Callable[[object], dict]] = None
    key: Optional[Callable[[object], str]] = None


FORMS: list[RoundTripForm] = []
INPUTS: dict[str, InputFormat] = {}


def register_form(form: RoundTripForm) -> None:
    """Add a way out and back in that :func:`check_module` checks."""
    FORMS.append(form)


def register_input(fmt: InputFormat) -> None:
    """Add a way in for the round-trip fuzzer."""
    INPUTS[fmt.name] = fmt


# ---------------------------------------------------------------------------------------------
# Comparing modules
# ---------------------------------------------------------------------------------------------

def _cuda_tile_modules(op: Operation) -> list:
    if op.name == "cuda_tile.module":
        return [op]
    return [o for r in op.regions for b in r.blocks for o in b.ops if o.name == "cuda_tile.module"]


def _unwrap_implicit_module(op: Operation) -> Operation:
    """The parser wraps a top-level ``cuda_tile.module`` in an implicit ``builtin.module``."""
    if op.name == "builtin.module" and not op.attributes and op.regions and \
            len(op.regions[0].blocks) == 1:
        ops = op.regions[0].blocks[0].ops
        if len(ops) == 1 and ops[0].name == "cuda_tile.module":
            return ops[0]
    return op


def ir_key(op: Operation, drop_module_attrs: tuple = (), locations: bool = True) -> str:
    """A canonical text of ``op``: its generic form (with ``locations``, or without).  With
    ``drop_module_attrs``, the ``cuda_tile.module`` inside is keyed by its body and its other
    attributes only (what a bytecode file carries)."""
    from ..text.printer import print_op
    op = _unwrap_implicit_module(op)
    with _implied_attributes(op):
        return _ir_key(op, drop_module_attrs, locations, print_op)


class _implied_attributes:
    """While active, ops that omit an implied attribute (:data:`IMPLIED_ATTRIBUTES`) carry it,
    so that absent and implied compare equal."""

    def __init__(self, root: Operation) -> None:
        self.root = root
        self.added: list = []

    def __enter__(self):
        from ..text.registry import IMPLIED_ATTRIBUTES
        if IMPLIED_ATTRIBUTES:
            for o in self.root.walk():
                implied = IMPLIED_ATTRIBUTES.get(o.name)
                if implied:
                    for k, v in implied.items():
                        if k not in o.attributes:
                            o.attributes[k] = v
                            self.added.append((o, k))
        return self

    def __exit__(self, *exc) -> None:
        for o, k in self.added:
            del o.attributes[k]


def _ir_key(op: Operation, drop_module_attrs: tuple, locations: bool, print_op) -> str:
    if not drop_module_attrs:
        text = print_op(op, generic=True)
        return text + _locations(op) if locations else text
    parts = []
    for module in _cuda_tile_modules(op):
        kept = sorted((k, v.generic()) for k, v in module.attributes.items()
                      if k not in drop_module_attrs)
        parts.append(repr(kept))
        for region in module.regions:
            for block in region.blocks:
                for child in block.ops:
                    parts.append(print_op(child, generic=True))
                    if locations:
                        parts.append(_locations(child))
    return "\n".join(parts)


def _locations(op: Operation) -> str:
    """Every location under ``op`` (ops, then their block arguments), in walk order, written
    out in full (no aliases)."""
    from ..ir.locations import UNKNOWN_LOC
    out = []
    for o in op.walk():
        out.append((o.loc or UNKNOWN_LOC).generic())
        for region in o.regions:
            for block in region.blocks:
                out.extend((a.loc or UNKNOWN_LOC).generic() for a in block.args)
    return "\n" + "\n".join(out)


def verdict(op: Operation) -> tuple:
    """The verifier's verdict on ``op``: ``(valid,)``."""
    from ..text.printer import is_valid
    return (is_valid(op),)


def verdict_without_locations(op: Operation) -> tuple:
    """The verdict on ``op`` with every location unknown (what a form that drops locations
    must preserve)."""
    from ..ir.locations import UNKNOWN_LOC
    saved = []
    for o in op.walk():
        saved.append((o, o.loc))
        o.loc = UNKNOWN_LOC
        for region in o.regions:
            for block in region.blocks:
                for a in block.args:
                    saved.append((a, a.loc))
                    a.loc = UNKNOWN_LOC
    try:
        return verdict(op)
    finally:
        for holder, loc in saved:
            holder.loc = loc


def check_module(module: Operation, forms: Optional[list] = None) -> dict:
    """Check the invariant for ``module`` across ``forms`` (default: every registered form).
    Returns ``{form name: "ok" | "refused"}``; raises :class:`Violation` on a broken invariant."""
    from ..text.printer import print_op
    try:
        before = {True: verdict(module), False: verdict_without_locations(module)}
    except Exception as exc:  # noqa: BLE001
        raise Violation("verifier crash", f"{type(exc).__name__}: {exc}") from exc
    keys: dict = {}
    outcome = {}
    for form in forms if forms is not None else FORMS:
        try:
            data = form.write(module)
        except DiagnosticError as exc:
            if not any(d.severity == ERROR for d in exc.diagnostics):
                raise Violation(f"{form.name}: refusal without an error", str(exc)) from exc
            outcome[form.name] = "refused"
            continue
        except Exception as exc:  # noqa: BLE001
            raise Violation(f"{form.name}: write crash",
                            f"{type(exc).__name__}: {exc}") from exc
        try:
            back = form.read(data)
        except DiagnosticError as exc:
            raise Violation(f"{form.name}: output does not read back",
                            f"{exc}\n--- output ---\n{_show(data)}") from exc
        except Exception as exc:  # noqa: BLE001
            raise Violation(f"{form.name}: read-back crash",
                            f"{type(exc).__name__}: {exc}\n--- output ---\n{_show(data)}") \
                from exc
        how = (form.drops_module_attrs, form.keeps_locations)
        if how not in keys:
            keys[how] = ir_key(module, *how)
        again = ir_key(back, *how)
        if again != keys[how]:
            raise Violation(f"{form.name}: IR changed", _first_difference(keys[how], again))
        after = verdict(back)
        if after != before[form.keeps_debug_info]:
            raise Violation(f"{form.name}: verdict changed",
                            f"valid before: {before[form.keeps_debug_info][0]}, after: "
                            f"{after[0]}; "
                            f"{print_op(back, generic=True)[:2000]}")
        outcome[form.name] = "ok"
    return outcome


def _show(data: Data) -> str:
    if isinstance(data, bytes):
        return data[:256].hex()
    return data[:4000]


def _first_difference(a: str, b: str) -> str:
    al, bl = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(al, bl)):
        if x != y:
            return f"line {i + 1}:\n  before: {x}\n  after:  {y}"
    return f"line count {len(al)} -> {len(bl)}"


# ---------------------------------------------------------------------------------------------
# The cuda_tile forms
# ---------------------------------------------------------------------------------------------

def _parse(text: Data) -> Operation:
    from ..text import parse_module
    return parse_module(text, "<round-trip>", allow_unregistered=True)


def _text_form(generic: bool) -> RoundTripForm:
    """Custom or generic text with locations (``-mlir-print-debuginfo``): the full IR."""
    from ..text.printer import print_op
    # (the custom form elides some terminators, and with them their locations)
    return RoundTripForm("generic text" if generic else "text",
                         lambda m: print_op(m, generic=generic, debuginfo=True), _parse,
                         keeps_locations=generic)


def _bytecode_form(version: str) -> RoundTripForm:
    def write(m: Operation) -> bytes:
        from ..bytecode import write_bytecode
        return write_bytecode(m, version)

    def read(data: Data) -> Operation:
        from ..bytecode import read_bytecode
        return read_bytecode(data)
    return RoundTripForm(f"bytecode {version}", write, read,
                         drops_module_attrs=("sym_name", "producer"), keeps_locations=False,
                         keeps_debug_info=True)


def _register_cuda_tile_forms() -> None:
    from ..bytecode.versions import V13_1, V13_2, V13_3, V13_4
    register_form(_text_form(False))
    register_form(_text_form(True))
    for v in (V13_1, V13_2, V13_3, V13_4):
        register_form(_bytecode_form(str(v)))


_register_cuda_tile_forms()
