"""tileir: a Python toolchain for NVIDIA CUDA Tile IR.

Public API::

    module = tileir.parse(text)            # or tileir.load(path)
    tileir.verify(module)                  # raises DiagnosticError on invalid IR
    text = tileir.print(module)
"""

from __future__ import annotations

from .dialects import builtin as _builtin  # noqa: F401  (registers the dialects)
from .dialects.cuda_tile import ops as _ops  # noqa: F401
from .dialects import arith as _arith, cf as _cf, func as _func, index as _index, math as _math  # noqa: F401,E501  (issue-09-up1)
from .dialects import gpu as _gpu, llvm as _llvm  # noqa: F401  (issue-09-gpu)
from .dialects import scf as _scf  # noqa: F401  (issue-09-up2)
from .dialects import memref as _memref  # noqa: F401  (issue-09-up2)
from .dialects import vector as _vector  # noqa: F401  (issue-09-up2)
from .dialects import async_ as _async  # noqa: F401  (MLIR's async dialect)
from .dialects import affine as _affine  # noqa: F401  (affine.apply/min/max)
from .ir.limits import ensure_recursion_room as _ensure_recursion_room
from .ir.diagnostics import Diagnostic, DiagnosticError
from .execute.errors import LaunchError
from .ir import Block, Operation, Region, Value
from .text import parse_attribute, parse_module, parse_type, print_op

__version__ = "0.1.0"

# Deeply nested regions are walked recursively (see tileir.ir.limits); raising the limit once at
# import, rather than at the first parse, keeps it from changing in the middle of a caller's code.
_ensure_recursion_room()

__all__ = ["parse", "print", "parse_type", "parse_attribute", "Diagnostic", "DiagnosticError",
           "Operation", "Block", "Region", "Value", "__version__", "load", "launch", "compile",
           "LaunchError", "read_bytecode", "write_bytecode", "verify"]


def parse(text: str, filename: str = "<string>", *, allow_unregistered: bool = False) -> Operation:
    """Parse Tile IR text (custom or generic form) into a module op."""
    return parse_module(text, filename, allow_unregistered=allow_unregistered)


def print(op: Operation, *, generic: bool = False, debuginfo: bool = False,  # noqa: A001
          assume_verified: bool = False) -> str:
    """Print an op (normally a module) in the canonical custom form or the generic form.  IR
    that does not verify prints in the generic form (the custom syntax assumes valid IR) unless
    ``assume_verified`` is set."""
    return print_op(op, generic=generic, debuginfo=debuginfo, assume_verified=assume_verified)


def verify(op: Operation, *, target_version: str | None = None) -> None:
    """Verify ``op`` and everything nested in it; raise :class:`DiagnosticError` listing the
    errors (with locations) if it is invalid.  ``target_version`` (e.g. ``"13.1"``) also
    rejects ops, attributes and types newer than that Tile IR version."""
    from .ir.verify import VerifyOptions
    from .ir.verify import verify as _verify
    _verify(op, VerifyOptions(target_version=target_version))


#: Magic bytes that start a Tile IR bytecode file.
BYTECODE_MAGIC = b"\x7fTileIR\x00"
#: File names read as bytecode whatever they hold (an empty or foreign one is reported as such)
BYTECODE_SUFFIXES = (".tilebc", ".tileirbc")


def load(path, *, allow_unregistered: bool = False) -> Operation:
    """Read a module file: Tile IR bytecode (recognised by its magic bytes, read with
    ``tileir.bytecode.read_bytecode``), module text, or a module body as ``tileirdisasm`` and
    ``CUDA_TILE_DUMP_TILEIR`` write it (recognised by content)."""
    import os
    with open(os.fspath(path), "rb") as f:
        data = f.read()
    if data.startswith(BYTECODE_MAGIC) or os.fspath(path).endswith(BYTECODE_SUFFIXES):
        try:
            from .bytecode import read_bytecode
        except ImportError as exc:  # pragma: no cover - only while bytecode support is missing
            raise DiagnosticError([Diagnostic("error", f"{os.fspath(path)}: Tile IR bytecode "
                                              f"is not supported by this build ({exc})")])
        return read_bytecode(data)
    from .dialects.cuda_tile.detect import parse_text  # module text, or a module body (tileirdisasm)
    return parse_text(data.decode("utf-8", errors="surrogateescape"), os.fspath(path),
                      allow_unregistered=allow_unregistered)


def read_bytecode(data, *, verify: bool = False) -> Operation:
    """Decode CUDA Tile IR bytecode (13.1-13.4) into a ``cuda_tile.module @kernels`` op; raises
    :class:`tileir.bytecode.BytecodeError` (offset and reason) for malformed input."""
    from .bytecode import read_bytecode as _read
    return _read(data, verify=verify)


def write_bytecode(module: Operation, version: str = "13.3") -> bytes:
    """Encode a module as CUDA Tile IR bytecode of ``version`` ("13.1" ... "13.4")."""
    from .bytecode import write_bytecode as _write
    return _write(module, version)


def launch(module, kernel_name: str, grid=(1, 1, 1), args=(), *, check_assumptions: bool = False,
           stdout=None, **options):
    """Run entry ``kernel_name`` of ``module`` on the CPU over ``grid`` (1-3 extents) with
    ``args`` (one per entry parameter: arrays for pointers, scalars for scalar tiles); stores
    write into the argument arrays.  See :mod:`tileir.execute`."""
    from .execute import launch as _launch
    return _launch(module, kernel_name, grid, args, check_assumptions=check_assumptions,
                   stdout=stdout, **options)


def compile(module, kernel_name: str, *, verify: bool = True):  # noqa: A001
    """Compile entry ``kernel_name`` into a reusable :class:`tileir.execute.Kernel`."""
    from .execute import compile_kernel
    return compile_kernel(module, kernel_name, verify=verify)


def __getattr__(name: str):
    # ``tileir.cutile`` (run cuTile Python kernels on the CPU) is imported on first use: it
    # imports NVIDIA's cuda.tile only when a kernel is launched.
    # ``tileir.gpu`` and ``tileir.tinytc`` likewise, so ``import tileir; tileir.gpu.run(...)`` works
    if name in ("cutile", "gpu", "tinytc"):
        import importlib
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'tileir' has no attribute {name!r}")
