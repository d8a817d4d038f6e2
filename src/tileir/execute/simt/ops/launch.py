"""func.call, llvm.call (runtime functions) and the kernel launches: gpu.launch_func, gpu.launch
(host side)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ....ir.core import Operation
from ...errors import ArgumentError, GridError, UnsupportedError
from ..faults import LaneFault
from ..host import HostExecutor, lookup_kernel
from ..interp import Frame, affine
from ..kernel import Geometry, KernelExecutor, run_kernel
from ..lanes import Aff
from ..registry import lowering
from ..runner_utils import call_runner_function
from .llvm_host import c_printf
from ..memory import MemRef
from ..aliasing import captured_memrefs, captured_values, written_captures
from ..native import try_launch_body
from ..runtime import check_device_use, dependencies, start, token_of, written_by


def _host(ex, op: Operation) -> HostExecutor:
    if not isinstance(ex, HostExecutor):
        raise LaneFault(f"'{op.name}' inside a kernel (dynamic parallelism is not supported)",
                        kind=UnsupportedError)
    return ex


def _symbol(attr) -> str:
    text = str(attr)
    return text.lstrip("@").replace("::@", "::")


@lowering("func.call")
def _call(op: Operation, c):
    callee = _symbol(op.attributes["callee"])

    def step(ex, frame, args):
        host = _host(ex, op)
        func = host.program.funcs.get(callee)
        if func is None:
            raise LaneFault(f"call to unknown function '@{callee}'", kind=UnsupportedError)
        return host.call(func, args)
    return step


#: functions of MLIR's CUDA runtime wrappers that set up library handles (cuSPARSE,
#: cuSPARSELt): nothing to do here, the sparse ops need no handle
_RUNTIME_NO_OPS = frozenset({"mgpuCreateSparseEnv", "mgpuDestroySparseEnv",
                             "mgpuCreateSparseLtEnv", "mgpuDestroySparseLtEnv"})


@lowering("llvm.call")
def _llvm_call(op: Operation, c):
    callee = _symbol(op.attributes["callee"])

    def step(ex, frame, args):
        host = _host(ex, op)
        func = host.program.llvm_funcs.get(callee)
        if func is None:
            raise LaneFault(f"llvm.call of '@{callee}', which is no llvm.func of the module",
                            kind=UnsupportedError)
        if callee in _RUNTIME_NO_OPS:
            return []
        if func.regions and func.regions[0].blocks:     # an llvm.func with a body
            return host.call(func, args)
        if callee == "printf" and "var_callee_type" in op.attributes:
            return c_printf(host, op, args)
        results = call_runner_function(host, func, args)
        if results is None:
            raise LaneFault(f"llvm.call of '@{callee}': not a function tileir provides (MLIR's "
                            "runner utilities and the CUDA runtime's sparse environment "
                            "calls are)", kind=UnsupportedError)
        return results
    return step


def _scalar(value: Any, what: str) -> int:
    if isinstance(value, Aff):
        return value.const
    arr = np.asarray(value)
    if arr.size != 1:
        raise LaneFault(f"{what} differs between lanes")
    return int(arr.reshape(-1)[0])


def _geometry(op: Operation, frame: Frame) -> Geometry:
    def group(name):
        return [frame.get(v) for v in op.operand_group(name)]
    grid = [_scalar(v, "grid size") for d in "XYZ" for v in group(f"gridSize{d}")]
    block = [_scalar(v, "block size") for d in "XYZ" for v in group(f"blockSize{d}")]
    cluster = [_scalar(v, "cluster size") for d in "XYZ" for v in group(f"clusterSize{d}")]
    dyn = group("dynamicSharedMemorySize")
    try:
        return Geometry(grid, block, cluster or None, _scalar(dyn[0], "dynamic shared memory")
                        if dyn else 0)
    except GridError as e:
        raise LaneFault(e.message, kind=GridError) from None




@lowering("gpu.launch_func")
def _launch_func(op: Operation, c):
    name = _symbol(op.attributes["kernel"])

    def step(ex, frame, args):
        host = _host(ex, op)
        kernel = lookup_kernel(host.program, name)
        if host.compiler.cache.get(("launch types", op)) is not kernel:
            _check_operand_types(op, kernel)
            host.compiler.cache[("launch types", op)] = kernel
        deps = dependencies(op, frame)
        geo = _geometry(op, frame)
        operands = [frame.get(v) for v in op.operand_group("kernelOperands")]
        written = host.launch(kernel, geo, operands, op, deps)
        results = start(op, deps, host.streams)
        for i in written:
            if isinstance(operands[i], MemRef):
                written_by(operands[i].buffer, token_of(results))
        return results
    return affine(step)


def _check_operand_types(op: Operation, kernel: Operation) -> None:
    """The kernel operands of a ``gpu.launch_func`` must have the kernel's argument types (as
    the verifier checks; an unverified module must not reinterpret memory)."""
    inputs = kernel.attributes["function_type"].value.inputs
    operands = op.operand_group("kernelOperands")
    if len(operands) != len(inputs):
        raise LaneFault(f"got {len(operands)} kernel operands but expected {len(inputs)}",
                        kind=ArgumentError)
    for i, (v, t) in enumerate(zip(operands, inputs)):
        if v.type != t:
            raise LaneFault(f"type of function argument {i} does not match (the kernel takes "
                            f"{t}, the launch passes {v.type})", kind=ArgumentError)


@lowering("gpu.launch")
def _launch(op: Operation, c):
    body = op.regions[0]

    def step(ex, frame, args):
        host = _host(ex, op)
        deps = dependencies(op, frame)
        geo = _geometry(op, frame)
        n_wg = int(op.attributes["workgroup_attributions"].value) \
            if "workgroup_attributions" in op.attributes else 0
        entry = body.blocks[0]
        clustered = _has_cluster(op)
        first_attr = 18 if clustered else 12
        wg_args = entry.args[first_attr:first_attr + n_wg]
        priv_args = entry.args[first_attr + n_wg:]

        def bind(k: KernelExecutor, kframe: Frame) -> list:
            def const(x):
                return Aff(x, (0,) * 6, np.int64)
            ids = [k.block_id(d) for d in range(3)] + [k.thread_id(d) for d in range(3)]
            ids += [const(g) for g in geo.grid] + [const(b) for b in geo.block]
            if clustered:
                # body arguments 12-17 (MLIR's order): cluster ids, then cluster sizes
                cl = geo.cluster or (1, 1, 1)
                ids += [k.root.array(k.block_id(d)) // cl[d] for d in range(3)]
                ids += [const(x) for x in cl]
            return ids + k.attributions(wg_args, priv_args)
        captured = host.compiler.cache.get(("captures", op))
        if captured is None:
            captured = host.compiler.cache[("captures", op)] = written_captures(body)
        used = host.compiler.cache.get(("used captures", op))
        if used is None:
            used = host.compiler.cache[("used captures", op)] = list(captured_memrefs(body))
        for v in used:          # (read or written: either must come after pending writes)
            ref = frame.get(v)
            if isinstance(ref, MemRef):
                check_device_use(ref.buffer, deps, op)
        inputs = host.compiler.cache.get(("captured values", op))
        if inputs is None:
            inputs = host.compiler.cache[("captured values", op)] = captured_values(body)
        if try_launch_body(op, geo, inputs, [frame.get(v) for v in inputs], n_wg,
                           host.backend, host.racecheck, host.compiler.cache):
            return _after_launch(op, deps, host, frame, captured)
        text = run_kernel(host.compiler, body, geo, bind, racecheck=host.racecheck,
                          max_lanes=host.max_lanes, parent=frame, program=host.program,
                          matrix_layout=host.matrix_layout, emit=host.emit)
        host.emit(text)
        return _after_launch(op, deps, host, frame, captured)
    return affine(step)


def _after_launch(op: Operation, deps, host, frame: Frame, written: set) -> list:
    """A ``gpu.launch``'s results (its async token) once its body ran; the memrefs it may
    have written are pending on that token."""
    results = start(op, deps, host.streams)
    for v in written:
        ref = frame.get(v)
        if isinstance(ref, MemRef):
            written_by(ref.buffer, token_of(results))
    return results


def _has_cluster(op: Operation) -> bool:
    return bool(op.operand_group("clusterSizeX"))

