"""The ``tileir`` command line: ``tileir opt|translate|run|demo ...`` plus the ``tileir-opt`` and
``tileir-translate`` entry points that accept NVIDIA's cuda-tile-opt/-translate spellings.

Each subcommand lives in its own module and registers itself in :data:`SUBCOMMANDS`."""

from __future__ import annotations

import sys
from typing import Callable, Optional, Sequence

__all__ = ["main", "opt_main", "translate_main", "optimize_main", "SUBCOMMANDS"]

#: name -> (module path, function name, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str, str]] = {
    "opt": ("tileir.cli.opt", "run_opt", "parse, verify and print Tile IR (like cuda-tile-opt)"),
    "translate": ("tileir.cli.translate", "run_translate",
                  "convert between text and bytecode (like cuda-tile-translate)"),
    "run": ("tileir.cli.run", "run_kernel", "run a kernel on the CPU"),
    "demo": ("tileir.cli.demo", "run_demo", "run the bundled examples and check them"),
    "tinytc": ("tileir.cli.tinytc", "run_tinytc",
               "check, convert (--emit) or run tinytc tensor-language programs"),
    "optimize": ("tileir.cli.optimize", "run_optimize",
                 "run the default optimization pipeline (like cuda-tile-optimize)"),
}


def _dispatch(name: str, argv: Sequence[str], prog: str) -> int:
    import importlib
    module_name, func_name, _ = SUBCOMMANDS[name]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:  # pragma: no cover - only while a subcommand is missing
        print(f"{prog}: the '{name}' command is not available ({exc})", file=sys.stderr)
        return 2
    func: Callable[[Sequence[str], str], int] = getattr(module, func_name)
    return func(argv, prog)


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: tileir <command> [options]\n\ncommands:")
        for name, (_, _, text) in SUBCOMMANDS.items():
            print(f"  {name:<10} {text}")
        return 0 if argv else 2
    if argv[0] in ("--version", "-V"):
        from .. import __version__
        print(f"tileir {__version__}")
        return 0
    name = argv[0]
    if name not in SUBCOMMANDS:
        print(f"tileir: unknown command '{name}' (try: {', '.join(SUBCOMMANDS)})", file=sys.stderr)
        return 2
    return _dispatch(name, argv[1:], f"tileir {name}")


def opt_main(argv: Optional[Sequence[str]] = None) -> int:
    """``tileir-opt``: cuda-tile-opt compatible spellings."""
    argv = list(sys.argv[1:] if argv is None else argv)
    return _dispatch("opt", argv, "tileir-opt")


def optimize_main(argv: Optional[Sequence[str]] = None) -> int:
    """``tileir-optimize``: cuda-tile-optimize compatible spellings."""
    argv = list(sys.argv[1:] if argv is None else argv)
    return _dispatch("optimize", argv, "tileir-optimize")


def translate_main(argv: Optional[Sequence[str]] = None) -> int:
    """``tileir-translate``: cuda-tile-translate compatible spellings."""
    argv = list(sys.argv[1:] if argv is None else argv)
    return _dispatch("translate", argv, "tileir-translate")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
