"""Pattern rewriting: a :class:`Rewriter` that edits IR and tells a listener what changed, the
:class:`Pattern` base class, and helpers every pattern needs (constants, liveness).

The greedy driver (:mod:`.greedy`) listens to the rewriter so that ops a pattern creates,
changes or frees are looked at again.  Patterns only edit IR through the rewriter.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Optional, Sequence

from ..dialects.cuda_tile.builder import Builder
from ..ir.core import Block, Operation, Region, Value
from ..ir.locations import Location
from ..ir.traits import Pure

__all__ = ["Rewriter", "Listener", "Pattern", "op_pattern", "is_trivially_dead", "is_pure",
           "defining_op", "TERMINATORS", "clone_op", "walk_postorder"]

#: cuda_tile's terminators: yield ends an if/reduce body, the others leave a loop or function.
TERMINATORS = frozenset({"cuda_tile.yield", "cuda_tile.continue", "cuda_tile.break",
                         "cuda_tile.return"})


class Listener:
    """What the rewriter reports; the greedy driver overrides these."""

    def op_inserted(self, op: Operation) -> None:
        """``op`` was created or moved to a new place."""

    def op_modified(self, op: Operation) -> None:
        """An operand, attribute or region of ``op`` changed in place."""

    def op_erased(self, op: Operation) -> None:
        """``op`` is about to be erased (its operands are still attached)."""


class Rewriter:
    """Edits IR and reports each edit to ``listener``.  ``root`` is any op with a region; it
    only anchors the op builder."""

    def __init__(self, root: Operation, listener: Optional[Listener] = None) -> None:
        self.listener = listener or Listener()
        self._builder = Builder(root)

    # -- creation ------------------------------------------------------------------------------

    def create(self, op_name: str, *operands: Any, before: Operation,
               loc: Optional[Location] = None, **kwargs: Any) -> Operation:
        """Create ``op_name`` (as :meth:`tileir.ir.builder.Builder.create`) before ``before``."""
        block = before.parent
        assert block is not None, "insertion anchor is not in a block"
        with self._builder.at(block, block.ops.index(before)):
            op = self._builder.create(op_name, *operands,
                                      loc=loc if loc is not None else before.loc, **kwargs)
        self.listener.op_inserted(op)
        return op

    def create_at_end(self, op_name: str, *operands: Any, block: Block, loc: Location,
                      **kwargs: Any) -> Operation:
        """Create ``op_name`` at the end of ``block``."""
        with self._builder.at(block):
            op = self._builder.create(op_name, *operands, loc=loc, **kwargs)
        self.listener.op_inserted(op)
        return op

    def insert_before(self, op: Operation, anchor: Operation) -> None:
        """Insert a detached ``op`` (e.g. a fresh clone) before ``anchor``."""
        anchor.parent.insert_before(anchor, op)
        self.listener.op_inserted(op)

    # -- replacement and erasure ----------------------------------------------------------------

    def replace_all_uses(self, old: Value, new: Value) -> None:
        """Make every user of ``old`` use ``new``."""
        if old is new:
            return
        for user, index in list(old.uses):
            user.set_operand(index, new)
            self.listener.op_modified(user)

    def replace_op(self, op: Operation, values: Sequence[Value]) -> None:
        """Replace each result of ``op`` with ``values`` and erase ``op``."""
        assert len(values) == len(op.results), "replacement count differs from result count"
        for old, new in zip(op.results, values):
            self.replace_all_uses(old, new)
        self.erase_op(op)

    def erase_op(self, op: Operation) -> None:
        """Erase ``op`` and everything nested in it (its results must be unused by then, or be
        used only by ops erased with it)."""
        nested = list(op.walk(include_self=True))
        for inner in reversed(nested):
            self.listener.op_erased(inner)
        for inner in nested:
            inner.drop_operand_uses()
        if op.parent is not None:
            op.parent.ops.remove(op)
            op.parent = None

    def set_operand(self, op: Operation, index: int, value: Value) -> None:
        op.set_operand(index, value)
        self.listener.op_modified(op)

    def modified(self, op: Operation) -> None:
        """Report an in-place change made directly on ``op``."""
        self.listener.op_modified(op)

    # -- moving code ---------------------------------------------------------------------------

    def move_before(self, op: Operation, anchor: Operation) -> None:
        """Move ``op`` (attached anywhere) right before ``anchor``."""
        if op.parent is not None:
            op.parent.ops.remove(op)
        anchor.parent.insert_before(anchor, op)
        self.listener.op_inserted(op)

    def inline_block_before(self, block: Block, anchor: Operation) -> None:
        """Move every op of ``block`` (which has no arguments) before ``anchor``."""
        for op in list(block.ops):
            self.move_before(op, anchor)

    def append_block_ops(self, source: Block, dest: Block) -> None:
        """Move every op of ``source`` to the end of ``dest`` (MLIR's mergeBlocks)."""
        for op in list(source.ops):
            source.ops.remove(op)
            dest.append(op)
            self.listener.op_inserted(op)

    def take_region_body(self, source: Region, dest: Region) -> None:
        """Move the blocks of ``source`` into the empty ``dest``."""
        for block in source.blocks:
            dest.append_block(block)
        source.blocks = []
        for block in dest.blocks:
            for op in block.ops:
                self.listener.op_inserted(op)


# ------------------------------------------------------------------------------------------------
# patterns


class Pattern:
    """A rewrite of ops named ``ROOT`` (a full op name).  ``match_and_rewrite`` returns True
    after changing the IR through ``rewriter``, False (with the IR untouched) otherwise."""

    ROOT: str = ""
    #: patterns of higher benefit are tried first
    BENEFIT: int = 1

    def match_and_rewrite(self, op: Operation, rewriter: Rewriter) -> bool:
        raise NotImplementedError

    @property
    def name(self) -> str:
        return type(self).__name__


class _FunctionPattern(Pattern):
    def __init__(self, root: str, fn: Callable[[Operation, Rewriter], bool],
                 benefit: int) -> None:
        self.ROOT = root
        self.BENEFIT = benefit
        self._fn = fn

    def match_and_rewrite(self, op: Operation, rewriter: Rewriter) -> bool:
        return self._fn(op, rewriter)

    @property
    def name(self) -> str:
        return self._fn.__name__


def op_pattern(root: str, benefit: int = 1) -> Callable[[Callable], Pattern]:
    """Turn ``fn(op, rewriter) -> bool`` into a :class:`Pattern` for ops named ``root``."""
    def wrap(fn: Callable[[Operation, Rewriter], bool]) -> Pattern:
        return _FunctionPattern(root, fn, benefit)
    return wrap


# ------------------------------------------------------------------------------------------------
# queries


def defining_op(value: Value, name: Optional[str] = None) -> Optional[Operation]:
    """The op defining ``value`` (None for block arguments), optionally only if named ``name``."""
    owner = getattr(value, "owner", None)
    if not isinstance(owner, Operation):
        return None
    if name is not None and owner.name != name:
        return None
    return owner


def is_pure(op: Operation) -> bool:
    """A registered op without effects that is not a terminator."""
    spec = op.SPEC
    return spec is not None and Pure in spec.traits and op.name not in TERMINATORS


def _only_local_effects(op: Operation) -> bool:
    """``op`` (an if/for) has no effect other than its results: everything inside it is pure,
    and its terminators only yield to it or continue a loop nested in it."""
    for inner in op.walk(include_self=False):
        if is_pure(inner):
            continue
        if inner.name == "cuda_tile.yield":
            continue
        if inner.name == "cuda_tile.continue" and inner.parent_op is not None and \
                inner.parent_op.name == "cuda_tile.for" and inner.parent_op is not op and \
                _inside(inner.parent_op, op):
            continue
        if inner.name in ("cuda_tile.if", "cuda_tile.for"):
            continue
        return False
    return True


def _inside(op: Operation, ancestor: Operation) -> bool:
    return any(a is ancestor for a in op.ancestors())


def is_trivially_dead(op: Operation) -> bool:
    """True when erasing ``op`` changes nothing: no result is used and it has no effects
    (MLIR's isOpTriviallyDead).  ``for`` loops and ``if`` ops whose bodies are pure count."""
    if any(r.uses for r in op.results):
        return False
    if is_pure(op):
        return True
    if op.name in ("cuda_tile.if", "cuda_tile.for"):
        return _only_local_effects(op)
    return False


def walk_postorder(root: Operation) -> Iterable[Operation]:
    """Every op nested in ``root`` (not ``root``), children before their parent."""
    for region in root.regions:
        for block in region.blocks:
            for op in list(block.ops):
                yield from walk_postorder(op)
                yield op


def clone_op(op: Operation, mapping: dict) -> Operation:
    """A detached deep copy of ``op`` (regions included) whose operands are looked up in
    ``mapping`` (Value -> Value, unmapped values kept); the copy's results and block arguments
    are added to ``mapping``."""
    from ..ir.opdef import make_op
    operands = [mapping.get(v, v) for v in op.operands]
    new = make_op(op.name, operands, op.result_types, dict(op.attributes), len(op.regions),
                  op.loc, op.segments)
    for old_r, new_r in zip(op.results, new.results):
        mapping[old_r] = new_r
    for old_region, new_region in zip(op.regions, new.regions):
        for old_block in old_region.blocks:
            block = new_region.add_block()
            for arg in old_block.args:
                mapping[arg] = block.add_argument(arg.type, arg.loc)
            for inner in old_block.ops:
                block.append(clone_op(inner, mapping))
    return new
