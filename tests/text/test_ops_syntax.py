"""Parse/print of every op, by spec chapter, plus invalid syntax with MLIR's wording and
location.  The canonical texts are in opcases.py."""

from __future__ import annotations

import pytest

import tileir
from tileir.ir.diagnostics import DiagnosticError
from tileir.ir.opdef import OP_REGISTRY
from tileir.dialects.cuda_tile.syntax import parse_disasm
from tileir.text import parse_module, print_op

from opcases import MODULE_LEVEL, SIGNATURE, cases

CASES = cases() + [("module_level", t) for t in MODULE_LEVEL]


def _ids(cases):
    seen: dict = {}
    out = []
    for fam, _ in cases:
        seen[fam] = seen.get(fam, 0) + 1
        out.append(f"{fam}-{seen[fam]}")
    return out


@pytest.mark.parametrize("family,text", CASES, ids=_ids(CASES))
def test_canonical_text_round_trips(family, text):
    module = parse_disasm(text)
    assert print_op(module, disasm=True) == text


@pytest.mark.parametrize("family,text", CASES, ids=_ids(CASES))
def test_generic_form_round_trips(family, text):
    module = parse_disasm(text)
    generic = print_op(module, generic=True)
    again = parse_module(generic, implicit_module=False)
    assert print_op(again, generic=True) == generic
    assert print_op(again, disasm=True) == text


@pytest.mark.parametrize("family,text", CASES, ids=_ids(CASES))
def test_fast_path_agrees_with_plain_parser(family, text):
    fast = parse_disasm(text, fast=True)
    plain = parse_disasm(text, fast=False)
    for kw in ({}, {"generic": True}, {"debuginfo": True, "generic": True}):
        assert print_op(fast, disasm=True, **kw) == print_op(plain, disasm=True, **kw)


def test_every_op_has_a_case():
    seen = set()
    for _, text in CASES:
        for op in parse_disasm(text).walk():
            seen.add(op.name)
    expected = {name for name, spec in OP_REGISTRY.items()
                if not spec.testing and name != "cuda_tile.module"
                and name.startswith("cuda_tile.")}
    assert expected - seen == set()


def test_default_printer_spells_pow():
    text = f"entry @k({SIGNATURE}) {{\n  %0 = fpowf %arg0, %arg0 : tile<4xf32>\n  return\n}}\n"
    module = parse_disasm(text)
    assert "%0 = pow %arg0, %arg0 : tile<4xf32>" in tileir.print(module)
    assert "fpowf" not in tileir.print(module)


# ---------------------------------------------------------------------------------------------
# invalid syntax
# ---------------------------------------------------------------------------------------------

INVALID = [
    ("%0 = addf %arg0, %arg1 : tile<4xf32>", 3, 22,
     "use of value '%arg1' expects different type than prior uses: "
     "'!cuda_tile.tile<4xf32>' vs '!cuda_tile.tile<4xi32>'"),
    ("%0 = addf %arg0, %nope : tile<4xf32>", 3, 22, "use of undeclared SSA value name"),
    ("%0 = frobnicate %arg0 : tile<4xf32>", 3, 10,
     "custom op 'frobnicate' is unknown (tried 'cuda_tile.frobnicate' as well)"),
    ("%0 = addf %arg0, %arg0", 3, 27, "expected ':'"),
    ("%0 = addf %arg0, %arg0 rounding<approx> : tile<4xf32>", 3, 45,
     "expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', "
     "'positive_inf', got: 'approx'"),
    ("%0 = cmpi lesser %arg1, %arg1, signed : tile<4xi32> -> tile<4xi1>", 3, 15,
     "expected 'comparison_predicate' to be one of: {'equal', 'not_equal', 'less_than', "
     "'less_than_or_equal', 'greater_than', 'greater_than_or_equal'}"),
    ("%0 = exti %arg11 sighed : tile<4xi8> -> tile<4xi32>", 3, 22,
     "expected signedness to be one of: {'signed', 'unsigned'}"),
    ("%0 = constant <i8: 300> : tile<i8>", 3, 24, "integer constant out of range for type"),
    ("%0 = constant <f32: 1.0> : tile<f16>", 3, 20,
     "mismatch between the element type: 'f32' and the tile element type 'f16'"),
    ("%0 = constant <f32: [1.0, 2.0]> : tile<4xf32>", 3, 25,
     "inferred shape of elements literal ([2]) does not match type ([4])"),
    ("%0, %1 = addf %arg0, %arg0 : tile<4xf32>", 3, 5,
     "operation defines 1 results but was provided 2 to bind"),
    ("%0 = make_tensor_view %arg3, shape = [32], strides = [2, 1] : "
     "tensor_view<32xf32, strides=[1]>", 3, 58,
     "expected stride declaration to contain 1 elements due to tensor_view type, but 2 were "
     "provided"),
    ('%0 = print_tko "unterminated : tile<f32> -> token', 3, 20,
     "expected '\"' in string literal"),
    ("%0 = addf %arg0, %arg0 : tile<4xf32>\n    %0 = addf %arg0, %arg0 : tile<4xf32>", 4, 5,
     "redefinition of SSA value '%0'"),
]


@pytest.mark.parametrize("body,line,col,message", INVALID,
                         ids=[f"invalid-{i}" for i in range(len(INVALID))])
def test_invalid_syntax(body, line, col, message):
    text = f"cuda_tile.module @m {{\n  entry @k({SIGNATURE}) {{\n    {body}\n    return\n  }}\n}}\n"
    for fast in (True, False):
        with pytest.raises(DiagnosticError) as info:
            parse_module(text, "t.mlir", fast=fast)
        diag = info.value.diagnostics[0]
        assert message in diag.message
        assert (diag.loc.file, diag.loc.line, diag.loc.col) == ("t.mlir", line, col)
        assert str(info.value).startswith(f"t.mlir:{line}:{col}: error: ")
