"""The greedy pattern driver (MLIR's applyPatternsGreedily): a worklist of ops; each op is
erased if dead, else folded, else offered to the patterns rooted at its name, until nothing
changes.  Constants are uniqued per isolated region and kept at the top of its entry block, as
MLIR's OperationFolder does (which is why canonicalized IR lists its constants first).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from ..ir.core import Operation, Region, Value
from ..ir.traits import IsolatedFromAbove
from .rewriter import Listener, Pattern, Rewriter, is_trivially_dead, walk_postorder

__all__ = ["PatternSet", "apply_patterns_greedily", "Folder"]

#: ``fold(op, rewriter)``: None when ``op`` does not fold; else the values replacing its results
#: (``op``'s own results when it was updated in place).
Folder = Callable[[Operation, Rewriter], Optional[Sequence[Value]]]

CONSTANT = "cuda_tile.constant"


@dataclass
class PatternSet:
    """Patterns by root op name (``"*"`` for any op) plus folders by op name."""

    patterns: dict[str, list[Pattern]] = field(default_factory=dict)
    folders: dict[str, Folder] = field(default_factory=dict)

    def add(self, *patterns: Pattern) -> "PatternSet":
        for p in patterns:
            group = self.patterns.setdefault(p.ROOT, [])
            group.append(p)
            group.sort(key=lambda q: -q.BENEFIT)  # stable: equal benefit keeps insertion order
        return self

    def add_folder(self, op_name: str, folder: Folder) -> "PatternSet":
        self.folders[op_name] = folder
        return self

    def merge(self, other: "PatternSet") -> "PatternSet":
        for group in other.patterns.values():
            self.add(*group)
        self.folders.update(other.folders)
        return self

    def for_op(self, name: str) -> list[Pattern]:
        return self.patterns.get(name, []) + self.patterns.get("*", [])


def _insertion_region(op: Operation) -> Optional[Region]:
    """The region constants used by ``op`` are hoisted to: that of the nearest ancestor that is
    isolated from above (or the outermost one)."""
    block = op.parent
    while block is not None and block.parent is not None:
        region = block.parent
        owner = region.parent
        if owner is None or owner.parent is None:
            return region
        spec = owner.SPEC
        if spec is not None and spec.has_trait(IsolatedFromAbove):
            return region
        block = owner.parent
    return None


class _Driver(Listener):
    def __init__(self, root: Operation, patterns: PatternSet, fold: bool,
                 max_iterations: int) -> None:
        self.root = root
        self.patterns = patterns
        self.fold = fold
        self.max_iterations = max_iterations
        self.rewriter = Rewriter(root, self)
        self.worklist: list[Operation] = []
        self.queued: set[int] = set()
        self.erased: set[int] = set()
        self._keep_alive: list[Operation] = []
        #: id(region) -> {(attribute, type): constant op}
        self.constants: dict[int, dict] = {}
        self.owned: dict[int, tuple] = {}
        self.changed = False

    # -- listener ------------------------------------------------------------------------------

    def push(self, op: Operation) -> None:
        if id(op) in self.queued or id(op) in self.erased:
            return
        self.queued.add(id(op))
        self.worklist.append(op)

    def op_inserted(self, op: Operation) -> None:
        self.changed = True
        self.push(op)

    def op_modified(self, op: Operation) -> None:
        self.changed = True
        self.push(op)

    def op_erased(self, op: Operation) -> None:
        self.changed = True
        self.erased.add(id(op))
        self._keep_alive.append(op)
        key = self.owned.pop(id(op), None)
        if key is not None:
            region_id, const_key = key
            self.constants.get(region_id, {}).pop(const_key, None)
        for v in op.operands:
            owner = getattr(v, "owner", None)
            if isinstance(owner, Operation):
                self.push(owner)

    # -- constants -----------------------------------------------------------------------------

    def unique_constant(self, op: Operation) -> bool:
        """Register constant ``op``; returns False when it was replaced by an equal constant."""
        region = _insertion_region(op)
        if region is None or not region.blocks:
            return True
        top = region.blocks[0]
        if id(op) in self.owned:
            if top.ops and top.ops[0] is not op and not self._owned_before(op):
                self._move_to_front(op, top)
            return True
        key = (op.attributes.get("value"), op.results[0].type)
        table = self.constants.setdefault(id(region), {})
        existing = table.get(key)
        if existing is not None and existing is not op:
            self.rewriter.replace_op(op, existing.results)
            return False
        if op.parent is not top or (top.ops[0] is not op and not self._owned_before(op)):
            self._move_to_front(op, top)
        table[key] = op
        self.owned[id(op)] = (id(region), key)
        return True

    def _owned_before(self, op: Operation) -> bool:
        block = op.parent
        index = block.ops.index(op)
        return index > 0 and id(block.ops[index - 1]) in self.owned

    def _move_to_front(self, op: Operation, block) -> None:
        op.parent.ops.remove(op)
        block.insert(0, op)
        self.changed = True

    # -- driving -------------------------------------------------------------------------------

    def run(self) -> bool:
        any_change = False
        for _ in range(self.max_iterations):
            self.worklist = []
            self.queued = set()
            self.changed = False
            order = []
            for op in walk_postorder(self.root):
                if op.name == CONSTANT and not self.unique_constant(op):
                    continue
                order.append(op)
            for op in reversed(order):
                self.push(op)
            self.process()
            any_change |= self.changed
            if not self.changed:
                break
        return any_change

    def process(self) -> None:
        rw = self.rewriter
        # a bound on the work of one sweep, so that patterns that undo each other cannot hang
        # the driver (MLIR's max-num-rewrites; the sweep just stops unconverged)
        budget = 64 * (len(self.worklist) + 64)
        while self.worklist and budget > 0:
            budget -= 1
            op = self.worklist.pop()
            self.queued.discard(id(op))
            if id(op) in self.erased or op.parent is None:
                continue
            if is_trivially_dead(op):
                rw.erase_op(op)
                continue
            if self.fold and op.name != CONSTANT:
                folder = self.patterns.folders.get(op.name)
                if folder is not None:
                    values = folder(op, rw)
                    if values is not None:
                        if list(values) == list(op.results):
                            rw.modified(op)
                        else:
                            rw.replace_op(op, list(values))
                        continue
            for pattern in self.patterns.for_op(op.name):
                if pattern.match_and_rewrite(op, rw):
                    self.changed = True
                    break


def apply_patterns_greedily(root: Operation, patterns: PatternSet, *, fold: bool = True,
                            max_iterations: int = 10) -> bool:
    """Rewrite everything nested in ``root`` with ``patterns`` until a fixed point (or
    ``max_iterations`` sweeps); returns whether anything changed."""
    return _Driver(root, patterns, fold, max_iterations).run()
