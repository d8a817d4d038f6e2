"""Robustness: mutated IR never produces a Python traceback.

Valid and invalid snippets (a built-in seed set, plus the cuda-tile corpus when it is present)
are mutated by deleting, inserting and replacing tokens, perturbing shapes and element types;
parsing, verifying, printing and re-parsing must end in diagnostics, never in an exception, and
``tileir-opt`` must exit 0 or 1."""

from __future__ import annotations

import contextlib
import io
import random
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tileir.cli.opt import process_buffer, run_opt
from tileir.ir.diagnostics import SourceFile, SourceManager, render
from tileir.text.printer import print_op
from tileir.text.expected import split_input
from tileir.ir.verify import VerifyOptions

SEEDS = [
    """\
cuda_tile.module @m {
  entry @k(%p: tile<ptr<f32>>, %n: tile<i32>) optimization_hints=<sm_100 = {num_cta_in_cga = 2}> {
    %tv = make_tensor_view %p, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>
    %b, %y, %z = get_tile_block_id : tile<i32>
    %x, %t = load_view_tko weak %pv[%b] : partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
    %e = exp %x : tile<128xf32>
    %r = reduce %e dim=0 identities=[0.000000e+00 : f32] : tile<128xf32> -> tile<f32>
    (%a: tile<f32>, %c: tile<f32>) {
      %s = addf %a, %c : tile<f32>
      yield %s : tile<f32>
    }
    %t2 = store_view_tko weak %e, %pv[%b] token = %t : tile<128xf32>, partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
  }
}
""",
    """\
cuda_tile.module @m {
  global @g <f32: [1.0, 2.0]> : tile<2xf32>
  testing$func @k(%a: tile<4x8xi32>, %c: tile<i1>, %i: tile<i32>) -> tile<i32> {
    %0 = addi %a, %a overflow<no_wrap> : tile<4x8xi32>
    %1 = permute %0 [1, 0] : tile<4x8xi32> -> tile<8x4xi32>
    %2 = if %c -> (tile<i32>) {
      yield %i : tile<i32>
    } else {
      %g = get_global @g : tile<ptr<f32>>
      yield %i : tile<i32>
    }
    %3 = for %n in (%i to %i, step %i) : tile<i32> iter_values(%acc = %2) -> (tile<i32>) {
      %s = muli %acc, %n : tile<i32>
      continue %s : tile<i32>
    }
    %4 = loop iter_values(%v = %3) : tile<i32> -> tile<i32> {
      %q = cmpi less_than %v, %i, signed : tile<i32> -> tile<i1>
      if %q {
        break %v : tile<i32>
      }
      continue %v : tile<i32>
    }
    return %4 : tile<i32>
  }
}
""",
]

_TOKEN = re.compile(r'%[\w#]+|@[\w$]+|![\w.]+|#[\w.]+|"[^"\n]*"|-?\d+\.\d*(?:e[-+]?\d+)?|'
                    r'0x[0-9A-Fa-f]+|-?\d+|[\w$.]+|->|\S')
_ELEMENTS = ["f32", "f16", "bf16", "f64", "tf32", "i1", "i4", "i8", "i16", "i32", "i64",
             "f8E4M3FN", "f8E5M2", "f8E8M0FNU", "f4E2M1FN", "ptr<f32>", "index", "token"]
_NUMBERS = ["0", "1", "2", "3", "-1", "7", "8", "16", "128", "4294967296",
            "9223372036854775807", "99999999999999999999"]


def _corpus_seeds() -> list[str]:
    base = Path(__file__).resolve().parents[2].parent / "shared" / "conformance" / "cuda-tile" \
        / "Dialect" / "CudaTile"
    out = []
    if base.is_dir():
        for path in sorted(base.glob("*.mlir"))[:40]:
            for chunk in split_input(path.read_text(encoding="utf-8")):
                text = "\n".join(l for l in chunk.text.split("\n")
                                 if not l.strip().startswith("//"))
                if text.strip():
                    out.append(text)
    return out


ALL_SEEDS = SEEDS + _corpus_seeds()
VOCAB = sorted({t for s in ALL_SEEDS for t in _TOKEN.findall(s)})


def mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 3)):
        toks = list(_TOKEN.finditer(text))
        if not toks:
            break
        m = toks[rng.randrange(len(toks))]
        s, e, t = m.start(), m.end(), m.group()
        k = rng.random()
        if k < 0.2:
            text = text[:s] + text[e:]
        elif k < 0.35:
            text = text[:s] + rng.choice(VOCAB) + " " + text[s:]
        elif k < 0.55 and re.search(r"\d", t):
            text = text[:s] + re.sub(r"\d+", rng.choice(_NUMBERS).lstrip("-"), t, count=1) + \
                text[e:]
        elif k < 0.75 and re.fullmatch(r"(\d+x)*[a-z]\w*", t):
            parts = t.split("x")
            parts[-1] = rng.choice(_ELEMENTS)
            text = text[:s] + "x".join(parts) + text[e:]
        else:
            text = text[:s] + rng.choice(VOCAB) + text[e:]
    return text


def _exercise(text: str, rng: random.Random) -> None:
    options = VerifyOptions(target_version=rng.choice([None, "13.1", "13.2"]),
                            hints=rng.choice(["silent", "warn", "error"]))
    sources = SourceManager()
    res = process_buffer(text, "fuzz.mlir", allow_unregistered=rng.random() < 0.5,
                         verify_options=options, sources=sources)
    sources.add(SourceFile("fuzz.mlir", text))
    for d in res.diagnostics:
        render(d, sources)
    if res.module is not None and not res.failed:
        for generic in (False, True):
            again = process_buffer(print_op(res.module, generic=generic), "rt.mlir",
                                   allow_unregistered=True)
            assert not again.failed, (text, [d.message for d in again.diagnostics])


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_mutated_ir_never_raises(seed):
    rng = random.Random(seed)
    _exercise(mutate(rng.choice(ALL_SEEDS), rng), rng)


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_cli_exits_with_a_diagnostic(tmp_path_factory, seed):
    rng = random.Random(seed)
    text = mutate(rng.choice(SEEDS), rng)
    path = tmp_path_factory.mktemp("fuzz") / "in.mlir"
    path.write_text(text, encoding="utf-8")
    out = io.StringIO()
    flags = rng.choice([[], ["--split-input-file"], ["-mlir-print-op-generic"],
                        ["--target-version", "13.1"], ["--Wunsupported-hints", "--Werr-hints"]])
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        rc = run_opt([str(path), *flags], prog="tileir-opt")
    assert rc in (0, 1)
    if rc == 1:
        assert "error:" in out.getvalue()
    assert "Traceback" not in out.getvalue()
