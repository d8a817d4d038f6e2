"""``tileir run``: run a kernel of a Tile IR file, or an MLIR gpu dialect program, on the CPU.

    tileir run FILE --kernel NAME --grid X[,Y[,Z]] --arg SPEC ... [--out DIR]
    tileir run FILE --func main --arg SPEC ...                  (gpu dialect: a host func.func)
    tileir run FILE --kernel mod::k --grid X,Y,Z --block X,Y,Z --arg SPEC ...   (a gpu.func)

One ``--arg`` per entry parameter, in order.  A SPEC is

* a scalar literal for a scalar parameter: ``42``, ``-7``, ``0x1f``, ``1.5``, ``-inf``, ``nan``,
  ``true``/``false``;
* a ``.npy`` file for a pointer (or tensor view) parameter;
* a generator ``KIND:DTYPE:SHAPE[:VALUE]`` with KIND ``zeros``, ``ones``, ``full`` (VALUE),
  ``rand`` (uniform in [0, 1)), ``randn`` (standard normal), ``randint`` (integers in
  [0, VALUE), default 100) or ``arange``; DTYPE a Tile IR element type (``f32``, ``f16``,
  ``bf16``, ``i32``, ``i1``, ``f8E4M3FN``...) or a NumPy dtype name; SHAPE ``1024`` or
  ``64x64``.  Example: ``--arg rand:f16:64x64``.

After the launch the arrays the kernel stored into are saved to ``DIR/argN.npy`` with ``--out``,
and summarised on stdout otherwise.  Problems (a bad file, a wrong argument, an out-of-bounds
access, a failed ``assert``...) are reported as ``error: ...`` on stderr with exit status 1.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Sequence

import numpy as np

from ..execute.launch import DEFAULT_MMA, MMA_MODES

__all__ = ["run_kernel", "parse_arg_spec", "ArgSpecError"]

_GENERATORS = ("zeros", "ones", "full", "rand", "randn", "randint", "arange")

#: the --arg syntax, shown by ``tileir run --help``
ARG_SYNTAX = """\
--arg SPEC (one per entry parameter, in order):
  42, -7, 0x1f, 1.5, -inf, nan, true  a scalar literal (scalar parameter)
  data.npy                           a NumPy array file (pointer or tensor view parameter)
  KIND:DTYPE:SHAPE[:VALUE]           a generated array:
      KIND   zeros | ones | full (VALUE) | rand (uniform [0, 1)) | randn (normal) |
             randint (integers in [0, VALUE), default 100) | arange
      DTYPE  f32, f16, bf16, f64, i8, i16, i32, i64, i1, f8E4M3FN, ... or a NumPy dtype
      SHAPE  1024 or 64x64
examples:
  tileir run examples/vector_add.mlir --grid 4 --arg rand:f32:4096 --arg rand:f32:4096 \\
      --arg zeros:f32:4096 --arg 4096
  tileir run kernel.tilebc -k matmul -g 8,8 --arg randn:f16:512x512 --arg full:f32:16:2.5
  tileir run examples/gpu/vector_add.mlir --func main --arg rand:f32:1000 \
      --arg rand:f32:1000 --arg zeros:f32:1000 --arg 1000
  tileir run examples/gpu/vector_add.mlir --kernel kernels::vector_add --grid 4 --block 256 \
      --arg rand:f32:1000 --arg rand:f32:1000 --arg zeros:f32:1000 --arg 1000
