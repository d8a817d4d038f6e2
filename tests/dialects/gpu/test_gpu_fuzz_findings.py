"""Round-trip fuzzer findings of the issue-14 runs (with NVIDIA's corpus) on gpu programs and
on generic attributes, each a test."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import tileir
from tileir.cli.opt import process_buffer
from tileir.text import print_op
from tileir.tools.roundtrip import check_module

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "interop"))
from mlir_tools import run_mlir_opt  # noqa: E402

INPUTS = Path(__file__).parent / "inputs"


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_launch_symbols_and_argument_locations_print_as_mlir_opt(generic):
    """gpu.launch's ``module(@m)`` and ``function(@f)`` are each optional (one of them was
    dropped from the custom form); gpu.func arguments and attributions take ``loc(...)``."""
    text = (INPUTS / "launch_symbols.mlir").read_text()
    flags = ["-mlir-print-debuginfo"] + (["-mlir-print-op-generic"] if generic else [])
    run = run_mlir_opt(text, flags)
    assert run.returncode == 0, run.stderr
    result = process_buffer(text, "<stdin>")
    assert not result.failed, [d.message for d in result.diagnostics]
    ours = print_op(result.module, generic=generic, debuginfo=True)
    assert ours.rstrip("\n") == run.stdout.rstrip("\n")


def test_launch_with_ids_that_are_not_index_prints_generically():
    """MLIR 22 does not check the types of gpu.launch's id arguments; the custom form implies
    index, so such an op is printed (and read back) in the generic form."""
    text = ('"builtin.module"() ({\n  "func.func"() <{function_type = (index) -> (), '
            'sym_name = "h"}> ({\n  ^bb0(%a: index):\n    "gpu.launch"(%a, %a, %a, %a, %a, %a) '
            '<{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}> ({\n'
            '    ^bb0(' + ", ".join(f"%b{i}: index" for i in range(11)) + ", %b11: f32):\n"
            '      "gpu.terminator"() : () -> ()\n    }) {workgroup_attributions = 0 : i64} : '
            '(index, index, index, index, index, index) -> ()\n    "func.return"() : () -> ()\n'
            '  }) : () -> ()\n}) : () -> ()\n')
    module = tileir.parse(text)
    assert '"gpu.launch"' in tileir.print(module)
    assert check_module(module)["text"] == "ok"


def test_gpu_func_arguments_may_only_have_dialect_attributes():
    text = "gpu.module @g {\n  gpu.func @k(%a: f32 {foo}) kernel {\n    gpu.return\n  }\n}\n"
    result = process_buffer(text, "<stdin>")
    assert [d.message for d in result.diagnostics] == [
        "'gpu.func' op arguments may only have dialect attributes"]
    assert "arguments may only have dialect attributes" in run_mlir_opt(text).stderr


def test_own_attributes_in_a_generic_dictionary_as_mlir_22_reads_them():
    """Fuzzer finding (an own attribute of another class in the generic dictionary printed as
    a property that did not read back): as MLIR 22, the op's own attributes in the dictionary
    are checked where they are parsed, become properties, and are dropped when ``<{...}>`` is
    given."""
    bad = ('cuda_tile.module @m {\n  cuda_tile.entry @f() {\n'
           '    %t = cuda_tile.constant <i32: [1, 2]> : !cuda_tile.tile<2xi32>\n'
           '    "cuda_tile.cmpi"(%t, %t) {comparison_predicate = #cudy_time.comparison_predicate<>,'
           ' signedness = #cuda_tile.signedness<signed>} : (!cuda_tile.tile<2xi32>, '
           '!cuda_tile.tile<2xi32>) -> !cuda_tile.tile<i1>\n  }\n}\n')
    with pytest.raises(tileir.DiagnosticError, match="4:5: error: 'cuda_tile.cmpi' op attribute "
                       "'comparison_predicate' failed to satisfy constraint"):
        tileir.parse(bad, allow_unregistered=True)
    text = ('func.func @f(%a: i32) {{\n  %0 = "arith.cmpi"(%a, %a) {props}{{predicate = {p}}} : '
            '(i32, i32) -> i1\n  return\n}}\n')
    for props, value, shown in (("", "3 : i64", "<{predicate = 3 : i64}>"),
                                ("<{predicate = 5 : i64}> ", "3 : i32", "<{predicate = 5 : i64}>")):
        src = text.format(props=props, p=value)
        generic = tileir.print(tileir.parse(src), generic=True)
        assert shown in generic and "} : (i32, i32)" not in generic.replace(shown, "")
        run = run_mlir_opt(src, ["-mlir-print-op-generic"])
        assert shown in run.stdout
    with pytest.raises(tileir.DiagnosticError, match="2:8: error: 'arith.addi' op attribute "
                       "'overflowFlags' failed to satisfy constraint: Integer overflow arith flags"):
        tileir.parse('func.func @f(%a: i32) {\n  %0 = "arith.addi"(%a, %a) {overflowFlags = 1 : i32}'
                     ' : (i32, i32) -> i32\n  return\n}\n')


def test_a_forward_reference_used_in_sibling_regions_is_one_value():
    """Fuzzer finding: a name used before its definition in two regions of one op became two
    placeholders, one never resolved (printed as <<UNKNOWN SSA VALUE>>).  As MLIR, one
    placeholder per name: both uses are the op's result (then not dominating), and a use of
    another type is the type-mismatch error at once."""
    text = ("func.func @f() -> f32 {\n  %c = arith.constant true\n  %6 = scf.if %c -> f32 {\n"
            "    scf.yield %6 : f32\n  } else {\n    scf.yield %6 : f32\n  }\n"
            "  return %6 : f32\n}\n")
    module = tileir.parse(text)
    generic = tileir.print(module, generic=True)
    assert "UNKNOWN" not in generic and generic.count('"scf.yield"(%1)') == 2
    assert check_module(module)["generic text"] == "ok"
    with pytest.raises(tileir.DiagnosticError, match="operand #0 does not dominate this use"):
        tileir.verify(module)
    mixed = text.replace("  } else {\n    scf.yield %6 : f32", "  } else {\n    %q = arith.addi "
                         "%6, %6 : i32\n    scf.yield %6 : f32")
    with pytest.raises(tileir.DiagnosticError, match="6:21: error: use of value '%6' expects "
                       "different type than prior uses: 'i32' vs 'f32'"):
        tileir.parse(mixed)


@pytest.mark.parametrize("types, message", [
    ("vector<4xf32>, vector<f32>", "expected 1-d vector for operand #2"),
    ("vector<f32>, f32", "expected 1-d vector for operand #1"),
    ("f32, vector<4xf32>", "expected vector type for operand #1"),
])
def test_outerproduct_of_a_0d_vector_is_an_error(types, message):
    """Fuzzer finding: a 0-d vector crashed the outerproduct parser (it crashes mlir-opt 22)."""
    lhs, rhs = types.split(", ")
    text = (f"func.func @f(%a: {lhs}, %b: {rhs}) {{\n  %o = vector.outerproduct %a, %b : {types}\n"
            "  return\n}\n")
    with pytest.raises(tileir.DiagnosticError, match=f"2:8: error: custom op "
                       f"'vector.outerproduct' {message}"):
        tileir.parse(text)


@pytest.mark.parametrize("text", [
    '"builtin.module"() ({\n  "cuda_tile.module"() <{}> ({\n  }) : () -> ()\n}) : () -> ()',
    '"builtin.module"() ({\n  "cuda_tile.module"() <{sym_name = "m"}> ({\n    "cuda_tile.entry"()'
    ' <{function_type = (!cuda_tile.tile<2xbf16>) -> ()}> ({\n    ^bb0(%a: !cuda_tile.tile<2xbf16>):'
    '\n      "cuda_tile.return"() : () -> ()\n    }) : () -> ()\n  }) : () -> ()\n}) : () -> ()',
    '"builtin.module"() ({\n  "cuda_tile.module"() <{sym_name = "m"}> ({\n    "cuda_tile.entry"()'
    ' <{function_type = (!cuda_tile.tile<2xbf16>) -> (), sym_name = "k"}> ({\n'
    '    ^bb0(%a: !cuda_tile.tile<2xf32>):\n      "cuda_tile.return"() : () -> ()\n'
    '    }) : () -> ()\n  }) : () -> ()\n}) : () -> ()',
    '"builtin.module"() ({\n  "cuda_tile.module"() <{sym_name = "m"}> ({\n    "cuda_tile.global"()'
    ' <{alignment = 256 : i64, symbol_visibility = #cuda_tile.symbol_visibility<public>, '
    'value = dense<42> : !cuda_tile.tile<1xi32>}> : () -> ()\n  }) : () -> ()\n}) : () -> ()',
    '"builtin.module"() ({\n  "cuda_tile.module"() <{sym_name = "m"}> ({\n    "cuda_tile.entry"()'
    ' <{arg_attrs = [], function_type = () -> (), sym_name = "k"}> ({\n      %0 = '
    '"cuda_tile.constant"() <{value = dense<[[1, 2], [3, 4]]> : !cuda_tile.tile<2x2xi16>}> : '
    '() -> !cuda_tile.tile<2x2xi32>\n      "cuda_tile.return"() : () -> ()\n    }) : () -> ()\n'
    '  }) : () -> ()\n}) : () -> ()',
])
def test_bytecode_refuses_modules_it_would_read_back_otherwise(text):
    """Fuzzer findings: a module, entry or global without a name was written (read back named,
    or named "None"), an entry block whose arguments differ from the signature was written (read
    back with the signature's), a constant whose value is not of its result type was written
    (the reader types the raw data by the result and rejected it): the writer refuses them."""
    outcome = check_module(tileir.parse(text))
    assert outcome["generic text"] == "ok"
    assert all(outcome[f"bytecode {v}"] == "refused" for v in ("13.1", "13.2", "13.3", "13.4"))


@pytest.mark.parametrize("clause", ["module(@a::@b)", "module(@a) function(@c::@d)",
                                    "function(1)"])
def test_launch_symbols_are_flat_references(clause):
    """Fuzzer finding: a nested ``function(@a::@b)`` was accepted and printed as text that did
    not read back; MLIR 22 holds both as flat symbol references."""
    text = ("func.func @h(%a: index) {\n  gpu.launch blocks(%b0, %b1, %b2) in (%s0 = %a, %s1 = %a, "
            "%s2 = %a) threads(%t0, %t1, %t2) in (%u0 = %a, %u1 = %a, %u2 = %a) " + clause +
            " {\n    gpu.terminator\n  }\n  return\n}\n")
    result = process_buffer(text, "<stdin>")
    ours = [f"{d.loc.line}:{d.loc.col}: {d.message}" for d in result.diagnostics]
    theirs = [line.split("<stdin>:", 1)[1].replace(" error: ", " ", 1)
              for line in run_mlir_opt(text).stderr.splitlines() if ": error: " in line]
    assert ours == theirs and ours and "invalid kind of attribute specified" in ours[0]


@pytest.mark.parametrize("objects, message", [
    ("i64", "1:15: custom op 'gpu.binary' invalid kind of attribute specified"),
    ('"s"', "1:15: custom op 'gpu.binary' invalid kind of attribute specified"),
    ("@x", "1:15: custom op 'gpu.binary' invalid kind of attribute specified"),
    ("array<i32: 1>", "1:15: custom op 'gpu.binary' invalid kind of attribute specified"),
    ("5", "1:15: integer literal not valid for specified type"),
    ("1.0", "1:18: floating point value not valid for specified type"),
])
def test_binary_objects_of_another_kind_are_a_parse_error(objects, message):
    """Fuzzer finding: ``gpu.binary @b i64`` was accepted (the verifier rejected it later) and
    its generic form, carrying ``objects`` among the discardable attributes, read back without
    it.  MLIR 22 parses ``objects`` as an array attribute (messages as mlir-opt 22 gives them)."""
    result = process_buffer(f"gpu.binary @b {objects}\n", "<stdin>")
    assert [f"{d.loc.line}:{d.loc.col}: {d.message}" for d in result.diagnostics] == [message]


@pytest.mark.parametrize("text", [
    '"func.func"() <{function_type = () -> (), res_attrs = [], sym_name = "f"}> ({\n'
    '  "func.return"() : () -> ()\n}) : () -> ()',
    '"func.func"() <{arg_attrs = [{}], function_type = (i32) -> i32, res_attrs = [{}], '
    'sym_name = "f"}> ({\n^bb0(%a: i32):\n  "func.return"(%a) : (i32) -> ()\n}) : () -> ()',
    '"gpu.module"() <{sym_name = "m"}> ({\n  "gpu.func"() <{arg_attrs = [], '
    'function_type = () -> (), sym_name = "f"}> ({\n    "gpu.return"() : () -> ()\n'
    '  }) : () -> ()\n}) : () -> ()',
    '"builtin.module"() ({\n  "cuda_tile.module"() <{sym_name = "m"}> ({\n    "cuda_tile.entry"()'
    ' <{function_type = () -> (), res_attrs = [], sym_name = "k"}> ({\n'
    '      "cuda_tile.return"() : () -> ()\n    }) : () -> ()\n  }) : () -> ()\n}) : () -> ()',
])
def test_signature_attribute_arrays_a_custom_form_cannot_carry(text):
    """Fuzzer finding: an ``arg_attrs``/``res_attrs`` array of only empty dictionaries (which
    no custom signature spells) was dropped by the custom form; such a function is printed in
    the generic form, and the bytecode writer refuses ``res_attrs`` (its reader sets none)."""
    module = tileir.parse(text)
    outcome = check_module(module)
    assert outcome["text"] == "ok" and outcome["generic text"] == "ok"
    assert '_attrs = [' in print_op(module)          # kept, in the generic form


def test_gpu_func_result_attributes_as_mlir_opt():
    """gpu.func results take attribute dictionaries, as in MLIR 22 (mlir-opt's output)."""
    text = ("gpu.module @m {\n  gpu.func @f(%x: f32 {a.b}) -> (f32 {a.c = 1 : i32}) {\n"
            "    gpu.return %x : f32\n  }\n  gpu.func @g(%x: f32) -> f32 {\n"
            "    gpu.return %x : f32\n  }\n}\n")
    result = process_buffer(text, "<stdin>")
    assert not result.diagnostics
    assert print_op(result.module) == (
        "module {\n  gpu.module @m {\n    gpu.func @f(%arg0: f32 {a.b}) -> (f32 {a.c = 1 : i32}) {\n"
        "      gpu.return %arg0 : f32\n    }\n    gpu.func @g(%arg0: f32) -> f32 {\n"
        "      gpu.return %arg0 : f32\n    }\n  }\n}\n")


def test_declarative_gpu_forms_check_own_attributes_in_their_dictionary():
    """Fuzzer finding: ``gpu.subgroup_mma_load_matrix ... {leadDimension}`` was accepted by the
    parser (the verifier rejected it) and its printed form did not read back.  MLIR's
    declarative formats check an op's own attributes where the dictionary is parsed (message
    and column as mlir-opt 22)."""
    text = ("#m = affine_map<(i, j) -> ()>\nfunc.func @f() {\n"
            "  %wg = memref.alloca() {alignment = 32} : memref<32x32xf16, #m, 3>\n"
            "  %0 = gpu.subgroup_mma_load_matrix %wg[] {leadDimension} : memref<32x32xf16, #m, 3>"
            " -> !gpu.mma_matrix<16x16xf16, \"AOp\">\n  return\n}\n")
    result = process_buffer(text, "<stdin>")
    assert [f"{d.loc.line}:{d.loc.col}: {d.message}" for d in result.diagnostics] == [
        "4:43: custom op 'gpu.subgroup_mma_load_matrix' 'gpu.subgroup_mma_load_matrix' op "
        "attribute 'leadDimension' failed to satisfy constraint: index attribute"]
