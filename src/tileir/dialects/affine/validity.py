"""Which values an affine op may use as a dimension or a symbol (MLIR's ``isValidDim`` /
``isValidSymbol``), and the checks of the affine ops built on them.

A *symbol* (for the region of the closest enclosing affine scope: ``builtin.module``,
``func.func``, ``gpu.func``, ``gpu.launch``, ``llvm.func``) is an ``index`` value that is

* defined at the top level of that region, or an argument of its block;
* the result of a constant op;
* the result of a pure op (``arith.addi``, ``affine.apply``, ``gpu.thread_id``...) all of whose
  operands are symbols;
* the result of a ``memref.dim``/``tensor.dim`` of a value defined at the top level of an affine
  scope, or of a ``memref.alloc``/``view``/``subview`` (through ``memref.cast``) whose size in
  that (constant) dimension is static or a symbol;
* or, where the scope region's op is not isolated from above, a symbol of the region around it.

A *dimension* is a symbol, an induction variable of ``affine.for``/``affine.parallel``, the
result of an ``affine.apply`` of dimensions, or a ``dim`` of a top-level memref/tensor."""

from __future__ import annotations

from typing import Optional, Sequence

from ...ir.core import BlockArgument, OpResult, Operation, Region

__all__ = ["AFFINE_SCOPES", "affine_scope", "is_valid_dim", "is_valid_symbol",
           "dim_symbol_error"]

#: the ops with MLIR's ``AffineScope`` trait (among the dialects tileir knows)
AFFINE_SCOPES = frozenset({"builtin.module", "func.func", "gpu.func", "gpu.launch", "llvm.func"})

#: ops MLIR 22 marks ``Pure`` that tileir's definitions leave unmarked
_ALSO_PURE = frozenset({
    "gpu.thread_id", "gpu.block_id", "gpu.block_dim", "gpu.grid_dim", "gpu.global_id",
    "gpu.lane_id", "gpu.subgroup_id", "gpu.num_subgroups", "gpu.subgroup_size",
    "gpu.cluster_id", "gpu.cluster_dim", "gpu.cluster_block_id", "gpu.cluster_dim_blocks"})
#: ops tileir marks ``Pure`` that MLIR 22 does not (they may divide by zero)
_NOT_PURE = frozenset({"index.divs", "index.divu", "index.ceildivs", "index.ceildivu",
                       "index.floordivs", "index.rems", "index.remu"})
#: arith divisions, speculatable (so pure) when the divisor is a known nonzero constant
#: (and, for the signed ones, not -1)
_UNSIGNED_DIVS = frozenset({"arith.divui", "arith.ceildivui"})
_SIGNED_DIVS = frozenset({"arith.divsi", "arith.ceildivsi", "arith.floordivsi"})
_CONSTANTS = frozenset({"arith.constant", "index.constant", "ub.poison", "llvm.mlir.constant"})
_DIM_OPS = frozenset({"memref.dim", "tensor.dim"})


def _is_index(value) -> bool:
    return str(value.type) == "index"


def _region_of(value) -> Optional[Region]:
    """The region whose block defines ``value``."""
    if isinstance(value, BlockArgument):
        return value.owner.parent
    return value.owner.parent_region


def _isolated(op: Operation) -> bool:
    from ...ir.traits import IsolatedFromAbove
    spec = op.spec
    return spec is not None and spec.has_trait(IsolatedFromAbove)


def affine_scope(op: Operation) -> Optional[Region]:
    """MLIR's ``getAffineScope``: the region, held by an affine scope op, that encloses
    ``op``; None outside any affine scope."""
    cur = op
    while True:
        parent = cur.parent_op
        if parent is None:
            return None
        if parent.name in AFFINE_SCOPES:
            return cur.parent_region
        cur = parent


def _top_level(value) -> bool:
    """MLIR's ``isTopLevelValue``: defined in a block of an affine scope op's region."""
    region = _region_of(value)
    return region is not None and region.parent is not None \
        and region.parent.name in AFFINE_SCOPES


