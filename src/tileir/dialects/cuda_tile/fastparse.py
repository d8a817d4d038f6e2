"""The parser's fast path: one regular-expression match per op line.

Most of a Tile IR file is one op per line in a handful of declarative formats.  For every op
with an assembly format (and the generic ``"dialect.op"(...)`` form) this module compiles a
regular expression that matches the whole op on its line, with a capture per operand, type,
attribute and directive, plus a plan that turns the captures into the op.  The token-based
parser (:mod:`tileir.text.parser`) tries it first at each op and keeps the general path for
everything else: ops with regions, custom syntaxes, attribute dictionaries, anything spanning
lines, and every error.

The fast path is strictly conservative: it only commits when the captures give everything the
general parser would compute (types found or inferred, operands defined earlier with the right
types, names free); otherwise it declines and the general parser handles the op, with its
diagnostics.  Parsed sub-texts that repeat (types, constants, attribute values, generic
property dictionaries) are cached by their text; the objects are immutable (dense constant
arrays are made read-only).
"""

from __future__ import annotations

import re
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Callable, Optional

from .attributes import (IEEE_ROUNDING_MODES, UNIT, AssumePredicate, DenseArrayAttr, IntegerAttr,
                         MemoryOrderingSemantics, MemoryScope, RoundingMode, StringAttr,
                         SymbolRefAttr, _MNEMONICS, signless_value)
from ...ir.core import Block
from ...ir.infer import TypeState, infer_types
from ...ir.verify import property_conversion_fails
from ...ir.opdef import OP_REGISTRY, SINGLE, VARIADIC, OpSpec
from ...ir.locations import UNKNOWN_LOC
from .types import ELEMENT_TYPES, I32, I64, TOKEN, BuiltinType, FunctionType, Type
from ...text.lineforms import (ANGLE_ATTR_KINDS, KW_END, LINE_FORMS, TYPE_LIST, TYPE_PATTERN, VALUE_LIST,
                               VALUE_NAME, WS, LineForm)
from ...text.format import (AttrDict, CompiledFormat, Custom, Literal, OIList, OptionalGroup, Space,
                            TypeOf, Var)

if TYPE_CHECKING:  # pragma: no cover
    from ...text.parser import Parser

__all__ = ["try_fast_op", "reset_caches"]

_WS = WS
_NAME = VALUE_NAME
_NAME_LIST = VALUE_LIST
_TYPE_LIST = TYPE_LIST
_TYPE_FINDER = re.compile(TYPE_PATTERN)
_NAME_FINDER = re.compile(_NAME)
_KW_END = KW_END
#: Op header: leading whitespace/comments, result names, op name (bare or quoted).
#: a result name as MLIR's lexer reads one: digits only, or starting with a non-digit
_RESULT = r"%(?:[0-9]+|[A-Za-z_$.\-][A-Za-z0-9_$.\-]*)"
_HEADER = re.compile(
    rf"(?:\s|//[^\n]*)*((?:({_RESULT}(?::[0-9]+)?(?:{_WS},{_WS}{_RESULT}"
    rf"(?::[0-9]+)?)*){_WS}={_WS})?([A-Za-z_][A-Za-z0-9_$.]*|\"[A-Za-z0-9_$.]+\"))")
_RESULT_NAME = re.compile(rf"({_RESULT})(?::([0-9]+))?")
#: End of an op line: an optional trailing location alias, an optional comment.
_END = rf"{_WS}(?:loc\((#[A-Za-z_][A-Za-z0-9_$.\-]*|unknown)\){_WS})?(?://[^\n]*)?(?=\n|$)"

# ---------------------------------------------------------------------------------------------
# Caches of parsed sub-texts
# ---------------------------------------------------------------------------------------------

_TYPES: dict[str, Optional[Type]] = {"token": TOKEN, **ELEMENT_TYPES}
_ATTRS: dict[tuple, Any] = {}
_FAILED = object()


def reset_caches() -> None:
    """Forget every parsed sub-text and plan (for cold-start measurements)."""
    _TYPES.clear()
    _TYPES.update({"token": TOKEN, **ELEMENT_TYPES})
    _ATTRS.clear()
    for spec in OP_REGISTRY.values():
        ff = spec.__dict__.get("_fast")
        if isinstance(ff, FastFormat):
            ff.cache.clear()
    from .syntax import _TYPE_CACHE
    _TYPE_CACHE.clear()


def _type(text: str) -> Optional[Type]:
    t = _TYPES.get(text, _FAILED)
    if t is _FAILED:
        t = _slow_type(text)
        if len(_TYPES) < 200000:
            _TYPES[text] = t
    return t


def _slow_type(text: str) -> Optional[Type]:
    from ...text.parser import Parser, ParseError
    from ...text.lexer import EOF
    try:
        p = Parser(text, fast=False)
        t = p.parse_type()
        if p.tok != EOF:
            return None
        return t
    except (ParseError, Exception):
        return None


def _cached(kind: str, text: str, make: Callable[[str], Any]):
    key = (kind, text)
    v = _ATTRS.get(key, _FAILED)
    if v is _FAILED:
        try:
            v = make(text)
        except Exception:
            v = None
        if len(_ATTRS) < 200000:
            _ATTRS[key] = v
    return v


def _parse_attr_text(text: str):
    from ...text.parser import Parser
    from ...text.lexer import EOF
    p = Parser(text, fast=False)
    a = p.parse_attribute()
    return a if p.tok == EOF else None


def _string(text: str) -> Optional[str]:
    from ...text.lexer import unescape_string
    try:
        return unescape_string(text).decode("utf-8", "surrogateescape")
    except ValueError:
        return None


# ---------------------------------------------------------------------------------------------
# Compiling a format
# ---------------------------------------------------------------------------------------------

class _Unsupported(Exception):
    pass


class FastFormat:
    """A compiled fast matcher for one op: a regex over the rest of the op's line and a way to
    turn the captures that are not operand names into a *plan* (the operands' types, the
    result types, the attributes), cached by those captures' texts."""

    __slots__ = ("regex", "actions", "spec", "operand_caps", "keyget", "cache", "plan_fn",
                 "defaults", "n_regions", "simple", "simple_counts", "names_get", "run")

    def __init__(self, regex, spec, operand_caps, plan_fn, actions=None) -> None:
        self.regex = regex
        self.spec = spec
        self.actions = actions
        #: (capture index, operand group name, variadic?) per operand capture
        self.operand_caps = operand_caps
        others = [i for i in range(regex.groups) if i not in {c[0] for c in operand_caps}]
        if not others:
            self.keyget = lambda g: ()
        elif len(others) == 1:
            i0 = others[0]
            self.keyget = lambda g: (g[i0],)
        else:
            self.keyget = itemgetter(*others)
        self.cache: dict = {}
        self.plan_fn = plan_fn
        # the common case: every operand group is one required operand, captured in order
        names = [o.name for o in spec.operands]
        self.simple = (all(o.kind == SINGLE for o in spec.operands)
                       and [c[1] for c in operand_caps] == names
                       and not any(c[2] for c in operand_caps))
        self.simple_counts = tuple(1 for _ in spec.operands)
        idx = [c[0] for c in operand_caps]
        self.names_get = (itemgetter(*idx) if len(idx) > 1 else
                          (lambda g, i=idx[0]: (g[i],)) if idx else (lambda g: ()))
        self.run = None
        self.defaults = [(a.name, a.default) for a in spec.attributes if a.default is not None]
        self.n_regions = len(spec.regions)


