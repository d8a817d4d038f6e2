"""Run an unchanged cuTile Python kernel on the CPU with tileir.

    pip install "tileir[cutile]"          # tileir + NVIDIA's cuTile Python (cuda-tile)
    python examples/cutile_vector_add.py

The kernels below are ordinary ``@ct.kernel`` functions, exactly as they would be launched on a
GPU with ``ct.launch(stream, grid, kernel, args)``.  ``tileir.cutile.launch(kernel, grid, args)``
has NVIDIA's cuTile compile them to Tile IR bytecode (no GPU needed), and tileir's executor runs
that bytecode on NumPy arrays; the results land in the arrays passed in.
"""

import sys

import numpy as np

try:
    import cuda.tile as ct
except ImportError:
    sys.exit('this example needs NVIDIA\'s cuTile Python: pip install "tileir[cutile]"')

import tileir.cutile


@ct.kernel
def vec_add_kernel(a, b, c, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    a_tile = ct.load(a, index=(bid,), shape=(TILE,))
    b_tile = ct.load(b, index=(bid,), shape=(TILE,))
    ct.store(c, index=(bid,), tile=a_tile + b_tile)


@ct.kernel
def scaled_add_kernel(x, y, out, alpha, TILE: ct.Constant[int]):
    # gather/scatter with explicit indices; alpha is a runtime float32 scalar
    bid = ct.bid(0)
    idx = bid * TILE + ct.arange(TILE, dtype=ct.int32)
    ct.scatter(out, idx, alpha * ct.gather(x, idx) + ct.gather(y, idx))


def main() -> int:
    rng = np.random.default_rng(0)
    n, tile = 100_003, 1024                      # n is not a multiple of the tile size
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    c = np.zeros_like(a)
    grid = (ct.cdiv(n, tile),)
    info = tileir.cutile.launch(vec_add_kernel, grid, (a, b, c, tile))
    assert np.array_equal(c, a + b)
    print(f"vec_add_kernel: {info.blocks} tile blocks, c == a + b for all {n} elements "
          f"({info.seconds * 1e3:.1f} ms)")

    # Strided views work and are written in place: every other element of `out`.
    out = np.zeros(2 * n, dtype=np.float32)
    tileir.cutile.launch(scaled_add_kernel, grid, (a[::-1], b, out[::2], 0.5, tile))
    want = (np.float32(0.5) * a[::-1] + b)
    assert np.allclose(out[::2], want, rtol=1e-6, atol=1e-6) and not out[1::2].any()
    print("scaled_add_kernel on strided views: ok")

    # The bytecode cuTile produced, as tileir reads it:
    compiled = tileir.cutile.compile(vec_add_kernel, (a, b, c, tile))
    print(f"entry {compiled.symbol}: {len(compiled.bytecode)} bytes of Tile IR "
          f"bytecode {compiled.bytecode_version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
