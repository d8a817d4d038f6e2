"""Affine expressions, maps and integer sets (MLIR's ``AffineExpr``/``AffineMap``/``IntegerSet``)
with their attributes ``affine_map<...>`` and ``affine_set<...>``.

Expressions are simplified while they are built, by MLIR 22's rules (``simplifyAdd``,
``simplifyMul``, ``simplifyFloorDiv``...), so that a parsed map prints as ``mlir-opt`` prints it:
constants folded and moved right of ``+`` and ``*``, a symbolic term right of a dimensional one,
``d1 + d0``/``s1 * s0`` ordered, ``x * c1 + x * c2`` merged, ``x - (x floordiv c) * c`` turned
into ``x mod c``, divisions of multiples folded (``floordiv``/``ceildiv`` by any nonzero
constant, ``mod`` by a positive one).  Printing follows MLIR's conventions: ``x + y * -1`` is
``x - y``, ``x * -1`` is ``-x``, a negative constant term is subtracted, and operands of
``*``/``floordiv``/``ceildiv``/``mod`` that are themselves binary expressions are parenthesised.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional, Sequence, Union

from ...ir.attributes import Attribute

if TYPE_CHECKING:  # pragma: no cover
    from ...text.parser import Parser

__all__ = ["AffineExpr", "AffineDim", "AffineSymbol", "AffineConst", "AffineBinary", "AffineMap",
           "IntegerSet", "AffineMapAttr", "IntegerSetAttr", "parse_affine_map_body",
           "parse_integer_set_body", "affine_add", "affine_mul", "affine_floordiv",
           "affine_ceildiv", "affine_mod"]


class AffineExpr:
    """Base of affine expressions (immutable, structurally equal)."""

    __slots__ = ()

    def is_symbolic_or_constant(self) -> bool:
        """True when no dimension occurs in the expression."""
        raise NotImplementedError

    def text(self, strong: bool = False) -> str:
        """MLIR's spelling; ``strong``: the context binds tighter than ``+``."""
        raise NotImplementedError

    def __str__(self) -> str:
        return self.text()

    def evaluate(self, dims: Sequence[int], symbols: Sequence[int] = ()) -> int:
        """The value for the given dimension and symbol values."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class AffineDim(AffineExpr):
    """Dimension ``d<position>``."""

    position: int

    def is_symbolic_or_constant(self) -> bool:
        return False

    def text(self, strong: bool = False) -> str:
        return f"d{self.position}"

    def evaluate(self, dims, symbols=()):
        return dims[self.position]


@dataclass(frozen=True, slots=True)
class AffineSymbol(AffineExpr):
    """Symbol ``s<position>``."""

    position: int

    def is_symbolic_or_constant(self) -> bool:
        return True

    def text(self, strong: bool = False) -> str:
        return f"s{self.position}"

    def evaluate(self, dims, symbols=()):
        return symbols[self.position]


@dataclass(frozen=True, slots=True)
class AffineConst(AffineExpr):
    """An integer constant."""

    value: int

    def is_symbolic_or_constant(self) -> bool:
        return True

    def text(self, strong: bool = False) -> str:
        return str(self.value)

    def evaluate(self, dims, symbols=()):
        return self.value


_SPELLING = {"add": " + ", "mul": " * ", "floordiv": " floordiv ", "ceildiv": " ceildiv ",
             "mod": " mod "}


@dataclass(frozen=True, slots=True)
class AffineBinary(AffineExpr):
    """``lhs <kind> rhs`` with kind one of add, mul, floordiv, ceildiv, mod."""

    kind: str
    lhs: AffineExpr
    rhs: AffineExpr

    def is_symbolic_or_constant(self) -> bool:
        return self.lhs.is_symbolic_or_constant() and self.rhs.is_symbolic_or_constant()

    def text(self, strong: bool = False) -> str:
        lhs, rhs = self.lhs, self.rhs
        if self.kind != "add":
            if self.kind == "mul" and rhs == AffineConst(-1):
                body = "-" + lhs.text(True)
            else:
                body = lhs.text(True) + _SPELLING[self.kind] + rhs.text(True)
            return f"({body})" if strong else body
        body = None
        if isinstance(rhs, AffineBinary) and rhs.kind == "mul" and isinstance(rhs.rhs, AffineConst):
            factor = rhs.rhs.value
            if factor == -1:
                inner = rhs.lhs
                body = lhs.text() + " - " + inner.text(isinstance(inner, AffineBinary)
                                                       and inner.kind == "add")
            elif factor < -1:
                body = lhs.text() + " - " + rhs.lhs.text(True) + f" * {-factor}"
        if body is None and isinstance(rhs, AffineConst) and rhs.value < 0:
            body = lhs.text() + f" - {-rhs.value}"
        if body is None:
            body = lhs.text() + " + " + rhs.text()
        return f"({body})" if strong else body

    def evaluate(self, dims, symbols=()):
        a = self.lhs.evaluate(dims, symbols)
        b = self.rhs.evaluate(dims, symbols)
        if self.kind == "add":
            return a + b
        if self.kind == "mul":
            return a * b
        if self.kind == "floordiv":
            return a // b
        if self.kind == "ceildiv":
            return -((-a) // b)
        return a % b


def _const(e: AffineExpr) -> Optional[int]:
    return e.value if isinstance(e, AffineConst) else None


def _is(e: AffineExpr, kind: str) -> bool:
    return isinstance(e, AffineBinary) and e.kind == kind


def _c_rem(a: int, b: int) -> int:
    """C's ``a % b`` (the sign of ``a``)."""
    return a - b * _c_div(a, b)