class Plan:
    """What a fast op's non-operand captures imply: the type of each operand (in operand
    order), the result types, the attributes (copied per op) and whether operand segment sizes
    are recorded."""

    __slots__ = ("operand_types", "result_types", "attrs")

    def __init__(self, operand_types, result_types, attrs) -> None:
        self.operand_types = operand_types
        self.result_types = result_types
        self.attrs = attrs


def _kw_alternatives(words) -> str:
    return "(" + "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) + ")" + _KW_END


def _literal(text: str) -> str:
    pat = _WS + re.escape(text)
    if text[-1].isalnum() or text[-1] == "_":
        pat += _KW_END
    return pat


def _attr_pattern(decl) -> tuple[str, Callable]:
    enum = decl.enum
    if enum is not None:
        table = {m.keyword: m for m in enum}
        if enum in _MNEMONICS:
            return (rf"{_WS}<{_WS}{_kw_alternatives(table)}{_WS}>", table.get)
        return _WS + _kw_alternatives(table), table.get
    kind = decl.kind
    if kind in ("i64", "i32"):
        t = I64 if kind == "i64" else I32
        def integer(s):
            v = signless_value(int(s), t.width)
            # (out of range: the general parser reports it)
            return None if v is None else IntegerAttr(v, t)
        return rf"{_WS}(-?[0-9]+){_KW_END}", integer
    if kind == "str":
        def mk(s):
            v = _string(s)
            return None if v is None else StringAttr(v)
        return rf'{_WS}("(?:[^"\\\n]|\\.)*")', mk
    if kind == "symbol":
        return rf"{_WS}@([A-Za-z_][A-Za-z0-9_$.]*)", StringAttr
    if kind == "flat_symbol":
        return rf"{_WS}@([A-Za-z_][A-Za-z0-9_$.]*)", SymbolRefAttr
    if kind in ("array_i32", "array_i64"):
        el = kind[-3:]
        limit = 1 << (int(el[1:]) - 1)

        def dense(s):
            values = tuple(int(x) for x in s.split(",") if x.strip())
            if any(not -limit <= v < limit for v in values):
                return None  # the full parser reports it
            return DenseArrayAttr(el, values)
        return (rf"{_WS}\[{_WS}((?:-?[0-9]+(?:{_WS},{_WS}-?[0-9]+)*)?){_WS}\]", dense)
    if kind == "hints":
        def hints(s):
            from ...text.parser import Parser
            p = Parser(s, fast=False)
            from .syntax import parse_optimization_hints_body
            return parse_optimization_hints_body(p)
        return rf"{_WS}(<[^<>\n]*>)", lambda s: _cached("hints", s, hints)
    if kind in ANGLE_ATTR_KINDS:
        return rf"{_WS}(<[^<>\n]*>)", lambda s: _cached(kind, s, _angle_attr_parser(kind))
    raise _Unsupported(kind)


def _angle_attr_parser(kind: str) -> Callable[[str], Any]:
    """Parse the whole text as an attribute of a custom ``kind`` (None where it is not one)."""
    def parse(text: str):
        from ...text.parser import Parser
        from ...text.lexer import EOF
        from ...text.registry import ATTR_KIND_PARSERS
        p = Parser(text, fast=False)
        value = ATTR_KIND_PARSERS[kind](p)
        return value if p.tok == EOF else None
    return parse


def _rounding_pattern(default, allowed, validate):
    members = {m.keyword: m for m in RoundingMode}
    ok = {m: members[m] for m in allowed} if validate else members

    def handle(state, caps):
        s = caps[0]
        if s is None:
            return default
        return ok.get(s)
    return rf"(?:{_WS}rounding{_WS}<{_WS}([a-z_]+){_WS}>)?", 1, handle


def _enum_pattern(enum, optional_default=None):
    table = {m.keyword: m for m in enum}

    def handle(state, caps):
        s = caps[0]
        if s is None:
            return optional_default
        return table.get(s)
    pat = _WS + _kw_alternatives(table)
    if optional_default is not None:
        pat = f"(?:{pat})?"
    return pat, 1, handle


def _assume_pattern():
    def handle(state, caps):
        s = caps[0]
        text = s if s.startswith("#") else "#cuda_tile." + s
        a = _cached("attr", text, _parse_attr_text)
        return a if isinstance(a, AssumePredicate) else None
    return (rf"{_WS}((?:#cuda_tile\.)?(?:div_by|same_elements|bounded){_WS}<[^<>\n]*>)", 1,
            handle)


_DENSE_TOKEN = re.compile(
    r"-?(?:0x[0-9A-Fa-f]+|[0-9]+(?:\.[0-9]*(?:[eE][+-]?[0-9]+)?)?)|true|false")


def _fast_dense(el, body: str, typ):
    """A scalar or 1-D literal list for ``typ`` without the general parser (None: let it)."""
    import numpy as np
    from .attributes import DenseElementsAttr
    from ...ir.dtypes import numpy_dtype
    b = body.strip()
    if b.startswith("["):
        if b.count("[") != 1 or not b.endswith("]") or len(typ.shape) != 1:
            return None
        toks = [t.strip() for t in b[1:-1].split(",")]
        if len(toks) != typ.shape[0]:
            return None
    else:
        toks = [b]
    match = _DENSE_TOKEN.fullmatch
    for t in toks:
        if not match(t):
            return None
    name = el.name
    dt = numpy_dtype(name)
    if name == "i1":
        if any(t not in ("true", "false", "0", "1") for t in toks):
            return None
        arr = np.array([t in ("true", "1") for t in toks], dtype=bool)
    elif el.is_integer:
        if any(t in ("true", "false") or "." in t for t in toks):
            return None
        w = el.width
        lo, hi = -(1 << (w - 1)), (1 << w) - 1
        vals = [int(t, 16) if "0x" in t else int(t) for t in toks]
        if any(v < lo or v > hi for v in vals):
            return None
        half = 1 << (w - 1)
        mask = (1 << w) - 1
        arr = np.array([((v & mask) ^ half) - half for v in vals], dtype=np.int64).astype(dt)
    else:
        from ...ir.floatfmt import float_from_bits, float_from_text
        if any(t in ("true", "false") for t in toks):
            return None
        hexes = ["0x" in t for t in toks]
        if any(hexes):
            if not all(hexes) or any(t[0] == "-" for t in toks):
                return None
            width = {"tf32": 19, "f4E2M1FN": 4}.get(name, el.width)
            bits = [int(t, 16) for t in toks]
            if any(v.bit_length() > width for v in bits):
                return None
            arr = np.array([float_from_bits(v, name) for v in bits], dtype=dt)
        else:
            if any("." not in t for t in toks):
                return None
            if name in ("f16", "f32", "f64"):
                with np.errstate(over="ignore"):
                    arr = np.array([float(t) for t in toks], dtype=np.float64).astype(dt)
            else:
                arr = np.array([float_from_text(t, name) for t in toks], dtype=dt)
    if b.startswith("["):
        arr = arr.reshape(typ.shape)
    else:
        arr = np.full(typ.shape, arr[0], dtype=dt) if typ.shape else arr.reshape(())
    attr = DenseElementsAttr(typ, arr)
    return attr


