"""Run-time values that are not plain tiles: tensor views, deferred results.

A tile view (``partition_view``, ``strided_view``, ``gather_scatter_view``) carries its tile shape,
``dim_map``, traversal strides and padding in its *type*, which the plan compiler bakes into the
load/store closures; at run time a tile view is just the :class:`TensorViewValue` it was made
from.
"""

from __future__ import annotations

import numpy as np

__all__ = ["TensorViewValue", "Deferred", "DeferredProduct"]


class TensorViewValue:
    """``base`` (uint64 addresses), ``shape`` and ``strides`` (int64, in elements) with a leading
    lane axis ``L`` (1 when the view is the same for every tile block of the batch).

    ``base0``/``shape0``/``strides0`` are plain Python ints of lane 0, precomputed when
    ``L == 1`` for the fast paths."""

    __slots__ = ("base", "shape", "strides", "lanes", "base0", "shape0", "strides0")

    def __init__(self, base: np.ndarray, shape: np.ndarray, strides: np.ndarray) -> None:
        self.base = base
        self.shape = shape
        self.strides = strides
        self.lanes = max(base.shape[0], shape.shape[0], strides.shape[0])
        if self.lanes == 1:
            self.base0 = int(base[0])
            self.shape0 = tuple(int(x) for x in shape[0])
            self.strides0 = tuple(int(x) for x in strides[0])
        else:
            self.base0 = None
            self.shape0 = None
            self.strides0 = None

    @classmethod
    def uniform(cls, base: np.ndarray, shape: tuple, strides: tuple) -> "TensorViewValue":
        """The view of one lane (``base`` of shape ``(1,)``) from sizes and strides given as
        Python ints (no array round trip)."""
        v = cls.__new__(cls)
        v.base = base
        v.shape = np.array([shape], dtype=np.int64)
        v.strides = np.array([strides], dtype=np.int64)
        v.lanes = 1
        v.base0 = int(base[0])
        v.shape0 = tuple(shape)
        v.strides0 = tuple(strides)
        return v

    def lane(self, i: int) -> tuple[int, tuple, tuple]:
        """(base, shape, strides) of lane ``i`` as Python ints."""
        if self.lanes == 1:
            return self.base0, self.shape0, self.strides0
        b = self.base[i if self.base.shape[0] > 1 else 0]
        s = self.shape[i if self.shape.shape[0] > 1 else 0]
        st = self.strides[i if self.strides.shape[0] > 1 else 0]
        return int(b), tuple(int(x) for x in s), tuple(int(x) for x in st)

    def __repr__(self) -> str:
        if self.lanes == 1:
            return (f"TensorViewValue(base={self.base0:#x}, shape={self.shape0}, "
                    f"strides={self.strides0})")
        return f"TensorViewValue(lanes={self.lanes})"


class Deferred:
    """The result of an elementwise float op left uncomputed for the ``store_view_tko`` right
    after it, its only use: the store computes ``fn(*args, out=...)`` straight into memory
    (then canonicalises NaNs there) instead of filling a temporary and copying it;
    :meth:`value` computes it the ordinary way."""

    __slots__ = ("fn", "args", "finish")

    def __init__(self, fn, args, finish) -> None:
        self.fn, self.args, self.finish = fn, args, finish

    def value(self) -> np.ndarray:
        return self.finish(self.fn(*self.args))


class DeferredProduct:
    """A matrix product (a fast-mode K loop of ``mmaf``) left uncomputed for the
    ``store_view_tko`` that is its only use, with nothing but quiet ops (views, constants)
    between them: ``into(dest)`` computes it straight into the store's destination (``dest``:
    the lanes' tiles as one strided view of memory, see ``_Access.spaced_view``) and returns
    True, or returns False having written nothing where that layout does not allow it;
    :meth:`value` computes it as a tile the ordinary way."""

    __slots__ = ("value", "into")

    def __init__(self, value, into) -> None:
        self.value, self.into = value, into

