"""``tileir translate`` / ``tileir-translate``: text <-> bytecode (cuda-tile-translate compatible).

::

    tileir translate (--mlir-to-tilebc | --tilebc-to-mlir | --test-roundtrip)
                     [--bytecode-version X] [--list-versions] [--no-implicit-module]
                     [--split-input-file] [--verify-diagnostics] FILE [-o OUT]

``tileir-translate`` also accepts cuda-tile-translate's spellings: ``-mlir-to-cudatilebc``,
``-cudatilebc-to-mlir``, ``-test-cudatile-roundtrip``, ``-bytecode-version=X``,
``--mlir-print-debuginfo``, ``-mlir-print-op-generic``, ``-allow-unregistered-dialect``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError, SourceFile, SourceManager, render
from ..ir.locations import FileLineColLoc
from .common import normalize_argv, read_binary_input, read_input, write_output

__all__ = ["run_translate"]

_ALIASES = {
    "--mlir-to-cudatilebc": "--mlir-to-tilebc",
    "--cudatilebc-to-mlir": "--tilebc-to-mlir",
    "--test-cudatile-roundtrip": "--test-roundtrip",
    "--mlir-print-debuginfo": "--print-debuginfo",
    "--mlir-print-op-generic": "--print-generic",
    "--generic-form": "--print-generic",
}


def build_parser(prog: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog, allow_abbrev=False,
                                description="Translate between Tile IR text and bytecode.")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--mlir-to-tilebc", dest="mode", action="store_const", const="to-bc",
                      help="text -> bytecode (cuda-tile-translate -mlir-to-cudatilebc)")
    mode.add_argument("--tilebc-to-mlir", dest="mode", action="store_const", const="to-mlir",
                      help="bytecode -> text (cuda-tile-translate -cudatilebc-to-mlir)")
    mode.add_argument("--test-roundtrip", dest="mode", action="store_const", const="roundtrip",
                      help="text -> bytecode -> text (-test-cudatile-roundtrip)")
    p.add_argument("input", nargs="?", default="-", help="input file ('-' for stdin)")
    p.add_argument("-o", dest="output", default="-", help="output file")
    p.add_argument("--bytecode-version", default=None,
                   help="bytecode version to write (default: 13.3)")
    p.add_argument("--list-versions", action="store_true",
                   help="list the supported bytecode versions and exit")
    p.add_argument("--no-implicit-module", action="store_true",
                   help="do not wrap the input in a builtin module")
    p.add_argument("--split-input-file", action="store_true",
                   help="process each '// -----' separated chunk on its own")
    p.add_argument("--verify-diagnostics", action="store_true",
                   help="check expected-error/-warning/-note/-remark annotations")
    p.add_argument("--allow-unregistered-dialect", action="store_true")
    p.add_argument("--print-debuginfo", action="store_true", help="print locations")
    p.add_argument("--print-generic", action="store_true", help="print the generic op form")
    p.add_argument("--Wunsupported-hints", dest="warn_hints", action="store_true")
    p.add_argument("--Werr-hints", dest="error_hints", action="store_true")
    p.add_argument("--no-verify", action="store_true",
                   help="do not verify the module read from bytecode")
    return p


def _render(diag: Diagnostic, sources: Optional[SourceManager]) -> str:
    """Like MLIR's SourceMgrDiagnosticHandler: diagnostics without a file location print as
    ``error: message``."""
    pos = diag.loc.file_line_col() if diag.loc is not None else None
    if pos is not None:
        return render(diag, sources)
    parts = [f"{diag.severity}: {diag.message}"]
    for note in diag.notes:
        parts.append(_render(note, sources))
    return "\n".join(parts)


def _version_arg(value: Optional[str], prog: str):
    from ..bytecode.versions import (DEFAULT_VERSION, lookup_version, parse_version,
                                     version_range_text)
    if value is None:
        from ..bytecode.versions import current_version
        cur = current_version()
        return DEFAULT_VERSION if DEFAULT_VERSION <= cur else cur
    try:
        v = parse_version(value)
    except ValueError:
        print(f"{prog}: for the --bytecode-version option: Invalid argument '{value}'",
              file=sys.stderr)
        return None
    known = lookup_version(v.major, v.minor, v.tag)
    if known is None:
        print(f"{prog}: for the --bytecode-version option: Invalid argument '{value}': the "
              f"supported versions are {version_range_text()}", file=sys.stderr)
        return None
    return known


def _hint_mode(args) -> str:
    # as cuda-tile: -Werr-hints only matters together with -Wunsupported-hints
    if args.warn_hints:
        return "error" if args.error_hints else "warn"
    return "silent"


class _Chunk:
    """What translating one input chunk produced."""

    def __init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []
        self.output = None

    @property
    def failed(self) -> bool:
        return any(d.severity == ERROR for d in self.diagnostics)


def _read_back(data: bytes, args, chunk: _Chunk):
    """bytecode -> module (verified unless --no-verify), collecting diagnostics."""
    from ..bytecode import BytecodeError, read_bytecode
    from ..ir.verify import verify_op_tree
    try:
        module = read_bytecode(data)
    except BytecodeError as exc:
        chunk.diagnostics.append(Diagnostic(ERROR, exc.message))
        return None
    if not args.no_verify:
        diags = verify_op_tree(module)
        chunk.diagnostics.extend(diags)
        if any(d.severity == ERROR for d in diags):
            chunk.diagnostics.append(Diagnostic(
                ERROR, "verification failed for deserialized cuda_tile::ModuleOp"))
            return None
    return module


def _print_module(module, args) -> str:
    from ..text.printer import print_op
    # (read back and verified unless --no-verify: then the printer checks, and prints IR that
    # does not verify in the generic form)
    return print_op(module, generic=args.print_generic, debuginfo=args.print_debuginfo,
                    assume_verified=not args.no_verify)


def _from_text(text: str, filename: str, line_offset: int, sources: SourceManager, args,
               version, options, col_offset: int = 0) -> _Chunk:
    """Parse, verify and encode one chunk (for --mlir-to-tilebc and --test-roundtrip)."""
    from ..bytecode import BytecodeWriteError, write_bytecode
    from .opt import process_buffer
    chunk = _Chunk()
    res = process_buffer(text, filename, line_offset=line_offset, col_offset=col_offset,
                         sources=sources,
                         allow_unregistered=args.allow_unregistered_dialect,
                         implicit_module=not args.no_implicit_module, verify_options=options)
    chunk.diagnostics.extend(res.diagnostics)
    if res.failed or res.module is None:
        return chunk
    try:
        data = write_bytecode(res.module, version)
    except BytecodeWriteError as exc:
        chunk.diagnostics.extend(exc.diagnostics)
        return chunk
    except DiagnosticError as exc:
        chunk.diagnostics.extend(exc.diagnostics)
        return chunk
    if args.mode == "to-bc":
        chunk.output = data
        return chunk
    module = _read_back(data, args, chunk)
    if module is not None:
        # (the round trip ends its text as cuda-tile-opt does: with an empty line; the
        # conformance corpus diffs the two outputs)
        chunk.output = _print_module(module, args) + "\n"
    else:
        chunk.diagnostics.append(Diagnostic(ERROR, "Failed to deserialize bytecode"))
    return chunk


def run_translate(argv: Sequence[str], prog: str = "tileir translate") -> int:
    from ..bytecode.versions import supported_versions
    from ..text.expected import match_diagnostics, parse_expectations, split_input
    from ..ir.verify import VerifyOptions
    args = build_parser(prog).parse_args(normalize_argv(argv, _ALIASES))
    if args.list_versions:
        sys.stdout.write("".join(f"{v}\n" for v in supported_versions()))
        return 0
    version = _version_arg(args.bytecode_version, prog)
    if version is None:
        return 1
    if args.mode is None:
        print(f"{prog}: error: one of --mlir-to-tilebc, --tilebc-to-mlir, --test-roundtrip is "
              f"required", file=sys.stderr)
        return 2
    if args.mode == "to-mlir":
        data = read_binary_input(args.input, prog)
        if data is None:
            return 1
        chunk = _Chunk()
        module = _read_back(data, args, chunk)
        for diag in chunk.diagnostics:
            print(_render(diag, None), file=sys.stderr)
        if module is None:
            return 1
        return 0 if write_output(args.output, _print_module(module, args), prog) else 1
    text, filename = read_input(args.input, prog)
    if text is None:
        return 1
    options = VerifyOptions(hints=_hint_mode(args))
    status = 0
    outputs: list = []
    for piece in split_input(text, args.split_input_file):
        sources = SourceManager()
        sources.add(SourceFile(filename, piece.text, piece.line_offset, piece.col_offset))
        chunk = _from_text(piece.text, filename, piece.line_offset, sources, args, version,
                           options, piece.col_offset)
        if args.verify_diagnostics:
            expectations = parse_expectations(piece.text, piece.line_offset)
            match = match_diagnostics(expectations, chunk.diagnostics, filename)
            for diag in match.unexpected:
                report = Diagnostic(ERROR, f"unexpected {diag.severity}: {diag.message}",
                                    diag.loc)
                print(_render(report, sources), file=sys.stderr)
            for exp in match.missing:
                loc = FileLineColLoc(filename, exp.annotation_line, 1) \
                    if exp.annotation_line > 0 else None
                msg = f'expected {exp.severity} "{exp.message}" was not produced'
                report = Diagnostic(ERROR, msg, loc) if loc else Diagnostic(ERROR, msg)
                print(_render(report, sources), file=sys.stderr)
            if not match.ok:
                status = 1
            elif chunk.output is not None:
                outputs.append(chunk.output)
            continue
        for diag in chunk.diagnostics:
            print(_render(diag, sources), file=sys.stderr)
        if chunk.failed or chunk.output is None:
            status = 1
            continue
        outputs.append(chunk.output)
    if outputs:
        joined = b"".join(outputs) if all(isinstance(o, bytes) for o in outputs) \
            else "// -----\n".join(outputs)
        if not write_output(args.output, joined, prog):
            return 1
    return status