def _dense_pattern(with_result: bool):
    def make(key):
        from ...text.parser import Parser, build_dense
        el_text, body, type_text = key
        typ = _type(type_text)
        el = ELEMENT_TYPES.get(el_text)
        if typ is None or el is None or isinstance(typ, BuiltinType) \
                or getattr(typ, "element", None) is not el:
            return None  # (a builtin tensor or vector: the general parser reports it)
        from .types import TileType
        if isinstance(typ, TileType):
            fast = _fast_dense(el, body, typ)
            if fast is not None:
                fast.array.flags.writeable = False
                return fast
        p = Parser(body, fast=False)
        tree = p.parse_literal_tree()
        from ...text.lexer import EOF
        if p.tok != EOF:
            return None
        attr = build_dense(p, tree, typ, 0)
        attr.array.flags.writeable = False
        return attr

    def handle(state, caps):
        key = (caps[0], caps[1], caps[2])
        attr = _ATTRS.get(("dense", key), _FAILED)
        if attr is _FAILED:
            try:
                attr = make(key)
            except Exception:
                attr = None
            _ATTRS[("dense", key)] = attr
        if attr is None:
            return None
        if with_result:
            state.types_extra = attr.type
        return attr
    return (rf"{_WS}<{_WS}([A-Za-z0-9]+){_WS}:{_WS}([^<>\n]*?){_WS}>{_WS}:{_WS}"
            rf"({TYPE_PATTERN})", 3, handle)


def _directive_pattern(name: str):
    from .attributes import ComparisonOrdering, ComparisonPredicate, Signedness, SymbolVisibility
    RM = RoundingMode
    ieee = tuple(m.keyword for m in IEEE_ROUNDING_MODES)
    table = {
        "IEEERoundingMode": lambda: _rounding_pattern(RM.NEAREST_EVEN, ieee + ("nearest_away",),
                                                      True),
        "DivFOpRoundingMode": lambda: _rounding_pattern(RM.NEAREST_EVEN, (), False),
        "SqrtOpRoundingMode": lambda: _rounding_pattern(RM.NEAREST_EVEN, (), False),
        "TanHOpRoundingMode": lambda: _rounding_pattern(RM.FULL, (), False),
        "ExpOpRoundingMode": lambda: _rounding_pattern(RM.FULL, (), False),
        "IntegerRoundingMode": lambda: _rounding_pattern(RM.NEAREST_INT_TO_ZERO,
                                                         ("nearest_int_to_zero",), True),
        "Signedness": lambda: _enum_pattern(Signedness),
        "ComparisonPredicate": lambda: _enum_pattern(ComparisonPredicate),
        "ComparisonOrdering": lambda: _enum_pattern(ComparisonOrdering),
        "SymbolVisibility": lambda: _enum_pattern(SymbolVisibility, SymbolVisibility.PUBLIC),
        "AssumePredicate": _assume_pattern,
        "DenseTypedElementsAttr": lambda: _dense_pattern(True),
        "DenseTypedElementsAttrNoResult": lambda: _dense_pattern(False),
    }
    maker = table.get(name)
    if maker is None:
        raise _Unsupported(name)
    return maker()


def compile_fast(spec: OpSpec, fmt: CompiledFormat) -> Optional[FastFormat]:
    actions: list = []   # (n_captures, handler kind, info)
    type_groups: list = []

    def seq(elements) -> str:
        out = []
        for el in elements:
            cls = type(el)
            if cls is Literal:
                out.append(_literal(el.text))
            elif cls is Space:
                continue
            elif cls is Var:
                if el.kind == "operand":
                    decl = spec.operands[spec.operand_index[el.name]]
                    if decl.kind == VARIADIC:
                        out.append(f"{_WS}({_NAME_LIST}?)")
                        actions.append(("operands", el.name))
                    else:
                        out.append(f"{_WS}({_NAME})")
                        actions.append(("operand", el.name))
                elif el.kind == "attr":
                    decl = spec.attr_by_name[el.name]
                    if decl.is_unit:
                        raise _Unsupported("unit")
                    pat, conv = _attr_pattern(decl)
                    out.append(pat)
                    actions.append(("attr", el.name, conv))
                else:
                    raise _Unsupported(el.kind)
            elif cls is TypeOf:
                decl = (spec.operands[spec.operand_index[el.name]] if el.kind == "operand"
                        else spec.results[spec.result_index[el.name]])
                if decl.kind == VARIADIC:
                    out.append(f"{_WS}({_TYPE_LIST})")
                    actions.append(("types", el.name, el.kind))
                else:
                    out.append(f"{_WS}({TYPE_PATTERN})")
                    actions.append(("type", el.name, el.kind))
                type_groups.append(el.name)
            elif cls is AttrDict:
                out.append(rf"(?!{_WS}attributes\b)" if el.with_keyword else rf"(?!{_WS}\{{)")
            elif cls is Custom:
                if el.name == "CudaTileType":
                    raise _Unsupported("CudaTileType")
                pat, n, handler = _directive_pattern(el.name)
                out.append(pat)
                actions.append(("custom", el, n, handler))
            elif cls is OptionalGroup:
                inner_start = len(actions)
                actions.append(("group", el))
                inner = seq([e for e in el.elements if e is not el.elided])
                out.append(f"(?:(){inner})?")
                if el.elided is not None:
                    actions[inner_start] = ("group_unit", el.elided.name)
            elif cls is OIList:
                words = {lit.text: var.name for lit, var in el.clauses}
                out.append(f"((?:{_WS}(?:{'|'.join(map(re.escape, words))}){_KW_END})*)")
                actions.append(("oilist", words))
            else:
                raise _Unsupported(cls.__name__)
        return "".join(out)

    try:
        body = seq(fmt.elements)
    except _Unsupported:
        return None
    regex = re.compile(body + _END)
    # capture index of each action
    operand_caps = []
    k = 0
    for act in actions:
        kind = act[0]
        if kind in ("operand", "operands"):
            operand_caps.append((k, act[1], kind == "operands"))
        k += act[2] if kind == "custom" else 1
    ff = FastFormat(regex, spec, operand_caps, None, actions)
    ff.plan_fn = lambda g, counts, ff=ff: _format_plan(ff, g, counts)
    return ff


