"""The IR data structures: values with use-lists, operations, blocks and regions.

An operation of a registered op is an instance of that op's class (see :mod:`tileir.ir.opdef`),
so ``isinstance(op, AddIOp)`` works and named accessors (``op.lhs``) exist; an op the dialect does
not know (allowed with ``allow_unregistered``) is a plain :class:`Operation`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Iterator, Optional, Sequence

from .attributes import Attribute
from .locations import UNKNOWN_LOC, Location
from .types import Type

if TYPE_CHECKING:  # pragma: no cover
    from .opdef import OpSpec

__all__ = ["Value", "OpResult", "BlockArgument", "Operation", "Block", "Region", "IRError"]


class IRError(Exception):
    """Raised for misuse of the IR API (not for invalid user input, which gets diagnostics)."""


class Value:
    """An SSA value: an op result or a block argument.  ``uses`` lists ``(op, operand_index)``."""

    __slots__ = ("type", "uses")

    def __init__(self, type: Type) -> None:
        self.type = type
        self.uses: list[tuple[Operation, int]] = []

    @property
    def owner_op(self) -> Optional["Operation"]:
        """The defining op (for results) or the op owning the block (for block arguments)."""
        raise NotImplementedError

    def replace_all_uses_with(self, other: "Value") -> None:
        """Make every user of this value use ``other`` instead."""
        for op, index in list(self.uses):
            op.set_operand(index, other)

    @property
    def has_uses(self) -> bool:
        return bool(self.uses)

    def users(self) -> list["Operation"]:
        seen: list[Operation] = []
        for op, _ in self.uses:
            if op not in seen:
                seen.append(op)
        return seen


class OpResult(Value):
    """Result ``index`` of operation ``owner``."""

    __slots__ = ("owner", "index")

    def __init__(self, type: Type, owner: "Operation", index: int) -> None:
        self.type = type
        self.uses = []
        self.owner = owner
        self.index = index

    @property
    def owner_op(self) -> "Operation":
        return self.owner

    def __repr__(self) -> str:
        return f"<result #{self.index} of {self.owner.name} : {self.type}>"


class BlockArgument(Value):
    """Argument ``index`` of block ``owner``."""

    __slots__ = ("owner", "index", "loc")

    def __init__(self, type: Type, owner: "Block", index: int,
                 loc: Optional[Location] = None) -> None:
        self.type = type
        self.uses = []
        self.owner = owner
        self.index = index
        self.loc = loc

    @property
    def owner_op(self) -> Optional["Operation"]:
        region = self.owner.parent
        return region.parent if region is not None else None

    def __repr__(self) -> str:
        return f"<block argument #{self.index} : {self.type}>"


class Operation:
    """A generic operation.

    ``attributes`` holds every attribute by name (inherent and discardable); ``segments`` holds the
    operand group sizes for ops with several variadic/optional operand groups (MLIR's
    ``operandSegmentSizes``), else ``None``.
    """

    __slots__ = ("name", "operands", "results", "attributes", "regions", "parent", "loc",
                 "segments", "successors", "properties", "__weakref__")

    #: The op's specification; ``None`` for unregistered ops.
    SPEC: "Optional[OpSpec]" = None

    def __init__(self, name: str, operands: Sequence[Value] = (),
                 result_types: Sequence[Type] = (), attributes: Optional[dict] = None,
                 regions: int | Sequence["Region"] = 0, loc: Location = UNKNOWN_LOC,
                 segments: Optional[Sequence[int]] = None) -> None:
        self.name = name
        self.operands: list[Value] = list(operands)
        for i, v in enumerate(self.operands):
            v.uses.append((self, i))
        self.results: list[OpResult] = [OpResult(t, self, i) for i, t in enumerate(result_types)]
        self.attributes: dict[str, Attribute] = attributes if attributes is not None else {}
        if isinstance(regions, int):
            self.regions: list[Region] = [Region(self) for _ in range(regions)]
        else:
            self.regions = list(regions)
            for r in self.regions:
                r.parent = self
        self.parent: Optional[Block] = None
        self.loc = loc
        self.segments: Optional[tuple[int, ...]] = tuple(segments) if segments is not None else None
        #: the blocks a terminator may branch to (MLIR's successors; cf.br, cf.cond_br...)
        self.successors: list["Block"] = []
        #: an unregistered op's properties (``<{...}>`` in the generic form, a DictionaryAttr);
        #: registered ops keep their inherent attributes in ``attributes``
        self.properties: Optional[Attribute] = None

    # -- identity -----------------------------------------------------------------------------

    @property
    def spec(self) -> "Optional[OpSpec]":
        return self.SPEC

    @property
    def is_registered(self) -> bool:
        return self.SPEC is not None

    @property
    def dialect(self) -> str:
        return self.name.split(".", 1)[0] if "." in self.name else ""

    @property
    def mnemonic(self) -> str:
        return self.name.split(".", 1)[1] if "." in self.name else self.name

    def __repr__(self) -> str:
        return f"<op {self.name} at {id(self):#x}>"

    # -- results and operands -----------------------------------------------------------------

    @property
    def result(self) -> OpResult:
        """The single result (raises if the op does not have exactly one)."""
        if len(self.results) != 1:
            raise IRError(f"{self.name} has {len(self.results)} results, not one")
        return self.results[0]

    @property
    def result_types(self) -> list[Type]:
        return [r.type for r in self.results]

    @property
    def operand_types(self) -> list[Type]:
        return [v.type for v in self.operands]

    def set_operand(self, index: int, value: Value) -> None:
        old = self.operands[index]
        try:
            old.uses.remove((self, index))
        except ValueError:
            pass
        self.operands[index] = value
        value.uses.append((self, index))

    def drop_operand_uses(self) -> None:
        for i, v in enumerate(self.operands):
            try:
                v.uses.remove((self, i))
            except ValueError:
                pass

    def operand_group(self, name: str) -> list[Value]:
        """The operands of the group called ``name`` in the op's spec."""
        spec = self.SPEC
        if spec is None:
            raise IRError(f"unregistered op {self.name} has no named operands")
        start, stop = spec.operand_range(self, name)
        return self.operands[start:stop]

    def result_group(self, name: str) -> list[OpResult]:
        spec = self.SPEC
        if spec is None:
            raise IRError(f"unregistered op {self.name} has no named results")
        start, stop = spec.result_range(self, name)
        return self.results[start:stop]

    def attr(self, name: str, default: Any = None) -> Any:
        return self.attributes.get(name, default)

    # -- structure ----------------------------------------------------------------------------

    @property
    def region(self) -> "Region":
        return self.regions[0]

    @property
    def body(self) -> "Block":
        """The single block of the op's first region."""
        return self.regions[0].blocks[0]

    @property
    def parent_region(self) -> Optional["Region"]:
        return self.parent.parent if self.parent is not None else None

    @property
    def parent_op(self) -> Optional["Operation"]:
        block = self.parent
        if block is None or block.parent is None:
            return None
        return block.parent.parent

    def ancestors(self) -> Iterator["Operation"]:
        op = self.parent_op
        while op is not None:
            yield op
            op = op.parent_op

    def walk(self, include_self: bool = True) -> Iterator["Operation"]:
        """Pre-order walk over this op and every op nested in its regions."""
        if include_self:
            yield self
        for op in _preorder(self):
            yield op

    def erase(self) -> None:
        """Detach this op from its block and drop its operand uses."""
        for nested in list(self.walk(include_self=False)):
            nested.drop_operand_uses()
        self.drop_operand_uses()
        if self.parent is not None:
            self.parent.ops.remove(self)
            self.parent = None

    def clone_attributes(self) -> dict:
        return dict(self.attributes)

    def sole_use_by_next(self) -> Optional[tuple["Operation", int]]:
        """``(user, operand index)`` when this op has one result, used once, by the op right
        after it in the same block; else None."""
        if len(self.results) != 1 or len(self.results[0].uses) != 1 or self.parent is None:
            return None
        user, index = self.results[0].uses[0]
        ops = self.parent.ops
        i = ops.index(self)
        return (user, index) if i + 1 < len(ops) and ops[i + 1] is user else None


