"""``tileir optimize``: cuda-tile-optimize's default pipeline on a Tile IR file.

Like NVIDIA's tool: ``-O0``..``-O3`` (default 3) pick the pipeline run on every op of the
module (``fuse-fma`` if asked; then from -O1 ``canonicalize, cse``; from -O2
``loop-invariant-code-motion``; at -O3 ``loop-split, canonicalize``), ``--before``/``--after``
add passes around it, the input is bytecode or text (also ``tileirdisasm`` output), and the
result goes to stdout as text, or to ``-o FILE`` as text or, with ``--emit-bytecode``,
bytecode."""

from __future__ import annotations

import argparse
import re
import sys
from typing import Sequence

from ..ir.diagnostics import DiagnosticError
from .common import normalize_argv, write_output

__all__ = ["run_optimize", "default_pipeline"]

def default_pipeline(opt_level: int = 3, fuse_fma: bool = False,
                     loop_split_threshold: int = 1) -> list[str]:
    """The passes cuda-tile-optimize runs at ``opt_level``."""
    passes = ["fuse-fma"] if fuse_fma else []
    if opt_level >= 1:
        passes += ["canonicalize", "cse"]
    if opt_level >= 2:
        passes.append("loop-invariant-code-motion")
    if opt_level >= 3:
        passes += [f"loop-split{{split-threshold={loop_split_threshold}}}", "canonicalize"]
    return passes


def build_parser(prog: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog, allow_abbrev=False,
                                description="Optimize CUDA Tile IR (like cuda-tile-optimize).")
    p.add_argument("input", help="Tile IR bytecode or text file ('-' for stdin text)")
    p.add_argument("-o", "--output-file", dest="output", default="", help="output file")
    p.add_argument("-q", "--quiet", action="store_true", help="produce no output")
    p.add_argument("--emit-bytecode", action="store_true",
                   help="write bytecode to the -o file (text otherwise)")
    p.add_argument("--bytecode-version", default=None,
                   help="bytecode version to write (default: the writer's default)")
    p.add_argument("--before", "--run-before-default-pipeline", dest="before", default="",
                   metavar="PIPELINE",
                   help="passes to run before the default pipeline")
    p.add_argument("--after", "--run-after-default-pipeline", dest="after", default="",
                   metavar="PIPELINE",
                   help="passes to run after the default pipeline")
    p.add_argument("--fuse-fma", action="store_true", help="enable FMA fusion")
    p.add_argument("-O", "--opt-level", dest="opt_level", type=int, default=3,
                   choices=range(0, 4),
                   metavar="N", help="optimization level 0-3 (default 3)")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="print the pipeline; with -o also print the IR")
    p.add_argument("--enable-multithread", action="store_true",
                   help="accepted for cuda-tile-optimize compatibility (passes run on one "
                        "thread)")
    return p


def run_optimize(argv: Sequence[str], prog: str = "tileir optimize") -> int:
    from ..passes import PipelineError, run_pipeline
    from ..text.printer import print_op
    argv = [re.sub(r"^-O([0-9])$", r"--opt-level=\1", a) for a in argv]
    args = build_parser(prog).parse_args(normalize_argv(argv))
    inner = [text for text in (args.before, *default_pipeline(args.opt_level, args.fuse_fma),
                               args.after) if text]
    pipeline = f"any({', '.join(inner)})"
    if args.verbose:
        print(f"{prog}: pipeline: {pipeline}", file=sys.stderr)
    try:
        module = _load(args.input)
        run_pipeline(module, pipeline)
    except PipelineError as exc:
        print(f"{prog}: error: Failed to parse pipeline: {exc}", file=sys.stderr)
        return 1
    except DiagnosticError as exc:
        print(exc.render(), file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"{prog}: error: Failed to read file: {args.input} ({exc.strerror})",
              file=sys.stderr)
        return 1
    if args.output:
        if args.emit_bytecode:
            from ..bytecode import write_bytecode
            try:
                data = write_bytecode(module, *(() if args.bytecode_version is None
                                                else (args.bytecode_version,)))
            except DiagnosticError as exc:
                print(exc.render(), file=sys.stderr)
                return 1
        else:
            data = print_op(module)
        if not write_output(args.output, data, prog):
            return 1
        if args.verbose:
            sys.stdout.write(print_op(module))
        return 0
    if not args.quiet:
        sys.stdout.write(print_op(module))
    return 0


def _load(path: str):
    """Bytecode or text by content; ``-`` reads text from stdin."""
    import tileir
    if path == "-":
        from ..dialects.cuda_tile.detect import parse_text
        return parse_text(sys.stdin.read(), "<stdin>")
    module = tileir.load(path)
    tileir.verify(module)
    if module.name != "builtin.module":
        from ..ir.opdef import make_op
        wrapper = make_op("builtin.module", regions=1)
        wrapper.regions[0].add_block().append(module)
        module = wrapper
    return module
