"""Text format: lexer, parser, printer and the declarative assembly-format engine."""

from .parser import parse_attribute, parse_module, parse_type
from .printer import print_op

__all__ = ["parse_module", "parse_type", "parse_attribute", "print_op"]


def _print_generic(op) -> str:
    return print_op(op, generic=True)


# The core's hooks into the syntax (it knows none): types pickle as text, diagnostics quote ops.
from ..ir import types as _types, verify as _verify  # noqa: E402

_types.TYPE_PARSERS.append(parse_type)
_verify.OP_TEXT.append(_print_generic)
