"""Differential bug hunt of the gpu and upstream dialects' text format and verifier against
MLIR 22's ``mlir-opt``: each finding is a case with mlir-opt's output (or first error, with its
line and column) written inline, so the cases run without mlir-opt; where mlir-opt is
installed, the same inputs are also fed to it to check that the inline expectations are its.

``python tests/conformance/test_mlir_opt_differential_hunt.py FILE...`` runs both tools on
files (``--split-input-file`` style chunks allowed) and prints where they differ: custom and
generic output, each tool reading the other's output, and the first error of invalid inputs.
"""

from __future__ import annotations

import difflib
import re
import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest

from tileir.cli.opt import process_buffer
from tileir.text import print_op

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "interop"))
from mlir_tools import find_mlir_opt, run_mlir_opt  # noqa: E402


def _tileir(text: str, generic: bool = False) -> str:
    result = process_buffer(text, "<stdin>", allow_unregistered=True)
    assert not result.failed, [d.message for d in result.diagnostics]
    return print_op(result.module, generic=generic)


def _tileir_error(text: str) -> str:
    """The first error as ``LINE:COL: message``."""
    result = process_buffer(text, "<stdin>", allow_unregistered=True)
    errors = [d for d in result.diagnostics if d.severity == "error"]
    assert errors, "tileir accepts the input"
    loc = errors[0].loc
    return f"{loc.line}:{loc.col}: {errors[0].message}"


def _mlir_error(text: str) -> Optional[str]:
    run = run_mlir_opt(text, ["-allow-unregistered-dialect"])
    m = re.search(r"^<stdin>:(\d+:\d+): error: (.*)$", run.stderr, re.M)
    return None if m is None else f"{m.group(1)}: {m.group(2)}"


_needs_mlir_opt = pytest.mark.skipif(find_mlir_opt() is None,
                                     reason="MLIR's mlir-opt not found (mlir-22-tools)")


def assert_output_line(text: str, line: str) -> None:
    """tileir prints ``text`` with ``line`` (mlir-opt's, inline in a test) and reads its own
    output back to the same text (the later hunts' output cases)."""
    printed = _tileir(text)
    assert line in printed.splitlines()
    assert _tileir(printed) == printed


def assert_mlir_output_line(text: str, line: str) -> None:
    """mlir-opt prints ``text`` with ``line`` and exactly as tileir does."""
    run = run_mlir_opt(text, ["-allow-unregistered-dialect"])
    assert line in run.stdout.splitlines()
    assert run.stdout.rstrip("\n") == _tileir(text).rstrip("\n")

# -- gpu.func: attribution attributes and the known_* sizes are properties ---------------------

GPU_FUNC = """\
gpu.module @m {
  gpu.func @f(%a: f32 {foo.x}) workgroup(%w: memref<4xf32, 3> {foo.bar}, %w2: memref<4xf32, 3>) \
private(%p: memref<4xf32, 5> {baz}, %p2: memref<4xf32, 5>) kernel attributes \
{known_block_size = array<i32: 1, 2, 3>, known_cluster_size = array<i32: 1,1,1>, \
gpu.known_grid_size = array<i32: 4, 4, 4>} {
    gpu.return
  }
  gpu.func @g() workgroup(%w: memref<4xf32, 3> {}) {
    gpu.return
  }
}
"""

GPU_FUNC_CUSTOM = """\
module {
  gpu.module @m {
    gpu.func @f(%arg0: f32 {foo.x}) workgroup(%arg1 : memref<4xf32, 3> {foo.bar}, %arg2 : \
memref<4xf32, 3>) private(%arg3 : memref<4xf32, 5> {baz}, %arg4 : memref<4xf32, 5>) kernel \
attributes {gpu.known_grid_size = array<i32: 4, 4, 4>, known_block_size = array<i32: 1, 2, 3>, \
known_cluster_size = array<i32: 1, 1, 1>} {
      gpu.return
    }
    gpu.func @g() workgroup(%arg0 : memref<4xf32, 3>) {
      gpu.return
    }
  }
}
"""

GPU_FUNC_GENERIC_LINE = (
    '    "gpu.func"() <{arg_attrs = [{foo.x}], function_type = (f32) -> (), known_block_size = '
    'array<i32: 1, 2, 3>, known_cluster_size = array<i32: 1, 1, 1>, private_attrib_attrs = '
    '[{baz}, {}], workgroup_attrib_attrs = [{foo.bar}, {}]}> ({')