def _c_div(a: int, b: int) -> int:
    """C's ``a / b`` (rounded toward zero)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _gcd64(a: int, b: int) -> int:
    """``std::gcd`` of the two values taken as unsigned 64-bit, read back as signed."""
    import math
    mask = (1 << 64) - 1
    g = math.gcd(a & mask, b & mask)
    return g - (1 << 64) if g >= 1 << 63 else g


def largest_known_divisor(e: AffineExpr) -> int:
    """MLIR's ``getLargestKnownDivisor``: a value every value of ``e`` is a multiple of."""
    if isinstance(e, AffineConst):
        return abs(e.value)
    if not isinstance(e, AffineBinary):
        return 1
    if e.kind in ("floordiv", "ceildiv"):
        d = _const(e.rhs)
        if d:
            inner = largest_known_divisor(e.lhs)
            if _c_rem(inner, d) == 0:
                return _c_div(inner, d)
        return 1
    if e.kind == "mul":
        return largest_known_divisor(e.lhs) * largest_known_divisor(e.rhs)
    return _gcd64(largest_known_divisor(e.lhs), largest_known_divisor(e.rhs))


def _ordered(lhs: AffineExpr, rhs: AffineExpr) -> bool:
    """False for two dimensions (or two symbols) in decreasing position, which MLIR swaps in
    a sum or product (``d1 + d0`` is ``d0 + d1``)."""
    return not (type(lhs) is type(rhs) and isinstance(lhs, (AffineDim, AffineSymbol))
                and lhs.position > rhs.position)


