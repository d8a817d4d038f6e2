"""arith: custom and generic printing and verifier messages identical to mlir-opt 22."""

from __future__ import annotations

import itertools

from mlir_diff import assert_same_errors, assert_same_printing, in_func

ARGS = ("%a: i32, %b: i32, %x: f32, %y: f32, %v: vector<4xi32>, %w: vector<4xf32>, "
        "%i: index, %t: tensor<2x?xi8>, %h: f16, %c: i1, %mr: memref<4xi32>, "
        "%sv: vector<[4]xi32>, %ur: tensor<*xi32>, %q8: f8E4M3FN")

INT_BINARY = ("addi", "subi", "muli", "divsi", "divui", "ceildivsi", "ceildivui", "floordivsi",
              "remsi", "remui", "andi", "ori", "xori", "shli", "shrsi", "shrui", "maxsi",
              "maxui", "minsi", "minui")
FLOAT_BINARY = ("addf", "subf", "mulf", "divf", "remf", "maximumf", "minimumf", "maxnumf",
                "minnumf")
CMPI = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
CMPF = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult",
        "ule", "une", "uno", "true")


def _int_binary_cases() -> list[str]:
    lines = []
    for op, (v, t) in itertools.product(INT_BINARY, (("%a", "i32"), ("%v", "vector<4xi32>"),
                                                     ("%i", "index"), ("%t", "tensor<2x?xi8>"))):
        lines.append(f"  %r_{op}_{len(lines)} = arith.{op} {v}, {v} : {t}")
    for op in ("addi", "subi", "muli", "shli"):
        for flags in ("nsw", "nuw", "nsw, nuw", "nuw, nsw"):
            lines.append(f"  %o{len(lines)} = arith.{op} %a, %b overflow<{flags}> : i32")
    for op in ("divsi", "divui", "shrsi", "shrui"):
        lines.append(f"  %e{len(lines)} = arith.{op} %a, %b exact : i32")
    return lines


def _float_cases() -> list[str]:
    lines = []
    for op in FLOAT_BINARY:
        lines.append(f"  %f{len(lines)} = arith.{op} %x, %y : f32")
        lines.append(f"  %f{len(lines)} = arith.{op} %w, %w fastmath<fast> : vector<4xf32>")
        lines.append(f"  %f{len(lines)} = arith.{op} %h, %h fastmath<nnan,ninf,nsz> : f16")
    for flags in ("reassoc", "contract", "afn", "arcp", "none", "nnan,reassoc"):
        lines.append(f"  %n{len(lines)} = arith.negf %x fastmath<{flags}> : f32")
    return lines


def _compare_cases() -> list[str]:
    lines = []
    for p in CMPI:
        lines.append(f"  %ci{len(lines)} = arith.cmpi {p}, %a, %b : i32")
        lines.append(f"  %ci{len(lines)} = arith.cmpi {p}, %v, %v : vector<4xi32>")
    for p in CMPF:
        lines.append(f"  %cf{len(lines)} = arith.cmpf {p}, %x, %y : f32")
        lines.append(f"  %cf{len(lines)} = arith.cmpf {p}, %w, %w fastmath<fast> : vector<4xf32>")
    lines.append("  %s0 = arith.select %c, %a, %b : i32")
    lines.append("  %s1 = arith.select %c, %v, %v : vector<4xi32>")
    lines.append("  %m = arith.cmpi eq, %v, %v : vector<4xi32>")
    lines.append("  %s2 = arith.select %m, %v, %v {tag} : vector<4xi1>, vector<4xi32>")
    lines.append("  %u:2 = arith.addui_extended %a, %b : i32, i1")
    lines.append("  %u2:2 = arith.addui_extended %v, %v : vector<4xi32>, vector<4xi1>")
    lines.append("  %ms:2 = arith.mulsi_extended %a, %b : i32")
    lines.append("  %mu:2 = arith.mului_extended %i, %i : index")
    return lines


