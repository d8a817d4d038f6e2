"""``tileir tinytc``: check, convert and run tinytc tensor-language programs.

    tileir tinytc FILE [--emit tinytc|cuda_tile|bytecode] [-o OUT]
    tileir tinytc run FILE --kernel NAME --group-size N --arg SPEC ... [--out DIR]

Without ``--emit`` the program is only checked (tinytc's diagnostics on stderr, exit status 1).
``run`` takes one ``--arg`` per function argument with ``tileir run``'s SPECs (scalar literal,
``.npy`` file or generator such as ``randn:f64:56x9x100``); arrays for memrefs are passed in
Fortran order (tinytc's packed column-major layout).  Group arguments cannot be given on the
command line.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

import numpy as np

from ..execute.launch import DEFAULT_MMA, MMA_MODES

__all__ = ["run_tinytc"]


def _load(path: str, prog: str):
    from ..frontends.tinytc import TinytcError, parse
    from .common import read_input
    text, name = read_input(path, prog)
    if text is None:
        return None
    try:
        return parse(text, filename=name)
    except TinytcError as exc:
        print(str(exc), file=sys.stderr)
        return None


def run_tinytc(argv: Sequence[str], prog: str = "tileir tinytc") -> int:
    argv = list(argv)
    if argv and argv[0] == "run":
        return _run(argv[1:], prog + " run")
    p = argparse.ArgumentParser(prog=prog, description="Check or convert a tinytc program.")
    p.add_argument("input", help="tinytc file ('-' for stdin)")
    p.add_argument("--emit", choices=("tinytc", "cuda_tile", "bytecode"),
                   help="print the program (tinytc), its lowering (cuda_tile) or write bytecode")
    p.add_argument("-o", "--output", default="-", help="output file (default stdout)")
    p.add_argument("--bytecode-version", default="13.3", help="Tile IR bytecode version")
    opts = p.parse_args(argv)
    program = _load(opts.input, prog)
    if program is None:
        return 1
    if opts.emit is None:
        return 0
    from .common import write_output
    if opts.emit == "tinytc":
        from ..frontends.tinytc import print as print_program
        data = print_program(program)
    else:
        from .. import print as print_ir
        from .. import write_bytecode
        from ..frontends.tinytc import lower
        module = lower(program)
        data = print_ir(module) + "\n" if opts.emit == "cuda_tile" else \
            write_bytecode(module, opts.bytecode_version)
    return 0 if write_output(opts.output, data, prog) else 1


def _run(argv: Sequence[str], prog: str) -> int:
    from .run import ArgSpecError, parse_arg_spec
    p = argparse.ArgumentParser(prog=prog, description="Run a tinytc kernel on the CPU.")
    p.add_argument("input", help="tinytc file")
    p.add_argument("--kernel", "-k", help="function to run (default: the only one)")
    p.add_argument("--group-size", "-g", type=int, default=1, help="number of work groups")
    p.add_argument("--arg", "-a", action="append", default=[], metavar="SPEC",
                   help="one per function argument: scalar literal, .npy file or generator")
    p.add_argument("--out", "-o", metavar="DIR", help="save the arrays after the run here")
    p.add_argument("--seed", type=int, default=0, help="seed of the rand/randn generators")
    p.add_argument("--mma", choices=MMA_MODES, default=DEFAULT_MMA,
                   help="gemm on floating-point data: sums in the element type through BLAS "
                        "(fast, the default, as tinytc computes) or exact sums rounded once")
    opts = p.parse_args(list(argv))

    def fail(message: str) -> int:
        print(f"{prog}: error: {message}", file=sys.stderr)
        return 1

    program = _load(opts.input, prog)
    if program is None:
        return 1
    names = [f.name for f in program.functions]
    name = opts.kernel
    if name is None:
        if len(names) != 1:
            return fail(f"the program has {len(names)} functions ({', '.join(names)}); "
                        "choose one with --kernel")
        name = names[0]
    if name.lstrip("@") not in names:
        return fail(f"no function @{name.lstrip('@')} (functions: {', '.join(names)})")
    fn = program.function(name)
    rng = np.random.default_rng(opts.seed)
    try:
        args = [parse_arg_spec(s, rng) for s in opts.arg]
    except ArgSpecError as exc:
        return fail(str(exc))
    args = [np.asfortranarray(a) if isinstance(a, np.ndarray) and a.ndim > 1 else a
            for a in args]
    from ..ir.diagnostics import DiagnosticError
    from ..execute import LaunchError
    from ..frontends.tinytc import TinytcError, compile as compile_kernel
    from ..frontends.tinytc.ir import GroupType
    if any(isinstance(a.type, GroupType) for a in fn.args):
        return fail("group arguments cannot be given on the command line")
    try:
        info = compile_kernel(program, name).launch(args=args, group_size=opts.group_size,
                                                   mma=opts.mma)
    except (TinytcError, LaunchError) as exc:
        print(str(exc), file=sys.stderr)
        return 1
    except DiagnosticError as exc:
        print(exc.render(), file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - never a traceback for user input
        return fail(f"{type(exc).__name__}: {exc}")
    print(f"ran @{fn.name} on {opts.group_size} work group{'s' if opts.group_size != 1 else ''}"
          f" ({info.mode}) in {info.seconds * 1e3:.2f} ms")
    for i, a in enumerate(args):
        if not isinstance(a, np.ndarray):
            continue
        if opts.out:
            out = Path(opts.out)
            try:
                out.mkdir(parents=True, exist_ok=True)
                np.save(out / f"arg{i}.npy", a)
            except OSError as exc:
                return fail(f"cannot write to '{opts.out}': {exc}")
            print(f"  arg{i}: wrote {out / f'arg{i}.npy'}")
        else:
            flat = a.reshape(-1, order="F")
            with np.printoptions(threshold=8, edgeitems=3, precision=6):
                print(f"  arg{i}: {a.dtype} {'x'.join(map(str, a.shape)) or 'scalar'} "
                      f"{np.array2string(flat, separator=', ')}")
    return 0
