"""gpu sparse ops (MLIR's cuSPARSE/cuSPARSELt wrappers) computed with SciPy.

What is computed (as MLIR's CUDA runtime calls the libraries, alpha = beta = 1 unless noted):

* ``spmv``: ``y = op(A) x + y``; ``spmm``: ``C = op(A) op(B) + C``;
* ``sddmm``: ``C = (op(A) op(B)) o spy(C) + C`` -- only C's stored entries are computed;
* SpGEMM (``spgemm_work_estimation_or_compute`` ... ``spgemm_copy``): ``C = A B`` (beta = 0),
  sized by ``spmat_get_size`` and written into C's arrays (``set_csr_pointers``);
* ``create_2to4_spmat``: the dense matrix in the 2:4 format; ``PRUNE_ONLY`` and
  ``PRUNE_AND_CHECK`` prune it in place (in every row, of each 4 consecutive elements the 2 of
  largest magnitude stay, the first ones on ties), ``NONE`` requires it to be 2:4 already.

Products are evaluated in float64 by SciPy and rounded once to the output's element type.
Handles keep the memrefs they were made from, so later writes through those memrefs are seen.
``*_buffer_size`` ops return small positive sizes (the buffers are not used).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ....ir.core import Operation
from ...errors import MemoryAccessError, UnsupportedError
from ..faults import LaneFault
from ..memory import MemRef
from ..registry import lowering
from ..runtime import check_device_use, dependencies, start, token_of, written_by
from .launch import _host

try:
    import scipy.sparse as _sp
except ImportError:  # pragma: no cover - SciPy is a dependency of the gpu extra
    _sp = None


def _scipy():
    if _sp is None:
        raise LaneFault("the gpu sparse ops need SciPy (pip install scipy)",
                        kind=UnsupportedError)
    return _sp


def _int(x) -> int:
    if hasattr(x, "const"):
        return x.const
    return int(np.asarray(x).reshape(-1)[0])


def _array(ref: MemRef) -> np.ndarray:
    return ref.to_numpy()


def _leading(ref: MemRef, n: int, what: str) -> np.ndarray:
    """The first ``n`` elements of the memref ``ref`` (flattened): the elements the library
    reads.  ``n`` beyond the memref (the library would read past it) is an error."""
    flat = _array(ref).reshape(-1)
    if not 0 <= n <= flat.size:
        raise _bad(f"{what} needs {n} elements but its memref holds {flat.size}")
    return flat[:n]


class DnTensor:
    """A dense tensor handle: a memref viewed with ``dims``."""

    def __init__(self, ref: MemRef, dims: tuple) -> None:
        if any(d < 0 for d in dims):
            raise _bad(f"dense tensor with a negative dimension {'x'.join(map(str, dims))}")
        self.ref = ref
        self.dims = dims
        self.destroyed = False

    def view(self) -> np.ndarray:
        """The first ``prod(dims)`` elements of the (contiguous) memref, row-major, in place."""
        arr = _array(self.ref)
        n = int(np.prod(self.dims))
        if arr.size < n:
            raise LaneFault(f"dense tensor of shape {self.dims} over a memref of {arr.size} "
                            "elements", kind=MemoryAccessError)
        flat = arr.reshape(-1) if arr.flags.c_contiguous else None
        if flat is None:
            raise LaneFault("dense tensor over a non-contiguous memref", kind=UnsupportedError)
        return flat[:n].reshape(self.dims)


class SpMat:
    """A sparse matrix handle: its format, shape and the memrefs holding it."""

    def __init__(self, fmt: str, shape: tuple, nnz: int, arrays: dict, block: tuple = ()) -> None:
        if any(d < 0 for d in shape) or nnz < 0 or any(b < 1 for b in block):
            raise _bad(f"negative size: {'x'.join(map(str, shape))} matrix with {nnz} "
                       "nonzeros" + (f" in {'x'.join(map(str, block))} blocks" if block else ""))
        self.fmt, self.shape, self.nnz, self.arrays, self.block = fmt, shape, nnz, arrays, block
        self.product = None            # SpGEMM result waiting for spgemm_copy
        self.destroyed = False

    def values(self) -> np.ndarray:
        return _array(self.arrays["values"]).reshape(-1)

    def scipy(self):
        """The matrix as a SciPy sparse matrix over the current buffer contents (copies);
        index arrays are validated first (SciPy would read past its arrays otherwise)."""
        try:
            m = self._scipy()
        except ValueError as exc:   # SciPy's own checks (e.g. COO coordinates): a clean error
            raise _bad(f"{exc} (an index lies outside the matrix or its arrays)") from None
        _validate(m, self.fmt)
        return m

    def _scipy(self):
        sp = _scipy()
        rows, cols = self.shape
        nnz = self.nnz
        arr = self.arrays
        if self.fmt == "dense24":
            return sp.csr_matrix(arr["dense"].astype(np.float64))
        if self.fmt == "bsr":
            rb, cb = self.block
            vals = _leading(arr["values"], nnz * rb * cb, "the values array")
        else:
            vals = _leading(arr["values"], nnz, "the values array")
        vals = vals.astype(np.float64)
        if self.fmt == "coo":
            r = _leading(arr["rowIdxs"], nnz, "the row index array")
            c = _leading(arr["colIdxs"], nnz, "the column index array")
            return sp.coo_matrix((vals, (r, c)), shape=(rows, cols))
        if self.fmt == "coo_aos":
            ij = _leading(arr["idxs"], 2 * nnz, "the index array").reshape(nnz, 2)
            return sp.coo_matrix((vals, (ij[:, 0], ij[:, 1])), shape=(rows, cols))
        if self.fmt == "csr":
            pos = _leading(arr["pos"], rows + 1, "the row position array")
            idx = _leading(arr["idx"], nnz, "the column index array")
            return sp.csr_matrix((vals, idx, pos), shape=(rows, cols))
        if self.fmt == "csc":
            pos = _leading(arr["pos"], cols + 1, "the column position array")
            idx = _leading(arr["idx"], nnz, "the row index array")
            return sp.csc_matrix((vals, idx, pos), shape=(rows, cols))
        if self.fmt == "bsr":
            rb, cb = self.block
            pos = _leading(arr["pos"], rows + 1, "the block row position array")
            idx = _leading(arr["idx"], nnz, "the block column index array")
            return sp.bsr_matrix((vals.reshape(nnz, rb, cb), idx, pos),
                                 shape=(rows * rb, cols * cb))
        raise LaneFault(f"sparse format {self.fmt}", kind=UnsupportedError)

    def buffers(self) -> list:
        return [a.buffer for a in self.arrays.values() if isinstance(a, MemRef)]


def _bad(message: str) -> LaneFault:
    return LaneFault(f"sparse matrix: {message}", kind=MemoryAccessError)


def _validate(m, fmt: str) -> None:
    """Every stored coordinate inside the matrix, positions monotonic and within nnz."""
    if fmt in ("coo", "coo_aos"):
        rows, cols = m.shape
        if m.nnz and (m.row.min() < 0 or m.row.max() >= rows or m.col.min() < 0 or
                      m.col.max() >= cols):
            raise _bad(f"a coordinate lies outside the {rows}x{cols} matrix")
        return
    if fmt in ("csr", "csc", "bsr"):
        ptr, idx = np.asarray(m.indptr), np.asarray(m.indices)
        outer = m.shape[0] if fmt == "csr" else m.shape[1] if fmt == "csc" else \
            m.shape[0] // m.blocksize[0]
        inner = m.shape[1] if fmt == "csr" else m.shape[0] if fmt == "csc" else \
            m.shape[1] // m.blocksize[1]
        if ptr.size != outer + 1 or ptr[0] != 0 or np.any(np.diff(ptr) < 0) or \
                ptr[-1] > idx.size:
            raise _bad("the position array is not a valid prefix sum of the nonzeros")
        used = idx[:ptr[-1]]
        if used.size and (used.min() < 0 or used.max() >= inner):
            raise _bad(f"an index lies outside the {inner} columns/rows")


def _transposed(attr) -> bool:
    if attr is None:
        return False
    text = str(getattr(attr, "keyword", attr)).upper()
    return "TRANSPOSE" in text and "NON" not in text


def _mode(op: Operation, name: str) -> bool:
    return _transposed(op.attributes.get(name))


def _get(op: Operation, frame, name: str) -> Any:
    return frame.get(op.operand_group(name)[0])


def _sparse_op(*names):
    """Register a sparse op whose body is ``run(host, op, frame, deps) -> results``."""
    def register(run):
        @lowering(*names)
        def lower(op: Operation, c):
            def step(ex, frame, args):
                host = _host(ex, op)
                deps = dependencies(op, frame)
                for v in op.operands:
                    x = frame.get(v)
                    if getattr(x, "destroyed", False):
                        raise LaneFault(f"{type(x).__name__} handle used after it was destroyed",
                                        kind=UnsupportedError)
                    if isinstance(x, MemRef):
                        check_device_use(x.buffer, deps, op)
                    elif isinstance(x, (DnTensor, SpMat)):
                        for b in ([x.ref.buffer] if isinstance(x, DnTensor) else x.buffers()):
                            check_device_use(b, deps, op)
                out = run(host, op, frame, deps)
                return out
            return step
        return run
    return register


def _finish(host, op: Operation, deps, results: list, written=()) -> list:
    tail = start(op, deps, host.streams)
    for buf in written:
        written_by(buf, token_of(tail))
    return results + tail


@_sparse_op("gpu.create_dn_tensor")
def _create_dn(host, op, frame, deps):
    ref = _get(op, frame, "memref")
    dims = tuple(_int(frame.get(v)) for v in op.operand_group("dims"))
    return _finish(host, op, deps, [DnTensor(ref, dims)])


@_sparse_op("gpu.destroy_dn_tensor", "gpu.destroy_sp_mat", "gpu.spgemm_destroy_descr")
def _destroy(host, op, frame, deps):
    handle = frame.get(op.operands[-1])
    handle.destroyed = True
    return _finish(host, op, deps, [])


def _shape(op, frame, a: str = "rows", b: str = "cols") -> tuple:
    return (_int(_get(op, frame, a)), _int(_get(op, frame, b)))


@_sparse_op("gpu.create_coo")
def _create_coo(host, op, frame, deps):
    m = SpMat("coo", _shape(op, frame), _int(_get(op, frame, "nnz")),
              {"rowIdxs": _get(op, frame, "rowIdxs"), "colIdxs": _get(op, frame, "colIdxs"),
               "values": _get(op, frame, "values")})
    return _finish(host, op, deps, [m])


@_sparse_op("gpu.create_coo_aos")
def _create_coo_aos(host, op, frame, deps):
    m = SpMat("coo_aos", _shape(op, frame), _int(_get(op, frame, "nnz")),
              {"idxs": _get(op, frame, "idxs"), "values": _get(op, frame, "values")})
    return _finish(host, op, deps, [m])


@_sparse_op("gpu.create_csr")
def _create_csr(host, op, frame, deps):
    m = SpMat("csr", _shape(op, frame), _int(_get(op, frame, "nnz")),
              {"pos": _get(op, frame, "rowPos"), "idx": _get(op, frame, "colIdxs"),
               "values": _get(op, frame, "values")})
    return _finish(host, op, deps, [m])


@_sparse_op("gpu.create_csc")
def _create_csc(host, op, frame, deps):
    m = SpMat("csc", _shape(op, frame), _int(_get(op, frame, "nnz")),
              {"pos": _get(op, frame, "colPos"), "idx": _get(op, frame, "rowIdxs"),
               "values": _get(op, frame, "values")})
    return _finish(host, op, deps, [m])


@_sparse_op("gpu.create_bsr")
def _create_bsr(host, op, frame, deps):
    m = SpMat("bsr", _shape(op, frame, "brows", "bcols"), _int(_get(op, frame, "bnnz")),
              {"pos": _get(op, frame, "bRowPos"), "idx": _get(op, frame, "bColIdxs"),
               "values": _get(op, frame, "values")},
              (_int(_get(op, frame, "rBlockSize")), _int(_get(op, frame, "cBlockSize"))))
    return _finish(host, op, deps, [m])


def prune_2to4(dense: np.ndarray) -> np.ndarray:
    """Keep, in every row, the 2 largest-magnitude elements of each 4 consecutive ones."""
    rows, cols = dense.shape
    if cols % 4:
        raise LaneFault(f"2:4 sparsity needs a column count divisible by 4, got {cols}",
                        kind=UnsupportedError)
    groups = dense.reshape(rows, cols // 4, 4)
    order = np.argsort(-np.abs(groups.astype(np.float64)), axis=-1, kind="stable")
    keep = np.zeros(groups.shape, dtype=bool)
    np.put_along_axis(keep, order[..., :2], True, axis=-1)
    return np.where(keep, groups, 0).reshape(rows, cols).astype(dense.dtype)


@_sparse_op("gpu.create_2to4_spmat")
def _create_2to4(host, op, frame, deps):
    ref = _get(op, frame, "memref")
    shape = _shape(op, frame)
    flag = str(getattr(op.attributes.get("pruneFlag"), "keyword",
                       op.attributes.get("pruneFlag"))).upper()
    dense = DnTensor(ref, shape).view()     # (in place: pruning writes through it)
    pruned = prune_2to4(dense)
    if "PRUNE" in flag:
        dense[...] = pruned
    elif not np.array_equal(pruned, dense):
        raise LaneFault("create_2to4_spmat {NONE}: the matrix is not 2:4 sparse",
                        kind=UnsupportedError)
    m = SpMat("dense24", shape, int(np.count_nonzero(pruned)), {"dense": pruned, "ref": ref})
    return _finish(host, op, deps, [m], [ref.buffer] if "PRUNE" in flag else [])


def _size(host, op) -> list:
    return [host.root.uniform(64, np.int64)]


@_sparse_op("gpu.spmv_buffer_size", "gpu.sddmm_buffer_size")
def _buffer_size(host, op, frame, deps):
    return _finish(host, op, deps, _size(host, op))


@_sparse_op("gpu.spmm_buffer_size")
def _spmm_buffer_size(host, op, frame, deps):
    n = len([r for r in op.results if str(r.type) == "index"])
    return _finish(host, op, deps, _size(host, op) * n)


def _vector_view(t: DnTensor, name: str) -> np.ndarray:
    """A dense vector operand (``create_dn_tensor`` with one dimension: cuSPARSE's DnVec)."""
    if len(t.dims) != 1:
        raise LaneFault(f"{name} must be a dense vector (one dimension), got "
                        f"dimensions {'x'.join(map(str, t.dims))}", kind=UnsupportedError)
    return t.view()


def _matrix_view(t: DnTensor, name: str) -> np.ndarray:
    """A dense matrix operand (``create_dn_tensor`` with two dimensions: a row-major DnMat)."""
    if len(t.dims) != 2:
        raise LaneFault(f"{name} must be a dense matrix (two dimensions), got "
                        f"dimensions {'x'.join(map(str, t.dims))}", kind=UnsupportedError)
    return t.view()


def _round_into(target: np.ndarray, value: np.ndarray) -> None:
    with np.errstate(all="ignore"):
        target[...] = np.asarray(value).astype(target.dtype)


@_sparse_op("gpu.spmv")
def _spmv(host, op, frame, deps):
    a = _get(op, frame, "spmatA").scipy()
    if _mode(op, "modeA"):
        a = a.T
    x = _get(op, frame, "dnX")
    y = _get(op, frame, "dnY")
    yv = _vector_view(y, "y")
    xv = _vector_view(x, "x").astype(np.float64)
    _check_shapes(op, "op(A)", a.shape, "x", (xv.size,), "y", (yv.size,))
    _round_into(yv, a @ xv + yv.astype(np.float64))
    return _finish(host, op, deps, [], [y.ref.buffer])


@_sparse_op("gpu.spmm")
def _spmm(host, op, frame, deps):
    a = _get(op, frame, "spmatA").scipy()
    if _mode(op, "modeA"):
        a = a.T
    b = _matrix_view(_get(op, frame, "dnmatB"), "B").astype(np.float64)
    if _mode(op, "modeB"):
        b = b.T
    c = _get(op, frame, "dnmatC")
    cv = _matrix_view(c, "C")
    _check_shapes(op, "op(A)", a.shape, "op(B)", b.shape, "C", cv.shape)
    _round_into(cv, a @ b + cv.astype(np.float64))
    return _finish(host, op, deps, [], [c.ref.buffer])


@_sparse_op("gpu.sddmm")
def _sddmm(host, op, frame, deps):
    a = _matrix_view(_get(op, frame, "dnmatA"), "A").astype(np.float64)
    b = _matrix_view(_get(op, frame, "dnmatB"), "B").astype(np.float64)
    if _mode(op, "modeA"):
        a = a.T
    if _mode(op, "modeB"):
        b = b.T
    cmat = _get(op, frame, "spmatC")
    _check_shapes(op, "op(A)", a.shape, "op(B)", b.shape, "C", cmat.shape)
    cmat.scipy()                    # (validates C's arrays)
    # the stored entries of C in its own storage order
    rows, cols = _stored_coordinates(cmat)
    dots = np.einsum("ij,ji->i", a[rows], b[:, cols])
    vals = cmat.values()
    _round_into(vals[:rows.size], dots + vals[:rows.size].astype(np.float64))
    return _finish(host, op, deps, [], [cmat.arrays["values"].buffer])


def _stored_coordinates(m: SpMat) -> tuple:
    """Row and column of each stored entry of ``m``, in storage order (the arrays were
    validated by :meth:`SpMat.scipy`)."""
    nnz = m.nnz
    if m.fmt in ("csr", "csc"):
        outer = m.shape[0] if m.fmt == "csr" else m.shape[1]
        pos = _leading(m.arrays["pos"], outer + 1, "the position array").astype(np.int64)
        inner = _leading(m.arrays["idx"], nnz, "the index array")[:pos[-1]]
        major = np.repeat(np.arange(outer), np.diff(pos))
        return (major, inner) if m.fmt == "csr" else (inner, major)
    if m.fmt == "coo":
        return (_leading(m.arrays["rowIdxs"], nnz, "the row index array"),
                _leading(m.arrays["colIdxs"], nnz, "the column index array"))
    if m.fmt == "coo_aos":
        ij = _leading(m.arrays["idxs"], 2 * nnz, "the index array").reshape(nnz, 2)
        return ij[:, 0], ij[:, 1]
    raise LaneFault(f"sddmm into a {m.fmt} matrix", kind=UnsupportedError)


def _check_shapes(op: Operation, a_name: str, a: tuple, b_name: str, b: tuple, c_name: str,
                  c: tuple) -> None:
    """``c = a @ b`` must be shape-consistent (vectors as 1-d shapes)."""
    inner_ok = a[1] == b[0]
    rows_ok = a[0] == c[0]
    cols_ok = len(b) == 1 or len(c) > 1 and b[1] == c[1]
    if not (inner_ok and rows_ok and cols_ok):
        raise LaneFault(f"{op.name}: shapes do not match: {a_name} is {'x'.join(map(str, a))}, "
                        f"{b_name} is {'x'.join(map(str, b))}, {c_name} is "
                        f"{'x'.join(map(str, c))}", kind=UnsupportedError)


class SpGEMMDescr:
    """An SpGEMM operation handle (it carries nothing: the product lives on matrix C)."""

    destroyed = False


@_sparse_op("gpu.spgemm_create_descr")
def _spgemm_create(host, op, frame, deps):
    return _finish(host, op, deps, [SpGEMMDescr()])


@_sparse_op("gpu.spgemm_work_estimation_or_compute")
def _spgemm_work(host, op, frame, deps):
    a = _get(op, frame, "spmatA")
    b = _get(op, frame, "spmatB")
    c = _get(op, frame, "spmatC")
    kind = str(getattr(op.attributes.get("kind"), "keyword", op.attributes.get("kind")))
    am, bm = a.scipy(), b.scipy()
    if _mode(op, "modeA"):
        am = am.T
    if _mode(op, "modeB"):
        bm = bm.T
    _check_shapes(op, "op(A)", am.shape, "op(B)", bm.shape, "C", c.shape)
    if "COMPUTE" in kind.upper():
        prod = (am @ bm).tocsr()
        prod.sort_indices()
        c.product = prod
    return _finish(host, op, deps, [host.root.uniform(64, np.int64)])


@_sparse_op("gpu.spmat_get_size")
def _spmat_get_size(host, op, frame, deps):
    m = _get(op, frame, "spmat")
    if m.product is not None:
        rows, cols = m.product.shape
        nnz = m.product.nnz
    else:
        (rows, cols), nnz = m.shape, m.nnz
    u = host.root.uniform
    return _finish(host, op, deps, [u(rows, np.int64), u(cols, np.int64), u(nnz, np.int64)])


@_sparse_op("gpu.set_csr_pointers")
def _set_csr_pointers(host, op, frame, deps):
    m = _get(op, frame, "spmat")
    m.fmt = "csr"
    m.arrays = {"pos": _get(op, frame, "positions"), "idx": _get(op, frame, "coordinates"),
                "values": _get(op, frame, "values")}
    if m.product is not None:
        m.shape, m.nnz = m.product.shape, m.product.nnz
    return _finish(host, op, deps, [])


@_sparse_op("gpu.spgemm_copy")
def _spgemm_copy(host, op, frame, deps):
    c = _get(op, frame, "spmatC")
    prod = c.product
    if prod is None:
        raise LaneFault("spgemm_copy before spgemm_work_estimation_or_compute COMPUTE",
                        kind=UnsupportedError)
    pos = _array(c.arrays["pos"]).reshape(-1)
    idx = _array(c.arrays["idx"]).reshape(-1)
    vals = c.values()
    if pos.size < prod.shape[0] + 1 or idx.size < prod.nnz or vals.size < prod.nnz:
        raise LaneFault(f"spgemm_copy: C's arrays are too small for {prod.nnz} nonzeros",
                        kind=MemoryAccessError)
    pos[:prod.shape[0] + 1] = prod.indptr
    idx[:prod.nnz] = prod.indices
    _round_into(vals[:prod.nnz], prod.data)
    c.nnz = prod.nnz
    return _finish(host, op, deps, [], c.buffers())