def _cast_cases() -> list[str]:
    return [
        "  %0 = arith.extsi %a : i32 to i64", "  %1 = arith.extui %a : i32 to i64",
        "  %2 = arith.trunci %a : i32 to i8", "  %3 = arith.trunci %a overflow<nsw> : i32 to i8",
        "  %4 = arith.extf %x : f32 to f64", "  %5 = arith.extf %h fastmath<fast> : f16 to f32",
        "  %6 = arith.truncf %x : f32 to f16", "  %7 = arith.truncf %x downward : f32 to bf16",
        "  %8 = arith.truncf %x upward fastmath<nnan> : f32 to f16",
        "  %9 = arith.truncf %x toward_zero : f32 to f16",
        "  %10 = arith.truncf %x to_nearest_away : f32 to f16",
        "  %11 = arith.sitofp %a : i32 to f32", "  %12 = arith.uitofp %a : i32 to f64",
        "  %13 = arith.fptosi %x : f32 to i32", "  %14 = arith.fptoui %x : f32 to i8",
        "  %15 = arith.index_cast %a : i32 to index", "  %16 = arith.index_castui %i : index to i64",
        "  %17 = arith.bitcast %x : f32 to i32", "  %18 = arith.bitcast %h : f16 to bf16",
        "  %19 = arith.extsi %v : vector<4xi32> to vector<4xi64>",
        "  %20 = arith.sitofp %v : vector<4xi32> to vector<4xf32>",
        "  %21 = arith.index_cast %v : vector<4xi32> to vector<4xindex>",
        "  %22 = arith.extsi %t : tensor<2x?xi8> to tensor<2x?xi16>",
        "  %s = arith.constant 1.0 : f8E8M0FNU",
        "  %23 = arith.scaling_extf %x, %s : f32, f8E8M0FNU to f64",
        "  %24 = arith.scaling_truncf %x, %s : f32, f8E8M0FNU to f16",
        "  %25 = arith.scaling_truncf %x, %s toward_zero fastmath<fast> : f32, f8E8M0FNU to f16",
        "  %26 = arith.index_cast %mr : memref<4xi32> to memref<4xindex>",
        "  %27 = arith.bitcast %mr : memref<4xi32> to memref<4xf32>",
        "  %28 = arith.extsi %sv : vector<[4]xi32> to vector<[4]xi64>",
        "  %29 = arith.addi %ur, %ur : tensor<*xi32>", "  %30 = arith.cmpi eq, %ur, %ur : tensor<*xi32>",
        "  %31 = arith.select %c, %mr, %mr : memref<4xi32>",
        "  %32 = arith.bitcast %h : f16 to bf16", "  %33 = arith.extui %c : i1 to i8",
        "  %34 = arith.extf %q8 : f8E4M3FN to f16",
    ]


def _constant_cases() -> list[str]:
    return [
        "  %0 = arith.constant 0 : index", "  %1 = arith.constant 1 : index",
        "  %2 = arith.constant 1 : i32", "  %3 = arith.constant -7 : i8",
        "  %4 = arith.constant true", "  %5 = arith.constant false",
        "  %6 = arith.constant 1.0 : f32", "  %7 = arith.constant 2.5 : f16",
        "  %8 = arith.constant 0.0 : f64", "  %9 = arith.constant 1 : i32",
        "  %10 = arith.constant 1 : i64", "  %11 = arith.constant dense<1> : vector<4xi32>",
        "  %12 = arith.constant dense<0> : vector<4xi8>", "  %13 = arith.constant 0 : index",
        "  %14 = arith.constant 0x7FC00000 : f32", "  %15 = arith.constant -0.0 : f32",
        "  %16 = arith.constant 1.5e10 : f64", "  %17 = arith.constant 42 : i64 loc(unknown)",
        "  %18 = arith.constant {tag = 1 : i32} 3 : i16",
        "  %19 = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>",
        "  %20 = arith.constant dense<0.0> : vector<4xf32>",
        "  %21 = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>",
        "  %22 = arith.constant dense<[true, false]> : vector<2xi1>",
        "  %23 = arith.constant dense<7> : tensor<3xui8>",
        "  %24 = arith.constant 255 : i8", "  %25 = arith.constant 1.0 : bf16",
        "  %26 = arith.constant dense<1.5> : vector<[4]xf32>",
        "  %27 = arith.constant 0xFF800000 : f32", "  %28 = arith.constant 3 : i3",
        "  %29 = arith.constant -1 : i128",
    ]