def fast_format(spec: OpSpec) -> Optional[FastFormat]:
    ff = spec.__dict__.get("_fast", _FAILED)
    if ff is _FAILED:
        ff = None
        maker = _CUSTOM_FAST.get(spec.name)
        form = LINE_FORMS.get(spec.name)
        if maker is not None:
            ff = maker(spec)
        elif form is not None:
            ff = _from_line_form(spec, form)
        elif spec.cls.parse_custom is None and spec.format is not None:
            ff = compile_fast(spec, spec.format)
        spec.__dict__["_fast"] = ff
    return ff


# ---------------------------------------------------------------------------------------------
# Plans
# ---------------------------------------------------------------------------------------------

class _State(TypeState):
    __slots__ = ("types_extra",)


def _apply(ff: FastFormat, g: tuple, state: _State) -> bool:
    """Turn the non-operand captures into types and attributes in ``state``."""
    k = 0
    attrs = state.attrs
    for act in ff.actions:
        kind = act[0]
        if kind == "group" or kind == "group_unit":
            if kind == "group_unit" and g[k] is not None:
                attrs[act[1]] = UNIT
            k += 1
        elif kind == "operand" or kind == "operands":
            k += 1
        elif kind == "type" or kind == "types":
            s = g[k]
            k += 1
            if s is None:
                continue
            if kind == "type":
                t = _type(s)
                if t is None:
                    return False
                ts = [t]
            else:
                ts = [_type(x) for x in _TYPE_FINDER.findall(s)]
                if any(t is None for t in ts):
                    return False
            if act[2] == "operand":
                state.operand_types[act[1]] = ts
            else:
                state.result_types[act[1]] = ts
        elif kind == "attr":
            s = g[k]
            k += 1
            if s is not None:
                v = act[2](s)
                if v is None:
                    return False
                attrs[act[1]] = v
        elif kind == "custom":
            el, cnt, handler = act[1], act[2], act[3]
            caps = g[k:k + cnt]
            k += cnt
            if caps[0] is None and not _optional_custom(el):
                continue  # inside an absent optional group
            v = handler(state, caps)
            if v is None:
                return False
            attrs[el.args[0].name] = v
            if state.types_extra is not None and len(el.args) > 1:
                state.result_types[el.args[1].name] = [state.types_extra]
                state.types_extra = None
        elif kind == "oilist":
            s = g[k]
            k += 1
            if s:
                seen = set()
                for w in s.split():
                    if w in seen:
                        return False
                    seen.add(w)
                    attrs[act[1][w]] = UNIT
    return True


def _optional_custom(el) -> bool:
    return el.name.endswith("RoundingMode") or el.name == "SymbolVisibility"


def _format_plan(ff: FastFormat, g: tuple, counts: tuple) -> Optional[Plan]:
    spec = ff.spec
    state = _State(spec)
    state.types_extra = None
    if not _apply(ff, g, state):
        return None
    for o, c in zip(spec.operands, counts):
        if c:
            state.operands[o.name] = [None] * c
    infer_types(state)
    for o, c in zip(spec.operands, counts):
        if len(state.operands.get(o.name) or ()) != c:
            return None  # inference regrouped operands (e.g. a lone load padding value)
    return _plan_from_state(ff, state)


def _plan_from_state(ff: FastFormat, state: TypeState) -> Optional[Plan]:
    spec = ff.spec
    optypes: list = []
    for o in spec.operands:
        n = len(state.operands.get(o.name) or ())
        if not n:
            continue
        types = state.operand_types.get(o.name)
        if types is None:
            return None
        if len(types) == 1 and n > 1 and o.kind == VARIADIC:
            types = types * n
        if len(types) != n:
            return None
        optypes.extend(types)
    rtypes: list = []
    for r in spec.results:
        ts = state.result_types.get(r.name)
        if ts is None:
            if r.kind == SINGLE:
                return None
            ts = []
        rtypes.extend(ts)
    attrs = dict(state.attrs)
    for key, value in ff.defaults:
        attrs.setdefault(key, value)
    return Plan(tuple(optypes), tuple(rtypes), attrs)


# ---------------------------------------------------------------------------------------------
# Running it
# ---------------------------------------------------------------------------------------------

def _resolve_spec(parser: "Parser", raw: str) -> Optional[OpSpec]:
    spec = OP_REGISTRY.get(raw)
    if spec is None:
        dialect = parser.default_dialect[-1]
        if not dialect or "." in raw:
            return None
        spec = OP_REGISTRY.get(f"{dialect}.{raw}")
    return spec


_RESOLVED: dict = {}
#: the same, inside cuda_tile regions (the common case), keyed by the raw name alone
_RESOLVED_CT: dict = {}


