"""gpu ops inside kernels: ids and dimensions, barrier, dynamic shared memory.

Conventions (README "Running gpu dialect programs"): subgroups hold 32 threads, numbered by the
linear thread id (x fastest); the last subgroup of a block may be partial; cluster ids group the
grid's blocks into clusters of the launch's cluster size (1x1x1 without one).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ....ir.core import Operation
from ...errors import UndefinedBehaviorError
from ..faults import LaneFault
from ..interp import affine
from ..kernel import SUBGROUP_SIZE, KernelExecutor
from ..lanes import Aff, ROOT_NDIM
from ..registry import lowering

_AXIS = {"x": 0, "y": 1, "z": 2}
_ZERO = (0,) * ROOT_NDIM


def _dim(op: Operation) -> int:
    return _AXIS[op.attributes["dimension"].keyword]


def _upper_bound(op: Operation):
    ub = op.attributes.get("upper_bound")
    return None if ub is None else int(ub.value)


def _const(ex, space, value: int) -> Any:
    return Aff(value, _ZERO, np.int64) if space.ndim == ROOT_NDIM else \
        space.uniform(value, np.int64)


def _checked(op: Operation, ub, largest: int, count: bool) -> None:
    """``upper_bound``: an id must stay below it for every thread of the launch; a count (a
    dimension, the subgroup size, the number of subgroups) may reach it but not exceed it."""
    if ub is not None and (largest > ub if count else largest >= ub):
        what = "exceeds" if count else "reaches"
        raise LaneFault(f"value {largest} {what} the op's upper_bound {ub} (undefined "
                        "behaviour)", kind=UndefinedBehaviorError)


def _kernel(ex) -> KernelExecutor:
    if not isinstance(ex, KernelExecutor):
        raise LaneFault("a kernel-side op ran outside a kernel launch")
    return ex


def _id_lowering(fn, count: bool = False, per_thread: bool = False):
    """The lowering of an id op (``count``: of a size op, whose upper_bound is inclusive;
    ``per_thread``: of thread_id/block_id/global_id, whose bound constrains only the threads
    that execute the op -- the others' ids may exceed it)."""
    def lower(op: Operation, c):
        d = _dim(op) if "dimension" in op.attributes else 0
        ub = _upper_bound(op)

        def step(ex, frame, args):
            k = _kernel(ex)
            value, largest = fn(k, d)
            if isinstance(value, Aff):
                result = k.in_space(frame.space, value)
            elif isinstance(value, int):
                result = _const(k, frame.space, value)
            else:
                result = value(frame.space)
            if per_thread and ub is not None and largest >= ub:
                ids = frame.space.array(result) if isinstance(result, Aff) else \
                    np.asarray(result)
                largest = int(ids.max()) if ids.size else -1
            _checked(op, ub, largest, count)
            return [result]
        return affine(step)
    return lower


def _count_lowering(fn):
    return _id_lowering(fn, count=True)


def _thread_bound_lowering(fn):
    return _id_lowering(fn, per_thread=True)


@lowering("gpu.thread_id")
@_thread_bound_lowering
def _thread_id(k: KernelExecutor, d: int):
    return k.thread_id(d), k.geo.block[d] - 1


@lowering("gpu.block_id")
@_thread_bound_lowering
def _block_id(k: KernelExecutor, d: int):
    return k.block_id(d), k.geo.grid[d] - 1


@lowering("gpu.block_dim")
@_count_lowering
def _block_dim(k: KernelExecutor, d: int):
    return k.geo.block[d], k.geo.block[d]


@lowering("gpu.grid_dim")
@_count_lowering
def _grid_dim(k: KernelExecutor, d: int):
    return k.geo.grid[d], k.geo.grid[d]


@lowering("gpu.global_id")
@_thread_bound_lowering
def _global_id(k: KernelExecutor, d: int):
    return (k.block_id(d).times(k.geo.block[d]).plus(k.thread_id(d)),
            k.geo.grid[d] * k.geo.block[d] - 1)


def _cluster(k: KernelExecutor, d: int) -> int:
    return k.geo.cluster[d] if k.geo.cluster is not None else 1


@lowering("gpu.cluster_dim")
@_count_lowering
def _cluster_dim(k: KernelExecutor, d: int):
    n = k.geo.grid[d] // _cluster(k, d)
    return n, n


@lowering("gpu.cluster_dim_blocks")
@_count_lowering
def _cluster_dim_blocks(k: KernelExecutor, d: int):
    return _cluster(k, d), _cluster(k, d)


@lowering("gpu.cluster_id")
@_id_lowering
def _cluster_id(k: KernelExecutor, d: int):
    c = _cluster(k, d)
    return (lambda space: space.array(k.in_space(space, k.block_id(d))) // c,
            (k.geo.grid[d] - 1) // c)


@lowering("gpu.cluster_block_id")
@_id_lowering
def _cluster_block_id(k: KernelExecutor, d: int):
    c = _cluster(k, d)
    return (lambda space: space.array(k.in_space(space, k.block_id(d))) % c, c - 1)


@lowering("gpu.lane_id")
@_id_lowering
def _lane_id(k: KernelExecutor, d: int):
    if k.geo.block[0] <= SUBGROUP_SIZE and k.geo.block[1] == k.geo.block[2] == 1:
        return k.thread_id(0), min(k.geo.threads, SUBGROUP_SIZE) - 1
    return (lambda space: space.array(k.in_space(space, k.thread_linear)) % SUBGROUP_SIZE,
            min(k.geo.threads, SUBGROUP_SIZE) - 1)


@lowering("gpu.subgroup_id")
@_id_lowering
def _subgroup_id(k: KernelExecutor, d: int):
    return (lambda space: space.array(k.in_space(space, k.thread_linear)) // SUBGROUP_SIZE,
            (k.geo.threads - 1) // SUBGROUP_SIZE)


@lowering("gpu.subgroup_size")
@_count_lowering
def _subgroup_size(k: KernelExecutor, d: int):
    return SUBGROUP_SIZE, SUBGROUP_SIZE


@lowering("gpu.num_subgroups")
@_count_lowering
def _num_subgroups(k: KernelExecutor, d: int):
    n = -(-k.geo.threads // SUBGROUP_SIZE)
    return n, n


@lowering("gpu.barrier")
def _barrier(op: Operation, c):
    def step(ex, frame, args):
        _kernel(ex).barrier(frame.space, op)
        return []
    return step


@lowering("gpu.dynamic_shared_memory")
def _dynamic_shared_memory(op: Operation, c):
    def step(ex, frame, args):
        k = _kernel(ex)
        ref = k.dynamic_shared_memory()
        ref.type = op.results[0].type
        return [ref if frame.space is k.root else frame.space.enter(ref)
                if frame.space.parent is k.root else _enter_chain(frame.space, ref)]
    return affine(step)


def _enter_chain(space, ref):
    chain = []
    s = space
    while s.parent is not None:
        chain.append(s)
        s = s.parent
    for s in reversed(chain):
        ref = s.enter(ref)
    return ref
