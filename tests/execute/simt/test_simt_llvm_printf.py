"""C ``printf`` from host code through the llvm dialect: ``llvm.mlir.global`` string constants,
``llvm.mlir.addressof``, ``llvm.getelementptr`` with constant indices, variadic ``llvm.func``
declarations and ``llvm.call ... vararg(...)``.  Text is checked byte for byte against what
mlir-opt 22 prints (custom and generic forms; compared with mlir-opt itself when installed),
verifier messages against its, and the printed output against Python's ``%`` formatting."""

from __future__ import annotations

import io
import os
import shutil
import subprocess

import pytest

import tileir
from tileir import gpu
from tileir.ir.diagnostics import DiagnosticError

_MLIR_OPT = next((p for p in ("/usr/lib/llvm-22/bin/mlir-opt", shutil.which("mlir-opt") or "")
                  if p and os.path.exists(p)), None)


def _mlir_opt(text: str, *flags: str) -> subprocess.CompletedProcess:
    if _MLIR_OPT is None:
        pytest.skip("mlir-opt 22 not installed")
    return subprocess.run([_MLIR_OPT, *flags, "-"], input=text, capture_output=True, text=True)


def _c_string(text: str) -> str:
    """``text`` + NUL as an MLIR string literal body."""
    out = []
    for b in text.encode() + b"\0":
        ch = chr(b)
        out.append(ch if 0x20 <= b < 0x7F and ch not in '"\\' else f"\\{b:02X}")
    return "".join(out)


PRINTED = """module {
  llvm.mlir.global internal constant @fmt("x = %d %f %s\\0A\\00") {addr_space = 0 : i32}
  llvm.mlir.global private constant @s("hi\\00") {addr_space = 0 : i32}
  llvm.mlir.global external @b("ab") {addr_space = 0 : i32}
  llvm.mlir.global private constant @c(42 : i32) {addr_space = 0 : i32} : i32
  llvm.func @printf(!llvm.ptr, ...) -> i32
  llvm.func @puts(!llvm.ptr) -> i32
  func.func @main() {
    %0 = llvm.mlir.addressof @fmt : !llvm.ptr
    %1 = llvm.getelementptr %0[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<14 x i8>
    %2 = llvm.getelementptr inbounds %0[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<14 x i8>
    %c3_i32 = arith.constant 3 : i32
    %3 = llvm.call @printf(%1, %c3_i32) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
    %4 = llvm.call @puts(%2) : (!llvm.ptr) -> i32
    return
  }
}
"""

GENERIC_GLOBALS = (
    '"llvm.mlir.global"() <{addr_space = 0 : i32, constant, global_type = !llvm.array<14 x i8>, '
    'linkage = #llvm.linkage<internal>, sym_name = "fmt", unnamed_addr = 0 : i64, '
    'value = "x = %d %f %s\\0A\\00", visibility_ = 0 : i64}> ({\n  }) : () -> ()',
    '%0 = "llvm.mlir.addressof"() <{global_name = @fmt}> : () -> !llvm.ptr',
    '%1 = "llvm.getelementptr"(%0) <{elem_type = !llvm.array<14 x i8>, noWrapFlags = 0 : i32, '
    'rawConstantIndices = array<i32: 0, 0>}> : (!llvm.ptr) -> !llvm.ptr',
    '"llvm.mlir.global"() <{addr_space = 0 : i32, constant, global_type = i32, '
    'linkage = #llvm.linkage<private>, sym_name = "c", unnamed_addr = 0 : i64, '
    'value = 42 : i32, visibility_ = 0 : i64}> ({\n  }) : () -> ()',
)


def test_round_trip_custom_and_generic():
    module = tileir.parse(PRINTED)
    tileir.verify(module)
    assert tileir.print(module) == PRINTED
    generic = tileir.print(module, generic=True)
    for piece in GENERIC_GLOBALS:
        assert piece in generic, piece
    assert "vararg" not in generic and "var_callee_type = !llvm.func<i32 (ptr, ...)>" in generic
    assert "function_type = !llvm.func<i32 (ptr, ...)>" in generic
    again = tileir.parse(generic)
    tileir.verify(again)
    assert tileir.print(again) == PRINTED


