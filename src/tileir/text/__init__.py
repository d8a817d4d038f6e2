"""Text format: lexer, parser, printer and the declarative assembly-format engine."""

from .parser import parse_attribute, parse_disasm, parse_module, parse_type
from .printer import print_op

__all__ = ["parse_module", "parse_disasm", "parse_type", "parse_attribute", "print_op"]
