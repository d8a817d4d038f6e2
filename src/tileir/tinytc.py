"""``from tileir import tinytc``: the tinytc tensor-language front end
(:mod:`tileir.frontends.tinytc`)."""

from .frontends.tinytc import (Group, Loc, Program, TinytcError, compile, launch, load,  # noqa: F401
                               lower, parse, print)

__all__ = ["parse", "load", "print", "lower", "launch", "compile", "Group", "TinytcError",
           "Program", "Loc"]