def test_matches_mlir_opt():
    r = _mlir_opt(PRINTED)
    assert r.returncode == 0, r.stderr
    assert r.stdout == PRINTED + "\n"
    g = _mlir_opt(PRINTED, "--mlir-print-op-generic")
    assert g.returncode == 0, g.stderr
    for piece in GENERIC_GLOBALS:
        assert piece in g.stdout, piece


def test_default_linkage_and_type_spelled_as_mlir_opt():
    text = ('llvm.mlir.global constant @a("ab\\00")\n'
            'llvm.mlir.global internal @b("xy") : !llvm.array<2 x i8>\n')
    want = ('module {\n  llvm.mlir.global external constant @a("ab\\00") {addr_space = 0 : i32}\n'
            '  llvm.mlir.global internal @b("xy") {addr_space = 0 : i32}\n}\n')
    assert tileir.print(tileir.parse(text)) == want
    if _MLIR_OPT is not None:
        assert _mlir_opt(text).stdout == want + "\n"


ERRORS = [
    ('llvm.mlir.global internal @b("ab") : !llvm.array<3 x i8>',
     "'llvm.mlir.global' op requires an i8 array type of the length equal to that of the "
     "string attribute"),
    ('func.func @m() {\n  %0 = llvm.mlir.addressof @nope : !llvm.ptr\n  return\n}',
     "'llvm.mlir.addressof' op must reference a global defined by 'llvm.mlir.global', "
     "'llvm.mlir.alias' or 'llvm.func' or 'llvm.mlir.ifunc'"),
    ('llvm.mlir.global internal @b("ab")\nfunc.func @m() {\n'
     '  %0 = llvm.mlir.addressof @b : !llvm.ptr<1>\n  return\n}',
     "'llvm.mlir.addressof' op pointer address space must match address space of the "
     "referenced global or alias"),
    ('llvm.func @printf(!llvm.ptr, ...) -> i32\nfunc.func @m(%p: !llvm.ptr) {\n'
     '  %0 = llvm.call @printf(%p) : (!llvm.ptr) -> i32\n  return\n}',
     "'llvm.call' op missing var_callee_type attribute for vararg call"),
    ('llvm.func @printf(!llvm.ptr, ...) -> i32\nfunc.func @m(%p: !llvm.ptr) {\n'
     '  %0 = llvm.call @printf() vararg(!llvm.func<i32 (ptr, ...)>) : () -> i32\n  return\n}',
     "'llvm.call' op expected var_callee_type to have at most 0 parameters"),
    ('llvm.func @printf(!llvm.ptr, ...) -> i32\nfunc.func @m(%p: i32) {\n'
     '  %0 = llvm.call @printf(%p) vararg(!llvm.func<i32 (ptr, ...)>) : (i32) -> i32\n'
     '  return\n}',
     "'llvm.call' op var_callee_type parameter type mismatch: '!llvm.ptr' != 'i32'"),
    ('llvm.func @printf(!llvm.ptr, ...) -> i32\nfunc.func @m(%p: !llvm.ptr) {\n'
     '  %0 = llvm.call @printf(%p) vararg(!llvm.func<i64 (ptr, ...)>) : (!llvm.ptr) -> i64\n'
     '  return\n}',
     "'llvm.call' op result type mismatch: 'i64' != 'i32'"),
    ('llvm.func @f(i32)\nfunc.func @m(%p: i32) {\n'
     '  llvm.call @f(%p, %p) : (i32, i32) -> ()\n  return\n}',
     "'llvm.call' op incorrect number of operands (2) for callee (expecting: 1)"),
]


@pytest.mark.parametrize("text,message", ERRORS)
def test_verifier_messages(text, message):
    with pytest.raises(DiagnosticError) as info:
        tileir.verify(tileir.parse(text))
    assert message in str(info.value)
    if _MLIR_OPT is not None:
        r = _mlir_opt(text)
        assert r.returncode != 0 and message in r.stderr