def _preorder(root: Operation) -> Iterator[Operation]:
    stack: list[Iterator[Operation]] = [iter(_children(root))]
    while stack:
        try:
            op = next(stack[-1])
        except StopIteration:
            stack.pop()
            continue
        yield op
        if op.regions:
            stack.append(iter(_children(op)))


def _children(op: Operation) -> list[Operation]:
    out: list[Operation] = []
    for region in op.regions:
        for block in region.blocks:
            out.extend(block.ops)
    return out


class Block:
    """A list of operations with block arguments, inside a region."""

    __slots__ = ("args", "ops", "parent", "__weakref__")

    def __init__(self, arg_types: Iterable[Type] = (), parent: Optional["Region"] = None) -> None:
        self.args: list[BlockArgument] = [BlockArgument(t, self, i) for i, t in enumerate(arg_types)]
        self.ops: list[Operation] = []
        self.parent = parent

    def add_argument(self, type: Type, loc: Optional[Location] = None) -> BlockArgument:
        arg = BlockArgument(type, self, len(self.args), loc)
        self.args.append(arg)
        return arg

    def append(self, op: Operation) -> Operation:
        op.parent = self
        self.ops.append(op)
        return op

    def insert(self, index: int, op: Operation) -> Operation:
        op.parent = self
        self.ops.insert(index, op)
        return op

    def insert_before(self, anchor: Operation, op: Operation) -> Operation:
        return self.insert(self.ops.index(anchor), op)

    @property
    def terminator(self) -> Optional[Operation]:
        return self.ops[-1] if self.ops else None

    @property
    def parent_op(self) -> Optional[Operation]:
        return self.parent.parent if self.parent is not None else None

    def __iter__(self) -> Iterator[Operation]:
        return iter(self.ops)

    def __len__(self) -> int:
        return len(self.ops)


class Region:
    """A list of blocks owned by an operation (cuda_tile regions have at most one block)."""

    __slots__ = ("blocks", "parent", "__weakref__")

    def __init__(self, parent: Optional[Operation] = None) -> None:
        self.blocks: list[Block] = []
        self.parent = parent

    def add_block(self, arg_types: Iterable[Type] = ()) -> Block:
        block = Block(arg_types, self)
        self.blocks.append(block)
        return block

    def append_block(self, block: Block) -> Block:
        block.parent = self
        self.blocks.append(block)
        return block

    @property
    def block(self) -> Block:
        """The single block (raises if the region is empty)."""
        if not self.blocks:
            raise IRError("region has no block")
        return self.blocks[0]

    @property
    def empty(self) -> bool:
        return not self.blocks

    def __iter__(self) -> Iterator[Block]:
        return iter(self.blocks)
