"""``!llvm.ptr`` as MLIR 22 parses it: opaque, an optional 32-bit address space (0 printed as
none, negative values wrap); typed pointers are errors.  Expected texts are mlir-opt 22's."""

from __future__ import annotations

import pytest

import tileir


def _func(arg_types: str) -> str:
    return f"func.func @f({arg_types}) {{\n  return\n}}\n"


def test_address_spaces_print_as_mlir_does():
    text = tileir.print(tileir.parse(_func(
        "%a: !llvm.ptr<0>, %b: !llvm.ptr<3>, %c: !llvm.ptr< 1 >, %d: !llvm.ptr<-1>, "
        "%e: !llvm.ptr")))
    assert ("func.func @f(%arg0: !llvm.ptr, %arg1: !llvm.ptr<3>, %arg2: !llvm.ptr<1>, "
            "%arg3: !llvm.ptr<4294967295>, %arg4: !llvm.ptr)") in text


@pytest.mark.parametrize("params, errors", [
    ("f32", [("1:28", "expected integer value"),
             ("1:28", "failed to parse LLVMPointerType parameter 'addressSpace' which is to be "
                      "a `unsigned`")]),
    ("", [("1:28", "expected integer value"),
          ("1:28", "failed to parse LLVMPointerType parameter 'addressSpace' which is to be a "
                   "`unsigned`")]),
    ("4294967296", [("1:28", "integer value too large"),
                    ("1:38", "failed to parse LLVMPointerType parameter 'addressSpace' which is "
                             "to be a `unsigned`")]),
    ("1, 2", [("1:29", "expected '>'")]),
])
def test_typed_and_malformed_pointers_are_errors(params, errors):
    with pytest.raises(tileir.DiagnosticError) as err:
        tileir.parse(_func(f"%a: !llvm.ptr<{params}>"), "t.mlir")
    text = str(err.value)
    for where, message in errors:
        assert f"t.mlir:{where}: error: {message}" in text
    assert text.count("error:") == len(errors)
