"""``tileir opt`` / ``tileir-opt``: parse, verify and print Tile IR (cuda-tile-opt compatible)."""

from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError, SourceFile, SourceManager, render
from ..ir.locations import FileLineColLoc
from .common import normalize_argv, read_input, write_output

__all__ = ["run_opt", "process_buffer", "BufferResult"]

_ALIASES = {
    "--mlir-print-op-generic": "--print-generic",
    "--mlir-print-debuginfo": "--print-debuginfo",
    "--mlir-print-local-scope": "--print-local-scope",
}


def _version(text: str) -> str:
    import re
    if not re.fullmatch(r"[0-9]+(\.[0-9]+)?", text):
        raise argparse.ArgumentTypeError(f"invalid version {text!r} (expected e.g. 13.1)")
    return text


def build_parser(prog: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog, description="Parse, verify and print CUDA Tile IR.",
                                allow_abbrev=False)
    p.add_argument("input", nargs="?", default="-", help="input file ('-' for stdin)")
    p.add_argument("-o", dest="output", default="-", help="output file")
    p.add_argument("--split-input-file", action="store_true",
                   help="process each '// -----' separated chunk on its own")
    p.add_argument("--verify-diagnostics", action="store_true",
                   help="check expected-error/-warning/-note annotations")
    p.add_argument("--print-generic", action="store_true", help="print the generic op form")
    p.add_argument("--print-debuginfo", action="store_true", help="print locations")
    p.add_argument("--print-local-scope", action="store_true",
                   help="print affine maps, locations and debug info where they are used "
                        "(no alias definitions)")
    p.add_argument("--allow-unregistered-dialect", action="store_true")
    p.add_argument("--no-implicit-module", action="store_true",
                   help="do not wrap the input in a builtin module")
    p.add_argument("--Wunsupported-hints", dest="warn_hints", action="store_true",
                   help="warn about unsupported optimization hints")
    p.add_argument("--Werr-hints", dest="error_hints", action="store_true",
                   help="make unsupported optimization hints errors")
    p.add_argument("--target-version", default=None, type=_version,
                   help="reject ops and types newer than this Tile IR version")
    _add_pass_flags(p)
    return p


class _AppendPass(argparse.Action):
    """Collects pass flags into ``args.passes`` in command-line order (MLIR runs them so)."""

    def __call__(self, parser, namespace, values, option_string=None):
        from ..passes.pipeline import Nest, PassSpec, PipelineError, parse_options, \
            parse_pipeline
        passes = list(getattr(namespace, "passes", None) or [])
        try:
            if self.dest == "pass_pipeline":
                elements = parse_pipeline(values)
                if len(elements) == 1 and isinstance(elements[0], Nest) and \
                        elements[0].anchor == "builtin.module":
                    elements = elements[0].elements
                passes.extend(elements)
            else:
                passes.append(PassSpec(self.const, parse_options(values or "")))
        except PipelineError as exc:
            parser.error(str(exc))
        namespace.passes = passes


def _add_pass_flags(p: argparse.ArgumentParser) -> None:
    """The pass flags of cuda-tile-opt plus ``--pass-pipeline`` and IR dumps."""
    p.set_defaults(passes=[])
    for name, text in (("canonicalize", "canonicalize operations"),
                       ("cse", "eliminate common subexpressions"),
                       ("fuse-fma", "fuse mulf+addf/subf into fma (not bit-preserving)"),
                       ("loop-split", "split loops at an if comparing the induction variable"),
                       ("synthesize-debug-info-scopes", "attach debug-info scopes"),
                       ("loop-invariant-code-motion", "hoist loop-invariant pure ops"),
                       ("constant-fold", "fold pure ops of constants (executor semantics)")):
        p.add_argument(f"--{name}", dest=f"pass_{name}", nargs=0, action=_AppendPass,
                       const=name, help=text)
    p.add_argument("--test-debuginfo-update-symbol-name", dest="pass_rename", nargs="?",
                   metavar="OPTIONS", action=_AppendPass, const="test-debuginfo-update-symbol-name",
                   help="rename a symbol and its debug-info linkage name")
    p.add_argument("--pass-pipeline", dest="pass_pipeline", metavar="PIPELINE",
                   action=_AppendPass, help="an MLIR textual pass pipeline")
    p.add_argument("--mlir-print-ir-after-all", dest="print_after_all", action="store_true",
                   help="print the IR after every pass (to stderr)")


class BufferResult:
    """What processing one buffer (or split chunk) produced."""

    def __init__(self) -> None:
        self.module = None
        self.diagnostics: list[Diagnostic] = []

    @property
    def failed(self) -> bool:
        return any(d.severity == ERROR for d in self.diagnostics)


