"""The affine dialect against mlir-opt 22: affine expressions, maps and integer sets built
(simplified) and printed as MLIR does; which values affine ops may use as dimensions and
symbols (``operand cannot be used as a dimension id`` / ``... as a symbol``); and the
LoopLikeOpInterface checks scf.for and affine.for share.  Every expectation was recorded from
mlir-opt 22.1; where mlir-opt is installed the tests also compare live, on these inputs and on
random expressions."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

import tileir
from tileir.ir.diagnostics import DiagnosticError

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "interop"))
from mlir_tools import find_mlir_opt, run_mlir_opt  # noqa: E402

_needs_mlir_opt = pytest.mark.skipif(find_mlir_opt() is None, reason="mlir-opt 22 not installed")

HEADER = "(d0, d1, d2)[s0, s1]"

#: (result expression as written in ``affine_map<HEADER -> (...)>``, as mlir-opt prints it)
EXPRESSIONS = [
    ("d0 + d0", "d0 * 2"),
    ("2 + 3", "5"),
    ("-(d0)", "-d0"),
    ("-d0", "-d0"),
    ("d0 * 2 + 1 - 1", "d0 * 2"),
    ("(d0 floordiv 2) * 2", "(d0 floordiv 2) * 2"),
    ("d0 - d1", "d0 - d1"),
    ("d1 + d0", "d0 + d1"),
    ("s1 + s0", "s0 + s1"),
    ("s1 * s0", "s0 * s1"),
    ("d0 * s0 + s0 * d0", "(d0 * s0) * 2"),
    ("3 * d0", "d0 * 3"),
    ("d0 * -1", "-d0"),
    ("d0 * -3 + d1", "d0 * -3 + d1"),
    ("d0 - d1 * 3", "d0 - d1 * 3"),
    ("d0 - (d1 + d2)", "d0 - (d1 + d2)"),
    ("d0 - (d1 - d2)", "d0 - (d1 - d2)"),
    ("-(d0 + d1)", "-(d0 + d1)"),
    ("-(d0 * 2)", "d0 * -2"),
    ("d0 + 5 - 7", "d0 - 2"),
    ("d0 - 0", "d0"),
    ("d0 * 1", "d0"),
    ("d0 * 0", "0"),
    ("0 - d0", "-d0"),
    ("(d0 + 2) + 3", "d0 + 5"),
    ("(d0 + 2) + d1", "d0 + d1 + 2"),
    ("d0 + (d1 + 2)", "d0 + d1 + 2"),
    ("d0 + (d1 + d2)", "d0 + d1 + d2"),
    ("(d0 * 2) * 3", "d0 * 6"),
    ("(d0 * 2) * s0", "(d0 * s0) * 2"),
    ("s1 * (s0 * 2)", "s1 * (s0 * 2)"),
    ("7 floordiv 2", "3"),
    ("-7 floordiv 2", "-4"),
    ("7 floordiv -2", "-4"),
    ("7 ceildiv 2", "4"),
    ("-7 ceildiv 2", "-3"),
    ("7 ceildiv -2", "-3"),
    ("7 mod 3", "1"),
    ("-7 mod 3", "2"),
    ("7 mod -3", "7 mod -3"),
    ("d0 floordiv 1", "d0"),
    ("d0 ceildiv 1", "d0"),
    ("d0 mod 1", "0"),
    ("d0 floordiv -1", "d0 floordiv -1"),
    ("d0 floordiv 0", "d0 floordiv 0"),
    ("d0 mod 0", "d0 mod 0"),
    ("(d0 * 4) floordiv 2", "d0 * 2"),
    ("(d0 * 4) floordiv -2", "d0 * -2"),
    ("(d0 * 3) floordiv 2", "(d0 * 3) floordiv 2"),
    ("(d0 * 4) ceildiv 2", "d0 * 2"),
    ("(d0 * 4) mod 2", "0"),
    ("(d0 * 4) mod -2", "(d0 * 4) mod -2"),
    ("(d0 * 6 + 3) floordiv 3", "d0 * 2 + 1"),
    ("(d0 + 3) floordiv 3", "d0 floordiv 3 + 1"),
    ("(d0 * 6 + d1) ceildiv 3", "(d0 * 6 + d1) ceildiv 3"),
    ("(d0 * 4 + d1) mod 2", "d1 mod 2"),
    ("(d0 + d1 * 4) mod 2", "d0 mod 2"),
    ("(d0 mod 8) mod 4", "d0 mod 4"),
    ("(d0 mod 4) mod 8", "(d0 mod 4) mod 8"),
    ("((d0 * 4) floordiv 2) mod 2", "0"),
    ("d0 - (d0 floordiv 4) * 4", "d0 mod 4"),
    ("d0 + (d0 floordiv 4) * -4", "d0 mod 4"),
    ("(d0 floordiv 4) * -4 + d0", "(d0 floordiv 4) * -4 + d0"),
    ("d0 - (d0 floordiv s0) * s0", "d0 mod s0"),
    ("d0 + (d0 floordiv -4) * 4", "d0 + (d0 floordiv -4) * 4"),
    ("d0 + (d0 floordiv s1) * (s1 * -1)", "d0 + (d0 floordiv s1) * (-s1)"),
    ("(d1 + d0) - (d0 floordiv 4) * 4", "d0 + d1 - (d0 floordiv 4) * 4"),
    ("(d1 * 2 + d0) - (d0 floordiv 4) * 4", "d1 * 2 + d0 mod 4"),
    ("(s0 + s1) - (s1 floordiv 4) * 4", "s0 + s1 mod 4"),
    ("(d0 + s0) - (d0 floordiv 4) * 4", "d0 + (d0 floordiv 4) * -4 + s0"),
    ("(d1 - s0) - (d0 floordiv 3)", "d1 + -(d0 floordiv 3) - s0"),
    ("(d1 + d0 floordiv 2) + (d0 floordiv 2) * 3", "d1 + (d0 floordiv 2) * 4"),
    ("(d0 - d1) - (d2 floordiv 4) * 4", "d0 - d1 - (d2 floordiv 4) * 4"),
    ("d0 floordiv s0", "d0 floordiv s0"),
    ("d0 mod s0", "d0 mod s0"),
    ("(d0 * s0) floordiv s0", "(d0 * s0) floordiv s0"),
    ("s0 * s1 * 2", "(s0 * s1) * 2"),
    ("(s1 * 2) * s0", "(s0 * s1) * 2"),
    ("d0 * (s0 + 1)", "d0 * (s0 + 1)"),
    ("(s0 + 1) * d0", "d0 * (s0 + 1)"),
    ("d0 * (s1 * s0)", "d0 * (s0 * s1)"),
    ("s0 ceildiv 4", "s0 ceildiv 4"),
    ("-(d0 floordiv 2)", "-(d0 floordiv 2)"),
    ("-(d0 mod 2) * 3", "(d0 mod 2) * -3"),
    ("d0 * 2 - d0 * 2", "0"),
    ("d0 * 2 - d0 * 3", "-d0"),
    ("s0 - s0", "0"),
    ("d0 + s0 + d1", "d0 + s0 + d1"),
    ("s0 + d0", "d0 + s0"),
    ("s0 * 3 + d0 * 2 + 5", "d0 * 2 + s0 * 3 + 5"),
    ("d2 + d1 + d0", "d1 + d2 + d0"),
    ("(d0 + d1) * 2", "(d0 + d1) * 2"),
    ("(d0 + 1) floordiv 2", "(d0 + 1) floordiv 2"),
    ("-5", "-5"),
    ("0x10 + d0", "d0 + 16"),
    ("d0 - -3", "d0 + 3"),
    ("d0 + -3", "d0 - 3"),
    ("(d0 + d1 * -2) * -1", "-(d0 - d1 * 2)"),
    ("d0 - (d1 * -2)", "d0 + d1 * 2"),
    ("d0 * 2 - (d1 + 1) * 3", "d0 * 2 - (d1 + 1) * 3"),
]

#: (integer set as written, as mlir-opt prints it)
SETS = [
    ("(d0) : (d0 - 10 >= 0, -d0 + 5 == 0)", "(d0) : (d0 - 10 >= 0, -d0 + 5 == 0)"),
    ("(d0)[s0] : (d0 >= s0)", "(d0)[s0] : (d0 - s0 >= 0)"),
    ("(d0)[s0] : (d0 <= s0)", "(d0)[s0] : (-d0 + s0 >= 0)"),
    ("(d0, d1) : (d0 == d1)", "(d0, d1) : (d0 - d1 == 0)"),
    ("(d0) : (d0 * 2 <= 7, 3 >= d0)", "(d0) : (d0 * -2 + 7 >= 0, -d0 + 3 >= 0)"),
    ("(d0) : (1 == 0)", "(d0) : (1 == 0)"),
    ("(d0) : (0 == 0)", "(d0) : (0 == 0)"),
    ("(d0) : (d0 >= d0)", "(d0) : (0 >= 0)"),
    ("(d0, d1)[s0] : (d0 + d1 >= s0 + 1, d0 mod 2 == 0)", "(d0, d1)[s0] : (d0 + d1 - (s0 + 1) >= 0, d0 mod 2 == 0)"),
    ("() : (1 >= 0)", "() : (1 >= 0)"),
    ("(d0)[s0, s1] : (s1 - d0 >= s0 floordiv 2)", "(d0)[s0, s1] : (-d0 + s1 - s0 floordiv 2 >= 0)"),
    ("(d0) : (-d0 >= -4)", "(d0) : (-d0 + 4 >= 0)"),
]


PROGRAM = """func.func @f(%n: index, %m: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %d = memref.dim %m, %c0 : memref<?x?xf32>
  affine.for %i = affine_map<(d0) -> (d0)>(%n) to affine_map<()[s0] -> (s0 + 0)>()[%n] {
    affine.for %j = max affine_map<(d0, d1) -> (d0, d1 + 2 - 2)>(%i, %n) to min affine_map<(d0)[s0] -> (s0, 10 + d0 * 1)>(%i)[%d] step 2 {
      %v = affine.load %m[%i + %j - %j, symbol(%n) + 3 + 4] : memref<?x?xf32>
      affine.store %v, %m[%i * 2 floordiv 2, -(-%j)] : memref<?x?xf32>
      %a = affine.apply affine_map<(d0, d1) -> (d1 + d0)>(%i, %j)
      %b = affine.max affine_map<(d0) -> (d0 + d0, 5 + 3, d0 mod 1)>(%a)
    }
    affine.if affine_set<(d0)[s0] : (d0 - 10 >= 0, -d0 + 5 == 0, d0 * 2 <= s0 + s0, d0 >= d0)>(%i)[%n] {
    }
    affine.if affine_set<(d0) : (1 == 0)>(%i) {
    }
    affine.if affine_set<(d0) : (0 == 0)>(%i) {
    }
  }
  affine.parallel (%x, %y) = (0, max(%n + 1 - 1, 2 + 3)) to (symbol(%n) * 2 + 0, min(%d, %n floordiv 1)) step (2, 3) {
    %z = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 1)>(%x, %y)
  }
  %e = affine.apply affine_map<() -> (2 * 3 + 1)>()
  %f = affine.apply affine_map<(d0)[s0] -> (d0 * s0 + s0 * d0)>(%n)[%d]
  return
}
"""

PROGRAM_PRINTED = """#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0)[s0] -> (s0, d0 + 10)>
#map3 = affine_map<(d0, d1) -> (d0 + d1)>
#map4 = affine_map<(d0) -> (d0 * 2, 8, 0)>
#map5 = affine_map<() -> (7)>
#map6 = affine_map<(d0)[s0] -> ((d0 * s0) * 2)>
#set = affine_set<(d0)[s0] : (d0 - 10 >= 0, -d0 + 5 == 0, d0 * -2 + s0 * 2 >= 0, 0 >= 0)>
#set1 = affine_set<(d0) : (1 == 0)>
#set2 = affine_set<(d0) : (0 == 0)>
module {
  func.func @f(%arg0: index, %arg1: memref<?x?xf32>) {
    %c0 = arith.constant 0 : index
    %dim = memref.dim %arg1, %c0 : memref<?x?xf32>
    affine.for %arg2 = #map(%arg0) to %arg0 {
      affine.for %arg3 = max #map1(%arg2, %arg0) to min #map2(%arg2)[%dim] step 2 {
        %2 = affine.load %arg1[%arg2 + %arg3 - %arg3, symbol(%arg0) + 7] : memref<?x?xf32>
        affine.store %2, %arg1[%arg2, %arg3] : memref<?x?xf32>
        %3 = affine.apply #map3(%arg2, %arg3)
        %4 = affine.max #map4(%3)
      }
      affine.if #set(%arg2)[%arg0] {
      }
      affine.if #set1(%arg2) {
      }
      affine.if #set2(%arg2) {
      }
    }
    affine.parallel (%arg2, %arg3) = (0, max(%arg0, 5)) to (symbol(%arg0) * 2, min(%dim, %arg0)) step (2, 3) {
      %2 = affine.apply #map3(%arg2, %arg3)
    }
    %0 = affine.apply #map5()
    %1 = affine.apply #map6(%arg0)[%dim]
    return
  }
}