def try_fast_op(parser: "Parser", pos: int, block: Block):
    """Parse the op starting at ``pos`` (whitespace allowed) on its line; return ``(op, end
    position)``, or None (nothing consumed, nothing changed) if the general parser must."""
    src = parser.src
    hm = _HEADER.match(src, pos)
    if hm is None:
        return None
    raw = hm.group(3)
    dialect = parser.default_dialect[-1]
    ff = _RESOLVED_CT.get(raw, _FAILED) if dialect == "cuda_tile" else _FAILED
    if ff is _FAILED:
        key = (dialect, raw)
        ff = _RESOLVED.get(key, _FAILED)
    if ff is _FAILED:
        if raw[0] == '"':
            ff = "generic"
        else:
            spec = _resolve_spec(parser, raw)
            ff = None
            if spec is not None:
                ff = _REGION_FAST.get(spec.name) or fast_format(spec)
        _RESOLVED[key] = ff
        if dialect == "cuda_tile":
            _RESOLVED_CT[raw] = ff
    if ff is None:
        return None
    if type(ff) is not FastFormat:
        if ff == "generic":
            return _try_generic(parser, hm, raw[1:-1], block)
        return ff(parser, src, hm, block)
    run = ff.run
    if run is None:
        run = ff.run = _generate(ff)
    if run is not False:
        return run(parser, src, hm, block)
    m = ff.regex.match(src, hm.end())
    if m is None:
        return None
    g = m.groups()
    spec = ff.spec
    if ff.simple:
        names = ff.names_get(g)
        counts = ff.simple_counts
        key = ff.keyget(g)
        plan = ff.cache.get(key, _FAILED)
        if plan is _FAILED:
            plan = _make_plan(ff, key, g, counts)
        if plan is None:
            return None
        operands = []
        for name, t in zip(names, plan.operand_types):
            v = _lookup(parser.scopes, name, t)
            if v is None:
                return None
            operands.append(v)
        return _finish(parser, hm, m, spec, operands, list(plan.result_types),
                       plan.attrs.copy(), None, ff.n_regions, block)
    uses: dict = {}
    for ci, gname, variadic in ff.operand_caps:
        s = g[ci]
        if s is not None:
            uses[gname] = _NAME_FINDER.findall(s) if variadic else (s,)
    counts = tuple([len(uses.get(o.name, ())) for o in spec.operands])
    key = (ff.keyget(g), counts)
    plan = ff.cache.get(key, _FAILED)
    if plan is _FAILED:
        plan = _make_plan(ff, key, g, counts)
    if plan is None:
        return None
    operands = []
    types = plan.operand_types
    ti = 0
    for o in spec.operands:
        for name in uses.get(o.name, ()):
            v = _lookup(parser.scopes, name, types[ti])
            if v is None:
                return None
            operands.append(v)
            ti += 1
    return _finish(parser, hm, m, spec, operands, list(plan.result_types), plan.attrs.copy(),
                   list(counts) if spec.attr_sized_operands else None, ff.n_regions, block)


def _make_plan(ff: FastFormat, key, g: tuple, counts: tuple):
    try:
        plan = ff.plan_fn(g, counts)
    except Exception:
        plan = None
    if len(ff.cache) < 50000:
        ff.cache[key] = plan
    return plan


def _finish(parser, hm, m, spec, operands, result_types, attrs, segments, n_regions, block):
    """Create the op, give it its location, bind its result names, append it to ``block``.
    (A redefinition raises a ParseError, which makes the parse start over in plain mode.)"""
    loc_text = m.group(m.re.groups)
    op = spec.cls(spec.name, operands, result_types, attrs, n_regions,
                  parser.loc_at(hm.start(3)), segments)
    if loc_text is not None:
        if loc_text == "unknown":
            op.loc = UNKNOWN_LOC
        else:
            alias = parser.attr_aliases.get(loc_text)
            if alias is None:
                parser.deferred_locs.append((op, loc_text, m.start(m.re.groups)))
            else:
                from ...ir.locations import Location
                if not isinstance(alias, Location):
                    op.drop_operand_uses()  # not a location: the general parser reports it
                    return None
                op.loc = alias
    names_text = hm.group(2)
    if names_text:
        _bind_names(parser, names_text, hm, op)
    block.append(op)
    return op, m.end()


class _Mismatch(Exception):
    """The result names do not fit the op: the plain parser reports it."""


# ---------------------------------------------------------------------------------------------
# Generated matchers for the common case (every operand group a single operand)
# ---------------------------------------------------------------------------------------------

from ...ir.core import Operation as _Operation, OpResult as _OpResult  # noqa: E402

#: the generated code fills an op's slots directly; it is used only while Operation has exactly
#: these slots (else ops are made through the constructor)
_OP_SLOTS = ("name", "operands", "results", "attributes", "regions", "parent", "loc",
             "segments", "successors", "properties", "__weakref__")
_DIRECT = tuple(_Operation.__slots__) == _OP_SLOTS


def _direct(cls) -> bool:
    """Whether ops of ``cls`` may be made by filling the slots: the class adds no construction
    step of its own, or only :class:`PopulatesDefaults`' (the plans carry the defaults)."""
    from ..arith.traits import PopulatesDefaults
    init = cls.__init__
    return _DIRECT and (init is _Operation.__init__ or init is PopulatesDefaults.__init__)


def _bind_names(parser, names_text: str, hm, op) -> None:
    """Define the result names of the op header ``hm`` (``%a``, ``%a, %b`` or ``%a:2``) in the
    innermost scope; names that do not fit the op's results raise :class:`_Mismatch`."""
    results = op.results
    scope = parser.scopes[-1]
    if "," in names_text or ":" in names_text:
        pos = 0
        for nm in _RESULT_NAME.finditer(names_text):
            count = int(nm.group(2)) if nm.group(2) else 1
            if count <= 0 or pos + count > len(results):
                raise _Mismatch()
            parser._define(scope, nm.group(1), results[pos:pos + count],
                           hm.start(2) + nm.start(1))
            pos += count
        if pos != len(results):
            raise _Mismatch()
    else:
        if len(results) != 1:
            raise _Mismatch()
        parser._define(scope, names_text, results, hm.start(2))


def _lookup(scopes, name: str, expected: Type):
    """The value ``name`` (``%x`` or ``%x#k``) visible in ``scopes`` if its type is
    ``expected``, else None (the general parser then reports what is wrong)."""
    if "#" in name:
        base, _, idx = name.partition("#")
        k = int(idx)
    else:
        base, k = name, 0
    i = len(scopes) - 1
    while i >= 0:
        scope = scopes[i]
        group = scope.names.get(base)
        if group is not None:
            if k >= len(group):
                return None
            v = group[k]
            return v if v.type is expected else None
        if scope.isolated:
            return None
        i -= 1
    return None


def _late_loc(parser, op, loc_text: str, m) -> bool:
    if loc_text == "unknown":
        op.loc = UNKNOWN_LOC
        return True
    alias = parser.attr_aliases.get(loc_text)
    if alias is None:
        parser.deferred_locs.append((op, loc_text, m.start(m.re.groups)))
        return True
    from ...ir.locations import Location
    if not isinstance(alias, Location):
        raise _Mismatch()
    op.loc = alias
    return True