def process_buffer(text: str, filename: str, *, line_offset: int = 0,
                   sources: Optional[SourceManager] = None, allow_unregistered: bool = False,
                   implicit_module: bool = True, verify_options=None, passes=(),
                   after_pass=None, col_offset: int = 0) -> BufferResult:
    """Parse and verify one buffer, then run ``passes`` (pipeline elements), collecting
    diagnostics instead of raising.  ``line_offset``/``col_offset``: where the buffer starts
    in ``filename`` (a ``-split-input-file`` chunk)."""
    from ..dialects.cuda_tile.detect import parse_text
    from ..ir.verify import verify_op_tree
    result = BufferResult()
    try:
        module = parse_text(text, filename, allow_unregistered=allow_unregistered,
                            implicit_module=implicit_module, line_offset=line_offset,
                            sources=sources, col_offset=col_offset)
    except DiagnosticError as exc:
        result.diagnostics = list(exc.diagnostics)
        return result
    result.module = module
    result.diagnostics = verify_op_tree(module, verify_options)
    if passes and not result.failed:
        from ..passes import run_pipeline
        try:
            run_pipeline(module, passes, after_pass=after_pass, verify_options=verify_options)
        except DiagnosticError as exc:
            result.diagnostics.extend(exc.diagnostics)
        except RecursionError:
            result.diagnostics.append(Diagnostic(ERROR, "the pass pipeline ran out of "
                                                 "recursion room on this input"))
    return result


def _print_after(generic: bool, debuginfo: bool):
    """The ``--mlir-print-ir-after-all`` hook: MLIR's dump header, then the op, on stderr."""
    from ..text.printer import print_op

    def hook(pass_, op) -> None:
        print(f"// -----// IR Dump After {pass_.DISPLAY} ({pass_.ARGUMENT}) //----- //",
              file=sys.stderr)
        print(print_op(op, generic=generic, debuginfo=debuginfo), file=sys.stderr)
    return hook


def _trailer(args) -> str:
    """What mlir-opt prints after a buffer's module: an empty line, except with
    ``--mlir-print-local-scope`` (observed with mlir-opt 22)."""
    return "" if args.print_local_scope else "\n"


def _hint_mode(args) -> str:
    # as cuda-tile-opt: -Werr-hints only matters together with -Wunsupported-hints
    if args.warn_hints:
        return "error" if args.error_hints else "warn"
    return "silent"


def run_opt(argv: Sequence[str], prog: str = "tileir opt") -> int:
    from ..text.printer import current_operation_text, print_op
    from ..text.expected import match_diagnostics, parse_expectations, split_input
    from ..ir.verify import VerifyOptions
    args = build_parser(prog).parse_args(normalize_argv(argv, _ALIASES))
    text, filename = read_input(args.input, prog)
    if text is None:
        return 1
    # (as mlir-opt, op diagnostics show the op, except when they are checked against
    # expectations)
    describe = None if args.verify_diagnostics else \
        (lambda op: current_operation_text(op, args.print_debuginfo))
    options = VerifyOptions(target_version=args.target_version, hints=_hint_mode(args),
                            describe_op=describe)
    passes = args.passes
    if passes:
        from ..passes.manager import instantiate
        from ..passes.pipeline import PipelineError
        try:
            instantiate(passes)
        except PipelineError as exc:
            print(f"{prog}: error: {exc}", file=sys.stderr)
            return 1
    after = _print_after(args.print_generic, args.print_debuginfo) \
        if args.print_after_all else None
    status = 0
    outputs: list[str] = []
    for chunk in split_input(text, args.split_input_file):
        sources = SourceManager()
        res = process_buffer(chunk.text, filename, line_offset=chunk.line_offset,
                             col_offset=chunk.col_offset,
                             sources=sources, allow_unregistered=args.allow_unregistered_dialect,
                             implicit_module=not args.no_implicit_module, verify_options=options,
                             passes=passes, after_pass=after)
        sources.add(SourceFile(filename, chunk.text, chunk.line_offset, chunk.col_offset))
        if args.verify_diagnostics:
            expectations = parse_expectations(chunk.text, chunk.line_offset)
            match = match_diagnostics(expectations, res.diagnostics, filename)
            for diag in match.unexpected:
                report = Diagnostic(ERROR, f"unexpected {diag.severity}: {diag.message}", diag.loc)
                print(render(report, sources), file=sys.stderr)
            for exp in match.missing:
                # (at the annotation, underlined as wide as its message, as mlir-opt)
                loc = FileLineColLoc(filename, exp.annotation_line, exp.annotation_col) \
                    if exp.annotation_line > 0 else None
                report = Diagnostic(ERROR, f'expected {exp.severity} "{exp.message}" was not '
                                    "produced", loc) if loc else \
                    Diagnostic(ERROR, f'expected {exp.severity} "{exp.message}" was not produced')
                text = render(report, sources)
                if loc is not None and text.endswith("^"):
                    text += "~" * (exp.annotation_len - 1)
                print(text, file=sys.stderr)
            if not match.ok:
                status = 1
            if res.module is not None and not res.failed and match.ok:
                outputs.append(print_op(res.module, generic=args.print_generic,
                                        debuginfo=args.print_debuginfo, assume_verified=True,
                                        local_scope=args.print_local_scope)
                               + _trailer(args))
            else:
                outputs.append("")
            continue
        for diag in res.diagnostics:
            print(render(diag, sources), file=sys.stderr)
        if res.failed or res.module is None:
            status = 1
            outputs.append("")
            continue
        # (mlir-opt ends each buffer's output with an empty line)
        outputs.append(print_op(res.module, generic=args.print_generic,
                                debuginfo=args.print_debuginfo, assume_verified=True,
                                local_scope=args.print_local_scope) + _trailer(args))
    # as mlir-opt: the separator between the outputs of all chunks, failed ones included
    data = "// -----\n".join(outputs)
    if data and not write_output(args.output, data, prog):
        return 1
    return status
