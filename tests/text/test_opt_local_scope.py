"""``tileir-opt --mlir-print-local-scope``: no alias definitions; affine maps and locations are
printed where they are used, and the output ends without mlir-opt's usual empty line (the
expected texts are mlir-opt 22's output for the same inputs)."""

from __future__ import annotations

from tileir.cli.opt import run_opt

SOURCE = """#map = affine_map<(d0) -> (d0 + 1)>
func.func @f(%a: memref<4xf32, strided<[1], offset: ?>>, %i: index) -> index {
  %0 = affine.apply #map(%i)
  %1 = affine.apply affine_map<(d0)[s0] -> (d0 * 2 + s0)>(%i)[%0]
  return %1 : index
}
"""

LOCAL = """module {
  func.func @f(%arg0: memref<4xf32, strided<[1], offset: ?>>, %arg1: index) -> index {
    %0 = affine.apply affine_map<(d0) -> (d0 + 1)>(%arg1)
    %1 = affine.apply affine_map<(d0)[s0] -> (d0 * 2 + s0)>(%arg1)[%0]
    return %1 : index
  }
}
"""

LOCAL_DEBUGINFO = """module {
  func.func @f(%arg0: memref<4xf32, strided<[1], offset: ?>> loc("ls.mlir":2:14), %arg1: index loc("ls.mlir":2:58)) -> index {
    %0 = affine.apply affine_map<(d0) -> (d0 + 1)>(%arg1) loc("ls.mlir":3:8)
    %1 = affine.apply affine_map<(d0)[s0] -> (d0 * 2 + s0)>(%arg1)[%0] loc("ls.mlir":4:8)
    return %1 : index loc("ls.mlir":5:3)
  } loc("ls.mlir":2:1)
} loc("ls.mlir":0:0)
"""

ALIASED = """#map = affine_map<(d0) -> (d0 + 1)>
#map1 = affine_map<(d0)[s0] -> (d0 * 2 + s0)>
module {
  func.func @f(%arg0: memref<4xf32, strided<[1], offset: ?>>, %arg1: index) -> index {
    %0 = affine.apply #map(%arg1)
    %1 = affine.apply #map1(%arg1)[%0]
    return %1 : index
  }
}

"""


def _opt(tmp_path, capsys, *flags: str) -> str:
    path = tmp_path / "ls.mlir"
    path.write_text(SOURCE)
    assert run_opt([*flags, str(path)]) == 0
    return capsys.readouterr().out.replace(str(path), "ls.mlir")


def test_local_scope_prints_maps_inline(tmp_path, capsys):
    assert _opt(tmp_path, capsys, "--mlir-print-local-scope") == LOCAL
    assert _opt(tmp_path, capsys) == ALIASED


def test_local_scope_prints_locations_inline(tmp_path, capsys):
    assert _opt(tmp_path, capsys, "--mlir-print-local-scope",
                "--mlir-print-debuginfo") == LOCAL_DEBUGINFO
