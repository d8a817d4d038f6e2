"""The host side: calling ``func.func``s, binding NumPy arguments, launching kernels.

Host code runs in the same engine as kernels, as a single lane (every value uniform), so arith,
math, scf, memref and vector ops have one definition.  ``gpu.launch_func`` and ``gpu.launch``
start :func:`~.kernel.run_kernel`; the async ops of :mod:`.ops.gpu_host` keep tokens.
"""

from __future__ import annotations

import numbers
from typing import Any, Optional, Sequence

import numpy as np

from ...ir.core import Operation
from ..errors import ArgumentError, GridError, LaunchError, UnsupportedError
from .aliasing import readonly_buffers, written_arguments
from .interp import Compiler, Executor, Frame, loc_text
from .kernel import COLUMN_MAJOR, Geometry, KernelExecutor, MAX_LANES, run_kernel
from .lanes import Aff, BoxSpace, ROOT_NDIM
from .memory import Buffer, MemRef
from .values import VECTOR_FIELD, Token, cell_dtype, storage, vector_shape

__all__ = ["HostExecutor", "Program", "bind_argument", "to_python", "lookup_kernel",
           "memref_from_array"]


class Program:
    """A module prepared for running: its plans (compiled once) and symbol tables.

    The module is verified first (``verify=False`` skips that for IR verified already):
    running IR that does not verify would give results no GPU would, so it is refused with the
    verifier's diagnostics (:class:`~tileir.ir.diagnostics.DiagnosticError`)."""

    def __init__(self, module: Operation, *, verify: bool = True) -> None:
        if verify:
            from ...ir.verify import verify as verify_module
            verify_module(module)
        self.module = module
        self.compiler = Compiler(self.module)
        self.funcs: dict[str, Operation] = {}
        #: llvm.func declarations (runtime functions a program calls with llvm.call)
        self.llvm_funcs: dict[str, Operation] = {}
        self.kernels: dict[str, Operation] = {}
        self.globals: dict[str, Operation] = {}
        #: names of gpu.binary ops (compiled kernels the engine cannot run)
        self.binaries: set[str] = set()
        for op in _top_ops(self.module):
            name = op.attributes.get("sym_name")
            if name is None:
                continue
            if op.name == "func.func":
                self.funcs[name.value] = op
            elif op.name == "llvm.func":
                self.llvm_funcs[name.value] = op
            elif op.name == "gpu.module":
                for inner in op.regions[0].blocks[0].ops:
                    sym = inner.attributes.get("sym_name")
                    if inner.name == "gpu.func" and sym is not None:
                        self.kernels[f"{name.value}::{sym.value}"] = inner
                    elif inner.name == "memref.global" and sym is not None:
                        self.globals.setdefault(sym.value, inner)
            elif op.name == "memref.global":
                self.globals[name.value] = op
            elif op.name == "gpu.binary":
                self.binaries.add(name.value)
        #: buffers of the memref.global declarations used so far (see ops.memref.global_buffer)
        self.global_buffers: dict[Operation, MemRef] = {}


def _top_ops(module: Operation) -> list[Operation]:
    if not module.regions or not module.regions[0].blocks:
        return []
    return list(module.regions[0].blocks[0].ops)


def lookup_kernel(program: Program, name: str) -> Operation:
    """``"mod::k"`` (or ``"@mod::@k"``) -> the ``gpu.func``."""
    key = name.replace("@", "")
    k = program.kernels.get(key)
    if k is None and key.split("::")[0] in program.binaries:
        from ..errors import UnsupportedError
        raise UnsupportedError(f"kernel '{name}' is in gpu.binary @{key.split('::')[0]} "
                               "(compiled GPU code); the CPU engine runs gpu.module kernels")
    if k is None:
        known = ", ".join(sorted(program.kernels)) or "none"
        raise ArgumentError(f"no gpu.func '{name}' in the module (kernels: {known})")
    return k


def _as_dtype(array: np.ndarray, dtype: np.dtype, type_, name: str) -> np.ndarray:
    """``array`` as elements of ``dtype`` (integers of the same size are reinterpreted in
    place); any other dtype is an :class:`ArgumentError`."""
    if array.dtype == dtype:
        return array
    if array.dtype.itemsize == dtype.itemsize and array.dtype.kind in "iub" and \
            dtype.kind in "iub":
        return array.view(dtype)
    raise ArgumentError(f"{name}: array of dtype {array.dtype} for {type_} (expects {dtype})")


def _is_vector_type(t) -> bool:
    return type(t).__name__ == "VectorType"


