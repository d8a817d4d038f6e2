"""CSR sparse matrix-vector product with gpu.create_csr / gpu.spmv (needs SciPy)."""
import numpy as np

FUNC = "main"
TOLERANCE = 1e-14
ROWS, COLS = 50, 40


def setup(rng):
    dense = rng.standard_normal((ROWS, COLS)) * (rng.random((ROWS, COLS)) < 0.2)
    rows, cols = np.nonzero(dense)
    pos = np.searchsorted(rows, np.arange(ROWS + 1)).astype(np.int64)
    return [ROWS, COLS, rows.size, pos, cols.astype(np.int64), dense[rows, cols],
            rng.standard_normal(COLS), rng.standard_normal(ROWS)]


def reference(args):
    dense = np.zeros((ROWS, COLS))
    pos, idx, vals = args[3], args[4], args[5]
    for r in range(ROWS):
        dense[r, idx[pos[r]:pos[r + 1]]] = vals[pos[r]:pos[r + 1]]
    return {7: dense @ args[6] + args[7]}   # inputs as they were before the run