def _generate(ff: FastFormat):
    """Python source specialised to ``ff`` (for simple formats), compiled once."""
    if not ff.simple:
        return False
    spec = ff.spec
    n_groups = ff.regex.groups
    others = [i for i in range(n_groups) if i not in {c[0] for c in ff.operand_caps}]
    if len(others) == 0:
        key = "()"
    else:
        key = "(" + "".join(f"g[{i}], " for i in others) + ")"
    ops = [c[0] for c in ff.operand_caps]
    n_res = len(spec.results)
    lines = [
        "def run(parser, src, hm, block):",
        "    m = _match(src, hm.end())",
        "    if m is None:",
        "        return None",
        "    g = m.groups()",
        f"    key = {key}",
        "    plan = _cache_get(key, _FAILED)",
        "    if plan is _FAILED:",
        "        plan = _make_plan(_ff, key, g, _counts)",
        "    if plan is None:",
        "        return None",
        "    ot = plan.operand_types",
        "    scopes = parser.scopes",
    ]
    if ops:
        lines.append("    top = scopes[-1]")
    for j, ci in enumerate(ops):
        # the innermost scope first (the usual place), the general lookup otherwise
        lines += [f"    n{j} = g[{ci}]",
                  f"    grp = top.names.get(n{j})",
                  f"    if grp is not None and len(grp) == 1 and grp[0].type is ot[{j}]:",
                  f"        v{j} = grp[0]",
                  "    else:",
                  f"        v{j} = _lookup(scopes, n{j}, ot[{j}])",
                  f"        if v{j} is None:",
                  "            return None"]
    vals = ", ".join(f"v{j}" for j in range(len(ops)))
    lines.append("    off = hm.start(3)")
    lines.append("    starts = parser._line_starts")
    lines.append("    li = _bisect(starts, off) - 1")
    lines.append("    loc = _Loc(parser._file, li + parser._line_offset, "
                 "off - starts[li] + (1 if li else parser._col_base))")
    if _direct(spec.cls):
        lines += [
            "    op = _new(_cls)",
            "    op.name = _name",
            f"    op.operands = [{vals}]",
        ]
        for j in range(len(ops)):
            lines.append(f"    v{j}.uses.append((op, {j}))")
        lines += [
            "    rt = plan.result_types",
            f"    op.results = [{', '.join(f'_Res(rt[{r}], op, {r})' for r in range(n_res))}]"
            if n_res else "    op.results = []",
            "    op.attributes = plan.attrs.copy()",
            "    op.regions = []",
            "    op.parent = None",
            "    op.loc = loc",
            "    op.segments = None",
            "    op.successors = []",
            "    op.properties = None",
        ]
    else:
        lines.append(f"    op = _cls(_name, [{vals}], list(plan.result_types), plan.attrs.copy(), "
                     "0, loc, None)")
    lines += [
        f"    lt = g[{n_groups - 1}]",
        "    if lt is not None:",
        "        _late_loc(parser, op, lt, m)",
        "    nt = hm.group(2)",
        "    if nt:",
        "        if len(op.results) == 1 and ',' not in nt and ':' not in nt:",
        "            parser._define(scopes[-1], nt, op.results, hm.start(2))",
        "        else:",
        "            _bind(parser, nt, hm, op)",
        "    block.append(op)",
        "    return op, m.end()",
    ]
    from bisect import bisect_right
    from ...ir.locations import FileLineColLoc
    env = {"_match": ff.regex.match, "_cache_get": ff.cache.get, "_FAILED": _FAILED,
           "_make_plan": _make_plan, "_ff": ff, "_counts": ff.simple_counts,
           "_lookup": _lookup, "_new": object.__new__, "_cls": spec.cls,
           "_name": spec.name, "_Res": _OpResult, "_late_loc": _late_loc,
           "_bind": _bind_names, "_bisect": bisect_right, "_Loc": FileLineColLoc}
    if spec.regions:
        return False
    exec(compile("\n".join(lines) + "\n", f"<fast {spec.name}>", "exec"), env)
    return env["run"]


# ---------------------------------------------------------------------------------------------
# Region ops: for, if, reduce, scan (header lines by regex, bodies by the parser)
# ---------------------------------------------------------------------------------------------

_PAIRS = re.compile(rf"{_WS}({_NAME}){_WS}={_WS}({_NAME}){_WS}(?:,|$)")
_ARGS = re.compile(rf"{_WS}({_NAME}){_WS}:{_WS}({TYPE_PATTERN}){_WS}(?:,|$)")
_OPEN = rf"{_WS}(\{{){_WS}(?=\n|$)"
_FOR = re.compile(
    rf"{_WS}(unsigned{_KW_END})?{_WS}({_NAME}){_WS}in{_WS}\({_WS}({_NAME}){_WS}to{_WS}"
    rf"({_NAME}){_WS},{_WS}step{_WS}({_NAME}){_WS}\){_WS}:{_WS}({TYPE_PATTERN})"
    rf"(?:{_WS}iter_values{_WS}\(([^()\n]*)\){_WS}->{_WS}\(({_TYPE_LIST}){_WS}\))?" + _OPEN)
_IF = re.compile(rf"{_WS}({_NAME})(?:{_WS}->{_WS}\({_WS}({_TYPE_LIST}){_WS}\))?" + _OPEN)
_AGG = re.compile(
    rf"{_WS}({_NAME_LIST}){_WS}dim{_WS}={_WS}(-?[0-9]+)(?:{_WS}reverse{_WS}={_WS}(true|false))?"
    rf"{_WS}identities{_WS}={_WS}(\[[^\n]*?\]){_WS}:{_WS}({_TYPE_LIST}){_WS}->{_WS}"
    rf"({_TYPE_LIST})[ \t]*\n{_WS}\(([^()\n]*)\)" + _OPEN)


def _pairs(regex, text: str) -> Optional[list]:
    """``a = b, c = d`` / ``%x: T, %y: T`` split by ``regex`` (None if it does not fit)."""
    out = []
    pos = 0
    text = text.rstrip()
    if not text.strip():
        return out
    while pos < len(text):
        m = regex.match(text, pos)
        if m is None or m.end() == pos:
            return None
        out.append((m.group(1), m.group(2), m.start(1)))
        pos = m.end()
    return out


def _enter_region(parser, brace_pos: int) -> None:
    parser._reset_at(brace_pos)
    parser._refill()


def _after_region_op(parser, hm, op, block):
    if parser.toks[parser.i] == "loc":
        parser.parse_trailing_location(op)
    nt = hm.group(2)
    if nt:
        _bind_names(parser, nt, hm, op)
    block.append(op)
    return op, None


def _fast_for(parser, src, hm, block):
    from ...text.format import OpState
    from .ops.control_flow import _control_flow_region
    m = _FOR.match(src, hm.end())
    if m is None:
        return None
    iv_type = _type(m.group(6))
    if iv_type is None:
        return None
    inner: list = []
    types: list = []
    if m.group(7) is not None:
        pairs = _pairs(_PAIRS, m.group(7))
        types = [_type(t) for t in _TYPE_FINDER.findall(m.group(8))]
        if pairs is None or None in types or len(pairs) != len(types) or not pairs:
            return None
        base = m.start(7)
        inner = [(a, base + off) for a, _, off in pairs]
        outer = [(b, base + off) for _, b, off in pairs]
    else:
        outer = []
    spec = OP_REGISTRY["cuda_tile.for"]
    state = OpState(parser, spec, hm.start(3))
    if m.group(1):
        state.attrs["unsignedCmp"] = UNIT
    _enter_region(parser, m.start(9))
    entry = [(m.group(2), iv_type, m.start(2), None)] + [
        (n, t, off, None) for (n, off), t in zip(inner, types)]
    state.regions["region"] = _control_flow_region(parser, state, entry, "cuda_tile.continue")
    if parser.toks[parser.i] == "{":
        state.attrs.update(parser.parse_attr_dict_body())
    state.operands.update(lowerBound=[(m.group(3), m.start(3))],
                          upperBound=[(m.group(4), m.start(4))],
                          step=[(m.group(5), m.start(5))], initValues=outer)
    state.operand_types.update(lowerBound=[iv_type], upperBound=[iv_type], step=[iv_type],
                               initValues=list(types))
    state.result_types["resultValues"] = list(types)
    return _after_region_op(parser, hm, state.build(), block)


