"""``#map`` aliases are numbered as mlir-opt 22 numbers them.  In the custom form MLIR visits
what the custom printers print, in print order: a transfer's default permutation map, which is
not printed, takes no number where it occurs, and an op's attribute dictionary comes before its
result types; in the generic form every attribute is printed and an op's result types come
before its attributes.  (Found with transfers mixing default and explicit maps: the default map
used to take the next number at its elided occurrence.)  Expected texts were recorded from
mlir-opt 22; where it is installed, random mixes are also compared with it live."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import tileir
from tileir.cli.opt import process_buffer

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "interop"))
from mlir_tools import run_mlir_opt  # noqa: E402

SRC = """\
func.func @f(%m: memref<4x4xf32>, %s: memref<4x4xf32, affine_map<(d0, d1) -> (d1 * 4 + d0)>>) {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %a = vector.transfer_read %m[%c0, %c0], %p : memref<4x4xf32>, vector<4xf32>
  %b = vector.transfer_read %m[%c0, %c0], %p {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<4x4xf32>, vector<4x4xf32>
  vector.transfer_write %a, %s[%c0, %c0] {permutation_map = affine_map<(d0, d1) -> (d1)>} : vector<4xf32>, memref<4x4xf32, affine_map<(d0, d1) -> (d1 * 4 + d0)>>
  %c = vector.transfer_read %m[%c0, %c0], %p {foo = affine_map<(d0, d1) -> (d1)>} : memref<4x4xf32>, vector<4xf32>
  %d = memref.alloc() {bar = affine_map<(d0) -> (d0 + 1)>} : memref<4xf32, affine_map<(d0) -> (d0 + 2)>>
  return
}
"""

CUSTOM = """\
#map = affine_map<(d0, d1) -> (d1 * 4 + d0)>
#map1 = affine_map<(d0, d1) -> (d1, d0)>
#map2 = affine_map<(d0, d1) -> (d1)>
#map3 = affine_map<(d0) -> (d0 + 1)>
#map4 = affine_map<(d0) -> (d0 + 2)>
module {
  func.func @f(%arg0: memref<4x4xf32>, %arg1: memref<4x4xf32, #map>) {
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %0 = vector.transfer_read %arg0[%c0, %c0], %cst : memref<4x4xf32>, vector<4xf32>
    %1 = vector.transfer_read %arg0[%c0, %c0], %cst {permutation_map = #map1} : memref<4x4xf32>, vector<4x4xf32>
    vector.transfer_write %0, %arg1[%c0, %c0] : vector<4xf32>, memref<4x4xf32, #map>
    %2 = vector.transfer_read %arg0[%c0, %c0], %cst {foo = #map2} : memref<4x4xf32>, vector<4xf32>
    %alloc = memref.alloc() {bar = #map3} : memref<4xf32, #map4>
    return
  }
}
"""

GENERIC_HEAD = """\
#map = affine_map<(d0, d1) -> (d1 * 4 + d0)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1) -> (d1, d0)>
#map3 = affine_map<(d0) -> (d0 + 2)>
#map4 = affine_map<(d0) -> (d0 + 1)>
"""

GENERIC_ALLOC = ('%5 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> '
                 '{bar = #map4} : () -> memref<4xf32, #map3>')


def _print(text: str, generic: bool = False) -> str:
    result = process_buffer(text, "t.mlir")
    assert not result.diagnostics, result.diagnostics
    return tileir.text.print_op(result.module, generic=generic)


def test_custom_form_numbers_maps_in_print_order():
    assert _print(SRC) == CUSTOM


def test_generic_form_numbers_result_types_before_attributes():
    text = _print(SRC, generic=True)
    assert text.startswith(GENERIC_HEAD)
    assert GENERIC_ALLOC in text


def test_printed_forms_parse_back_to_the_same_text():
    assert _print(CUSTOM) == CUSTOM
    assert _print(_print(SRC, generic=True)) == CUSTOM


# -- random mixes against a live mlir-opt ---------------------------------------------------------

_MAPS = ["(d0, d1) -> (d1)", "(d0, d1) -> (d0)", "(d0, d1) -> (0)", "(d0, d1) -> (d1, d0)",
         "(d0, d1) -> (d0, d1)", "(d0, d1) -> (0, d1)"]
_LAYOUTS = ["", ", affine_map<(d0, d1) -> (d1 * 4 + d0)>",
            ", affine_map<(d0, d1) -> (d0 * 8 + d1)>", ", strided<[4, 1], offset: ?>"]
_CONTRACT = ('%r{k} = vector.contract {{indexing_maps = [affine_map<(i, j, k) -> (i, k)>, '
             'affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types'
             ' = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}} %x, %x, %x : '
             'vector<4x4xf32>, vector<4x4xf32> into vector<4x4xf32>')


def _transfer(rng: random.Random, k: int, memref: str, mtype: str) -> list[str]:
    """A transfer_read or transfer_write with a default, explicit or broadcasting map, and
    sometimes a discardable attribute holding another map."""
    pmap = rng.choice(_MAPS + [None, None])
    if pmap is None:
        vtype = rng.choice(["vector<4xf32>", "vector<4x4xf32>"])
        attrs = []
    else:
        vtype = "vector<4xf32>" if "," not in pmap.split("->")[1] else "vector<4x4xf32>"
        attrs = [f"permutation_map = affine_map<{pmap}>"]
    if rng.random() < 0.3:
        attrs.append(f"foo = affine_map<{rng.choice(_MAPS)}>")
    attr_dict = f" {{{', '.join(attrs)}}}" if attrs else ""
    broadcast = pmap is not None and "0" in pmap.split("->")[1]
    if broadcast or rng.random() < 0.6:
        return [f"%v{k} = vector.transfer_read {memref}[%c0, %c0], %p{attr_dict} : {mtype}, "
                f"{vtype}"]
    return [f"%w{k} = arith.constant dense<1.0> : {vtype}",
            f"vector.transfer_write %w{k}, {memref}[%c0, %c0]{attr_dict} : {vtype}, {mtype}"]


def random_module(seed: int) -> str:
    """A function of transfers on memrefs with and without affine layouts, mixing default and
    explicit permutation maps, other map attributes and contractions."""
    rng = random.Random(seed)
    memrefs = [(f"%m{k}", f"memref<4x4xf32{rng.choice(_LAYOUTS)}>")
               for k in range(rng.randint(1, 3))]
    body = ["%c0 = arith.constant 0 : index", "%p = arith.constant 0.0 : f32",
            "%x = arith.constant dense<1.0> : vector<4x4xf32>"]
    for k in range(rng.randint(2, 8)):
        body += _transfer(rng, k, *rng.choice(memrefs))
        if rng.random() < 0.2:
            body.append(_CONTRACT.format(k=k))
    args = ", ".join(f"{name}: {t}" for name, t in memrefs)
    return f"func.func @f({args}) {{\n  " + "\n  ".join(body) + "\n  return\n}\n"


#: a few seeds, and seeds whose modules the old numbering got wrong
SEEDS = list(range(6)) + [20, 21, 52, 60, 63, 70]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("generic", [False, True])
def test_random_mixes_match_a_live_mlir_opt(seed, generic):
    text = random_module(seed)
    run = run_mlir_opt(text, ["-mlir-print-op-generic"] if generic else [])
    assert run.returncode == 0, run.stderr
    assert _print(text, generic=generic).rstrip() == run.stdout.rstrip()
