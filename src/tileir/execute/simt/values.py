"""Runtime values of the SIMT engine besides lane arrays: IR types -> storage, async tokens.

* scalars of an integer, index or float type are lane arrays of the type's storage dtype
  (:func:`storage`); ``index`` is int64; ``vector<4x8xf32>`` adds the vector shape after the lane
  axes;
* memrefs are :class:`~.memory.MemRef` descriptors;
* ``!gpu.async.token`` values are :class:`Token`; sparse handles are the objects of
  :mod:`.ops.sparse`.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from ...ir.types import Type
from ..numerics.dtypes import numpy_dtype

__all__ = ["Token", "Stream", "Deferred", "element_name", "storage", "cell_dtype", "vector_shape",
           "is_index", "narrow_bits"]


class Stream:
    """A stream as MLIR's CUDA lowering makes them (``async_order="streams"``): an async op
    with exactly one dependency runs on that dependency's stream, after every op issued on
    it before; ``last`` is the token of the op issued last."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last: Optional["Token"] = None


class Token:
    """An async token.  The engine runs async work at once, in program order (a valid order),
    but the host may only observe its effects once the token is *ready*: after a ``gpu.wait``
    on it or on a token that depends on it.  ``deps`` are the tokens it was ordered after;
    ``op`` the op that made it (for diagnostics)."""

    __slots__ = ("ready", "label", "deps", "op", "stream")

    def __init__(self, ready: bool = True, label: str = "", deps: tuple = (),
                 op: object = None, stream: Optional["Stream"] = None) -> None:
        self.ready = ready
        self.label = label
        self.deps = tuple(deps)
        self.op = op
        #: the stream the op runs on (``async_order="streams"`` only, else None)
        self.stream = stream

    def covers(self, other: "Token") -> bool:
        """Whether this token is ``other`` or (transitively) depends on it."""
        seen, stack = set(), [self]
        while stack:
            t = stack.pop()
            if t is other:
                return True
            if id(t) in seen:
                continue
            seen.add(id(t))
            stack.extend(t.deps)
        return False

    def wait(self) -> None:
        """Mark this token and everything it depends on ready (on a stream: everything issued
        on the stream so far, as synchronising the stream does)."""
        stack = [self]
        if self.stream is not None and self.stream.last is not None:
            stack.append(self.stream.last)
        while stack:
            t = stack.pop()
            if not t.ready or t.deps:
                t.ready = True
                stack.extend(t.deps)
                t.deps = ()

    def __repr__(self) -> str:
        return f"Token({'ready' if self.ready else 'pending'}{', ' + self.label if self.label else ''})"



class Deferred:
    """The result of an elementwise op left uncomputed for the ``memref.store`` that is its
    only use, so that the store can compute it straight into memory (``fn(*args, out=view)``,
    no temporary); :meth:`value` computes it the ordinary way."""

    __slots__ = ("fn", "args", "dtype")

    def __init__(self, fn, args, dtype: np.dtype) -> None:
        self.fn, self.args, self.dtype = fn, args, dtype

    def value(self) -> np.ndarray:
        return self.fn(*self.args).astype(self.dtype, copy=False)


def _element(t: Type) -> Type:
    return t.element if hasattr(t, "element") and hasattr(t, "shape") else t


def element_name(t: Type) -> str:
    """The numerics name of a scalar (or the element of a vector/memref) type: ``'f32'``,
    ``'i32'``, ``'index'``..."""
    return str(_element(t))


def is_index(t: Type) -> bool:
    return element_name(t) == "index"


def storage(t: Type) -> np.dtype:
    """The NumPy storage dtype of a scalar type or of a vector's / memref's elements."""
    name = element_name(t)
    if name == "index":
        return np.dtype(np.int64)
    narrow = _narrow_storage(name)
    if narrow is not None:
        return narrow
    if name[:2] in ("si", "ui") and name[2:].isdigit():   # signed/unsigned integer types
        return numpy_dtype("i" + name[2:])
    return numpy_dtype(name)


def narrow_bits(name: str) -> Optional[int]:
    """The width of an integer type name that no NumPy integer has (``i4``, ``si4``,
    ``ui3``...); such integers are held sign-extended in the smallest signed NumPy integer that
    fits (see :class:`~.ops.intsem.NarrowInt`).  None for other names."""
    digits = name[2:] if name[:2] in ("si", "ui") else name[1:] if name[:1] == "i" else ""
    if not digits.isdigit():
        return None
    bits = int(digits)
    return bits if 1 < bits < 64 and bits not in (8, 16, 32) else None


def _narrow_storage(name: str) -> Optional[np.dtype]:
    bits = narrow_bits(name)
    if bits is None:
        return None
    return np.dtype(next(d for w, d in ((8, np.int8), (16, np.int16), (32, np.int32),
                                         (64, np.int64)) if w >= bits))


#: the field name of a memory cell that holds a whole vector (see :func:`cell_dtype`)
VECTOR_FIELD = "v"


def cell_dtype(elem: Type) -> np.dtype:
    """The dtype of one element of a buffer whose memref element type is ``elem``: the storage
    of a scalar type, or, for a vector element type (``memref<8xvector<4xf32>>``), a record of
    one field :data:`VECTOR_FIELD` holding the whole vector, so that addresses count vectors
    while the bytes are the vectors' elements in row-major order."""
    if type(elem).__name__ == "VectorType":
        return np.dtype([(VECTOR_FIELD, storage(elem), tuple(elem.shape))])
    return storage(elem)


def vector_shape(t: Type) -> tuple:
    """The per-lane shape of a value of type ``t``: the vector shape, or ``()``."""
    if type(t).__name__ == "VectorType":
        return tuple(t.shape)
    return ()


def numerics_name(t: Type) -> Optional[str]:
    """The element name the shared numerics modules take (``index`` is ``'i64'``)."""
    name = element_name(t)
    if name[:2] in ("si", "ui") and name[2:].isdigit():
        return "i" + name[2:]
    return "i64" if name == "index" else name