def vector_cells(array: np.ndarray, type_, name: str) -> np.ndarray:
    """The NumPy argument of a memref of vectors (``memref<4xvector<8xf32>>``: an array of
    shape ``(4, 8)`` and the vector's element dtype) viewed in place as one record per vector,
    the layout of such buffers (:func:`~.values.cell_dtype`).  The vector axes must be
    contiguous, so that each vector is one block of memory."""
    vtype = type_.element
    vshape = tuple(vtype.shape)
    lead = array.ndim - len(vshape)
    if lead < 0 or tuple(array.shape[lead:]) != vshape:
        raise ArgumentError(f"{name}: array of shape {array.shape} for {type_} (expects the "
                            f"memref's shape followed by the vector shape {vshape})")
    arr = _as_dtype(array, storage(vtype), type_, name)
    item = arr.itemsize
    contiguous = tuple(item * int(np.prod(vshape[k + 1:], dtype=np.int64))
                       for k in range(len(vshape)))
    if any(n > 1 and s != want for n, s, want in zip(vshape, arr.strides[lead:], contiguous)):
        raise ArgumentError(f"{name}: the vector axes of the array (strides "
                            f"{arr.strides[lead:]}) are not contiguous; {type_} needs each "
                            "vector in one block of memory")
    n = int(np.prod(vshape, dtype=np.int64))
    flat = np.lib.stride_tricks.as_strided(arr, shape=arr.shape[:lead] + (n,),
                                           strides=arr.strides[:lead] + (item,))
    return flat.view(cell_dtype(vtype))[..., 0]