def test_arith_ops_print_like_mlir_opt():
    body = "\n".join(_int_binary_cases() + _float_cases() + _compare_cases() + _cast_cases())
    chunks = [in_func(body + "\n  return", ARGS)]
    # smaller modules as well: numbering across functions, one op per function
    chunks += [in_func(line + "\n  return", ARGS) for line in _cast_cases()[:6]]
    assert assert_same_printing(chunks) == len(chunks)


def test_arith_constants_print_like_mlir_opt():
    body = "\n".join(_constant_cases())
    assert_same_printing([in_func(body + "\n  return")])


INVALID = [
    ("%0 = arith.addi %x, %x : f32", "%x: f32"),
    ("%0 = arith.addf %a, %a : i32", "%a: i32"),
    ("%0 = arith.extsi %a : i32 to i16", "%a: i32"),
    ("%0 = arith.extsi %a : i32 to f32", "%a: i32"),
    ("%0 = arith.extui %a : i32 to i32", "%a: i32"),
    ("%0 = arith.extf %x : f32 to f16", "%x: f32"),
    ("%0 = arith.truncf %x : f32 to f64", "%x: f32"),
    ("%0 = arith.trunci %a : i32 to i64", "%a: i32"),
    ("%0 = arith.index_cast %a : i32 to i64", "%a: i32"),
    ("%0 = arith.index_castui %i : index to index", "%i: index"),
    ("%0 = arith.sitofp %a : i32 to i64", "%a: i32"),
    ("%0 = arith.fptosi %a : i32 to i64", "%a: i32"),
    ("%0 = arith.bitcast %a : i32 to f64", "%a: i32"),
    ('%0 = "arith.constant"() {value = 1 : i64} : () -> i32', ""),
    ("%0 = arith.constant 1 : si32", ""),
    ("%0 = arith.constant dense<[1.0, 2.0]> : vector<[2]xf32>", ""),
    ('%0 = "arith.constant"() {value = dense<1> : tensor<2xi32>} : () -> tensor<3xi32>', ""),
    ('%0 = arith.constant "s" : i32', ""),
    ("%0 = arith.extsi %v : vector<4xi32> to vector<5xi64>", "%v: vector<4xi32>"),
    ("%0 = arith.extsi %v : vector<4xi32> to i64", "%v: vector<4xi32>"),
    ('%0 = "arith.addi"(%a, %a) : (i32, i32) -> i64', "%a: i32"),
    ("%0 = arith.select %c, %v, %v : vector<3xi1>, vector<4xi32>",
     "%v: vector<4xi32>, %c: vector<3xi1>"),
    ('%0 = "arith.cmpi"(%a, %a) {predicate = 12 : i64} : (i32, i32) -> i1', "%a: i32"),
    ('%0 = "arith.cmpi"(%a, %a) : (i32, i32) -> i1', "%a: i32"),
    ('%0 = "arith.cmpi"(%a, %a) {predicate = 1 : i64} : (i32, i32) -> i32', "%a: i32"),
    ('%0 = "arith.cmpi"(%a, %b) {predicate = 1 : i64} : (i32, i64) -> i1', "%a: i32, %b: i64"),
    ('%0 = "arith.cmpf"(%x, %x) {predicate = 1 : i64} : (f32, f32) -> vector<2xi1>', "%x: f32"),
    ("%0 = arith.cmpi foo, %a, %a : i32", "%a: i32"),
    ("%0 = arith.scaling_extf %x, %h : f32, f16 to f16", "%x: f32, %h: f16"),
    ("%0 = arith.scaling_truncf %x, %h : f32, f16 to f64", "%x: f32, %h: f16"),
    ('%0 = "arith.addui_extended"(%a, %a) : (i32, i32) -> (i32, i32)', "%a: i32"),
    ('%0:2 = "arith.mulsi_extended"(%a, %a) : (i32, i32) -> (i32, i64)', "%a: i32"),
    ('%0 = "arith.select"(%a, %a, %a) : (i32, i32, i32) -> i32', "%a: i32"),
    ('%0 = "arith.select"(%c, %a, %x) : (i1, i32, f32) -> i32', "%a: i32, %x: f32, %c: i1"),
    ('%0 = "arith.negf"(%x) : (f32) -> f64', "%x: f32"),
    ('%0 = "arith.extf"(%t) : (tensor<2xf32>) -> tensor<3xf64>', "%t: tensor<2xf32>"),
    ('%0 = "arith.addi"(%a, %a) {overflowFlags = 3 : i32} : (i32, i32) -> i32', "%a: i32"),
    ('%0 = "arith.addf"(%x, %x) {fastmath = 1 : i32} : (f32, f32) -> f32', "%x: f32"),
    ('%0 = "arith.truncf"(%x) {roundingmode = 9 : i32} : (f32) -> f16', "%x: f32"),
    ('%0 = "arith.divsi"(%a, %a) {isExact = 1} : (i32, i32) -> i32', "%a: i32"),
    ("%0 = arith.constant 3 : i1", ""),
    ("%0 = arith.extsi %s : vector<[4]xi32> to vector<4xi64>", "%s: vector<[4]xi32>"),
    ("%0 = arith.extsi %t : tensor<?xi32> to tensor<4xi64>", "%t: tensor<?xi32>"),
    ("%0 = arith.extsi %t : tensor<*xi32> to tensor<4xi64>", "%t: tensor<*xi32>"),
    ("%0 = arith.sitofp %v : vector<4xi32> to tensor<4xf32>", "%v: vector<4xi32>"),
    ("%0 = arith.addi %x, %x : vector<4xsi32>", "%x: vector<4xsi32>"),
    ("%0 = arith.addi %x, %x : memref<4xi32>", "%x: memref<4xi32>"),
    ("%0 = arith.extf %x : bf16 to f16", "%x: bf16"),
    ("%0 = arith.truncf %x : f16 to bf16", "%x: f16"),
    ("%0 = arith.index_cast %x : index to index", "%x: index"),
]


