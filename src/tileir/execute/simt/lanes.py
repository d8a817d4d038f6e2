"""Threads as array lanes: the lane spaces a SIMT kernel runs in, and affine lane values.

A launch (or a chunk of its blocks) runs as one NumPy program whose *lanes* are its threads.  The
root lane space is a 6-d box ``(grid z, grid y, grid x, block z, block y, block x)`` (thread x
fastest, then y, z, then block x, y, z: the linear thread order of CUDA).  A value computed in a
space is a NumPy array that *broadcasts* to the space's shape followed by the value's own vector
shape: a uniform value has every lane extent 1, ``gpu.thread_id x`` is ``arange(bx)`` along the
last lane axis, and so on, so that most values are far smaller than the launch.

Divergent control flow narrows the space:

* :class:`BoxSpace` -- a sub-box of the root (``tid.x < s``, ``row < m && col < n``): values keep
  the 6-d broadcasting layout and entering it is slicing;
* :class:`ListSpace` -- any other subset, lanes listed one by one (1 lane axis); entering it is
  fancy indexing of the parent's values, leaving it scatters into the parent's shape.

:class:`Aff` is an integer value that is affine in the root coordinates (``c + sum a_d x_d``), the
form thread and block ids and the address arithmetic built from them take.  It stays symbolic in
box spaces, so a load ``a[bid * bdim + tid]`` is a strided view of the buffer instead of a gather
and ``tid < n`` is decided from the value's range without materialising it.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

__all__ = ["Aff", "Space", "BoxSpace", "ListSpace", "ROOT_NDIM", "is_uniform", "select"]

#: lane axes of the root space: grid z, y, x, block z, y, x
ROOT_NDIM = 6

_INT64_SAFE = 1 << 62

#: dtype -> the (lowest, highest) value an Aff of that storage may take (see Aff.fits)
_BOUNDS: dict = {}


class Aff:
    """``const + sum(coef[d] * x[d])`` over the root coordinates ``x`` (an ``index`` or integer).

    ``dtype`` is the NumPy storage of the value's type; operations keep a value affine only while
    its range over the space provably fits the type (no wrap-around), else they materialise it.
    """

    __slots__ = ("const", "coef", "dtype")

    def __init__(self, const: int, coef: Sequence[int], dtype: np.dtype) -> None:
        self.const = int(const)
        self.coef = coef if type(coef) is tuple else tuple(int(c) for c in coef)
        self.dtype = dtype if isinstance(dtype, np.dtype) else np.dtype(dtype)

    def __repr__(self) -> str:
        return f"Aff({self.const}, {self.coef}, {self.dtype})"

    @property
    def is_constant(self) -> bool:
        return not any(self.coef)

    def value_range(self, space: "BoxSpace") -> tuple[int, int]:
        """The smallest and largest value over the lanes of ``space``."""
        return affine_range(self.const, self.coef, space)

    def fits(self, space: "BoxSpace") -> bool:
        lo, hi = self.value_range(space)
        bounds = _BOUNDS.get(self.dtype)
        if bounds is None:
            info = np.iinfo(self.dtype) if self.dtype != np.bool_ else None
            bounds = _BOUNDS[self.dtype] = (0, 1) if info is None else \
                (max(int(info.min), 1 - _INT64_SAFE), min(int(info.max), _INT64_SAFE - 1))
        return bounds[0] <= lo and hi <= bounds[1]

    def materialize(self, space: "BoxSpace") -> np.ndarray:
        """The value as an array broadcasting to ``space.shape`` (extent 1 where coef is 0)."""
        out = np.full((1,) * ROOT_NDIM, self.const, dtype=np.int64)
        for d, (c, l0, n) in enumerate(zip(self.coef, space.lo, space.shape)):
            if c:
                shape = [1] * ROOT_NDIM
                shape[d] = n
                out = out + (c * np.arange(l0, l0 + n, dtype=np.int64)).reshape(shape)
        return out.astype(self.dtype, copy=False)

    # -- arithmetic that stays affine ------------------------------------------------------------

    def plus(self, other: "Aff | int") -> "Aff":
        if type(other) is Aff:
            return _aff(self.const + other.const,
                        tuple([a + b for a, b in zip(self.coef, other.coef)]), self.dtype)
        if isinstance(other, Aff):
            return Aff(self.const + other.const,
                       tuple([a + b for a, b in zip(self.coef, other.coef)]), self.dtype)
        return _aff(self.const + int(other), self.coef, self.dtype)

    def times(self, k: int) -> "Aff":
        k = int(k)
        return _aff(self.const * k, tuple([c * k for c in self.coef]), self.dtype)

    def cast(self, dtype: np.dtype) -> "Aff":
        if dtype is self.dtype:
            return self if type(self) is Aff else _aff(self.const, self.coef, dtype)
        return _aff(self.const, self.coef,
                    dtype if isinstance(dtype, np.dtype) else np.dtype(dtype))


def affine_range(const: int, coef: Sequence[int], space: "BoxSpace") -> tuple[int, int]:
    """The smallest and largest value of ``const + sum(coef[d] * x[d])`` over the lanes of
    ``space`` (the fields of an :class:`Aff`, without making one)."""
    lo = hi = const
    for c, l0, n in zip(coef, space.lo, space.shape):
        if c:
            a = c * l0
            b = a + c * (n - 1)
            if a <= b:
                lo += a
                hi += b
            else:
                lo += b
                hi += a
    return lo, hi


def _aff(const: int, coef: tuple, dtype: np.dtype) -> Aff:
    """An :class:`Aff` from fields already in their types (an int, a tuple of ints, a NumPy
    dtype): the constructor without its conversions, for the hot paths."""
    a = object.__new__(Aff)
    a.const = const
    a.coef = coef
    a.dtype = dtype
    return a


def is_uniform(value: Any, ndim: int) -> bool:
    """Whether ``value`` is the same for every lane (all lane extents 1)."""
    if isinstance(value, Aff):
        return value.is_constant
    if isinstance(value, np.ndarray):
        return all(s == 1 for s in value.shape[:ndim])
    return True


class Space:
    """A set of lanes; the base of :class:`BoxSpace` and :class:`ListSpace`.

    ``shape`` is the lane part of every array value's shape (values broadcast to it), ``ndim`` its
    length and ``size`` the number of lanes.  ``parent`` is the space it narrows (None: root).
    """

    shape: tuple
    ndim: int
    parent: Optional["Space"]
    root: "BoxSpace"

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    def uniform(self, value: Any, dtype: np.dtype, vshape: tuple = ()) -> np.ndarray:
        """A uniform array value of this space."""
        return np.asarray(value, dtype=dtype).reshape((1,) * self.ndim + tuple(vshape))

    def full(self, value: Any) -> np.ndarray:
        """``value`` (an array of this space or an :class:`Aff`) broadcast to every lane."""
        arr = self.array(value)
        return np.broadcast_to(arr, self.shape + arr.shape[self.ndim:])

    def array(self, value: Any) -> np.ndarray:
        """``value`` as an array of this space (materialising an :class:`Aff`)."""
        raise NotImplementedError  # pragma: no cover - abstract

    def enter(self, value: Any) -> Any:
        """A value of the parent space as a value of this space."""
        raise NotImplementedError  # pragma: no cover - abstract

    def scatter(self, out: np.ndarray, value: Any) -> None:
        """Write this space's ``value`` into ``out``, an array with the parent's full shape."""
        raise NotImplementedError  # pragma: no cover - abstract

    def restrict(self, mask: np.ndarray) -> Optional["Space"]:
        """The lanes of this space where ``mask`` (a boolean array of this space) is true:
        ``self`` when all are, ``None`` when none is."""
        raise NotImplementedError  # pragma: no cover - abstract

    def coords(self) -> tuple[np.ndarray, ...]:
        """The root coordinates of the lanes, 6 arrays broadcasting to ``shape``."""
        raise NotImplementedError  # pragma: no cover - abstract

    def merge(self, parts: Sequence[tuple["Space", Any]], dtype: np.dtype,
              vshape: tuple) -> np.ndarray:
        """One value of this space from the values of disjoint child spaces covering it."""
        out = np.zeros(self.shape + tuple(vshape), dtype=dtype)
        for child, value in parts:
            child.scatter(out, value)
        return out


class BoxSpace(Space):
    """The lanes of the root box whose coordinates lie in ``[lo, lo + shape)`` on every axis."""

    ndim = ROOT_NDIM

    def __init__(self, lo: Sequence[int], shape: Sequence[int],
                 parent: Optional["BoxSpace"] = None) -> None:
        self.lo = tuple(int(x) for x in lo)
        self.shape = tuple(int(x) for x in shape)
        self.parent = parent
        self.root = parent.root if parent is not None else self
        self._in_parent: Optional[tuple] = None

    def child(self, lo: tuple, shape: tuple) -> "BoxSpace":
        """The sub-box ``[lo, lo + shape)`` of this box as its child (``lo`` and ``shape``
        tuples of ints inside this box; no conversions, for hot paths)."""
        box = BoxSpace.__new__(BoxSpace)
        box.lo, box.shape, box.parent, box.root = lo, shape, self, self.root
        box._in_parent = None
        return box

    @property
    def _slices(self) -> tuple:
        """This box's lanes within its parent's arrays: one slice per axis (worked out when
        first needed; many boxes only run ops on values they were given)."""
        sl = self._in_parent
        if sl is None:
            sl = self._in_parent = tuple([slice(a - p, a - p + n) for a, p, n in
                                          zip(self.lo, self.parent.lo, self.shape)])
        return sl

    def array(self, value: Any) -> np.ndarray:
        if isinstance(value, Aff):
            return value.materialize(self)
        return value

    def coords(self) -> tuple[np.ndarray, ...]:
        out = []
        for d, (l0, n) in enumerate(zip(self.lo, self.shape)):
            shape = [1] * ROOT_NDIM
            shape[d] = n
            out.append(np.arange(l0, l0 + n, dtype=np.int64).reshape(shape))
        return tuple(out)

    def enter(self, value: Any) -> Any:
        if isinstance(value, np.ndarray) and value.ndim >= ROOT_NDIM:
            sl = tuple(s if value.shape[d] > 1 else slice(None)
                       for d, s in enumerate(self._slices))
            return value[sl]
        if hasattr(value, "enter_space"):
            return value.enter_space(self)
        return value

    def scatter(self, out: np.ndarray, value: Any) -> None:
        out[self._slices] = self.array(value)

    def restrict(self, mask: np.ndarray) -> Optional[Space]:
        mask = np.asarray(mask, dtype=bool)
        if mask.size == 1:
            return self if bool(mask.reshape(-1)[0]) else None
        if mask.all():
            return self
        if not mask.any():
            return None
        box = _as_box(mask, self)
        if box is not None:
            return BoxSpace(box[0], box[1], self)
        full = np.broadcast_to(mask, self.shape)
        return ListSpace(self, flat=np.flatnonzero(full))


def select(space: Space, flat: np.ndarray) -> Optional[Space]:
    """The lanes of ``space`` at the flat positions ``flat`` (sorted, distinct, in
    ``space.shape``): the space ``space.restrict(mask)`` gives for the mask true there, found
    from the positions alone (work in their number, not in the lanes of ``space``)."""
    if flat.size == 0:
        return None
    if flat.size == space.size:
        return space
    if isinstance(space, ListSpace):
        return ListSpace(space, flat=flat)
    idx = np.unravel_index(flat, space.shape)
    lo = [int(i.min()) for i in idx]
    shape = [int(i.max()) - l0 + 1 for i, l0 in zip(idx, lo)]
    if int(np.prod(shape, dtype=np.int64)) == flat.size:    # distinct lanes filling a box
        return BoxSpace([a + b for a, b in zip(space.lo, lo)], shape, space)
    return ListSpace(space, idx)


def _as_box(mask: np.ndarray, space: BoxSpace) -> Optional[tuple[list, list]]:
    """The sub-box of ``space`` a broadcast ``mask`` selects, or None if it is not a box."""
    lo, shape = list(space.lo), list(space.shape)
    axes = [d for d in range(ROOT_NDIM) if mask.shape[d] > 1]
    if len(axes) == 1:          # (``tid < n``): the selected lanes of one axis, contiguous?
        d, = axes
        hits = np.flatnonzero(mask.reshape(-1))
        first, last = int(hits[0]), int(hits[-1])
        if last - first + 1 != hits.size:
            return None
        lo[d] = space.lo[d] + first
        shape[d] = last - first + 1
        return lo, shape
    for d in axes:
        others = tuple(a for a in range(ROOT_NDIM) if a != d)
        proj = mask.any(axis=others)
        hits = np.flatnonzero(proj)
        first, last = int(hits[0]), int(hits[-1])
        if last - first + 1 != hits.size:
            return None
        lo[d] = space.lo[d] + first
        shape[d] = last - first + 1
    # the mask must be the full product of its projections
    sl = tuple(slice(lo[d] - space.lo[d], lo[d] - space.lo[d] + shape[d]) if mask.shape[d] > 1
               else slice(None) for d in range(ROOT_NDIM))
    if not mask[sl].all():
        return None
    return lo, shape


class ListSpace(Space):
    """A subset of the lanes of ``parent`` listed one by one, in lane order.

    The lanes are given either as ``index`` -- per lane axis of the parent, the lanes'
    positions (1-d arrays of equal length) -- or as ``flat``, their flat (row-major) positions
    in the parent's shape; each form is worked out from the other when first asked for (a
    divergent loop mostly needs the flat positions, and a value broadcast along some lane
    axes only those axes' positions, see :meth:`axis`)."""

    ndim = 1

    def __init__(self, parent: Space, index: Optional[tuple] = None,
                 flat: Optional[np.ndarray] = None) -> None:
        self.parent = parent
        self.root = parent.root
        self._axes: dict = {}
        if index is not None:
            self._index: Optional[tuple] = tuple(np.asarray(i, dtype=np.intp) for i in index)
            self._flat: Optional[np.ndarray] = None
            self.shape = (int(self._index[0].size),)
        else:
            self._index = None
            self._flat = np.asarray(flat, dtype=np.intp)
            self.shape = (int(self._flat.size),)

    @property
    def index(self) -> tuple:
        """Per lane axis of the parent, the lanes' positions along it."""
        if self._index is None:
            shape = self.parent.shape
            self._index = tuple(self.axis(d) for d in range(len(shape)))
        return self._index

    @property
    def flat(self) -> np.ndarray:
        """The lanes' flat (row-major) positions in the parent's shape."""
        if self._flat is None:
            self._flat = np.ravel_multi_index(self._index, self.parent.shape) \
                if self.parent.ndim > 1 else self._index[0]
        return self._flat

    def axis(self, d: int) -> np.ndarray:
        """The lanes' positions along the parent's lane axis ``d``."""
        if self._index is not None:
            return self._index[d]
        hit = self._axes.get(d)
        if hit is None:
            shape = self.parent.shape
            if len(shape) == 1:
                hit = self._flat
            else:
                inner = 1
                for n in shape[d + 1:]:
                    inner *= n
                hit = self._flat // inner if inner > 1 else self._flat
                if d > 0:
                    hit = hit % shape[d]
            self._axes[d] = hit
        return hit

    def array(self, value: Any) -> np.ndarray:
        return value

    def enter(self, value: Any) -> Any:
        if isinstance(value, Aff):
            value = self.parent.array(value)
        if isinstance(value, np.ndarray) and value.ndim >= self.parent.ndim:
            pnd = self.parent.ndim
            lane_shape = value.shape[:pnd]
            if all(s == 1 for s in lane_shape):
                return value.reshape((1,) + value.shape[pnd:])
            if lane_shape == self.parent.shape and value.flags.c_contiguous:
                return value.reshape((-1,) + value.shape[pnd:])[self.flat]
            idx = tuple(self.axis(d) if s > 1 else 0 for d, s in enumerate(lane_shape))
            return value[idx]
        if hasattr(value, "enter_space"):
            return value.enter_space(self)
        return value

    def scatter(self, out: np.ndarray, value: Any) -> None:
        vshape = out.shape[self.parent.ndim:]
        value = np.broadcast_to(value, self.shape + vshape)
        if out.flags.c_contiguous:
            out.reshape((-1,) + vshape)[self.flat] = value
        else:
            out[self.index] = value

    def coords(self) -> tuple[np.ndarray, ...]:
        return tuple(self.enter(c) for c in self.parent.coords())

    def restrict(self, mask: np.ndarray) -> Optional[Space]:
        mask = np.asarray(mask, dtype=bool).reshape(-1)
        if mask.size == 1:
            return self if bool(mask[0]) else None
        if mask.all():
            return self
        pos = np.flatnonzero(mask)
        if pos.size == 0:
            return None
        return ListSpace(self, flat=pos)