def memref_from_array(array: np.ndarray, type_, name: str) -> MemRef:
    """A memref descriptor over a NumPy array's memory (in place; strided arrays keep their
    strides).  For a memref of vectors ``array`` is one record per vector
    (:func:`vector_cells`)."""
    arr = _as_dtype(array, cell_dtype(type_.element), type_, name)
    dtype = arr.dtype
    item = arr.itemsize
    if any(s % item for s in arr.strides):
        raise ArgumentError(f"{name}: array strides {arr.strides} are not multiples of the "
                            f"element size {item}")
    strides = [s // item for s in arr.strides]
    if arr.size == 0:
        buf = Buffer(np.zeros(0, dtype=dtype), "host", name)
        return MemRef(buf, 0, list(arr.shape), strides, type_)
    if arr.flags.c_contiguous:          # (the common case: the flat array itself)
        buf = Buffer(arr.reshape(-1), "host", name, read_only=not arr.flags.writeable)
        return MemRef(buf, 0, list(arr.shape), strides, type_)
    lo = sum(min(0, (n - 1) * s) for n, s in zip(arr.shape, strides))
    hi = sum(max(0, (n - 1) * s) for n, s in zip(arr.shape, strides))
    span = hi - lo + 1
    # ``base`` starts at the lowest address the array touches
    low_view = _lowest_view(arr, strides)
    base = np.lib.stride_tricks.as_strided(low_view, shape=(span,), strides=(item,))
    buf = Buffer(base, "host", name, read_only=not arr.flags.writeable)
    return MemRef(buf, -lo, list(arr.shape), strides, type_)


def _lowest_view(arr: np.ndarray, strides: Sequence[int]) -> np.ndarray:
    idx = tuple((n - 1) if s < 0 else 0 for n, s in zip(arr.shape, strides))
    return arr[idx + (None,)] if arr.ndim else arr.reshape(1)


def _real_scalar(value: Any, type_, name: str) -> Any:
    """``value`` as a real number for a scalar parameter of ``type_`` (a 0-d array gives its
    element); strings, complex numbers, ``None``, sequences and larger arrays are refused."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, numbers.Real):
        return value
    if isinstance(value, np.bool_) or type(value).__module__.startswith("ml_dtypes"):
        return value                    # NumPy bools and ml_dtypes scalars (bfloat16, fp8, i4...)
    raise ArgumentError(f"{name}: expected a number for {type_}, got {type(value).__name__}")


def bind_argument(value: Any, type_, name: str, space) -> Any:
    """A Python/NumPy argument as a runtime value of ``type_``."""
    tname = type(type_).__name__
    if tname == "MemRefType":
        if isinstance(value, MemRef):
            return value
        if not isinstance(value, np.ndarray):
            raise ArgumentError(f"{name}: expected a NumPy array for {type_}, got "
                                f"{type(value).__name__}")
        if _is_vector_type(type_.element):
            value = vector_cells(value, type_, name)
        shape = tuple(type_.shape)
        if len(shape) != value.ndim:
            raise ArgumentError(f"{name}: array of rank {value.ndim} for {type_}")
        for k, (want, got) in enumerate(zip(shape, value.shape)):
            if want is not None and want != got:
                raise ArgumentError(f"{name}: dimension {k} is {got}, {type_} expects {want}")
        ref = memref_from_array(value, type_, name)
        strides, offset = type_.strides_and_offset()
        for k, (want, got) in enumerate(zip(strides, ref.strides)):
            if want is not None and want != got and value.shape[k] > 1:
                raise ArgumentError(f"{name}: stride {got} of dimension {k} does not match "
                                    f"{type_}")
        return ref
    if tname in ("IntegerType", "IndexType", "FloatType") or hasattr(type_, "width") or \
            str(type_) == "index":
        dtype = storage(type_)
        value = _real_scalar(value, type_, name)
        try:
            if dtype.kind in "iu" and not isinstance(value, (bool, np.bool_)):
                if isinstance(value, (float, np.floating)) and not float(value).is_integer():
                    raise ArgumentError(f"{name}: {value!r} is not an integer ({type_})")
                iv = int(value)
                bits = dtype.itemsize * 8
                if not -(1 << (bits - 1)) <= iv < (1 << bits):
                    raise ArgumentError(f"{name}: {value} does not fit {type_}")
                arr = np.asarray(iv & ((1 << bits) - 1)).astype(np.uint64).astype(dtype) \
                    if iv >= 0 else np.asarray(iv, dtype=dtype)
            else:
                arr = np.asarray(value).astype(dtype)
        except ArgumentError:
            raise
        except (TypeError, ValueError, OverflowError) as e:
            raise ArgumentError(f"{name}: cannot pass {value!r} as {type_}: {e}") from None
        return space.uniform(arr, dtype)
    if tname == "VectorType":
        try:
            arr = np.asarray(value, dtype=storage(type_))
        except (TypeError, ValueError, OverflowError) as e:
            raise ArgumentError(f"{name}: cannot pass {value!r} as {type_}: {e}") from None
        if arr.shape != tuple(type_.shape):
            raise ArgumentError(f"{name}: vector of shape {arr.shape} for {type_}")
        return space.uniform(arr, arr.dtype, arr.shape)
    return value


def to_python(value: Any, type_) -> Any:
    """A host runtime value as what ``gpu.run`` returns (a memref of vectors as an array of
    its shape followed by the vector shape, as its arguments are passed)."""
    if isinstance(value, MemRef):
        arr = np.array(value.to_numpy())
        return arr[VECTOR_FIELD] if arr.dtype.names == (VECTOR_FIELD,) else arr
    if isinstance(value, Aff):
        value = value.materialize(BoxSpace((0,) * ROOT_NDIM, (1,) * ROOT_NDIM))
    if isinstance(value, np.ndarray):
        vshape = vector_shape(type_)
        arr = value.reshape(value.shape[value.ndim - len(vshape):] if vshape else ())
        return np.array(arr) if vshape else arr[()]
    return value


def _check_known_sizes(kernel: Operation, geo: Geometry,
                       launch_op: Optional[Operation]) -> None:
    """A kernel's ``known_block_size`` / ``known_grid_size`` must be the launch's extents: the
    spec leaves other launches undefined (CUDA's lowering turns the block size into ``reqntid``,
    and the driver refuses a launch with another one)."""
    for attr, dims, what in (("known_block_size", geo.block, "block"),
                             ("known_grid_size", geo.grid, "grid")):
        known = kernel.attributes.get(attr)
        if known is not None and tuple(known.value) != tuple(dims):
            raise GridError(f"kernel '{kernel.attributes['sym_name'].value}' has {attr} = "
                            f"{tuple(known.value)} but is launched with {what} {tuple(dims)}",
                            op=launch_op.name if launch_op else None,
                            loc=loc_text(launch_op) if launch_op else "")


class HostExecutor(Executor):
    """Runs host functions: one lane; kernel launches go to :func:`run_kernel`."""

    kind = "host"

    def __init__(self, program: Program, *, racecheck: bool = False,
                 stdout: Optional[Any] = None, max_lanes: int = MAX_LANES,
                 matrix_layout: str = COLUMN_MAJOR, streams: bool = False,
                 backend: Optional[str] = None) -> None:
        super().__init__(program.compiler)
        from .native import resolve_backend
        #: how kernels run: ``"auto"``, ``"native"`` or ``"lanes"`` (:mod:`.native.launcher`)
        self.backend = resolve_backend(backend)
        self.program = program
        #: async ops also ordered by stream, as MLIR's CUDA lowering places them
        #: (:func:`~.runtime.start`)
        self.streams = streams
        self.root = BoxSpace((0,) * ROOT_NDIM, (1,) * ROOT_NDIM)
        self.racecheck = racecheck
        #: the layout of the matrices of LLVM's matrix intrinsics, here and in launched kernels
        self.matrix_layout = matrix_layout
        self.stdout = stdout
        self.max_lanes = max_lanes
        self.depth = 0
        #: buffer idents passed to gpu.host_register; the default device index
        self.registered: set = set()
        self.device = 0
        self._ids = 0

    def next_id(self) -> int:
        """A fresh number for naming allocations in diagnostics."""
        self._ids += 1
        return self._ids

    def check_host_access(self, ref: MemRef, op: Operation) -> None:
        """Host code may not touch device memory or memory an async op is still writing."""
        from .runtime import check_host_access
        check_host_access(ref, op)

    def call(self, func: Operation, args: Sequence[Any]) -> list:
        """Run ``func`` with runtime values ``args``; returns its results' runtime values."""
        body = func.regions[0]
        if not body.blocks:
            from .runner_utils import call_runner_function
            results = call_runner_function(self, func, args)
            if results is None:
                raise UnsupportedError(f"function '{func.attributes['sym_name'].value}' has no "
                                       "body (and is not a function of MLIR's runner utility "
                                       "libraries)")
            return results
        self.depth += 1
        if self.depth > 256:
            raise LaunchError("call depth exceeds 256 (unbounded recursion?)",
                              op="func.call", loc=loc_text(func))
        try:
            self.compiler.region(body)
            frame = Frame(self.root)
            return self.run_single(body, frame, args).values
        finally:
            self.depth -= 1

    def launch(self, kernel: Operation, geo: Geometry, args: Sequence[Any],
               launch_op: Optional[Operation] = None, deps: Sequence[Any] = ()) -> set:
        """Run a ``gpu.func`` over ``geo`` with runtime argument values ``args`` (after the
        async tokens ``deps``); returns the indices of the memref arguments it may write."""
        body = kernel.regions[0]
        ftype = kernel.attributes["function_type"].value
        n_in = len(ftype.inputs)
        if len(args) != n_in:
            raise ArgumentError(f"kernel '{kernel.attributes['sym_name'].value}' takes {n_in} "
                                f"arguments, got {len(args)}", op=launch_op.name if launch_op
                                else None, loc=loc_text(launch_op) if launch_op else "")
        _check_known_sizes(kernel, geo, launch_op)
        n_wg = int(kernel.attributes["workgroup_attributions"].value) \
            if "workgroup_attributions" in kernel.attributes else 0
        entry = body.blocks[0]
        wg_args = entry.args[n_in:n_in + n_wg]
        priv_args = entry.args[n_in + n_wg:]

        def bind(ex: KernelExecutor, frame: Frame) -> list:
            return [_kernel_value(ex, a) for a in args] + ex.attributions(wg_args, priv_args)
        written = self.compiler.cache.get(("written", kernel))
        if written is None:
            written = written_arguments(body, n_in)
            self.compiler.cache[("written", kernel)] = written
        if launch_op is not None:
            from .runtime import check_device_use
            for a in args:
                if isinstance(a, MemRef):
                    check_device_use(a.buffer, deps, launch_op)
        from .native import try_launch
        if try_launch(kernel, geo, args, n_in, n_wg, self.backend, self.racecheck,
                      self.compiler.cache):
            return written
        text = run_kernel(self.compiler, body, geo, bind, racecheck=self.racecheck,
                          max_lanes=self.max_lanes,
                          readonly=frozenset(readonly_buffers(list(args), written)),
                          program=self.program, matrix_layout=self.matrix_layout,
                          emit=self.emit)
        self.emit(text)
        return written

    def finish(self) -> None:
        """End of the program (hook for the async runtime's checks)."""

    def emit(self, text: str) -> None:
        if not text:
            return
        if self.stdout is None:
            import sys
            sys.stdout.write(text)
        else:
            self.stdout.write(text)


def _kernel_value(ex: KernelExecutor, value: Any) -> Any:
    """A host value as a uniform value of the kernel's root space."""
    if isinstance(value, np.ndarray) and value.ndim >= ROOT_NDIM:
        return value.reshape((1,) * ROOT_NDIM + value.shape[ROOT_NDIM:])
    if isinstance(value, Token):
        return value
    return value

