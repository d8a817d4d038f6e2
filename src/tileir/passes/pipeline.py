"""MLIR's textual pass-pipeline syntax.

::

    pipeline := element (',' element)*
    element  := op-name '(' pipeline? ')'          a nested pipeline run on ops named op-name
              | pass-name ('{' options '}')?         a pass, with ``key=value`` options

``builtin.module(cuda_tile.module(cuda_tile.entry(loop-split{split-threshold=2}), cse))``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

__all__ = ["PassSpec", "Nest", "PipelineError", "parse_pipeline", "parse_options"]


class PipelineError(ValueError):
    """A pipeline string that does not parse (the message says where)."""


@dataclass
class PassSpec:
    """One pass of a pipeline: its registered name and its options as written."""

    name: str
    options: dict[str, str] = field(default_factory=dict)


@dataclass
class Nest:
    """``anchor(...)``: run ``elements`` on each op named ``anchor`` directly nested in the
    current op (``any`` matches every op)."""

    anchor: str
    elements: list["Element"] = field(default_factory=list)


Element = Union[PassSpec, Nest]


def parse_pipeline(text: str) -> list[Element]:
    """Parse a pipeline string into its elements."""
    parser = _Parser(text)
    elements = parser.elements(top=True)
    parser.skip_space()
    if parser.pos != len(text):
        parser.fail("unexpected character")
    return elements


def parse_options(text: str) -> dict[str, str]:
    """Parse ``key=value key2="a b" flag`` (space separated) into a dict; a bare key is
    ``true``."""
    out: dict[str, str] = {}
    i, n = 0, len(text)
    while i < n:
        while i < n and text[i] in " \t\n,":
            i += 1
        if i >= n:
            break
        start = i
        while i < n and text[i] not in "= \t\n":
            i += 1
        key = text[start:i]
        if i < n and text[i] == "=":
            i += 1
            value, i = _option_value(text, i)
        else:
            value = "true"
        if not key:
            raise PipelineError(f"empty option name in '{text}'")
        out[key] = value
    return out


def _option_value(text: str, i: int) -> tuple[str, int]:
    n = len(text)
    if i < n and text[i] in "\"'":
        quote = text[i]
        end = text.find(quote, i + 1)
        if end < 0:
            raise PipelineError(f"unterminated quote in options '{text}'")
        return text[i + 1:end], end + 1
    if i < n and text[i] == "{":
        depth, j = 0, i
        while j < n:
            if text[j] == "{":
                depth += 1
            elif text[j] == "}":
                depth -= 1
                if depth == 0:
                    return text[i + 1:j], j + 1
            j += 1
        raise PipelineError(f"unbalanced '{{' in options '{text}'")
    start = i
    while i < n and text[i] not in " \t\n":
        i += 1
    return text[start:i], i


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def fail(self, message: str) -> None:
        raise PipelineError(f"{message} at position {self.pos} in pipeline '{self.text}'")

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip_space()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def name(self) -> str:
        self.skip_space()
        start = self.pos
        while self.pos < len(self.text) and (self.text[self.pos].isalnum()
                                             or self.text[self.pos] in "_-.$"):
            self.pos += 1
        if self.pos == start:
            self.fail("expected a pass or operation name")
        return self.text[start:self.pos]

    def elements(self, top: bool = False) -> list[Element]:
        out: list[Element] = []
        if not top and self.peek() == ")":
            return out
        while True:
            out.append(self.element())
            if self.peek() == ",":
                self.pos += 1
                continue
            return out

    def element(self) -> Element:
        name = self.name()
        c = self.peek()
        if c == "(":
            self.pos += 1
            inner = self.elements()
            if self.peek() != ")":
                self.fail("expected ')'")
            self.pos += 1
            return Nest(name, inner)
        options: dict[str, str] = {}
        if c == "{":
            depth, start = 0, self.pos
            while self.pos < len(self.text):
                ch = self.text[self.pos]
                if ch == "{":
                    depth += 1
                elif ch == "}":
                    depth -= 1
                    if depth == 0:
                        break
                self.pos += 1
            if self.pos >= len(self.text):
                self.fail("expected '}'")
            options = parse_options(self.text[start + 1:self.pos])
            self.pos += 1
        return PassSpec(name, options)