def test_gpu_func_attribution_attributes_and_known_sizes():
    assert _tileir(GPU_FUNC) == GPU_FUNC_CUSTOM
    generic = _tileir(GPU_FUNC, generic=True)
    assert GPU_FUNC_GENERIC_LINE in generic.splitlines()
    assert '{gpu.kernel, gpu.known_grid_size = array<i32: 4, 4, 4>, sym_name = "f", ' \
        'workgroup_attributions = 2 : i64}' in generic
    # each form reads back to the same IR
    assert _tileir(generic) == GPU_FUNC_CUSTOM
    assert _tileir(GPU_FUNC_CUSTOM) == GPU_FUNC_CUSTOM


@_needs_mlir_opt
def test_gpu_func_case_is_mlir_opts():
    # (mlir-opt ends each buffer's output with an empty line)
    assert run_mlir_opt(GPU_FUNC).stdout.rstrip("\n") == GPU_FUNC_CUSTOM.rstrip("\n")
    generic = run_mlir_opt(GPU_FUNC, ["-mlir-print-op-generic"]).stdout
    assert GPU_FUNC_GENERIC_LINE in generic.splitlines()
    assert generic.rstrip("\n") == _tileir(GPU_FUNC, generic=True).rstrip("\n")


# -- first errors: (input, mlir-opt's first error) ---------------------------------------------

_F = "func.func @f(%u: memref<*xf32>, %c: index) {{\n  {}\n  return\n}}\n"
_KIND = "invalid kind of type specified: expected builtin.memref, but found 'memref<*xf32>'"

