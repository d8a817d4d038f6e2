"""Property tests: print -> parse -> print is a fixed point (custom form, generic form, with
locations), for random modules covering every op family (see randomir.py)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tileir
from tileir.ir.locations import UNKNOWN_LOC
from tileir.dialects.cuda_tile.syntax import parse_disasm
from tileir.text.printer import disasm_root
from tileir.text import parse_module, print_op

from randomir import build_module

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _reparse(text: str):
    module = parse_module(text)
    return module.regions[0].blocks[0].ops[0]


@SETTINGS
@given(st.data())
def test_custom_form_fixed_point(data):
    module = build_module(data.draw)
    text = print_op(module)
    again = print_op(_reparse(text))
    assert again == text


@SETTINGS
@given(st.data())
def test_generic_form_fixed_point(data):
    module = build_module(data.draw)
    generic = print_op(module, generic=True)
    parsed = _reparse(generic)
    assert print_op(parsed, generic=True) == generic
    # the generic form describes the same IR as the custom form
    assert print_op(parsed) == print_op(module)


@SETTINGS
@given(st.data())
def test_debuginfo_fixed_point(data):
    module = build_module(data.draw, locations=True)
    for generic in (False, True):
        text = print_op(module, debuginfo=True, generic=generic)
        again = print_op(_reparse(text), debuginfo=True, generic=generic)
        assert again == text


@SETTINGS
@given(st.data())
def test_disasm_layout_fixed_point(data):
    module = build_module(data.draw, locations=data.draw(st.booleans()))
    # tileirdisasm text cannot carry the cuda_tile.module's own location (it prints no module
    # line), and modules read from bytecode have none: compare such modules.
    disasm_root(module).loc = UNKNOWN_LOC
    for debug in (False, True):
        text = print_op(module, disasm=True, debuginfo=debug)
        assert print_op(parse_disasm(text), disasm=True, debuginfo=debug) == text


@SETTINGS
@given(st.data())
def test_fast_path_matches_plain_parser(data):
    """The one-regex-per-line fast path builds exactly what the general parser builds
    (operands, types, attributes, locations)."""
    module = build_module(data.draw, locations=data.draw(st.booleans()))
    for kw in ({}, {"generic": True}, {"debuginfo": True}):
        text = print_op(module, **kw)
        fast = parse_module(text, fast=True)
        plain = parse_module(text, fast=False)
        assert print_op(fast, debuginfo=True, generic=True) == \
            print_op(plain, debuginfo=True, generic=True)
