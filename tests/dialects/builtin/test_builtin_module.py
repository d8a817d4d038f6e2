"""``builtin.module`` (implicit and named, with attributes), alias definitions, properties and
the generic form of unregistered ops: printed as ``mlir-opt`` prints them, errors alike."""

from __future__ import annotations

import pytest

from builtin_diff import assert_same_first_error, mlir_output, tileir_output
from mlir_tools import require_mlir_opt

MODULE = """\
#alias = affine_map<(d0) -> (d0 + 1)>
#str = "hello"
!t = memref<4xf32, #alias>
!v = vector<4xi32>
module @named attributes {foo.bar = 1 : i32, foo.baz} {
  %0 = "foo.src"() <{prop = 3 : i32, other = "x"}> {disc = #str} : () -> !v
  "foo.use"(%0, %0) ({
  ^bb0(%a: !t, %b: i32):
    "foo.yield"(%a) : (!t) -> ()
  }, {
  }) : (!v, !v) -> ()
  module {
    "foo.x"() : () -> ()
  }
  module @inner attributes {foo.a = [affine_map<(d0, d1) -> (d1, d0)>]} {
  }
  "foo.multi"() : () -> (i32, f32)
  %1:2 = "foo.multi"() : () -> (i32, f32)
  "foo.use2"(%1#1, %1#0) : (f32, i32) -> ()
  "foo.empty"() <{}> : () -> ()
  "foo.props"() <{m = affine_map<(d0) -> (d0 * 2)>, t = tensor<*xf32>}> : () -> ()
  %2 = "foo.nested"() ({
    %3 = "foo.inner"() : () -> index
    "foo.yield"(%3) : (index) -> ()
  }) : () -> tuple<index, none>
}
"""

IMPLICIT = """\
!m = memref<?x?xf32, strided<[?, 1], offset: ?>>
"foo.a"() {v = dense<[1, 2]> : vector<2xindex>} : () -> !m
"foo.b"() : () -> ()
"""


@pytest.mark.parametrize("generic", [False, True])
@pytest.mark.parametrize("text", [MODULE, IMPLICIT], ids=["named", "implicit"])
def test_module_matches_mlir_opt(text, generic):
    require_mlir_opt()
    assert tileir_output(text, generic) == mlir_output(text, generic)


def test_generic_input_round_trips():
    require_mlir_opt()
    generic = mlir_output(MODULE, generic=True)
    assert tileir_output(generic, generic=True) == generic
    assert tileir_output(generic) == mlir_output(MODULE)


INVALID = [
    ('"foo.x"() : () -> ()\n', False),
    ("foo.x\n", True),
    ("#a = 1\n#a = 2\n", True),
    ('"foo.x"() {a = #b} : () -> ()\n', True),
    ('!x = i32\n"foo.x"() {a = !y} : () -> ()\n', True),
    ('"foo.x"() : () -> () loc(#zz)\n', True),
    ('"foo.x"(%0) : (i32) -> ()\n', True),
    ('%0 = "foo.x"() : () -> (i32, i32)\n"foo.y"(%0#2) : (i32) -> ()\n', True),
    ('"foo.x"() : () -> i32, i32\n', True),
]


@pytest.mark.parametrize("text,unregistered", INVALID)
def test_invalid_module_matches_mlir_opt(text, unregistered):
    require_mlir_opt()
    assert_same_first_error(text, unregistered)