def test_arith_invalid_like_mlir_opt():
    chunks = [in_func(f"  {body}\n  return", args) for body, args in INVALID]
    assert assert_same_errors(chunks) == len(chunks)


#: custom-syntax errors (parser messages) of arith, math, index, func and cf ops
PARSE_INVALID = [
    ("%0 = arith.addi %a, %a overflow<foo> : i32", "%a: i32"),
    ("%0 = arith.addf %x, %x fastmath<foo> : f32", "%x: f32"),
    ("%0 = arith.negf %x fastmath<> : f32", "%x: f32"),
    ("%0 = arith.cmpi slt, %x, %x : f32", "%x: f32"),
    ("%0 = arith.cmpf oeq, %a, %a : i32", "%a: i32"),
    ("%0 = math.isnan %a : i32", "%a: i32"),
    ("%0 = arith.cmpi foo, %a, %a : i32", "%a: i32"),
    ("%0 = arith.cmpf foo, %x, %x : f32", "%x: f32"),
    ("%0 = arith.truncf %x bad : f32 to f16", "%x: f32"),
    ("%0 = arith.constant unit", ""),
    ("%0 = arith.addi %a, %a : i64", "%a: i32"),
    ("%0 = arith.select %c, %a, %a : i32", "%a: i32, %c: i32"),
    ("%0 = index.cmp foo(%i, %i)", "%i: index"),
    ("%0 = index.add %a, %a", "%a: i32"),
    ("%0 = arith.extsi %a : i32", "%a: i32"),
    ("%0 = arith.addi %a : i32", "%a: i32"),
    ("%0 = arith.divsi %a, %a exact overflow<nsw> : i32", "%a: i32"),
    ("%0:2 = arith.addui_extended %a, %a : i32", "%a: i32"),
    ("%0 = func.constant @f : i32", ""),
    ("%0 = call @f(%a) : i32", "%a: i32"),
    ("cf.br ^bb1(%a)\n^bb1(%b: i32):", "%a: i32"),
    ("cf.assert %c", "%c: i1"),
    ("cf.switch %a : i32, [ 1: ^bb1 ]\n^bb1:", "%a: i32"),
    ("%0 = math.clampf %x [%x, %x] : f32", "%x: f32"),
    ("%0 = index.constant 1 : index", ""),
]


def test_custom_syntax_errors_like_mlir_opt():
    chunks = [in_func(f"  {body}\n  return", args) for body, args in PARSE_INVALID]
    assert assert_same_errors(chunks) == len(chunks)