"""


#: (name, body inside `affine.for %i = 0 to 10 {...}` of VALIDITY_FUNC, mlir-opt's first error)
VALIDITY = [
    ("load_as_symbol",
     "%c0 = arith.constant 0 : index\n    %x = memref.load %m[%c0] : memref<?xindex>\n    affine.for %j = 0 to %x {\n    }",
     "5:5: error: 'affine.for' op operand cannot be used as a symbol"),
    ("load_as_dim",
     "%c0 = arith.constant 0 : index\n    %x = memref.load %m[%c0] : memref<?xindex>\n    affine.for %j = affine_map<(d0) -> (d0)>(%x) to 10 {\n    }",
     "5:5: error: 'affine.for' op operand cannot be used as a dimension id"),
    ("iv_as_symbol",
     "affine.for %j = 0 to %i {\n    }",
     "3:5: error: 'affine.for' op operand cannot be used as a symbol"),
    ("iv_as_dim",
     "affine.for %j = affine_map<(d0) -> (d0)>(%i) to 10 {\n    }",
     "no error"),
    ("top_level_symbol",
     "affine.for %j = 0 to %n {\n    }",
     "no error"),
    ("constant_symbol",
     "%c = arith.constant 4 : index\n    affine.for %j = 0 to %c {\n    }",
     "no error"),
    ("pure_of_symbols",
     "%x = arith.addi %n, %n : index\n    affine.for %j = 0 to %x {\n    }",
     "no error"),
    ("pure_of_iv",
     "%x = arith.addi %i, %n : index\n    affine.for %j = 0 to %x {\n    }",
     "4:5: error: 'affine.for' op operand cannot be used as a symbol"),
    ("pure_of_iv_as_dim",
     "%x = arith.addi %i, %n : index\n    affine.for %j = affine_map<(d0) -> (d0)>(%x) to 10 {\n    }",
     "4:5: error: 'affine.for' op operand cannot be used as a dimension id"),
    ("apply_of_iv_as_symbol",
     "%x = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)\n    affine.for %j = 0 to %x {\n    }",
     "4:5: error: 'affine.for' op operand cannot be used as a symbol"),
    ("apply_of_iv_as_dim",
     "%x = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)\n    affine.for %j = affine_map<(d0) -> (d0)>(%x) to 10 {\n    }",
     "no error"),
    ("apply_of_load_as_dim",
     "%c0 = arith.constant 0 : index\n    %y = memref.load %m[%c0] : memref<?xindex>\n    %x = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%i)[%y]\n    affine.for %j = affine_map<(d0) -> (d0)>(%x) to 10 {\n    }",
     "6:5: error: 'affine.for' op operand cannot be used as a dimension id"),
    ("apply_iv_in_symbol_position",
     "%x = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%i)[%i]",
     "3:10: error: dimensional operand cannot be used as a symbol"),
    ("apply_load_in_symbol_position",
     "%c0 = arith.constant 0 : index\n    %y = memref.load %m[%c0] : memref<?xindex>\n    %x = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%i)[%y]",
     "no error"),
    ("min_iv_in_symbol_position",
     "%x = affine.min affine_map<(d0)[s0] -> (d0, s0)>(%i)[%i]",
     "no error"),
    ("divui_by_constant",
     "%c = arith.constant 2 : index\n    %x = arith.divui %n, %c : index\n    affine.for %j = 0 to %x {\n    }",
     "no error"),
    ("divui_by_value",
     "%x = arith.divui %n, %n : index\n    affine.for %j = 0 to %x {\n    }",
     "4:5: error: 'affine.for' op operand cannot be used as a symbol"),
    ("divsi_by_minus_one",
     "%c = arith.constant -1 : index\n    %x = arith.divsi %n, %c : index\n    affine.for %j = 0 to %x {\n    }",
     "5:5: error: 'affine.for' op operand cannot be used as a symbol"),
    ("index_divs",
     "%c = index.constant 2\n    %x = index.divs %n, %c\n    affine.for %j = 0 to %x {\n    }",
     "5:5: error: 'affine.for' op operand cannot be used as a symbol"),
    ("gpu_thread_id",
     "%x = gpu.thread_id x\n    affine.for %j = 0 to %x {\n    }",
     "no error"),
    ("through_i64",
     "%y = arith.index_cast %n : index to i64\n    %x = arith.index_cast %y : i64 to index\n    affine.for %j = 0 to %x {\n    }",
     "5:5: error: 'affine.for' op operand cannot be used as a symbol"),
    ("dim_of_top_level",
     "%x = memref.dim %t, %i : memref<?x?xf32>\n    affine.for %j = 0 to %x {\n    }",
     "no error"),
    ("dim_of_alloc_symbol_size",
     "%c0 = arith.constant 0 : index\n    %a = memref.alloc(%n, %i) : memref<?x?xf32>\n    %x = memref.dim %a, %c0 : memref<?x?xf32>\n    affine.for %j = 0 to %x {\n    }",
     "no error"),
    ("dim_of_alloc_iv_size",
     "%c1 = arith.constant 1 : index\n    %a = memref.alloc(%n, %i) : memref<?x?xf32>\n    %x = memref.dim %a, %c1 : memref<?x?xf32>\n    affine.for %j = 0 to %x {\n    }",
     "6:5: error: 'affine.for' op operand cannot be used as a symbol"),
    ("dim_of_cast_alloc",
     "%c0 = arith.constant 0 : index\n    %a = memref.alloc(%n, %i) : memref<?x?xf32>\n    %b = memref.cast %a : memref<?x?xf32> to memref<?x?xf32>\n    %x = memref.dim %b, %c0 : memref<?x?xf32>\n    affine.for %j = 0 to %x {\n    }",
     "no error"),
    ("dim_nonconstant_index",
     "%a = memref.alloc(%n, %n) : memref<?x?xf32>\n    %x = memref.dim %a, %i : memref<?x?xf32>\n    affine.for %j = 0 to %x {\n    }",
     "5:5: error: 'affine.for' op operand cannot be used as a symbol"),
    ("if_iv_as_symbol",
     "affine.if affine_set<(d0)[s0] : (d0 - s0 >= 0)>(%i)[%i] {\n    }",
     "3:5: error: 'affine.if' op operand cannot be used as a symbol"),
    ("if_load_as_dim",
     "%c0 = arith.constant 0 : index\n    %x = memref.load %m[%c0] : memref<?xindex>\n    affine.if affine_set<(d0) : (d0 >= 0)>(%x) {\n    }",
     "5:5: error: 'affine.if' op operand cannot be used as a dimension id"),
    ("affine_load_load_index",
     "%c0 = arith.constant 0 : index\n    %x = memref.load %m[%c0] : memref<?xindex>\n    %y = affine.load %m[%x] : memref<?xindex>",
     "5:10: error: 'affine.load' op operand cannot be used as a dimension id"),
    ("affine_load_iv_symbol",
     "%y = affine.load %m[symbol(%i)] : memref<?xindex>",
     "3:10: error: 'affine.load' op operand cannot be used as a symbol"),
    ("affine_store_load_index",
     "%c0 = arith.constant 0 : index\n    %x = memref.load %m[%c0] : memref<?xindex>\n    affine.store %x, %m[%x + 1] : memref<?xindex>",
     "5:5: error: 'affine.store' op operand cannot be used as a dimension id"),
    ("parallel_load_symbol",
     "%c0 = arith.constant 0 : index\n    %x = memref.load %m[%c0] : memref<?xindex>\n    affine.parallel (%p) = (0) to (symbol(%x)) {\n    }",
     "5:5: error: 'affine.parallel' op operand cannot be used as a symbol"),
    ("parallel_load_dim",
     "%c0 = arith.constant 0 : index\n    %x = memref.load %m[%c0] : memref<?xindex>\n    affine.parallel (%p) = (%x) to (10) {\n    }",
     "5:5: error: 'affine.parallel' op operand cannot be used as a dimension id"),
    ("parallel_iv_dim",
     "affine.parallel (%p) = (%i) to (10) {\n      affine.for %j = affine_map<(d0) -> (d0)>(%p) to 10 {\n      }\n    }",
     "no error"),
    ("parallel_iv_symbol",
     "affine.parallel (%p) = (0) to (10) {\n      affine.for %j = 0 to %p {\n      }\n    }",
     "4:7: error: 'affine.for' op operand cannot be used as a symbol"),
    ("iter_arg_as_dim",
     "%c0 = arith.constant 0 : index\n    %r = affine.for %k = 0 to 10 iter_args(%a = %c0) -> (index) {\n      affine.for %j = affine_map<(d0) -> (d0)>(%a) to 10 {\n      }\n      affine.yield %a : index\n    }",
     "5:7: error: 'affine.for' op operand cannot be used as a dimension id"),
    ("scf_iv_as_symbol",
     "%c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n    scf.for %s = %c0 to %n step %c1 {\n      affine.for %j = 0 to %s {\n      }\n    }",
     "6:7: error: 'affine.for' op operand cannot be used as a symbol"),
    ("execute_region_load",
     "scf.execute_region {\n      %c0 = arith.constant 0 : index\n      %x = memref.load %m[%c0] : memref<?xindex>\n      affine.for %j = 0 to %x {\n      }\n      scf.yield\n    }",
     "6:7: error: 'affine.for' op operand cannot be used as a symbol"),
]

SCOPES = [
    ("gpu_func",
     "gpu.module @g {\n  gpu.func @k(%m: memref<?xindex>) kernel {\n    %c0 = arith.constant 0 : index\n    %x = memref.load %m[%c0] : memref<?xindex>\n    affine.for %i = 0 to %x {\n    }\n    gpu.return\n  }\n}\n",
     "no error"),
    ("gpu_launch",
     "func.func @f(%m: memref<?xindex>) {\n  %c1 = arith.constant 1 : index\n  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {\n    %c0 = arith.constant 0 : index\n    %x = memref.load %m[%c0] : memref<?xindex>\n    affine.for %i = 0 to %x {\n      affine.for %j = 0 to %tx {\n      }\n    }\n    gpu.terminator\n  }\n  return\n}\n",
     "no error"),
    ("memref_alloca_scope",
     "func.func @f(%m: memref<?xindex>) {\n  memref.alloca_scope {\n    %c0 = arith.constant 0 : index\n    %x = memref.load %m[%c0] : memref<?xindex>\n    affine.for %i = 0 to %x {\n    }\n  }\n  return\n}\n",
     "5:5: error: 'affine.for' op operand cannot be used as a symbol"),
]


def _apply_program(exprs) -> str:
    lines = ["func.func @f(%a: index, %b: index, %c: index, %x: index, %y: index) {"]
    for k, e in enumerate(exprs):
        lines.append(f"  %r{k} = affine.apply affine_map<{HEADER} -> ({e})>(%a, %b, %c)[%x, %y]")
    return "\n".join(lines + ["  return", "}"]) + "\n"


def _printed_results(text: str, kind: str = "map") -> list:
    """The printed result lists (maps) or constraint sets of the ops of ``text``, aliases
    resolved."""
    aliases = dict(re.findall(r"^(#\w+) = (.*)$", text, re.M))
    ops = [ln for ln in text.splitlines() if re.match(r"\s+(%\S+ = )?affine\.", ln)]
    ops = [re.sub(r"#(map|set)\d*\b", lambda m: aliases[m.group()], ln) for ln in ops]
    if kind == "map":
        return [re.sub(r".*-> \((.*)\)>\(.*", r"\1", ln) for ln in ops]
    return [re.sub(r".*affine_set<(.*)>\(.*", r"\1", ln) for ln in ops]


def _set_program(sets) -> str:
    lines = ["func.func @f(%a: index, %b: index, %x: index, %y: index) {"]
    for s in sets:
        hdr = s.split(" : ")[0]
        nd = hdr.split("[")[0].count("d")
        ns = hdr.count("s") if "[" in hdr else 0
        ops = "(" + ", ".join(["%a", "%b"][:nd]) + ")"
        if ns:
            ops += "[" + ", ".join(["%x", "%y"][:ns]) + "]"
        lines.append(f"  affine.if affine_set<{s}>{ops} {{\n  }}")
    return "\n".join(lines + ["  return", "}"]) + "\n"


def test_expressions_print_as_mlir_opt():
    text = tileir.print(tileir.parse(_apply_program([e for e, _ in EXPRESSIONS])))
    assert _printed_results(text) == [want for _, want in EXPRESSIONS]


def test_integer_sets_print_as_mlir_opt():
    text = tileir.print(tileir.parse(_set_program([s for s, _ in SETS])))
    assert _printed_results(text, "set") == [want for _, want in SETS]


def test_program_prints_as_mlir_opt():
    """for/if/parallel bounds, load/store subscripts, min/max and the ``#map``/``#set``
    aliases."""
    assert tileir.print(tileir.parse(PROGRAM)).rstrip("\n") == PROGRAM_PRINTED.rstrip("\n")


#: printed maps that do not read back as themselves, with what they read back as (mlir-opt's
#: too: ``y + (x floordiv c) * k + s`` is built as ``y + ((x floordiv c) * k + s)``, which
#: prints without its parentheses and reads back as ``(y + ...) + s``)
REREAD = {"d0 + (d0 floordiv 4) * -4 + s0": "d0 mod 4 + s0",
          "d1 + -(d0 floordiv 3) - s0": "d1 - d0 floordiv 3 - s0"}


def test_printed_maps_read_back():
    """Each printed map reads back as itself, but for REREAD.  (The whole text need not: two
    maps of different structure that print alike have two aliases, and read back they are one
    map; mlir-opt does the same.)"""
    text = tileir.print(tileir.parse(_apply_program([e for e, _ in EXPRESSIONS])))
    assert _printed_results(tileir.print(tileir.parse(text))) == [
        REREAD.get(r, r) for r in _printed_results(text)]


# -- dimension and symbol operands -------------------------------------------------------------

def _validity_program(body: str) -> str:
    return ("func.func @f(%n: index, %m: memref<?xindex>, %t: memref<?x?xf32>) {\n"
            "  affine.for %i = 0 to 10 {\n    " + body + "\n  }\n  return\n}\n")


def _first_error(text: str) -> str:
    try:
        tileir.verify(tileir.parse(text))
    except DiagnosticError as exc:
        return str(exc).splitlines()[0].split("<string>:", 1)[1]
    return "no error"


@pytest.mark.parametrize("name,body,error", VALIDITY, ids=[v[0] for v in VALIDITY])
def test_dim_symbol_validity_as_mlir_opt(name, body, error):
    assert _first_error(_validity_program(body)) == error


@pytest.mark.parametrize("name,text,error", SCOPES, ids=[v[0] for v in SCOPES])
def test_affine_scopes_as_mlir_opt(name, text, error):
    assert _first_error(text) == error


# -- LoopLikeOpInterface (one definition for scf.for and affine.for) -----------------------------



def loop(kind, inits, args, yields, results):
    """A generic-form scf.for/affine.for with the given types (values: function arguments
    named after their types)."""
    bargs = ", ".join(["%iv: index"] + [f"%a{k}: {t}" for k, t in enumerate(args)])
    yld = (f'"{kind}.yield"(' + ", ".join(f"%{t}" for t in yields) + ") : ("
           + ", ".join(yields) + ") -> ()")
    res = (", ".join(f"%r{k}" for k in range(len(results))) + " = ") if results else ""
    if kind == "scf":
        operands = ["%lb", "%lb", "%lb"] + [f"%{t}" for t in inits]
        types = ["index"] * 3 + list(inits)
        props = ""
    else:
        operands = [f"%{t}" for t in inits]
        types = list(inits)
        props = (" <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: "
                 f"0, 0, {len(inits)}>, step = 1 : index, upperBoundMap = affine_map<() -> (10)>}}>")
    return ("func.func @f(%lb: index, %index: index, %i32: i32, %f32: f32) {\n"
            f'  {res}"{kind}.for"(' + ", ".join(operands) + f"){props} ({{\n"
            f"  ^bb0({bargs}):\n    {yld}\n"
            "  }) : (" + ", ".join(types) + ") -> (" + ", ".join(results) + ")\n"
            "  return\n}\n")


#: (inits, iter_args, yielded, results types; scf.for's and affine.for's first error)
LOOPS = [
    ((['index'], ['index'], ['index'], ['index']),
     "no error",
     "no error"),
    ((['index'], [], [], []),
     "2:3: error: 'scf.for' op mismatch in number of loop-carried values and defined values",
     "2:3: error: 'affine.for' op different number of inits and region iter_args: 1 != 0"),
    (([], ['index'], ['index'], ['index']),
     "2:9: error: 'scf.for' op mismatch in number of loop-carried values and defined values",
     "2:9: error: 'affine.for' op different number of inits and region iter_args: 0 != 1"),
    ((['index'], ['index'], [], ['index']),
     "2:9: error: 'scf.for' op along control flow edge from Operation scf.yield to Region #0: region branch point has 0 operands, but region successor needs 1 inputs",
     "4:5: error: 'affine.yield' op parent of yield must have same number of results as the yield operands"),
    ((['index'], ['index'], ['index', 'index'], ['index']),
     "2:9: error: 'scf.for' op different number of region iter_args and yielded values: 1 != 2",
     "4:5: error: 'affine.yield' op parent of yield must have same number of results as the yield operands"),
    ((['index'], ['index'], ['index'], []),
     "2:3: error: 'scf.for' op mismatch in number of loop-carried values and defined values",
     "4:5: error: 'affine.yield' op parent of yield must have same number of results as the yield operands"),
    ((['index'], ['index'], ['index'], ['index', 'index']),
     "2:14: error: 'scf.for' op mismatch in number of loop-carried values and defined values",
     "4:5: error: 'affine.yield' op parent of yield must have same number of results as the yield operands"),
    ((['i32'], ['index'], ['index'], ['index']),
     "2:9: error: 'scf.for' op 0-th init and 0-th region iter_arg have different type: 'i32' != 'index'",
     "2:9: error: 'affine.for' op 0-th init and 0-th region iter_arg have different type: 'i32' != 'index'"),
    ((['index'], ['index'], ['i32'], ['index']),
     "2:9: error: 'scf.for' op 0-th region iter_arg and 0-th yielded value have different type: 'index' != 'i32'",
     "4:5: error: 'affine.yield' op types mismatch between yield op and its parent"),
    ((['index'], ['index'], ['index'], ['i32']),
     "2:9: error: 'scf.for' op 0-th region iter_arg and 0-th loop result have different type: 'index' != 'i32'",
     "4:5: error: 'affine.yield' op types mismatch between yield op and its parent"),
    ((['index', 'i32'], ['index', 'index'], ['i32', 'index'], ['index', 'index']),
     "2:14: error: 'scf.for' op 0-th region iter_arg and 0-th yielded value have different type: 'index' != 'i32'",
     "4:5: error: 'affine.yield' op types mismatch between yield op and its parent"),
    ((['index', 'index'], ['index', 'i32'], ['index', 'i32'], ['index', 'index']),
     "2:14: error: 'scf.for' op 1-th init and 1-th region iter_arg have different type: 'index' != 'i32'",
     "4:5: error: 'affine.yield' op types mismatch between yield op and its parent"),
    ((['index', 'i32'], ['index', 'i32'], ['i32', 'index'], ['index', 'index']),
     "2:14: error: 'scf.for' op 0-th region iter_arg and 0-th yielded value have different type: 'index' != 'i32'",
     "4:5: error: 'affine.yield' op types mismatch between yield op and its parent"),
    ((['index', 'f32'], ['i32', 'f32'], ['index', 'i32'], ['f32', 'f32']),
     "2:14: error: 'scf.for' op 0-th init and 0-th region iter_arg have different type: 'index' != 'i32'",
     "4:5: error: 'affine.yield' op types mismatch between yield op and its parent"),
    ((['index'], ['index', 'index'], ['index'], ['index']),
     "2:9: error: 'scf.for' op different number of inits and region iter_args: 1 != 2",
     "2:9: error: 'affine.for' op different number of inits and region iter_args: 1 != 2"),
    ((['index', 'index'], ['index'], ['index'], ['index']),
     "2:9: error: 'scf.for' op mismatch in number of loop-carried values and defined values",
     "2:9: error: 'affine.for' op different number of inits and region iter_args: 2 != 1"),
    ((['index', 'index'], ['index'], ['index'], ['index', 'index']),
     "2:14: error: 'scf.for' op different number of inits and region iter_args: 2 != 1",
     "4:5: error: 'affine.yield' op parent of yield must have same number of results as the yield operands"),
    ((['index'], ['index'], ['index', 'index'], ['index', 'index']),
     "2:14: error: 'scf.for' op mismatch in number of loop-carried values and defined values",
     "2:14: error: 'affine.for' op different number of region iter_args and yielded values: 1 != 2"),
    ((['i32'], ['i32'], ['i32'], ['index']),
     "2:9: error: 'scf.for' op 0-th region iter_arg and 0-th loop result have different type: 'i32' != 'index'",
     "4:5: error: 'affine.yield' op types mismatch between yield op and its parent"),
    (([], [], ['index'], []),
     "2:3: error: 'scf.for' op different number of region iter_args and yielded values: 0 != 1",
     "4:5: error: 'affine.yield' op parent of yield must have same number of results as the yield operands"),
    (([], [], [], ['index']),
     "2:9: error: 'scf.for' op mismatch in number of loop-carried values and defined values",
     "4:5: error: 'affine.yield' op parent of yield must have same number of results as the yield operands"),
    ((['index'], ['index'], [], []),
     "2:3: error: 'scf.for' op mismatch in number of loop-carried values and defined values",
     "2:3: error: 'affine.for' op along control flow edge from Operation affine.yield to Region #0: region branch point has 0 operands, but region successor needs 1 inputs"),
]


@pytest.mark.parametrize("types,scf_error,affine_error", LOOPS)
def test_loop_like_checks_as_mlir_opt(types, scf_error, affine_error):
    assert _first_error(loop("scf", *types)) == scf_error
    assert _first_error(loop("affine", *types)) == affine_error


# -- live comparisons --------------------------------------------------------------------------

def _live_first_error(text: str) -> str:
    run = run_mlir_opt(text)
    if run.returncode == 0:
        return "no error"
    return run.stderr.splitlines()[0].split("<stdin>:", 1)[1]


@_needs_mlir_opt
def test_expectations_are_mlir_opts():
    assert _printed_results(run_mlir_opt(_apply_program([e for e, _ in EXPRESSIONS])).stdout) \
        == [want for _, want in EXPRESSIONS]
    assert _printed_results(run_mlir_opt(_set_program([s for s, _ in SETS])).stdout, "set") \
        == [want for _, want in SETS]
    assert run_mlir_opt(PROGRAM).stdout.rstrip("\n") == PROGRAM_PRINTED.rstrip("\n")
    reread = _apply_program(list(REREAD))
    assert _printed_results(run_mlir_opt(reread).stdout) == list(REREAD.values())
    for _, body, error in VALIDITY:
        assert _live_first_error(_validity_program(body)) == error
    for _, text, error in SCOPES:
        assert _live_first_error(text) == error
    for types, scf_error, affine_error in LOOPS:
        assert _live_first_error(loop("scf", *types)) == scf_error
        assert _live_first_error(loop("affine", *types)) == affine_error


def _random_expr(r: random.Random, depth: int, symbolic: bool = False) -> str:
    """A random affine expression over d0..d2, s0, s1 (``symbolic``: no dimension)."""
    if depth <= 0 or r.random() < 0.25:
        if symbolic or r.random() < 0.35:
            return r.choice(["s0", "s1", str(r.randint(-4, 16))])
        return r.choice(["d0", "d1", "d2"])
    if r.random() < 0.12:
        x, y = _random_expr(r, depth - 1, symbolic), _random_expr(r, depth - 1, symbolic)
        q = r.choice(["4", "2", "-4", "s0", "0"])
        return r.choice([f"({x} - ({x} floordiv {q}) * {q})",
                         f"(({y} + {x}) + ({x} floordiv {q}) * -{q})",
                         f"(({y} + {x}) - (({x} floordiv {q}) * {q}))"])
    op = r.choice(["+", "-", "+", "*", "floordiv", "ceildiv", "mod", "neg"])
    a = _random_expr(r, depth - 1, symbolic)
    if op == "neg":
        return f"-({a})"
    if op in ("+", "-"):
        return f"({a} {op} {_random_expr(r, depth - 1, symbolic)})"
    b = (str(r.choice([1, 2, 3, 4, 8, -2, 0])) if r.random() < 0.7
         else _random_expr(r, depth - 1, True))
    return f"({b} {op} {a})" if op == "*" and r.random() < 0.5 else f"({a} {op} {b})"


@_needs_mlir_opt
@pytest.mark.parametrize("seed", range(3))
def test_random_expressions_as_mlir_opt(seed):
    r = random.Random(seed)
    exprs = [_random_expr(r, r.randint(1, 5)) for _ in range(300)]
    program = _apply_program(exprs)
    theirs = _printed_results(run_mlir_opt(program).stdout)
    ours = _printed_results(tileir.print(tileir.parse(program)))
    assert [(e, o) for e, o, t in zip(exprs, ours, theirs) if o != t] == []
