"""Atomic updates of many lanes applied in lane order, without a round per colliding lane.

``memref.atomic_rmw`` and ``memref.generic_atomic_rmw`` apply the lanes that hit one element
one after another in lane (thread) order, and each lane gets the value it replaced
(:mod:`.memref`).  The general way to do that runs one round per lane sharing an address: a
histogram of 2^20 lanes onto 256 bins is 4096 rounds.  When the update is
``new = f(old, x)`` for one elementwise NumPy function ``f`` (an :class:`Update`: the
``atomic_rmw`` kinds, and a ``generic_atomic_rmw`` region that is a single arith op of the old
value and a value from outside the region), the same sequence of ``f`` calls is made by

* ``ufunc.at`` (unbuffered: it applies the indices one by one, in order) when no lane needs
  the value it replaced;
* else a pass over the lanes sorted by (address, lane): a wrapping cumulative sum for integer
  ``add`` / ``sub`` / ``xor`` (exact modulo 2**N), and for the others a few rounds over all
  addresses and then one ``ufunc.accumulate`` (a left-to-right chain of ``f``) per address
  that still has lanes.

Every float result is the one ``f`` computes from the same two operands in the same order, so
the bits are those of the rounds, on every type (f16 and bf16 go through the same NumPy loops
the arith ops use).  Two choices keep that exact:

* NaN inputs (an operand, or an old value at a touched address) make the fast path decline:
  which NaN payload a float op returns from two NaNs is NumPy's (and the CPU's) business, and
  the general path is the reference for it.  Without NaN inputs every NaN an op creates is the
  same default NaN, whatever the order of its operands.
* float ``maximumf`` / ``minimumf`` / ``maxnumf`` / ``minnumf`` (which order -0 below +0, as
  :mod:`.arith` does) run on integer keys of the float bits that sort as the floats do with
  ``-0 < +0``; without NaNs all four are a max / min of those keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

__all__ = ["Update", "update_for_kind", "update_for_op", "lane_groups", "apply_in_lane_order"]

#: rounds run over all addresses before the addresses with more lanes go one by one
_ROUNDS = 8


@dataclass(frozen=True)
class Update:
    """``new = ufunc(old, x)`` on elements of ``dtype`` (``ufunc`` None: ``new = x``).

    ``domain`` is how the elements' bits are read for ``ufunc``: ``"same"``, ``"unsigned"``
    (the unsigned integer of their width) or ``"key"`` (float bits as integers that order as
    the floats, -0 below +0); ``nan_guard``: the fast path declines NaN inputs; ``prefix``:
    ``"add"`` / ``"sub"`` / ``"xor"`` where the values each lane replaced are an exclusive
    cumulative sum (integers, wrapping)."""

    ufunc: Optional[np.ufunc]
    dtype: np.dtype
    domain: str = "same"
    nan_guard: bool = False
    prefix: Optional[str] = None

    @property
    def work(self) -> np.dtype:
        """The dtype ``ufunc`` runs in."""
        if self.domain == "same":
            return self.dtype
        kind = "u" if self.domain == "unsigned" else "i"
        return np.dtype(f"{kind}{self.dtype.itemsize}")

    def encode(self, x: np.ndarray) -> np.ndarray:
        """Elements (of :attr:`dtype`) as :attr:`work` values."""
        if self.domain == "same":
            return x
        bits = x.view(self.work)
        return _key(bits) if self.domain == "key" else bits

    def decode(self, w: np.ndarray) -> np.ndarray:
        """:attr:`work` values back as elements."""
        if self.domain == "same":
            return w
        return (_key(w) if self.domain == "key" else w).view(self.dtype)


def _key(bits: np.ndarray) -> np.ndarray:
    """Signed float bits <-> integers ordered as the floats (-0 just below +0); its own
    inverse.  Negative floats (sign bit set) have their magnitude bits flipped."""
    width = bits.dtype.itemsize * 8
    mask = bits.dtype.type((1 << (width - 1)) - 1)
    return bits ^ ((bits >> (width - 1)) & mask)


_FLOATS = ("f16", "bf16", "f32", "f64")
_INT_WIDTHS = (8, 16, 32, 64)

#: atomic_rmw kind -> (ufunc, domain, prefix); float kinds get the NaN guard
_KINDS = {
    "addf": (np.add, "same", None), "mulf": (np.multiply, "same", None),
    "maximumf": (np.maximum, "key", None), "minimumf": (np.minimum, "key", None),
    "maxnumf": (np.maximum, "key", None), "minnumf": (np.minimum, "key", None),
    "addi": (np.add, "same", "add"), "muli": (np.multiply, "same", None),
    "andi": (np.bitwise_and, "same", None), "ori": (np.bitwise_or, "same", None),
    "xori": (np.bitwise_xor, "same", "xor"),
    "maxs": (np.maximum, "same", None), "mins": (np.minimum, "same", None),
    "maxu": (np.maximum, "unsigned", None), "minu": (np.minimum, "unsigned", None),
    "assign": (None, "same", None),
}

#: arith op of a generic_atomic_rmw region -> (atomic kind it is, whether ``f(x, old)`` is
#: the same function: commutative, bit for bit once NaN inputs are excluded)
_ARITH = {
    "arith.addf": ("addf", True), "arith.mulf": ("mulf", True),
    "arith.subf": ("subf", False), "arith.divf": ("divf", False),
    "arith.maximumf": ("maximumf", True), "arith.minimumf": ("minimumf", True),
    "arith.maxnumf": ("maxnumf", True), "arith.minnumf": ("minnumf", True),
    "arith.addi": ("addi", True), "arith.subi": ("subi", False),
    "arith.muli": ("muli", True), "arith.andi": ("andi", True), "arith.ori": ("ori", True),
    "arith.xori": ("xori", True), "arith.maxsi": ("maxs", True), "arith.minsi": ("mins", True),
    "arith.maxui": ("maxu", True), "arith.minui": ("minu", True),
}
_REGION_ONLY = {"subf": (np.subtract, "same", None), "divf": (np.divide, "same", None),
                "subi": (np.subtract, "same", "sub")}


def update_for_kind(kind: str, t) -> Optional[Update]:
    """The :class:`Update` of an ``atomic_rmw`` kind (or a region op's kind, ``subf``...) on
    elements of type ``t``, or None where there is none: ``i1``, integer widths that are no
    NumPy integer, float kinds on types without IEEE arithmetic here."""
    from ..values import numerics_name, storage
    spec = _KINDS.get(kind) or _REGION_ONLY.get(kind)
    if spec is None:
        return None
    ufunc, domain, prefix = spec
    element = numerics_name(t)
    dtype = np.dtype(storage(t))
    integer = element.startswith("i") and element[1:].isdigit() and \
        int(element[1:]) in _INT_WIDTHS and dtype.kind == "i"
    if kind == "assign":                   # an exchange moves bits: any type of a NumPy width
        if not integer and element not in _FLOATS:
            return None
        return Update(None, np.dtype(f"i{dtype.itemsize}"))
    flt = kind.endswith("f")
    if (flt and element not in _FLOATS) or (not flt and not integer):
        return None
    return Update(ufunc, dtype, domain, flt, prefix)


def update_for_op(region) -> Optional[tuple[Update, object, object, bool]]:
    """A ``generic_atomic_rmw`` region that is one arith op of the old value and another
    value: ``(update, op, other, swapped)`` where ``other`` is the other operand (defined
    outside the region, or by an ``arith.constant`` in it) and ``swapped`` says the old value
    is the op's second operand; None for any other region.

    Recognised: ``^bb0(%old): [arith.constant ...]* %r = OP %old, %x; memref.atomic_yield
    %r`` (or ``OP %x, %old`` where OP is commutative), and ``memref.atomic_yield %x``
    (an exchange)."""
    if len(region.blocks) != 1:
        return None
    block = region.blocks[0]
    if len(block.args) != 1:
        return None
    old = block.args[0]
    ops = list(block.ops)
    if not ops or ops[-1].name != "memref.atomic_yield" or len(ops[-1].operands) != 1:
        return None
    yielded = ops[-1].operands[0]
    body = ops[:-1]
    inside = {r for o in body for r in o.results}
    consts = [o for o in body if o.name == "arith.constant"]
    rest = [o for o in body if o.name != "arith.constant"]
    if yielded is not old and not rest:    # an exchange (with an outside value or a constant)
        upd = update_for_kind("assign", old.type)
        return None if upd is None else (upd, None, yielded, False)
    if len(rest) != 1:
        return None
    op = rest[0]
    if op.regions or len(op.operands) != 2 or len(op.results) != 1 or \
            op.results[0] is not yielded or op.name not in _ARITH:
        return None
    kind, commutative = _ARITH[op.name]
    a, b = op.operands
    if a is old and b is not old:
        other, swapped = b, False
    elif b is old and a is not old and commutative:
        other, swapped = a, True
    else:
        return None
    if other in inside and other.owner_op not in consts:
        return None
    if op.results[0].type != old.type or other.type != old.type:
        return None
    upd = update_for_kind(kind, old.type)
    return None if upd is None else (upd, op, other, swapped)


def lane_groups(addr: np.ndarray):
    """Lanes grouped by address, in lane order: ``(order, unique, starts, counts)`` where
    ``order`` sorts lanes by (address, lane).

    NumPy's stable sort of 8- and 16-bit keys is a radix sort: addresses spanning fewer than
    2^16 elements sort as one such key (and are counted by ``bincount``), those spanning fewer
    than 2^32 as two (low half, then high half: a stable sort keeps the low order among equal
    high halves), the others as they are."""
    n = addr.size
    lo = int(addr.min())
    span = int(addr.max()) - lo
    if span < (1 << 16):
        key = (addr - lo).astype(np.uint8 if span < (1 << 8) else np.uint16)
        order = np.argsort(key, kind="stable")
        tally = np.bincount(key, minlength=span + 1)
        present = np.flatnonzero(tally)
        counts = tally[present]
        starts = np.zeros(counts.size, np.int64)
        np.cumsum(counts[:-1], out=starts[1:])
        return order, present + lo, starts, counts
    if span < (1 << 32):
        rel = (addr - lo).astype(np.uint32)
        order = np.argsort(rel.astype(np.uint16), kind="stable")
        high = (rel >> np.uint32(16)).astype(np.uint16)[order]
        order = order[np.argsort(high, kind="stable")]
    else:
        order = np.argsort(addr, kind="stable")
    sorted_addr = addr[order]
    edge = np.empty(n, bool)
    edge[:1] = True
    np.not_equal(sorted_addr[1:], sorted_addr[:-1], out=edge[1:])
    starts = np.flatnonzero(edge)
    counts = np.diff(np.append(starts, n))
    return order, sorted_addr[starts], starts, counts


def _has_nan(x: np.ndarray) -> bool:
    return bool(np.isnan(x).any())


def apply_in_lane_order(data: np.ndarray, addr: np.ndarray, x: np.ndarray, upd: Update,
                        want_old: bool) -> Optional[np.ndarray]:
    """Apply ``data[addr[k]] = f(data[addr[k]], x[k])`` for k in lane order (``addr``, ``x``:
    flat lane arrays, ``x`` of the element dtype, every address in bounds).

    Returns the value each lane replaced (flat, of the element dtype) when ``want_old``, else
    an empty array; None, having changed nothing, where the update declines (NaN inputs of a
    float update): the caller then runs its general path."""
    if data.dtype.itemsize != upd.dtype.itemsize or (upd.nan_guard and _has_nan(x)):
        return None
    bits = data.view(upd.dtype) if upd.dtype != data.dtype else data
    x = x.view(upd.dtype) if x.dtype != upd.dtype else x
    with np.errstate(all="ignore"):
        small = bits.size <= 4 * addr.size
        if not want_old and (upd.domain != "key" or small):
            if upd.nan_guard and _has_nan(bits if small else bits[addr]):
                return None
            if upd.ufunc is None:
                bits[addr] = x                     # (repeated indices: the last lane wins)
            elif upd.domain == "key":              # (keys of the whole, small, buffer)
                work = upd.encode(bits)
                upd.ufunc.at(work, addr, upd.encode(x))
                bits[...] = upd.decode(work)
            else:
                target = bits if upd.domain == "same" else bits.view(upd.work)
                upd.ufunc.at(target, addr, upd.encode(x))
            return np.empty(0, upd.dtype)
        order, uniq, starts, counts = lane_groups(addr)
        init = bits[uniq]
        if upd.nan_guard and _has_nan(init):
            return None
        cur = upd.encode(init).copy()
        vs = upd.encode(x)[order]
        old = _ordered_pass(upd, cur, vs, starts, counts)
        bits[uniq] = upd.decode(cur)
        if not want_old:
            return np.empty(0, upd.dtype)
        out = np.empty(addr.size, upd.dtype)
        out[order] = upd.decode(old)
        return out.view(data.dtype)


def _ordered_pass(upd: Update, cur: np.ndarray, vs: np.ndarray, starts: np.ndarray,
                  counts: np.ndarray) -> np.ndarray:
    """The sequential updates of sorted lanes ``vs`` (one segment per address, ``cur`` its
    value, updated in place): the value each sorted lane replaced."""
    n = vs.size
    if upd.ufunc is None:                              # exchange: the previous lane's value
        old = np.empty(n, vs.dtype)
        old[1:] = vs[:-1]
        old[starts] = cur
        cur[...] = vs[starts + counts - 1]
        return old
    if upd.prefix is not None:
        # exclusive scans, wrapping: lane j replaced init (op) v[start] (op) ... v[j - 1]
        seg = np.repeat(np.arange(starts.size), counts)
        if upd.prefix == "xor":
            inc = np.bitwise_xor.accumulate(vs, dtype=vs.dtype)
            exc = inc ^ vs
            within = exc ^ exc[starts][seg]
            old = cur[seg] ^ within
            cur ^= within[starts + counts - 1] ^ vs[starts + counts - 1]
            return old
        inc = np.add.accumulate(vs, dtype=vs.dtype)
        exc = inc - vs
        within = exc - exc[starts][seg]
        total = within[starts + counts - 1] + vs[starts + counts - 1]
        if upd.prefix == "add":
            old = cur[seg] + within
            cur += total
        else:
            old = cur[seg] - within
            cur -= total
        return old.astype(vs.dtype, copy=False)
    fn = upd.ufunc
    old = np.empty(n, vs.dtype)
    rounds = min(int(counts.max()), _ROUNDS)
    for k in range(rounds):
        live = np.flatnonzero(counts > k) if k else None
        if live is None:
            pos = starts
            old[pos] = cur
            cur[...] = fn(cur, vs[pos], dtype=vs.dtype)
            continue
        pos = starts[live] + k
        old[pos] = cur[live]
        cur[live] = fn(cur[live], vs[pos], dtype=vs.dtype)
    for s in np.flatnonzero(counts > rounds):       # the rest of long segments, one by one
        lo, hi = starts[s] + rounds, starts[s] + counts[s]
        chain = np.empty(hi - lo + 1, vs.dtype)
        chain[0] = cur[s]
        chain[1:] = vs[lo:hi]
        acc = fn.accumulate(chain, dtype=vs.dtype)
        old[lo:hi] = acc[:-1]
        cur[s] = acc[-1]
    return old