# -- execution -----------------------------------------------------------------------------

CASES = [
    ("x = %d, y = %5.2f, s = %s, n = %ld\n",
     [("i32", "-3", -3), ("f64", "2.5", 2.5), ("str", "hello", "hello"),
      ("i64", "123456789012", 123456789012)]),
    ("[%-6d|%06.1f|%x|%X|%o|%e|%g|%c|%%|%10s]\n",
     [("i32", "42", 42), ("f64", "-3.25", -3.25), ("i32", "255", 255), ("i64", "48879", 48879),
      ("i32", "8", 8), ("f64", "12345.678", 12345.678), ("f64", "0.0001", 0.0001),
      ("i32", "65", 65), ("str", "right", "right")]),
    ("no arguments\n", []),
]


def _program(fmt: str, args) -> str:
    lines = [f'  llvm.mlir.global internal constant @fmt("{_c_string(fmt)}") '
             "{addr_space = 0 : i32}"]
    body, operands, types = [], [], []
    n = len(fmt.encode()) + 1
    body.append("    %f0 = llvm.mlir.addressof @fmt : !llvm.ptr")
    body.append(f"    %f = llvm.getelementptr %f0[0, 0] : (!llvm.ptr) -> !llvm.ptr, "
                f"!llvm.array<{n} x i8>")
    for k, (ty, lit, _) in enumerate(args):
        if ty == "str":
            lines.append(f'  llvm.mlir.global internal constant @s{k}("{_c_string(lit)}") '
                         "{addr_space = 0 : i32}")
            body.append(f"    %a{k} = llvm.mlir.addressof @s{k} : !llvm.ptr")
            types.append("!llvm.ptr")
        else:
            body.append(f"    %a{k} = arith.constant {lit} : {ty}")
            types.append(ty)
        operands.append(f"%a{k}")
    call_args = ", ".join(["%f"] + operands)
    call_types = ", ".join(["!llvm.ptr"] + types)
    body.append(f"    %n = llvm.call @printf({call_args}) vararg(!llvm.func<i32 (ptr, ...)>) "
                f": ({call_types}) -> i32")
    body.append(f"    %again = llvm.call @printf(%f{''.join(', ' + o for o in operands)}) "
                f"vararg(!llvm.func<i32 (ptr, ...)>) : ({call_types}) -> i32")
    body.append("    return %n : i32")
    return ("module {\n" + "\n".join(lines) + "\n  llvm.func @printf(!llvm.ptr, ...) -> i32\n"
            "  func.func @main() -> i32 {\n" + "\n".join(body) + "\n  }\n}\n")


@pytest.mark.parametrize("fmt,args", CASES)
def test_printf_matches_python(fmt, args):
    text = _program(fmt, args)
    if _MLIR_OPT is not None:
        r = _mlir_opt(text)
        assert r.returncode == 0, r.stderr
    expected = fmt % tuple(v for _, _, v in args)
    buf = io.StringIO()
    results = gpu.run(text, "main", args=[], stdout=buf)
    assert buf.getvalue() == expected * 2
    assert int(results[0]) == len(expected.encode())


def test_printf_count_feeds_back():
    text = """
llvm.mlir.global internal constant @fmt("%d\\0A\\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @word("abc\\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @sfmt("<%s>\\0A\\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32
func.func @main() {
  %f = llvm.mlir.addressof @fmt : !llvm.ptr
  %s = llvm.mlir.addressof @sfmt : !llvm.ptr
  %w = llvm.mlir.addressof @word : !llvm.ptr
  %w1 = llvm.getelementptr %w[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x i8>
  %x = arith.constant 123456 : i32
  %n = llvm.call @printf(%f, %x) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
  %m = llvm.call @printf(%f, %n) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
  %k = llvm.call @printf(%s, %w1) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, !llvm.ptr) -> i32
  return
}
"""
    buf = io.StringIO()
    gpu.run(text, "main", args=[], stdout=buf)
    assert buf.getvalue() == "123456\n7\n<bc>\n"