def _fast_if(parser, src, hm, block):
    from ...text.format import OpState, _merge_attr_dict
    from .directives import ensure_terminator
    from ...ir.core import Region
    m = _IF.match(src, hm.end())
    if m is None:
        return None
    types = []
    if m.group(2) is not None:
        types = [_type(t) for t in _TYPE_FINDER.findall(m.group(2))]
        if None in types:
            return None
    spec = OP_REGISTRY["cuda_tile.if"]
    state = OpState(parser, spec, hm.start(3))
    state.operands["condition"] = [(m.group(1), m.start(1))]
    if m.group(2) is not None:
        state.result_types["results"] = types
    loc = parser.loc_at(hm.start(3))
    _enter_region(parser, m.start(3))
    for name in ("thenRegion", "elseRegion"):
        if name == "elseRegion":
            if parser.toks[parser.i] != "else":
                break
            parser.i += 1
        region = Region()
        parser.parse_region_into(region, None, isolated=False, dialect="cuda_tile")
        ensure_terminator(region, "cuda_tile.yield", loc)
        state.regions[name] = region
    if parser.toks[parser.i] == "{":
        _merge_attr_dict(parser, state)
    return _after_region_op(parser, hm, state.build(), block)


def _fast_aggregate(name: str):
    def run(parser, src, hm, block):
        from ...text.format import OpState
        from ...ir.core import Region
        m = _AGG.match(src, hm.end())
        if m is None or (m.group(3) is not None) != (name == "cuda_tile.scan"):
            return None
        uses = [(u, m.start(1)) for u in _NAME_FINDER.findall(m.group(1))]
        in_types = [_type(t) for t in _TYPE_FINDER.findall(m.group(5))]
        out_types = [_type(t) for t in _TYPE_FINDER.findall(m.group(6))]
        args = _pairs(_ARGS, m.group(7))
        ids = _cached("attr", m.group(4), _parse_attr_text)
        if None in in_types or None in out_types or args is None or ids is None:
            return None
        arg_types = [_type(t) for _, t, _ in args]
        if None in arg_types or len(in_types) != len(uses):
            return None
        dim = signless_value(int(m.group(2)), 32)
        if dim is None:
            return None      # out of range for i32: the full parser reports it
        spec = OP_REGISTRY[name]
        state = OpState(parser, spec, hm.start(3))
        state.operands["operands"] = uses
        state.operand_types["operands"] = in_types
        state.result_types["results"] = out_types
        state.attrs["dim"] = IntegerAttr(dim, I32)
        if name == "cuda_tile.scan":
            from .types import I1
            state.attrs["reverse"] = IntegerAttr(1 if m.group(3) == "true" else 0, I1)
        state.attrs["identities"] = ids
        _enter_region(parser, m.start(8))
        region = Region()
        base = m.start(7)
        parser.parse_region_into(region, None, isolated=False, dialect="cuda_tile",
                                 entry_args=[(a, t, base + off, None)
                                             for (a, _, off), t in zip(args, arg_types)] or None)
        state.regions["body"] = region
        return _after_region_op(parser, hm, state.build(), block)
    return run


_REGION_FAST = {
    "cuda_tile.for": _fast_for,
    "cuda_tile.if": _fast_if,
    "cuda_tile.reduce": _fast_aggregate("cuda_tile.reduce"),
    "cuda_tile.scan": _fast_aggregate("cuda_tile.scan"),
}


# ---------------------------------------------------------------------------------------------
# Ops with a hand-written syntax (views)
# ---------------------------------------------------------------------------------------------

_ORDER = f"({'|'.join(MemoryOrderingSemantics.keywords())})" + _KW_END
_SCOPE = rf"(?:{_WS}({'|'.join(MemoryScope.keywords())}){_KW_END})?"
_OPTIONALS = (rf"(?:{_WS}token{_WS}={_WS}({_NAME}))?"
              rf"(?:{_WS}optimization_hints{_WS}={_WS}(<[^<>\n]*>))?"
              rf"(?:{_WS}inbounds{_WS}={_WS}\[([^\]\n]*)\])?"
              rf"(?!{_WS}attributes{_KW_END})")
_IDX_TYPES = rf"((?:{_WS},{_WS}{TYPE_PATTERN})*)"


def _memory_attrs(order: str, scope: Optional[str], hints: Optional[str],
                  inbounds: Optional[str]) -> Optional[dict]:
    attrs: dict = {"memory_ordering_semantics": MemoryOrderingSemantics.from_keyword(order)}
    if scope is not None:
        if order == "weak":
            return None
        attrs["memory_scope"] = MemoryScope.from_keyword(scope)
    if hints is not None:
        def parse_hints(text):
            from ...text.parser import Parser
            from .syntax import parse_optimization_hints_body
            return parse_optimization_hints_body(Parser(text, fast=False))
        h = _cached("hints", hints, parse_hints)
        if h is None:
            return None
        attrs["optimization_hints"] = h
    if inbounds is not None:
        flags = [w.strip() for w in inbounds.split(",")] if inbounds.strip() else []
        if any(f not in ("true", "false") for f in flags):
            return None
        attrs["inbounds"] = DenseArrayAttr("i1", tuple(f == "true" for f in flags))
    return attrs


def _index_types(text: str, count: int) -> Optional[list]:
    types = [_type(x) for x in _TYPE_FINDER.findall(text)] if text else []
    if any(t is None for t in types):
        return None
    if count and not types:
        return None
    if len(types) == 1:
        return types * count
    if types and len(types) != count:
        return None
    return types