ERRORS = {
    "known_block_size_2": (
        "gpu.module @m {\n  gpu.func @f() kernel attributes {known_block_size = "
        "array<i32: 1, 2>} {\n    gpu.return\n  }\n}\n",
        "2:3: 'gpu.func' op attribute 'known_block_size' failed to satisfy constraint: i32 "
        "dense array attribute with 3 elements (if present)"),
    "generic_known_grid_size_i64": (
        '"gpu.module"() <{sym_name = "m"}> ({\n  "gpu.func"() <{function_type = () -> (), '
        'known_grid_size = array<i32: 1, 2, 3, 4>}> ({\n    "gpu.return"() : () -> ()\n  }) '
        '{sym_name = "f"} : () -> ()\n}) : () -> ()\n',
        "2:3: 'gpu.func' op attribute 'known_grid_size' failed to satisfy constraint: i32 "
        "dense array attribute with 3 elements (if present)"),
    "workgroup_list": (
        "gpu.module @m {\n  gpu.func @f() workgroup(%a: memref<4xf32, 3> %b: f32) {\n"
        "    gpu.return\n  }\n}\n",
        "2:47: expected ')' in argument list"),
    "workgroup_attrs_then_loc": (
        "gpu.module @m {\n  gpu.func @f() workgroup(%a: memref<4xf32, 3> {a = 1} loc(\"x\") "
        "{b}) {\n    gpu.return\n  }\n}\n",
        "2:64: expected ')' in argument list"),
    "launch_workgroup_attrs": (
        "func.func @f(%n: index) {\n  gpu.launch blocks(%bx, %by, %bz) in (%x = %n, %y = %n, "
        "%z = %n) threads(%tx, %ty, %tz) in (%a = %n, %b = %n, %c = %n) workgroup(%w: "
        "memref<4xf32, 3> {foo.bar}) {\n    gpu.terminator\n  }\n  return\n}\n",
        "2:151: expected ')' in argument list"),
    "load_unranked": (_F.format("%0 = memref.load %u[%c] : memref<*xf32>"),
                      f"2:29: custom op 'memref.load' {_KIND}"),
    "store_unranked": (_F.format("memref.store %c, %u[%c] : memref<*xf32>"),
                       f"2:29: custom op 'memref.store' {_KIND}"),
    "alloca_unranked": (_F.format("%0 = memref.alloca() : memref<*xf32>"),
                        f"2:26: custom op 'memref.alloca' {_KIND}"),
    "dealloc_index": (_F.format("memref.dealloc %c : index"),
                      "2:23: custom op 'memref.dealloc' invalid kind of type specified"),
    "cast_index": (_F.format("%0 = memref.cast %c : index to memref<?xf32>"),
                   "2:25: custom op 'memref.cast' invalid kind of type specified"),
    "copy_index": (_F.format("memref.copy %c, %u : index to memref<*xf32>"),
                   "2:24: custom op 'memref.copy' invalid kind of type specified"),
    "get_global_unranked": (_F.format("%1 = memref.get_global @x : memref<*xf32>"),
                            f"2:31: custom op 'memref.get_global' {_KIND}"),
    "atomic_rmw_unranked": (
        _F.format("%1 = memref.atomic_rmw addf %c, %u[%c] : (index, memref<*xf32>) -> f32"),
        f"2:52: custom op 'memref.atomic_rmw' {_KIND}"),
    "subview_unranked": (_F.format("%1 = memref.subview %u[0][1][1] : memref<*xf32> to "
                                   "memref<1xf32>"),
                         f"2:37: custom op 'memref.subview' {_KIND}"),
    "reinterpret_cast_to_unranked": (
        _F.format("%1 = memref.reinterpret_cast %u to offset: [0], sizes: [1], strides: [1] : "
                  "memref<*xf32> to memref<*xf32>"),
        f"2:95: custom op 'memref.reinterpret_cast' {_KIND}"),
    "collapse_shape_unranked": (
        _F.format("%1 = memref.collapse_shape %u [] : memref<*xf32> into memref<f32>"),
        f"2:38: custom op 'memref.collapse_shape' {_KIND}"),
    "expand_shape_unranked": (
        _F.format("%1 = memref.expand_shape %u [] output_shape [] : memref<*xf32> into "
                  "memref<f32>"),
        f"2:52: custom op 'memref.expand_shape' {_KIND}"),
    "view_unranked": (_F.format("%1 = memref.view %u[%c][] : memref<*xf32> to memref<f32>"),
                      f"2:31: custom op 'memref.view' {_KIND}"),
    "transpose_unranked": (
        _F.format("%1 = memref.transpose %u () -> () : memref<*xf32> to memref<*xf32>"),
        f"2:37: custom op 'memref.transpose' {_KIND}"),
    "transpose_to_unranked": (
        "func.func @f(%u: memref<4x4xf32>) {\n  %1 = memref.transpose %u (i, j) -> (j, i) : "
        "memref<4x4xf32> to memref<*xf32>\n  return\n}\n",
        "2:8: 'memref.transpose' op result #0 must be strided memref of any type values, but "
        "got 'memref<*xf32>'"),
    "generic_atomic_rmw_unranked": (
        _F.format("%1 = memref.generic_atomic_rmw %u[] : memref<*xf32> {\n  ^bb0(%x: f32):\n"
                  "    memref.atomic_yield %x : f32\n  }"),
        "2:8: 'memref.generic_atomic_rmw' op operand #0 must be memref of signless integer or "
        "floating-point values, but got 'memref<*xf32>'"),
    "extract_strided_metadata_unranked": (
        _F.format("%b, %o = memref.extract_strided_metadata %u : memref<*xf32> -> "
                  "memref<f32>, index"),
        f"2:49: custom op 'memref.extract_strided_metadata' {_KIND}"),
    "realloc_unranked": (_F.format("%1 = memref.realloc %u : memref<*xf32> to memref<4xf32>"),
                         f"2:28: custom op 'memref.realloc' {_KIND}"),
    "prefetch_unranked": (_F.format("memref.prefetch %u[], read, locality<3>, data : "
                                    "memref<*xf32>"),
                          f"2:49: custom op 'memref.prefetch' {_KIND}"),
    "assume_alignment_unranked": (_F.format("memref.assume_alignment %u, 4 : memref<*xf32>"),
                                  f"2:35: custom op 'memref.assume_alignment' {_KIND}"),
    "load_index": (_F.format("%3 = memref.load %c[] : index"),
                   "2:27: custom op 'memref.load' invalid kind of type specified: expected "
                   "builtin.memref, but found 'index'"),
    "dim_index": (_F.format("%3 = memref.dim %c, %c : index"),
                  "2:8: 'memref.dim' op operand #0 must be unranked.memref of any type values or "
                  "non-0-ranked.memref of any type values, but got 'index'"),
    # strings and hex elements: where MLIR's lexer and dense parser point
    "unknown_escape": ('func.func @f() attributes {a = "ab\\q"} {\n  return\n}\n',
                       "1:35: unknown escape in string literal"),
    "unknown_escape_symbol": ('func.func @"f\\z"() {\n  return\n}\n',
                              "1:14: unknown escape in string literal"),
    "hex_digits": ('func.func @f() {\n  %0 = arith.constant dense<  "0x0"> : vector<2xi8>\n'
                   '  return\n}\n',
                   "2:31: expected string containing hex digits starting with `0x`"),
    "hex_size": ('func.func @f() {\n  %0 = arith.constant dense<"0x0102"> : vector<3xi8>\n'
                 '  return\n}\n',
                 "2:23: elements hex data size is invalid for provided type: 'vector<3xi8>'"),
    # (was a crash: numpy's ValueError on a buffer that is no whole number of elements)
    "hex_size_not_whole_elements": (
        '"foo.x"() {a = dense<"0x0102"> : tensor<2xf32>} : () -> ()\n',
        "1:16: elements hex data size is invalid for provided type: 'tensor<2xf32>'"),
    # the fast path must not take the op either when it is not the first of its function
    "load_unranked_after_ops": (
        "func.func @f(%u: memref<*xf32>, %c: index) -> f32 {\n  %c0 = arith.constant 0 : index\n"
        "  %0 = memref.load %u[%c0] : memref<*xf32>\n  return %0 : f32\n}\n",
        f"3:30: custom op 'memref.load' {_KIND}"),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_first_error_is_mlir_opts(name):
    text, expected = ERRORS[name]
    assert _tileir_error(text) == expected


@_needs_mlir_opt
@pytest.mark.parametrize("name", sorted(ERRORS))
def test_inline_error_is_mlir_opts(name):
    text, expected = ERRORS[name]
    assert _mlir_error(text) == expected


def test_accepted_memref_types_still_parse():
    """What mlir-opt accepts around those checks: unranked memrefs where the op takes any
    memref, a 1-D dim source."""
    text = ("func.func @f(%u: memref<*xf32>, %r: memref<4xf32>, %c: index) {\n"
            "  %0 = memref.dim %u, %c : memref<*xf32>\n"
            "  %1 = memref.rank %u : memref<*xf32>\n"
            "  %2 = memref.cast %u : memref<*xf32> to memref<4xf32>\n"
            "  %3 = memref.extract_aligned_pointer_as_index %u : memref<*xf32> -> index\n"
            "  %4 = memref.reinterpret_cast %u to offset: [0], sizes: [4], strides: [1] : "
            "memref<*xf32> to memref<4xf32>\n"
            "  memref.copy %u, %u : memref<*xf32> to memref<*xf32>\n"
            "  memref.dealloc %u : memref<*xf32>\n"
            "  %5 = memref.dim %r, %c : memref<4xf32>\n"
            "  return\n}\n")
    printed = _tileir(text)
    assert _tileir(printed) == printed
    assert "memref.cast %arg0 : memref<*xf32> to memref<4xf32>" in printed


# -- the helper: both tools over files ---------------------------------------------------------

def compare_file(path: str, mlir_opt: str, tileir_opt: str = "tileir-opt") -> list[str]:
    """Differences between ``mlir-opt`` and ``tileir-opt`` on one file (split into chunks)."""
    def run(tool: str, flags: list, stdin: Optional[str] = None):
        p = subprocess.run([tool, *flags, "-" if stdin is not None else path], input=stdin,
                           capture_output=True, text=True, timeout=120)
        return p.returncode, p.stdout, p.stderr

    def errors(stderr: str) -> list:
        return [re.sub(r"^[^:]*:", "", line) for line in stderr.splitlines()
                if ": error:" in line]

    out = []
    for generic in (False, True):
        tag = "generic" if generic else "custom"
        mflags = ["-split-input-file", "-allow-unregistered-dialect"] + (
            ["-mlir-print-op-generic"] if generic else [])
        tflags = ["--split-input-file", "--allow-unregistered-dialect"] + (
            ["--print-generic"] if generic else [])
        m, t = run(mlir_opt, mflags), run(tileir_opt, tflags)
        if errors(m[2]) != errors(t[2]):
            out.append(f"[{tag}] errors: mlir {errors(m[2])} tileir {errors(t[2])}")
        if m[1] != t[1]:
            out.append(f"[{tag}] output:\n" + "".join(difflib.unified_diff(
                m[1].splitlines(True), t[1].splitlines(True), "mlir-opt", "tileir-opt")))
        elif m[0] == 0:
            if run(mlir_opt, mflags, t[1])[1] != m[1]:
                out.append(f"[{tag}] mlir-opt reads tileir's output differently")
            if run(tileir_opt, tflags, m[1])[1] != t[1]:
                out.append(f"[{tag}] tileir reads mlir-opt's output differently")
    return out


if __name__ == "__main__":  # pragma: no cover - a tool for hunting
    exe = find_mlir_opt()
    if exe is None:
        sys.exit("mlir-opt not found")
    for arg in sys.argv[1:]:
        found = compare_file(arg, exe)
        print(("=== " + arg + "\n" + "\n".join(found)) if found else f"ok {arg}")
