"""Passes, the pass registry and the pass manager.

A pass is a class with a registered ``ARGUMENT`` (its pipeline name, e.g. ``canonicalize``),
typed ``OPTIONS`` and ``run(op)``.  :func:`run_pipeline` runs a parsed or textual pipeline on an
op: nested pipelines (``cuda_tile.module(...)``) run on each directly nested op of that name,
the IR is verified after every pass, and an optional callback sees the IR after each pass
(``--mlir-print-ir-after-all``).
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Optional, Sequence, Union

from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError
from ..ir.core import Operation
from .pipeline import Element, Nest, PassSpec, PipelineError, parse_pipeline

__all__ = ["Pass", "PassFailure", "PASSES", "register_pass", "create_pass", "run_pipeline",
           "AfterPassHook", "instantiate"]


class PassFailure(Exception):
    """Raised by a pass that cannot do its job; carries the diagnostics to show."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = list(diagnostics)


#: option type -> converter from the option text
_CONVERTERS: dict[type, Callable[[str], Any]] = {
    str: str,
    int: int,
    bool: lambda s: {"true": True, "1": True, "false": False, "0": False}[s.lower()],
}


class Pass:
    """Base class of passes.  Subclasses set ``ARGUMENT`` (pipeline name), ``DISPLAY`` (the
    name MLIR prints in IR dumps), ``SUMMARY`` and ``OPTIONS`` (name -> (type, default))."""

    ARGUMENT: ClassVar[str] = ""
    DISPLAY: ClassVar[str] = ""
    SUMMARY: ClassVar[str] = ""
    OPTIONS: ClassVar[dict[str, tuple[type, Any]]] = {}

    def __init__(self, **options: Any) -> None:
        self.options: dict[str, Any] = {k: default for k, (_, default) in self.OPTIONS.items()}
        for key, value in options.items():
            self.set_option(key, value)

    def set_option(self, key: str, value: Any) -> None:
        spec = self.OPTIONS.get(key)
        if spec is None:
            known = ", ".join(self.OPTIONS) or "none"
            raise PipelineError(f"no such option '{key}' for pass '{self.ARGUMENT}' "
                                f"(options: {known})")
        kind, _ = spec
        if isinstance(value, str) and kind is not str:
            try:
                value = _CONVERTERS[kind](value)
            except (KeyError, ValueError):
                raise PipelineError(f"invalid value '{value}' for option '{key}' of pass "
                                    f"'{self.ARGUMENT}' (expected {kind.__name__})") from None
        self.options[key] = value

    def run(self, op: Operation) -> None:
        """Transform ``op`` (and what is nested in it) in place; raise :class:`PassFailure`."""
        raise NotImplementedError


#: pipeline name -> pass class
PASSES: dict[str, type[Pass]] = {}


def register_pass(cls: type[Pass]) -> type[Pass]:
    """Class decorator: make ``cls`` available under ``cls.ARGUMENT`` in pipelines."""
    PASSES[cls.ARGUMENT] = cls
    return cls


def create_pass(spec: PassSpec) -> Pass:
    """Instantiate the registered pass ``spec.name`` with ``spec.options``."""
    _load_builtin_passes()
    cls = PASSES.get(spec.name)
    if cls is None:
        raise PipelineError(f"'{spec.name}' does not refer to a registered pass or pass "
                            f"pipeline (known: {', '.join(sorted(PASSES))})")
    return cls(**spec.options)


def _load_builtin_passes() -> None:
    from . import cse, canonicalize, licm  # noqa: F401  (they register themselves)
    from . import cuda_tile  # noqa: F401


#: ``hook(pass_, op)`` called after each pass with the op the pass ran on
AfterPassHook = Callable[[Pass, Operation], None]


def run_pipeline(root: Operation, pipeline: Union[str, Sequence[Element]], *,
                 verify: bool = True, after_pass: Optional[AfterPassHook] = None,
                 verify_options=None) -> Operation:
    """Run ``pipeline`` on ``root`` in place and return ``root``.

    Raises :class:`PipelineError` for a pipeline that does not parse or names an unknown pass,
    and :class:`~tileir.diagnostics.DiagnosticError` when a pass fails or leaves IR that does
    not verify."""
    elements = parse_pipeline(pipeline) if isinstance(pipeline, str) else list(pipeline)
    # ``builtin.module(...)`` written around a pipeline for a module root runs on the root
    if len(elements) == 1 and isinstance(elements[0], Nest) and elements[0].anchor == root.name:
        elements = elements[0].elements
    scheduled = instantiate(elements)
    _run_elements(root, scheduled, _Context(root, verify, after_pass, verify_options))
    return root


def instantiate(elements: Sequence[Element]) -> list:
    """Create the passes of parsed pipeline ``elements`` (raises PipelineError)."""
    out: list = []
    for e in elements:
        if isinstance(e, Nest):
            out.append((e.anchor, instantiate(e.elements)))
        else:
            out.append(create_pass(e))
    return out


class _Context:
    def __init__(self, root: Operation, verify: bool, after_pass: Optional[AfterPassHook],
                 verify_options) -> None:
        self.root = root
        self.verify = verify
        self.after_pass = after_pass
        self.verify_options = verify_options


def _run_elements(op: Operation, scheduled: list, ctx: _Context) -> None:
    for item in scheduled:
        if isinstance(item, Pass):
            _run_one(item, op, ctx)
            continue
        anchor, inner = item
        for region in op.regions:
            for block in region.blocks:
                for child in list(block.ops):
                    if child.parent is not None and (anchor in ("any", child.name)):
                        _run_elements(child, inner, ctx)


def _run_one(pass_: Pass, op: Operation, ctx: _Context) -> None:
    try:
        pass_.run(op)
    except PassFailure as exc:
        raise DiagnosticError(exc.diagnostics) from None
    if ctx.after_pass is not None:
        ctx.after_pass(pass_, op)
    if ctx.verify:
        from ..ir.verify import verify_op_tree
        diags = verify_op_tree(ctx.root, ctx.verify_options)
        errors = [d for d in diags if d.severity == ERROR]
        if errors:
            lead = Diagnostic(ERROR, f"pass '{pass_.ARGUMENT}' produced IR that does not verify",
                              op.loc)
            raise DiagnosticError([lead, *errors])