def _fast_load_view(spec: OpSpec) -> FastFormat:
    regex = re.compile(
        rf"{_WS}{_ORDER}{_SCOPE}{_WS}({_NAME}){_WS}\[{_WS}({_NAME_LIST}?){_WS}\]{_OPTIONALS}"
        rf"{_WS}:{_WS}({TYPE_PATTERN}){_IDX_TYPES}{_WS}->{_WS}({TYPE_PATTERN}){_WS},{_WS}"
        rf"({TYPE_PATTERN})" + _END)
    ff = FastFormat(regex, spec, [(2, "view", False), (3, "index", True), (4, "token", False)],
                    None)

    def plan(g, counts):
        attrs = _memory_attrs(g[0], g[1], g[5], g[6])
        view_t, tile_t, tok_t = _type(g[7]), _type(g[9]), _type(g[10])
        idx = _index_types(g[8], counts[1])
        if attrs is None or idx is None or None in (view_t, tile_t, tok_t):
            return None
        optypes = (view_t, *idx) + ((TOKEN,) if counts[2] else ())
        return Plan(optypes, (tile_t, tok_t), attrs)
    ff.plan_fn = plan
    return ff


def _fast_store_view(spec: OpSpec) -> FastFormat:
    regex = re.compile(
        rf"{_WS}{_ORDER}{_SCOPE}{_WS}({_NAME}){_WS},{_WS}({_NAME}){_WS}\[{_WS}({_NAME_LIST}?)"
        rf"{_WS}\]{_OPTIONALS}{_WS}:{_WS}({TYPE_PATTERN}){_WS},{_WS}({TYPE_PATTERN}){_IDX_TYPES}"
        rf"{_WS}->{_WS}({TYPE_PATTERN})" + _END)
    ff = FastFormat(regex, spec, [(2, "tile", False), (3, "view", False), (4, "index", True),
                                  (5, "token", False)], None)

    def plan(g, counts):
        attrs = _memory_attrs(g[0], g[1], g[6], g[7])
        tile_t, view_t, tok_t = _type(g[8]), _type(g[9]), _type(g[11])
        idx = _index_types(g[10], counts[2])
        if attrs is None or idx is None or None in (view_t, tile_t, tok_t):
            return None
        optypes = (tile_t, view_t, *idx) + ((TOKEN,) if counts[3] else ())
        return Plan(optypes, (tok_t,), attrs)
    ff.plan_fn = plan
    return ff


def _fast_make_view(type_cls_name: str):
    def make(spec: OpSpec) -> FastFormat:
        from . import types as T
        cls = getattr(T, type_cls_name)
        regex = re.compile(rf"{_WS}({_NAME})(?!{_WS}\{{){_WS}:{_WS}({TYPE_PATTERN})" + _END)
        ff = FastFormat(regex, spec, [(0, "tensor_view", False)], None)

        def plan(g, counts):
            t = _type(g[1])
            if not isinstance(t, cls):
                return None
            return Plan((t.tensor_view,), (t,), {})
        ff.plan_fn = plan
        return ff
    return make


def _from_line_form(spec: OpSpec, form: LineForm) -> FastFormat:
    """The fast matcher of a dialect's :class:`~tileir.text.lineforms.LineForm`."""
    ff = FastFormat(re.compile(form.pattern + _END), spec, list(form.operands), None)
    defaults = ff.defaults

    def plan(g, counts):
        got = form.plan(g, counts, _type)
        if got is None:
            return None
        operand_types, result_types, attrs = got
        for key, value in defaults:
            attrs.setdefault(key, value)
        return Plan(tuple(operand_types), tuple(result_types), attrs)
    ff.plan_fn = plan
    return ff


_CUSTOM_FAST = {
    "cuda_tile.load_view_tko": _fast_load_view,
    "cuda_tile.store_view_tko": _fast_store_view,
    "cuda_tile.make_partition_view": _fast_make_view("PartitionViewType"),
    "cuda_tile.make_strided_view": _fast_make_view("StridedViewType"),
    "cuda_tile.make_gather_scatter_view": _fast_make_view("GatherScatterViewType"),
}


# ---------------------------------------------------------------------------------------------
# The generic form without regions
# ---------------------------------------------------------------------------------------------

_GENERIC = re.compile(
    rf"{_WS}\({_WS}({_NAME_LIST}?){_WS}\)"
    rf"(?:{_WS}<(\{{[^\n]*?\}})>)?"
    rf"(?:{_WS}(\{{[^\n]*?\}}))?"
    rf"{_WS}:{_WS}(\([^\n]*?\){_WS}->{_WS}(?:\([^\n]*\)|{TYPE_PATTERN}))" + _END)


def _dict_text(text: str):
    from ...text.parser import Parser
    from ...text.lexer import EOF
    p = Parser(text, fast=False)
    d = p.parse_attr_dict_body()
    return d if p.tok == EOF else None


def _function_type(text: str):
    t = _type(text)
    return t if isinstance(t, FunctionType) else None


def _try_generic(parser, hm, name, block):
    from ...text.parser import OP_NAME_ALIASES, normalize_attributes
    name = OP_NAME_ALIASES.get(name, name)
    spec = OP_REGISTRY.get(name)
    if spec is None or spec.regions:
        return None
    m = _GENERIC.match(parser.src, hm.end())
    if m is None:
        return None
    ftype = _cached("ftype", m.group(4), _function_type)
    if ftype is None:
        return None
    uses = _NAME_FINDER.findall(m.group(1)) if m.group(1) else []
    if len(uses) != len(ftype.inputs):
        return None
    attrs = {}
    segments = None
    for gi in (2, 3):
        text = m.group(gi)
        if text is None:
            continue
        d = _cached("dict", text, _dict_text)
        if d is None:
            return None
        d = dict(d)
        if gi == 3 and ("operandSegmentSizes" in d or any(k in spec.attr_by_name for k in d)):
            return None            # (the op's own names in the dictionary: the full parser's rules)
        if gi == 2:
            seg = d.pop("operandSegmentSizes", None)
            if seg is not None and spec.attr_sized_operands:
                if not isinstance(seg, DenseArrayAttr) or seg.element != "i32" or \
                        len(seg.value) != len(spec.operands):
                    return None    # the full parser reports it
                segments = seg.value
            by_name = spec.attr_by_name
            for k, v in d.items():
                decl = by_name.get(k)
                if decl is None:
                    return None    # a dropped key: the full parser's rules
                if property_conversion_fails(decl, v) and (
                        decl.enum is None or not isinstance(v, IntegerAttr)
                        or property_conversion_fails(
                            decl, normalize_attributes(spec, {k: v}, defaults=False)[k])):
                    return None    # a conversion error: the full parser reports it
        for k in d:
            if k in attrs:
                return None
        attrs.update(d)
    if spec.attr_sized_operands and segments is None:
        return None
    attrs = normalize_attributes(spec, attrs)
    operands = []
    for u, t in zip(uses, ftype.inputs):
        v = _lookup(parser.scopes, u, t)
        if v is None:
            return None
        operands.append(v)
    return _finish(parser, hm, m, spec, operands, list(ftype.results), attrs,
                   list(segments) if segments is not None else None, 0, block)
