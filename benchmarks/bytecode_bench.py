#!/usr/bin/env python3
"""Bytecode read/write throughput on a 50,000-op module (target: >= 200k ops/s each).

    python benchmarks/bytecode_bench.py [--ops N] [--repeat R] [--version 13.3]

The module mixes ops like cuTile Python's output (the op histogram of NVIDIA-exported
kernels): assumptions, tensor/partition views, loads and stores, shape ops, arithmetic,
comparisons and selects, constants, a ``for`` loop per block and a ``reduce`` in one block of
four.  Prints ops/s for ``write_bytecode`` and ``read_bytecode`` (best of R runs),
the bytes per op, and the ratio against the 200k ops/s target measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

import tileir  # noqa: E402
from tileir.bytecode import read_bytecode, write_bytecode  # noqa: E402

TARGET = 200_000

_HEADER = """cuda_tile.module @kernels {
  entry @bench(%p: tile<ptr<f32>>, %n: tile<i32>, %s: tile<i32>, %x: tile<128xf32>, %k: tile<128xi32>) optimization_hints=<sm_100 = {num_cta_in_cga = 2}> {
    %tok = make_token : token
"""

# One block of 21 ops (24 with a reduction), shaped like cuTile Python's output for a kernel body (the op mix of the
# 13.4 samples: assumes, views, loads/stores, shape ops, arithmetic, constants, a loop; one block
# in four also has a reduction).
_BLOCK = """    %an{i} = assume bounded<0, ?>, %n : tile<i32>
    %as{i} = assume div_by<16>, %s : tile<i32>
    %ap{i} = assume div_by<16>, %p : tile<ptr<f32>>
    %tv{i} = make_tensor_view %ap{i}, shape = [%an{i}], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pv{i} = make_partition_view %tv{i} : partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>
    %bx{i}, %by{i}, %bz{i} = get_tile_block_id : tile<i32>
    %t{i}, %r{i} = load_view_tko weak %pv{i}[%bx{i}] token = %tok : partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
    %u{i}, %q{i} = load_view_tko weak %pv{i}[%by{i}] token = %tok : partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
    %c{i} = constant <f32: {i}.0> : tile<f32>
    %rs{i} = reshape %c{i} : tile<f32> -> tile<1xf32>
    %bc{i} = broadcast %rs{i} : tile<1xf32> -> tile<128xf32>
    %s{i} = addf %t{i}, %u{i} rounding<nearest_even> : tile<128xf32>
    %m{i} = mulf %s{i}, %bc{i} rounding<nearest_even> : tile<128xf32>
    %z{i} = constant <i32: 0> : tile<128xi32>
    %b{i} = cmpi less_than %k, %z{i}, signed : tile<128xi32> -> tile<128xi1>
    %e{i} = select %b{i}, %m{i}, %x : tile<128xi1>, tile<128xf32>
    %w{i} = exti %b{i} unsigned : tile<128xi1> -> tile<128xi32>
    %acc{i} = for %iv{i} in (%bx{i} to %an{i}, step %as{i}) : tile<i32> iter_values(%v{i} = %e{i}) -> (tile<128xf32>) {{
      %y{i} = addf %v{i}, %t{i} rounding<nearest_even> : tile<128xf32>
      continue %y{i} : tile<128xf32>
    }}
{reduce}    %o{i} = store_view_tko weak %acc{i}, %pv{i}[%bx{i}] token = %r{i} : tile<128xf32>, partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
"""
_REDUCE = """    %red{i} = reduce %acc{i} dim=0 identities=[0.000000e+00 : f32] : tile<128xf32> -> tile<f32>
    (%l{i}: tile<f32>, %h{i}: tile<f32>) {{
      %g{i} = addf %l{i}, %h{i} rounding<nearest_even> : tile<f32>
      yield %g{i} : tile<f32>
    }}
"""
OPS_PER_BLOCK = 21 + 3 / 4


def build_module(n_ops: int):
    blocks = max(1, round((n_ops - 2) / OPS_PER_BLOCK))
    text = _HEADER + "".join(
        _BLOCK.format(i=i, reduce=_REDUCE.format(i=i) if i % 4 == 0 else "")
        for i in range(blocks)) + "    return\n  }\n}\n"
    module = tileir.parse(text, "bench.mlir")
    count = sum(1 for op in module.walk()
                if op.name not in ("builtin.module", "cuda_tile.module", "cuda_tile.entry"))
    return module, count


def _construct_only(ops) -> list:
    import gc
    from tileir.ir.core import OpResult
    new = object.__new__
    enabled = gc.isenabled()
    gc.disable()
    try:
        out = []
        for op in ops:
            o = new(type(op))
            o.name = op.name
            o.operands = list(op.operands)
            for i, v in enumerate(o.operands):
                v.uses.append((o, i))
            res = []
            for i, r in enumerate(op.results):
                x = new(OpResult)
                x.type, x.uses, x.owner, x.index = r.type, [], o, i
                res.append(x)
            o.results = res
            o.attributes = dict(op.attributes)
            o.regions, o.parent, o.loc, o.segments = [], None, op.loc, None
            out.append(o)
        for o in out:  # drop the extra uses again
            for v in o.operands:
                v.uses.pop()
        return out
    finally:
        if enabled:
            gc.enable()


def best_of(fn, repeat: int) -> tuple[float, float]:
    """Best wall-clock and best CPU time (this thread's, ``thread_time``) of ``repeat`` runs.
    Like ``timeit``, garbage from earlier runs is collected before each run and the cyclic
    garbage collector is off while timing.  CPU time is the fairer measure on a shared machine;
    both are printed."""
    import gc
    best_wall = best_cpu = float("inf")
    for _ in range(repeat):
        gc.collect()
        enabled = gc.isenabled()
        gc.disable()
        try:
            w0, c0 = time.perf_counter(), time.thread_time()
            fn()
            best_wall = min(best_wall, time.perf_counter() - w0)
            best_cpu = min(best_cpu, time.thread_time() - c0)
        finally:
            if enabled:
                gc.enable()
    return best_wall, best_cpu


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ops", type=int, default=50_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--version", default="13.3")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    module, n_ops = build_module(args.ops)
    print(f"module: {n_ops} ops (built by the text parser in {time.perf_counter() - t0:.1f} s)")
    data = write_bytecode(module, args.version)
    back = read_bytecode(data)
    assert tileir.print(back) == tileir.print(read_bytecode(write_bytecode(back, args.version)))
    print(f"bytecode {args.version}: {len(data)} bytes, {len(data) / n_ops:.2f} bytes/op")
    # Baseline measured in the same run: building the same ops object by object (no decoding),
    # i.e. the least any Python reader producing tileir IR could spend.
    ops = [op for op in module.walk() if op.name not in ("builtin.module", "cuda_tile.module",
                                                         "cuda_tile.entry")]
    base_wall, base_cpu = best_of(lambda: _construct_only(ops), args.repeat)
    print(f"baseline (construct the ops only): {n_ops / base_cpu:10,.0f} ops/s CPU")
    for label, fn in (("write", lambda: write_bytecode(module, args.version)),
                      ("read", lambda: read_bytecode(data))):
        wall, cpu = best_of(fn, args.repeat)
        rate_cpu, rate_wall = n_ops / cpu, n_ops / wall
        print(f"{label:5s}: {rate_cpu:10,.0f} ops/s CPU ({cpu * 1e3:7.1f} ms, "
              f"{rate_cpu / TARGET:.2f}x the 200k target, {base_cpu / cpu:.2f}x the baseline); "
              f"wall {rate_wall:10,.0f} ops/s ({wall * 1e3:7.1f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