"""


class ArgSpecError(ValueError):
    """A ``--arg`` SPEC that cannot be turned into a value."""


def _dtype(name: str) -> np.dtype:
    from ..ir.dtypes import NUMPY_DTYPES
    if name in NUMPY_DTYPES:
        return NUMPY_DTYPES[name]
    try:
        import ml_dtypes  # noqa: F401  (registers bfloat16 etc. with NumPy)
        return np.dtype(name)
    except TypeError:
        raise ArgSpecError(f"unknown dtype '{name}'") from None


def _shape(text: str) -> tuple:
    if text in ("", "scalar"):
        return ()
    try:
        dims = tuple(int(d) for d in text.lower().split("x"))
    except ValueError:
        raise ArgSpecError(f"bad shape '{text}' (expected whole-number extents such as 1024 "
                           "or 64x64)") from None
    if any(d < 0 for d in dims):
        raise ArgSpecError(f"bad shape '{text}'")
    return dims


def _literal(text: str):
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(low, 0)
    except ValueError:
        pass
    try:
        return float(low)
    except ValueError:
        raise ArgSpecError(f"'{text}' is not a number, a .npy file or a generator "
                           f"({'|'.join(_GENERATORS)}:DTYPE:SHAPE)") from None


def _generate(kind: str, dt: np.dtype, shape: tuple, value, rng: np.random.Generator,
              spec: str) -> np.ndarray:
    """The array a generator SPEC (``zeros``, ``rand``, ``arange``, ...) describes."""
    if kind == "zeros":
        return np.zeros(shape, dtype=dt)
    if kind == "ones":
        return np.ones(shape, dtype=dt)
    if kind == "full":
        if value is None:
            raise ArgSpecError(f"'{spec}': full needs a value (full:DTYPE:SHAPE:VALUE)")
        return np.full(shape, _literal(value)).astype(dt)
    if kind == "rand":
        return rng.random(shape).astype(dt)
    if kind == "randn":
        return rng.standard_normal(shape).astype(dt)
    if kind == "randint":
        hi = int(_literal(value)) if value is not None else 100
        return rng.integers(0, hi, shape).astype(dt)
    return np.arange(int(np.prod(shape)) if shape else 1).reshape(shape).astype(dt)


def _too_big(spec: str, dt_name: str, dt: np.dtype, shape: tuple) -> str:
    n = int(np.prod(shape, dtype=object)) if shape else 1
    return (f"cannot make '{spec}': {n:,} {dt_name} elements need {_bytes(n * dt.itemsize)}, "
            "more memory than this machine has")


def _bytes(n: int) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:,} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    return ""  # pragma: no cover


def _check_size(spec: str, dt_name: str, dt: np.dtype, shape: tuple) -> None:
    """Refuse an array larger than physical memory (generating it would swap or be killed)."""
    n = int(np.prod(shape, dtype=object)) if shape else 1
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        memory = 1 << 40
    # the generators may hold a float64 copy while converting
    if n * max(dt.itemsize, 8) > memory:
        raise ArgSpecError(_too_big(spec, dt_name, dt, shape))


def parse_arg_spec(spec: str, rng: np.random.Generator):
    """Turn one ``--arg`` SPEC into a Python scalar or a NumPy array."""
    head = spec.split(":", 1)[0]
    if head in _GENERATORS and ":" in spec:
        parts = spec.split(":")
        if len(parts) < 3:
            raise ArgSpecError(f"generator '{spec}' needs KIND:DTYPE:SHAPE")
        kind, dt_name, shape_text = parts[0], parts[1], parts[2]
        value = parts[3] if len(parts) > 3 else None
        dt = _dtype(dt_name)
        shape = _shape(shape_text)
        _check_size(spec, dt_name, dt, shape)
        try:
            return _generate(kind, dt, shape, value, rng, spec)
        except ArgSpecError:
            raise
        except MemoryError:
            raise ArgSpecError(_too_big(spec, dt_name, dt, shape)) from None
        except (ValueError, OverflowError) as exc:
            raise ArgSpecError(f"cannot make '{spec}': {exc}") from None
    if spec.endswith(".npy") or (os.path.sep in spec and os.path.exists(spec)):
        try:
            return np.load(spec, allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise ArgSpecError(f"cannot read '{spec}': {exc}") from None
    return _literal(spec)


def _grid(text: str, what: str = "grid") -> tuple:
    """``--grid`` / ``--block`` text (``X[,Y[,Z]]``, or ``XxY``) as a tuple of ints."""
    try:
        dims = tuple(int(d) for d in text.replace("x", ",").split(",") if d.strip())
    except ValueError:
        raise ArgSpecError(f"bad {what} '{text}' (expected X[,Y[,Z]])") from None
    if not dims:
        raise ArgSpecError(f"bad {what} '{text}': no extents (expected X[,Y[,Z]])")
    return dims


def _summary(arr: np.ndarray) -> str:
    flat = np.asarray(arr).reshape(-1)
    with np.printoptions(threshold=8, edgeitems=3, precision=6):
        shown = np.array2string(flat if flat.dtype != object else flat.astype(str), separator=", ")
    return f"{arr.dtype} {'x'.join(map(str, arr.shape)) or 'scalar'} {shown}"


def run_kernel(argv: Sequence[str], prog: str = "tileir run") -> int:
    p = argparse.ArgumentParser(prog=prog, description="Run a Tile IR kernel on the CPU.",
                                epilog=ARG_SYNTAX,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help="Tile IR file (text or bytecode)")
    p.add_argument("--kernel", "-k", help="entry to run (default: the only entry); for a gpu "
                                            "dialect file a gpu.func as MODULE::FUNC")
    p.add_argument("--func", "-f", help="gpu dialect file: the host func.func to call")
    p.add_argument("--grid", "-g", default="1", help="X[,Y[,Z]] tile blocks (default 1)")
    p.add_argument("--block", "-b", default="1",
                   help="gpu dialect --kernel: X[,Y[,Z]] threads per block (default 1)")
    p.add_argument("--dynamic-shared-memory", type=int, default=0, metavar="BYTES",
                   help="gpu dialect --kernel: dynamic shared memory per block")
    p.add_argument("--racecheck", action="store_true",
                   help="gpu dialect: report unsynchronised conflicting accesses")
    p.add_argument("--backend", choices=("auto", "native", "lanes"), default=None,
                   help="gpu dialect: run kernels as compiled C where they qualify (auto: "
                        "large launches, the default; native: every launch) or on the lane "
                        "engine only (lanes)")
    p.add_argument("--async-order", choices=("dependencies", "streams"), default="dependencies",
                   help="gpu dialect: order async ops by their dependency lists only (default, "
                        "the dialect's semantics) or also by stream, as MLIR's CUDA lowering "
                        "places them")
    p.add_argument("--matrix-default-layout", choices=("column-major", "row-major"),
                   default="column-major",
                   help="gpu dialect: how LLVM's matrix intrinsics (llvm.intr.matrix.*) lay a "
                        "matrix out in a flat vector (default column-major, as LLVM's option "
                        "of that name)")
    p.add_argument("--arg", "-a", action="append", default=[], metavar="SPEC",
                   help="one per entry parameter, in order: a scalar literal, a .npy file "
                        "or a generator KIND:DTYPE:SHAPE[:VALUE] (see below)")
    p.add_argument("--out", "-o", metavar="DIR", help="save the arrays the kernel wrote here")
    p.add_argument("--seed", type=int, default=0, help="seed of the rand/randn generators")
    p.add_argument("--check-assumptions", action="store_true",
                   help="check the predicates of 'assume' ops while running")
    p.add_argument("--sequential", action="store_true",
                   help="run tile blocks one at a time (no lock-step batching)")
    p.add_argument("--mma", choices=MMA_MODES, default=DEFAULT_MMA,
                   help="mmaf: f32 accumulation through BLAS (fast, the default) or exact "
                        "sums rounded once (exact)")
    p.add_argument("--no-verify", action="store_true", help="skip the verifier")
    p.add_argument("--quiet", "-q", action="store_true",
                   help="no progress line for long launches (shown on a terminal otherwise)")
    opts = p.parse_args(list(argv))
    try:
        return _run(opts, prog)
    except KeyboardInterrupt as exc:
        detail = str(exc)
        print(f"{prog}: interrupted" + (f": {detail}" if detail else ""), file=sys.stderr)
        return 130


def _run(opts, prog: str) -> int:
    import tileir
    from ..ir.diagnostics import DiagnosticError
    from ..execute import LaunchError

    def fail(message: str) -> int:
        print(f"{prog}: error: {message}", file=sys.stderr)
        return 1

    path = Path(opts.input)
    if not path.exists():
        return fail(f"cannot open input file '{opts.input}': No such file or directory")
    from ..bytecode import BytecodeError
    try:
        module = tileir.load(path)
    except BytecodeError as exc:
        return fail(f"'{opts.input}': {exc.message}")
    except DiagnosticError as exc:
        print(exc.render(), file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - unreadable input must not show a traceback
        return fail(f"cannot read '{opts.input}': {exc}")
    if _is_gpu_program(module):
        return _run_gpu(opts, module, fail)
    if opts.func:
        return fail("--func is for MLIR gpu dialect programs (this is a cuda_tile module)")
    entries = [op.sym_name for op in module.walk() if op.name == "cuda_tile.entry"]
    name = opts.kernel
    if name is None:
        if len(entries) != 1:
            return fail("the file has " + (f"{len(entries)} entries ({', '.join(entries)}); "
                                           "choose one with --kernel" if entries else "no entry"))
        name = entries[0]
    rng = np.random.default_rng(opts.seed)
    try:
        grid = _grid(opts.grid)
        args = [parse_arg_spec(s, rng) for s in opts.arg]
    except ArgSpecError as exc:
        return fail(str(exc))
    try:
        kernel = tileir.compile(module, name, verify=not opts.no_verify)
        info = kernel.launch(grid, args, check_assumptions=opts.check_assumptions,
                             batch=not opts.sequential, progress=not opts.quiet,
                             mma=opts.mma)
    except DiagnosticError as exc:
        print(exc.render(), file=sys.stderr)
        return 1
    except LaunchError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - never a traceback for user input
        return fail(f"{type(exc).__name__}: {exc}")
    sys.stdout.flush()
    grid_text = "x".join(str(g) for g in info.grid)
    print(f"ran {info.kernel} on grid {grid_text} ({info.blocks} tile block"
          f"{'s' if info.blocks != 1 else ''}, {info.mode}) in {info.seconds * 1e3:.2f} ms")
    if opts.out:
        out = Path(opts.out)
        try:
            out.mkdir(parents=True, exist_ok=True)
            for i in info.written:
                np.save(out / f"arg{i}.npy", np.asarray(args[i]))
                print(f"  arg{i}: wrote {out / f'arg{i}.npy'}")
        except OSError as exc:
            return fail(f"cannot write to '{opts.out}': {exc}")
    else:
        for i in info.written:
            print(f"  arg{i}: {_summary(np.asarray(args[i]))}")
    return 0


def _is_gpu_program(module) -> bool:
    """A module of host ``func.func`` / ``gpu.module`` code rather than a cuda_tile module."""
    top = module.regions[0].blocks[0].ops if module.regions and module.regions[0].blocks else []
    return any(op.name in ("func.func", "gpu.module") for op in top) and \
        not any(op.name == "cuda_tile.module" for op in top)


def _run_gpu(opts, module, fail) -> int:
    """``tileir run`` of an MLIR gpu dialect program (``--func`` or ``--kernel mod::k``)."""
    import time

    from .. import gpu
    from ..execute import LaunchError
    from ..ir.diagnostics import DiagnosticError
    rng = np.random.default_rng(opts.seed)
    try:
        args = [parse_arg_spec(s, rng) for s in opts.arg]
        grid, block = _grid(opts.grid), _grid(opts.block, "block")
    except ArgSpecError as exc:
        return fail(str(exc))
    program = None
    try:
        if not opts.no_verify:
            import tileir
            tileir.verify(module)
        program = gpu.Program(module, verify=False)     # (verified above)
        before = [np.array(a, copy=True) if isinstance(a, np.ndarray) else None for a in args]
        start = time.perf_counter()
        if opts.kernel is not None and opts.func is None:
            if "::" not in opts.kernel:
                return fail(f"--kernel '{opts.kernel}': name a gpu.func as MODULE::FUNC "
                            f"(kernels: {', '.join(sorted(program.kernels)) or 'none'})")
            gpu.launch(program, opts.kernel, grid=grid, block=block, args=args,
                       dynamic_shared_memory=opts.dynamic_shared_memory,
                       racecheck=opts.racecheck, stdout=sys.stdout,
                       matrix_layout=opts.matrix_default_layout, async_order=opts.async_order,
                       backend=opts.backend)
            what = f"{opts.kernel} on grid {'x'.join(map(str, grid))} x block " \
                   f"{'x'.join(map(str, block))}"
            results = []
        else:
            name = opts.func
            if name is None:
                funcs = sorted(program.funcs)
                if "main" in program.funcs:
                    name = "main"
                elif len(funcs) == 1:
                    name = funcs[0]
                else:
                    return fail(f"choose a host function with --func (functions: "
                                f"{', '.join(funcs) or 'none'})")
            results = gpu.run(program, name, args=args, racecheck=opts.racecheck,
                              stdout=sys.stdout, matrix_layout=opts.matrix_default_layout,
                              async_order=opts.async_order, backend=opts.backend)
            what = f"@{name}"
        seconds = time.perf_counter() - start
    except DiagnosticError as exc:
        print(exc.render(), file=sys.stderr)
        return 1
    except LaunchError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - never a traceback for user input
        return fail(f"{type(exc).__name__}: {exc}")
    sys.stdout.flush()
    print(f"ran {what} in {seconds * 1e3:.2f} ms")
    for k, r in enumerate(results):
        text = _summary(r) if isinstance(r, np.ndarray) and r.ndim else repr(np.asarray(r)[()]
                                                                              .item())
        print(f"  result {k}: {text}")
    written = [i for i, (a, b) in enumerate(zip(args, before))
               if b is not None and not np.array_equal(a, b, equal_nan=True)]
    if opts.out:
        out = Path(opts.out)
        try:
            out.mkdir(parents=True, exist_ok=True)
            for i in written:
                np.save(out / f"arg{i}.npy", np.asarray(args[i]))
                print(f"  arg{i}: wrote {out / f'arg{i}.npy'}")
        except OSError as exc:
            return fail(f"cannot write to '{opts.out}': {exc}")
    else:
        for i in written:
            print(f"  arg{i}: {_summary(np.asarray(args[i]))}")
    return 0