def _induction_var(value) -> bool:
    if not isinstance(value, BlockArgument):
        return False
    region = value.owner.parent
    owner = region.parent if region is not None else None
    if owner is None or not region.blocks or value.owner is not region.blocks[0]:
        return False
    if owner.name == "affine.for":
        return value.index == 0
    return owner.name == "affine.parallel"


def _constant_int(value) -> Optional[int]:
    if isinstance(value, OpResult) and value.owner.name in ("arith.constant",
                                                             "index.constant"):
        v = getattr(value.owner.attributes.get("value"), "value", None)
        return v if isinstance(v, int) else None
    return None


def _pure(op: Operation) -> bool:
    """MLIR's ``isPure`` (speculatable and free of memory effects), as far as tileir's ops
    go."""
    from ...ir.traits import Pure
    name = op.name
    if name in _ALSO_PURE:
        return True
    if name in _NOT_PURE:
        return False
    if name in _UNSIGNED_DIVS or name in _SIGNED_DIVS:
        d = _constant_int(op.operands[1]) if len(op.operands) > 1 else None
        return d is not None and d != 0 and not (name in _SIGNED_DIVS and d == -1)
    spec = op.spec
    return spec is not None and Pure in spec.traits


def _enclosing(region: Optional[Region]) -> Optional[Region]:
    """The region around ``region``'s op when that op is not isolated from above."""
    op = region.parent if region is not None else None
    if op is not None and not _isolated(op):
        return op.parent_region
    return None


def is_valid_symbol(value, region: Optional[Region]) -> bool:
    """MLIR's ``isValidSymbol(value, region)``."""
    if not _is_index(value):
        return False
    if region is not None and _region_of(value) is region:
        return True
    if isinstance(value, OpResult):
        op = value.owner
        if op.name in _CONSTANTS:
            return True
        if _pure(op) and all(is_valid_symbol(v, region) for v in op.operands):
            return True
        if op.name in _DIM_OPS:
            return _dim_valid_symbol(op, region)
    outer = _enclosing(region)
    return outer is not None and is_valid_symbol(value, outer)


def _dim_valid_symbol(dim: Operation, region: Optional[Region]) -> bool:
    source = dim.operands[0]
    if _top_level(source):
        return True
    if isinstance(source, BlockArgument):
        return False
    index = _constant_int(dim.operands[1]) if len(dim.operands) > 1 else None
    if index is None:
        return False
    op = source.owner
    while op.name == "memref.cast":
        inner = op.operands[0]
        if str(inner.type).startswith("memref<*") or not isinstance(inner, OpResult):
            return False
        op = inner.owner
    groups = {"memref.alloc": "dynamicSizes", "memref.view": "sizes", "memref.subview": "sizes"}
    if op.name not in groups:
        return False
    shape = getattr(op.results[0].type, "shape", None)
    if shape is None or not 0 <= index < len(shape):
        return False
    if shape[index] is not None:
        return True
    sizes = op.operand_group(groups[op.name])
    position = sum(1 for d in shape[:index] if d is None)
    return position < len(sizes) and is_valid_symbol(sizes[position], region)


def is_valid_dim(value, region: Optional[Region]) -> bool:
    """MLIR's ``isValidDim(value, region)``."""
    if not _is_index(value):
        return False
    if is_valid_symbol(value, region):
        return True
    if isinstance(value, BlockArgument):
        return _induction_var(value)
    op = value.owner
    if op.name in ("affine.apply", "affine.delinearize_index", "affine.linearize_index"):
        return all(is_valid_dim(v, region) for v in op.operands)
    if op.name in _DIM_OPS:
        return _top_level(op.operands[0])
    return False


def dim_symbol_error(op: Operation, operands: Sequence, n_dims: int) -> Optional[str]:
    """MLIR's ``verifyDimAndSymbolIdentifiers``: the message for the first of ``operands``
    (``n_dims`` dimensions, then symbols) that is not a valid dimension/symbol, else None."""
    region = affine_scope(op)
    for k, value in enumerate(operands):
        if k < n_dims:
            if not is_valid_dim(value, region):
                return "operand cannot be used as a dimension id"
        elif not is_valid_symbol(value, region):
            return "operand cannot be used as a symbol"
    return None