def affine_add(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """``lhs + rhs``, simplified as MLIR 22's ``AffineExpr::operator+`` simplifies it."""
    return _simplify_add(lhs, rhs) or AffineBinary("add", lhs, rhs)


def _simplify_add(lhs: AffineExpr, rhs: AffineExpr) -> Optional[AffineExpr]:
    """The simplified sum, or None where MLIR keeps ``lhs + rhs`` as it is."""
    a, b = _const(lhs), _const(rhs)
    if a is not None and b is not None:
        return AffineConst(a + b)
    # a constant, or else a symbolic term next to a dimensional one, goes to the right
    if a is not None or (lhs.is_symbolic_or_constant() and not rhs.is_symbolic_or_constant()):
        return affine_add(rhs, lhs)
    if not _ordered(lhs, rhs):
        return affine_add(rhs, lhs)
    if b == 0:
        return lhs
    inner_c = _const(lhs.rhs) if _is(lhs, "add") else None
    if inner_c is not None and b is not None:        # (x + c1) + c2  ->  x + (c1 + c2)
        return affine_add(lhs.lhs, AffineConst(inner_c + b))
    lbase, lfactor = _scaled(lhs)                    # x * c1 + x * c2  ->  x * (c1 + c2)
    rbase, rfactor = _scaled(rhs)
    if lbase == rbase:
        return affine_mul(lbase, AffineConst(lfactor + rfactor))
    if inner_c is not None:                          # (x + c) + y  ->  (x + y) + c
        return affine_add(affine_add(lhs.lhs, rhs), lhs.rhs)
    if not _is(rhs, "mul"):
        return None
    # x - (x floordiv q) * q  ->  x mod q
    scaled, factor = rhs.lhs, rhs.rhs
    if _const(factor) == -1 and _is(scaled, "mul"):
        # x + ((x floordiv q) * q) * -1, q symbolic
        quotient, q = scaled.lhs, scaled.rhs
        if not _is(quotient, "floordiv"):
            return None
        if quotient.rhs == q and quotient.lhs == lhs:
            return affine_mod(lhs, q)
    if not _is(scaled, "floordiv"):
        return None
    q = _const(scaled.rhs)
    if scaled.lhs == lhs and q is not None and q > 0 and _const(factor) == -q:
        return affine_mod(lhs, scaled.rhs)           # x + (x floordiv c) * -c
    if _is(lhs, "add"):
        # (y + z) + (x floordiv q) * k  ->  y + (z + (x floordiv q) * k) where that inner sum
        # simplifies (MLIR 22: so that (y + x) + (x floordiv c) * -c is y + x mod c)
        inner = _simplify_add(lhs.rhs, rhs)
        if inner is not None:
            return affine_add(lhs.lhs, inner)
    return None


def _scaled(e: AffineExpr) -> tuple[AffineExpr, int]:
    """``(x, c)`` for ``x * c`` (constant c), else ``(e, 1)``."""
    if _is(e, "mul"):
        c = _const(e.rhs)
        if c is not None:
            return e.lhs, c
    return e, 1


def affine_mul(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """``lhs * rhs``, simplified (one side must be symbolic or constant)."""
    a, b = _const(lhs), _const(rhs)
    if a is not None and b is not None:
        return AffineConst(a * b)
    if a is not None or not rhs.is_symbolic_or_constant() or not _ordered(lhs, rhs):
        return affine_mul(rhs, lhs)
    if b == 1:
        return lhs
    if b == 0:
        return rhs
    if _is(lhs, "mul"):
        c = _const(lhs.rhs)
        if c is not None:
            if b is not None:                        # (x * c1) * c2  ->  x * (c1 * c2)
                return affine_mul(lhs.lhs, AffineConst(c * b))
            return affine_mul(affine_mul(lhs.lhs, rhs), lhs.rhs)   # (x * c) * y -> (x * y) * c
    return AffineBinary("mul", lhs, rhs)


def _div_like(kind: str, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """``floordiv``/``ceildiv``/``mod`` simplified as MLIR 22 does; nothing is simplified
    unless the divisor is a nonzero constant (for ``mod``, a positive one)."""
    a, d = _const(lhs), _const(rhs)
    if d is None or d == 0 or (kind == "mod" and d < 0):
        return AffineBinary(kind, lhs, rhs)
    if a is not None:
        if kind == "floordiv":
            return AffineConst(a // d)
        if kind == "ceildiv":
            return AffineConst(-((-a) // d))
        return AffineConst(a % d)
    if kind == "mod":
        if largest_known_divisor(lhs) % d == 0:
            return AffineConst(0)
        if _is(lhs, "add"):
            if largest_known_divisor(lhs.lhs) % d == 0:
                return affine_mod(lhs.rhs, rhs)
            if largest_known_divisor(lhs.rhs) % d == 0:
                return affine_mod(lhs.lhs, rhs)
        if _is(lhs, "mod"):
            inner = _const(lhs.rhs)
            if inner is not None and inner >= 1 and inner % d == 0:
                return affine_mod(lhs.lhs, rhs)
        return AffineBinary(kind, lhs, rhs)
    if d == 1:
        return lhs
    if _is(lhs, "mul"):
        c = _const(lhs.rhs)
        if c is not None and c % d == 0:
            return affine_mul(lhs.lhs, AffineConst(_c_div(c, d)))
    if kind == "floordiv" and _is(lhs, "add") and (
            _c_rem(largest_known_divisor(lhs.lhs), d) == 0
            or _c_rem(largest_known_divisor(lhs.rhs), d) == 0):
        return affine_add(affine_floordiv(lhs.lhs, rhs), affine_floordiv(lhs.rhs, rhs))
    return AffineBinary(kind, lhs, rhs)


def affine_floordiv(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """``lhs floordiv rhs``, simplified."""
    return _div_like("floordiv", lhs, rhs)


def affine_ceildiv(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """``lhs ceildiv rhs``, simplified."""
    return _div_like("ceildiv", lhs, rhs)


def affine_mod(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """``lhs mod rhs``, simplified."""
    return _div_like("mod", lhs, rhs)


def _neg(e: AffineExpr) -> AffineExpr:
    return affine_mul(e, AffineConst(-1))


def _dims_text(n_dims: int, n_symbols: int) -> str:
    text = "(" + ", ".join(f"d{i}" for i in range(n_dims)) + ")"
    if n_symbols:
        text += "[" + ", ".join(f"s{i}" for i in range(n_symbols)) + "]"
    return text


@dataclass(frozen=True, slots=True)
class AffineMap:
    """``(d0, ...)[s0, ...] -> (results)``."""

    n_dims: int
    n_symbols: int
    results: tuple

    def __str__(self) -> str:
        return (_dims_text(self.n_dims, self.n_symbols) + " -> ("
                + ", ".join(r.text() for r in self.results) + ")")

    @property
    def is_identity(self) -> bool:
        """``(d0, ..., dn) -> (d0, ..., dn)`` without symbols."""
        return (self.n_symbols == 0 and len(self.results) == self.n_dims
                and all(r == AffineDim(i) for i, r in enumerate(self.results)))

    def evaluate(self, dims: Sequence[int], symbols: Sequence[int] = ()) -> tuple[int, ...]:
        """The results for the given dimension and symbol values."""
        return tuple(r.evaluate(dims, symbols) for r in self.results)


def strides_of_map(m: AffineMap) -> Optional[tuple[tuple, Optional[int]]]:
    """MLIR's getStridesAndOffset for an affine layout: ``(strides, offset)`` of a one-result
    map that is a sum of dimensions times constants or symbols plus a constant or symbolic
    offset (``None``: dynamic), or None when the map is not strided."""
    if len(m.results) != 1:
        return None
    strides: list = [0] * m.n_dims
    offset: Optional[int] = 0
    terms = [m.results[0]]
    while terms:
        e = terms.pop()
        if isinstance(e, AffineBinary) and e.kind == "add":
            terms += [e.lhs, e.rhs]
        elif isinstance(e, AffineConst):
            offset = None if offset is None else offset + e.value
        elif e.is_symbolic_or_constant():
            offset = None
        elif isinstance(e, AffineDim):
            d = e.position
            strides[d] = None if strides[d] is None else strides[d] + 1
        elif isinstance(e, AffineBinary) and e.kind == "mul":
            dim, factor = (e.lhs, e.rhs) if isinstance(e.lhs, AffineDim) else (e.rhs, e.lhs)
            if not isinstance(dim, AffineDim) or not factor.is_symbolic_or_constant():
                return None
            d = dim.position
            if isinstance(factor, AffineConst) and strides[d] is not None:
                strides[d] += factor.value
            else:
                strides[d] = None
        else:
            return None  # floordiv, ceildiv or mod of a dimension
    return tuple(strides), offset


@dataclass(frozen=True, slots=True)
class IntegerSet:
    """``(d0, ...)[s0, ...] : (e >= 0, e == 0, ...)``; ``equalities[i]`` says which kind."""

    n_dims: int
    n_symbols: int
    constraints: tuple
    equalities: tuple

    def __str__(self) -> str:
        if not self.constraints:
            body = "(0 == 0)"
        else:
            body = "(" + ", ".join(f"{c.text()} {'==' if eq else '>='} 0"
                                   for c, eq in zip(self.constraints, self.equalities)) + ")"
        return _dims_text(self.n_dims, self.n_symbols) + " : " + body


@dataclass(frozen=True, slots=True)
class AffineMapAttr(Attribute):
    """``affine_map<...>``."""

    value: AffineMap
    #: printed through an alias ``#map``, ``#map1``... (MLIR's builtin alias)
    ALIAS = "map"
    BUILTIN_ALIAS = True

    def generic(self) -> str:
        return f"affine_map<{self.value}>"


@dataclass(frozen=True, slots=True)
class IntegerSetAttr(Attribute):
    """``affine_set<...>``."""

    value: IntegerSet
    ALIAS = "set"
    BUILTIN_ALIAS = True

    def generic(self) -> str:
        return f"affine_set<{self.value}>"


# ---------------------------------------------------------------------------------------------
# Parsing (on the text parser's tokens)
# ---------------------------------------------------------------------------------------------

class _AffineParser:
    def __init__(self, parser: "Parser") -> None:
        self.p = parser
        self.names: dict[str, AffineExpr] = {}
        self.n_dims = 0
        self.n_symbols = 0

    def id_list(self, close: str, symbol: bool) -> None:
        p = self.p

        def one():
            off = p.offset
            name = p.tok
            if not name or not (name[0].isalpha() or name[0] == "_"):
                raise p.error("expected bare identifier")
            if name in self.names:
                raise p.error(f"redefinition of identifier '{name}'")
            p.i += 1
            if symbol:
                self.names[name] = AffineSymbol(self.n_symbols)
                self.n_symbols += 1
            else:
                self.names[name] = AffineDim(self.n_dims)
                self.n_dims += 1
            return off
        p.parse_comma_list(one, close)

    def header(self) -> None:
        p = self.p
        p.expect("(")
        self.id_list(")", False)
        p.expect(")")
        if p.consume("["):
            self.id_list("]", True)
            p.expect("]")

    def expr(self) -> AffineExpr:
        p = self.p
        lhs = self.term()
        while p.tok in ("+", "-"):
            op = p.tok
            p.i += 1
            rhs = self.term()
            lhs = affine_add(lhs, rhs if op == "+" else _neg(rhs))
        return lhs

    def term(self) -> AffineExpr:
        p = self.p
        lhs = self.unary()
        while p.tok in ("*", "floordiv", "ceildiv", "mod"):
            op = p.tok
            off = p.offset
            p.i += 1
            rhs = self.unary()
            if op == "*":
                if not lhs.is_symbolic_or_constant() and not rhs.is_symbolic_or_constant():
                    raise p.error("non-affine expression: at least one of the multiply "
                                  "operands has to be either a constant or symbolic", off)
                lhs = affine_mul(lhs, rhs)
                continue
            if not rhs.is_symbolic_or_constant():
                raise p.error(f"non-affine expression: right operand of {op} has to be "
                              "either a constant or symbolic", off)
            lhs = (affine_floordiv if op == "floordiv" else
                   affine_ceildiv if op == "ceildiv" else affine_mod)(lhs, rhs)
        return lhs

    def unary(self) -> AffineExpr:
        p = self.p
        t = p.tok
        if t == "-":
            p.i += 1
            return _neg(self.unary())
        if t == "(":
            p.i += 1
            e = self.expr()
            p.expect(")")
            return e
        if t and t[0].isdigit():
            p.i += 1
            try:
                return AffineConst(int(t, 0) if t.startswith("0x") else int(t))
            except ValueError:
                raise p.error("expected affine expression", p.offs[p.i - 1])
        found = self.names.get(t)
        if found is not None:
            p.i += 1
            return found
        if t and (t[0].isalpha() or t[0] == "_"):
            raise p.error(f"use of undeclared identifier")
        raise p.error("expected affine expression")

    def results(self) -> tuple:
        p = self.p
        p.expect("(")
        items = p.parse_comma_list(self.expr, ")")
        p.expect(")")
        return tuple(items)

    def constraint(self) -> tuple[AffineExpr, bool]:
        p = self.p
        lhs = self.expr()
        op = p.tok
        if op in (">", "<", "=") and p.peek() == "=":
            p.i += 2
            rhs = self.expr()
            if op == ">":
                return affine_add(lhs, _neg(rhs)), False
            if op == "<":
                return affine_add(rhs, _neg(lhs)), False
            return affine_add(lhs, _neg(rhs)), True
        raise p.error("expected '== affine-expr' or '>= affine-expr' at end of affine "
                      "constraint")


def parse_affine_map_body(parser: "Parser") -> AffineMap:
    """``(dims)[symbols] -> (results)`` at the parser's position."""
    ap = _AffineParser(parser)
    ap.header()
    parser.expect("->")
    return AffineMap(ap.n_dims, ap.n_symbols, ap.results())


class _SSAAffineParser(_AffineParser):
    """Affine expressions over SSA values (``%i + symbol(%n) * 2``): each distinct value used
    bare is a dimension, one inside ``symbol(...)`` a symbol, numbered by first use."""

    def __init__(self, parser: "Parser") -> None:
        super().__init__(parser)
        self.dim_uses: list[tuple[str, int]] = []
        self.symbol_uses: list[tuple[str, int]] = []

    def unary(self) -> AffineExpr:
        p = self.p
        t = p.tok
        if t.startswith("%"):
            p.i += 1
            return self._use(t, p.offs[p.i - 1], False)
        if t == "symbol" and p.peek() == "(":
            p.i += 2
            name, off = p.tok, p.offset
            if not name.startswith("%"):
                raise p.error("expected SSA operand")
            p.i += 1
            p.expect(")")
            return self._use(name, off, True)
        return super().unary()

    def _use(self, name: str, off: int, symbol: bool) -> AffineExpr:
        uses = self.symbol_uses if symbol else self.dim_uses
        for k, (seen, _) in enumerate(uses):
            if seen == name:
                return AffineSymbol(k) if symbol else AffineDim(k)
        uses.append((name, off))
        if symbol:
            self.n_symbols += 1
            return AffineSymbol(len(uses) - 1)
        self.n_dims += 1
        return AffineDim(len(uses) - 1)


def parse_affine_map_of_ssa_ids(parser: "Parser", close: str = "]"
                                ) -> tuple[AffineMap, list, list]:
    """``%i, %j + symbol(%n)`` up to ``close`` (not consumed): the map over the values used,
    with the dimension and symbol operands as ``(name, offset)`` uses, in position order."""
    ap = _SSAAffineParser(parser)
    results = [] if parser.tok == close else parser.parse_comma_list(ap.expr, close)
    return (AffineMap(len(ap.dim_uses), len(ap.symbol_uses), tuple(results)),
            ap.dim_uses, ap.symbol_uses)


def affine_map_of_ssa_ids_text(amap: AffineMap, dims: Sequence[str],
                               symbols: Sequence[str]) -> str:
    """The results of ``amap`` with its dimensions and symbols spelled as the SSA values
    ``dims``/``symbols`` (a symbol as ``symbol(%n)``), comma separated."""
    import re
    names = {f"d{i}": n for i, n in enumerate(dims)}
    names.update({f"s{i}": f"symbol({n})" for i, n in enumerate(symbols)})
    return ", ".join(re.sub(r"\b[ds][0-9]+\b", lambda m: names[m.group()], r.text())
                     for r in amap.results)


def parse_integer_set_body(parser: "Parser") -> IntegerSet:
    """``(dims)[symbols] : (constraints)`` at the parser's position."""
    ap = _AffineParser(parser)
    ap.header()
    parser.expect(":")
    parser.expect("(")
    items = parser.parse_comma_list(ap.constraint, ")")
    parser.expect(")")
    return IntegerSet(ap.n_dims, ap.n_symbols, tuple(c for c, _ in items),
                      tuple(eq for _, eq in items))


AffineOrSet = Union[AffineMapAttr, IntegerSetAttr]


def _register_kinds() -> None:
    from ...ir import verify as _verify
    from ...ir.attributes import ArrayAttr, IntegerAttr
    from ...ir.types import I64

    def int_array(v) -> bool:
        return isinstance(v, ArrayAttr) and all(
            isinstance(x, IntegerAttr) and x.type is I64 for x in v.value)
    _verify.ATTR_KINDS.update({
        "affine_map": (lambda v: isinstance(v, AffineMapAttr), "AffineMap attribute"),
        "i64_array": (int_array, "64-bit integer array attribute"),
        "i64_array_array": (lambda v: isinstance(v, ArrayAttr) and all(int_array(x)
                                                                         for x in v.value),
                            "Array of 64-bit integer array attributes"),
        "bool_array": (lambda v: isinstance(v, ArrayAttr) and all(
            isinstance(x, IntegerAttr) and str(x.type) == "i1" for x in v.value),
            "1-bit boolean array attribute"),
    })


_register_kinds()
