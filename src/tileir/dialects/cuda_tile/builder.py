"""Build Tile IR from Python, with the result types the op definitions imply.

Example::

    import numpy as np
    from tileir.ir.builder import Builder

    b = Builder()                                   # a cuda_tile.module @kernels
    with b.entry("vadd", ["tile<ptr<f32>>"] * 3) as (a, x, out):
        bid, _, _ = b.get_tile_block_id()
        tv = b.make_tensor_view(a, shape=[1024], strides=[1])
        pv = b.make_partition_view(tv, tile=[128])
        t, tok = b.load_view_tko(pv, [bid])
        s = b.addf(t, t)                            # result type inferred: tile<128xf32>
        c = b.constant(np.arange(128, dtype=np.float32), "f32")
        ...
    print(tileir.print(b.module))

Every registered op is available as a method named after its mnemonic (``b.addi``,
``b.load_ptr_tko``, ``b.cmpf``...): positional arguments fill the op's operand groups in order (a
list for a variadic group, ``None`` for an absent optional one), keywords name operand groups or
attributes.  Attribute values may be plain Python values (``signedness="signed"``,
``flush_to_zero=True``, ``dim=0``, ``permutation=[1, 0]``, ``optimization_hints={"sm_100":
{"latency": 3}}``, ``predicate="div_by<16>"``).  Result types are inferred as the parser infers
them (traits such as ``AllTypesMatch`` and ``TypesMatchWith``, buildable types such as
``token``, op hooks); where the spec leaves a result type free, pass ``result_type=`` (a type,
its text, or just an element type, which keeps the first operand's shape).

Ops with regions or custom syntax have helpers: :meth:`Builder.entry`, :meth:`Builder.if_`,
:meth:`Builder.for_`, :meth:`Builder.loop`, :meth:`Builder.reduce`, :meth:`Builder.scan`,
:meth:`Builder.constant`, :meth:`Builder.global_`, :meth:`Builder.make_tensor_view`, the
``make_*_view`` ops, :meth:`Builder.load_view_tko`, :meth:`Builder.get_tensor_shape`, ...
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator, Optional, Sequence, Union

import numpy as np

from .attributes import (UNIT, ArrayAttr, Attribute, AssumePredicate, DenseArrayAttr,
                         DenseElementsAttr, DictionaryAttr, FloatAttr, IntegerAttr,
                         OptimizationHintsAttr, PaddingValue, StringAttr, SymbolRefAttr, TileEnum,
                         TypeAttr)
from ...ir.locations import UNKNOWN_LOC, Location
from .types import (ELEMENT_TYPES, I1, I32, I64, ElementType, FunctionType, GatherScatterViewType,
                    PartitionViewType, PointerType, StridedViewType, TensorViewType, TileType,
                    TileViewType, Type)
from ...ir.core import Block, IRError, Operation, Region, Value
from ...ir.infer import TypeState, infer_types
from ...ir.opdef import OPTIONAL, OP_REGISTRY, SINGLE, VARIADIC, Attr, OpSpec, make_op

__all__ = ["Builder", "to_type", "to_attribute", "InsertionPoint"]

TypeLike = Union[Type, str]


def to_type(t: TypeLike) -> Type:
    """A type, or its text (``"tile<4xf32>"``, ``"f32"``, ``"!cuda_tile.token"``)."""
    if isinstance(t, Type):
        return t
    if isinstance(t, str):
        el = ELEMENT_TYPES.get(t)
        if el is not None:
            return el
        from ...text.parser import parse_type
        return parse_type(t)
    raise TypeError(f"expected a type or its text, got {t!r}")


def _hints(value: Any) -> OptimizationHintsAttr:
    if isinstance(value, OptimizationHintsAttr):
        return value
    entries = []
    for arch, params in dict(value).items():
        if isinstance(params, DictionaryAttr):
            entries.append((arch, params))
            continue
        items = {}
        for k, v in dict(params).items():
            items[k] = _scalar_attr(v)
        entries.append((arch, DictionaryAttr.of(items)))
    return OptimizationHintsAttr(tuple(sorted(entries, key=lambda kv: kv[0])))


def _scalar_attr(v: Any) -> Attribute:
    if isinstance(v, Attribute):
        return v
    if isinstance(v, bool):
        return IntegerAttr(1 if v else 0, I1)
    if isinstance(v, int):
        return IntegerAttr(v, I64)
    if isinstance(v, float):
        return FloatAttr(v, ELEMENT_TYPES["f64"])
    if isinstance(v, str):
        return StringAttr(v)
    raise TypeError(f"cannot turn {v!r} into an attribute")


def to_attribute(decl: Attr, value: Any) -> Optional[Attribute]:
    """Convert a Python value for the attribute declared as ``decl`` (None: leave it out)."""
    if value is None:
        return None
    enum = decl.enum
    if enum is not None:
        if isinstance(value, enum):
            return value
        if isinstance(value, str):
            member = enum.from_keyword(value)
            if member is None:
                raise ValueError(f"{decl.name}: {value!r} is not one of "
                                 f"{', '.join(enum.keywords())}")
            return member
        return enum(int(value))
    kind = decl.kind
    if isinstance(value, Attribute) and not isinstance(value, TileEnum):
        return value
    if kind == "unit":
        return UNIT if value else None
    if kind in ("i64", "i32"):
        return IntegerAttr(int(value), I64 if kind == "i64" else I32)
    if kind == "bool":
        return IntegerAttr(1 if value else 0, I1)
    if kind in ("str", "symbol"):
        return StringAttr(str(value))
    if kind == "flat_symbol":
        return SymbolRefAttr(str(value).lstrip("@"))
    if kind in ("array_i32", "array_i64"):
        return DenseArrayAttr(kind[-3:], tuple(int(v) for v in value))
    if kind == "array_i1":
        return DenseArrayAttr("i1", tuple(bool(v) for v in value))
    if kind == "hints":
        return _hints(value)
    if kind in ("type", "function_type"):
        return TypeAttr(to_type(value))
    if kind == "predicate" and isinstance(value, str):
        from ...text.parser import parse_attribute
        text = value if value.startswith("#") else "#cuda_tile." + value
        attr = parse_attribute(text)
        if not isinstance(attr, AssumePredicate):
            raise ValueError(f"not an assume predicate: {value!r}")
        return attr
    if isinstance(value, str):
        from ...text.parser import parse_attribute
        return parse_attribute(value)
    if isinstance(value, (list, tuple)):
        return ArrayAttr(tuple(_scalar_attr(v) for v in value))
    return _scalar_attr(value)


class InsertionPoint:
    """Where new ops go: the end of ``block``, or before index ``index``."""

    __slots__ = ("block", "index")

    def __init__(self, block: Block, index: Optional[int] = None) -> None:
        self.block = block
        self.index = index

    def insert(self, op: Operation) -> None:
        if self.index is None:
            self.block.append(op)
        else:
            self.block.insert(self.index, op)
            self.index += 1


class _Branch:
    """An ``if`` under construction: ``with ifb.then_(): ...`` / ``with ifb.else_(): ...``."""

    def __init__(self, builder: "Builder", op: Operation) -> None:
        self._b = builder
        self.op = op

    @property
    def results(self) -> list:
        return list(self.op.results)

    @contextlib.contextmanager
    def then_(self) -> Iterator[Block]:
        with self._b._region_body(self.op.regions[0], "cuda_tile.yield") as block:
            yield block

    @contextlib.contextmanager
    def else_(self) -> Iterator[Block]:
        with self._b._region_body(self.op.regions[1], "cuda_tile.yield") as block:
            yield block


class _Loop:
    """A ``for``/``loop`` under construction; ``results`` are the op's results."""

    def __init__(self, op: Operation) -> None:
        self.op = op

    @property
    def results(self) -> list:
        return list(self.op.results)

    @property
    def result(self):
        return self.op.result


class Builder:
    """Creates ops at an insertion point (by default the end of a fresh module's body)."""

    def __init__(self, module: Optional[Operation] = None, *, name: str = "kernels",
                 loc: Location = UNKNOWN_LOC) -> None:
        if module is None:
            module = make_op("cuda_tile.module", attributes={"sym_name": StringAttr(name)},
                             regions=1, loc=loc)
            module.regions[0].add_block()
        self.module = module
        self.loc = loc
        body = module.regions[0]
        if not body.blocks:
            body.add_block()
        self._points: list[InsertionPoint] = [InsertionPoint(body.blocks[0])]
        self.last_op: Optional[Operation] = None

    # -- insertion points ---------------------------------------------------------------------

    @property
    def insertion_point(self) -> InsertionPoint:
        return self._points[-1]

    @property
    def block(self) -> Block:
        return self._points[-1].block

    @contextlib.contextmanager
    def at(self, block: Block, index: Optional[int] = None) -> Iterator[Block]:
        """Insert into ``block`` (at its end, or before op ``index``) inside the ``with``."""
        self._points.append(InsertionPoint(block, index))
        try:
            yield block
        finally:
            self._points.pop()

    @contextlib.contextmanager
    def location(self, loc: Location) -> Iterator[None]:
        """Give the ops created inside the ``with`` the location ``loc``."""
        old = self.loc
        self.loc = loc
        try:
            yield
        finally:
            self.loc = old

    def insert(self, op: Operation) -> Operation:
        self._points[-1].insert(op)
        self.last_op = op
        return op

    # -- generic creation ----------------------------------------------------------------------

    def create(self, op_name: str, /, *operands: Any,
               result_types: Optional[Sequence[TypeLike]] = None,
               result_type: Optional[TypeLike] = None, regions: int | Sequence[Region] = 0,
               loc: Optional[Location] = None, **kwargs: Any) -> Operation:
        """Create op ``op_name`` (``"addi"`` or ``"cuda_tile.addi"``) and insert it."""
        spec = _lookup(op_name)
        state = TypeState(spec)
        groups: dict[str, list] = {}
        given = list(operands)
        for o in spec.operands:
            if o.name in kwargs:
                value = kwargs.pop(o.name)
            elif given:
                value = given.pop(0)
            else:
                value = [] if o.kind == VARIADIC else None
            if o.kind == VARIADIC:
                vals = [] if value is None else (list(value) if isinstance(value, (list, tuple))
                                                 else [value])
            elif value is None:
                if o.kind == SINGLE:
                    raise IRError(f"{spec.name}: missing operand '{o.name}'")
                vals = []
            else:
                vals = [value]
            for v in vals:
                if not isinstance(v, Value):
                    raise IRError(f"{spec.name}: operand '{o.name}' must be a Value, got {v!r}")
            groups[o.name] = vals
            state.operands[o.name] = vals
            state.operand_types[o.name] = [v.type for v in vals]
        if given:
            raise IRError(f"{spec.name}: too many operands")
        attrs: dict[str, Attribute] = {}
        for key, value in kwargs.items():
            decl = spec.attr_by_name.get(key)
            if decl is None:
                # a discardable attribute
                attr = value if isinstance(value, Attribute) else _scalar_attr(value)
            else:
                attr = to_attribute(decl, value)
            if attr is not None:
                attrs[key] = attr
        state.attrs = attrs
        if result_types is not None:
            rtypes = [to_type(t) for t in result_types]
            _assign_results(spec, state, rtypes, groups)
        elif result_type is not None:
            t = to_type(result_type)
            if isinstance(t, ElementType) and spec.results and groups:
                first = next((vs[0] for vs in groups.values() if vs), None)
                if first is not None and isinstance(first.type, TileType):
                    t = first.type.with_element(t)
            _assign_results(spec, state, [t], groups)
        infer_types(state)
        types: list[Type] = []
        for r in spec.results:
            ts = state.result_types.get(r.name)
            if ts is None:
                if r.kind == SINGLE:
                    raise IRError(f"cannot infer the type of result '{r.name}' of {spec.name}; "
                                  "pass result_type=")
                ts = []
            types.extend(ts)
        from ...text.format import fill_default_attributes
        fill_default_attributes(spec, attrs)
        fmt = spec.format
        if fmt is not None:
            for key, value in fmt.implied_defaults.items():
                attrs.setdefault(key, value)
        flat = [v for o in spec.operands for v in groups[o.name]]
        segments = [len(groups[o.name]) for o in spec.operands] if spec.attr_sized_operands \
            else None
        op = make_op(spec.name, flat, types, attrs, regions,
                     loc if loc is not None else self.loc, segments)
        return self.insert(op)

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        spec = OP_REGISTRY.get("cuda_tile." + name.rstrip("_"))
        if spec is None:
            raise AttributeError(f"no op named {name!r}")

        def build(*operands, **kwargs):
            op = self.create(spec.name, *operands, **kwargs)
            return _results(op)
        build.__name__ = name
        build.__doc__ = f"Create ``{spec.name}`` (see :meth:`Builder.create`)."
        return build

    # -- module-level ops ----------------------------------------------------------------------

    @contextlib.contextmanager
    def entry(self, name: str, arg_types: Sequence[TypeLike] = (), *,
              hints: Any = None, loc: Optional[Location] = None,
              op_name: str = "cuda_tile.entry") -> Iterator[list]:
        """``with b.entry("k", ["tile<ptr<f32>>", "tile<i32>"]) as args:`` builds the body of an
        entry (``return`` is added at the end unless the body ends with one)."""
        types = [to_type(t) for t in arg_types]
        attrs: dict = {"sym_name": StringAttr(name),
                       "function_type": TypeAttr(FunctionType(types, [])),
                       "arg_attrs": ArrayAttr(tuple(DictionaryAttr(()) for _ in types))}
        if hints is not None:
            attrs["optimization_hints"] = _hints(hints)
        op = make_op(op_name, attributes=attrs, regions=1,
                     loc=loc if loc is not None else self.loc)
        block = op.regions[0].add_block(types)
        self.insert(op)
        with self._region_body(op.regions[0], "cuda_tile.return"):
            yield list(block.args)

    def global_(self, name: str, value: Any, element: Optional[TypeLike] = None, *,
                constant: bool = False, alignment: Optional[int] = None,
                private: bool = False) -> Operation:
        """``global [private] [constant] @name [alignment = N] <E: values> : tile<NxE>``."""
        attr = value if isinstance(value, DenseElementsAttr) else dense(value, element)
        kwargs: dict = {"sym_name": name, "value": attr}
        if constant:
            kwargs["constant"] = True
        if alignment is not None:
            kwargs["alignment"] = alignment
        if private:
            kwargs["symbol_visibility"] = "private"
        return self.create("cuda_tile.global", **kwargs)

    def get_global(self, name: str, result_type: Optional[TypeLike] = None) -> Value:
        """Pointer to global ``name`` (its type comes from the global's element type)."""
        if result_type is None:
            for op in self.module.walk(include_self=False):
                if op.name == "cuda_tile.global" and op.attributes["sym_name"].value == name:
                    el = op.attributes["value"].type.element
                    result_type = TileType((), PointerType(el))
                    break
            else:
                raise IRError(f"no global named {name!r}")
        return self.create("cuda_tile.get_global", name=name,
                           result_type=result_type).result

    # -- constants -----------------------------------------------------------------------------

    def constant(self, value: Any, type: Optional[TypeLike] = None) -> Value:
        """``constant <E: ...> : tile<...>``.  ``value`` is a number (a splat; ``type`` gives the
        tile type, or just the element type for a 0-D tile), a NumPy array (``type`` its element
        type, or the full tile type) or a :class:`DenseElementsAttr`."""
        attr = value if isinstance(value, DenseElementsAttr) else dense(value, type)
        return self.create("cuda_tile.constant", value=attr, result_type=attr.type).result

    # -- control flow --------------------------------------------------------------------------

    @contextlib.contextmanager
    def _region_body(self, region: Region, terminator: Optional[str]) -> Iterator[Block]:
        if not region.blocks:
            region.add_block()
        block = region.blocks[0]
        with self.at(block):
            yield block
        if terminator is not None:
            last = block.ops[-1] if block.ops else None
            from .directives import _is_terminator
            if last is None or not _is_terminator(last):
                block.append(make_op(terminator, loc=self.loc))

    def if_(self, condition: Value, result_types: Sequence[TypeLike] = (), *,
            with_else: Optional[bool] = None) -> _Branch:
        """An ``if``; fill it with ``with br.then_(): ...`` and ``with br.else_(): ...``
        (``yield`` without values is added where a branch does not end with a terminator).
        The else branch exists when ``with_else`` is true (default: when there are results)."""
        types = [to_type(t) for t in result_types]
        if with_else is None:
            with_else = bool(types)
        op = make_op("cuda_tile.if", [condition], types, {}, 2, self.loc)
        op.regions[0].add_block()
        if with_else:
            op.regions[1].add_block()
        self.insert(op)
        return _Branch(self, op)

    @contextlib.contextmanager
    def for_(self, lower: Value, upper: Value, step: Value, init_values: Sequence[Value] = (),
             *, unsigned: bool = False) -> Iterator[tuple]:
        """``with b.for_(lb, ub, step, [x]) as (iv, (x_iter,), loop):`` builds a ``for``; end
        the body with ``b.continue_(...)`` (added without values if missing).  ``loop.results``
        are the loop's results."""
        inits = list(init_values)
        attrs = {"unsignedCmp": UNIT} if unsigned else {}
        op = make_op("cuda_tile.for", [lower, upper, step, *inits], [v.type for v in inits],
                     attrs, 1, self.loc)
        block = op.regions[0].add_block([lower.type] + [v.type for v in inits])
        self.insert(op)
        with self._region_body(op.regions[0], "cuda_tile.continue"):
            yield block.args[0], tuple(block.args[1:]), _Loop(op)

    @contextlib.contextmanager
    def loop(self, init_values: Sequence[Value] = (),
             result_types: Sequence[TypeLike] = ()) -> Iterator[tuple]:
        """``with b.loop([x], [T]) as (iter_args, loop):`` builds a ``loop``; leave it with
        ``b.break_(...)`` (inside an ``if``) and iterate with ``b.continue_(...)``."""
        inits = list(init_values)
        types = [to_type(t) for t in result_types]
        op = make_op("cuda_tile.loop", inits, types, {}, 1, self.loc)
        block = op.regions[0].add_block([v.type for v in inits])
        self.insert(op)
        with self._region_body(op.regions[0], "cuda_tile.continue"):
            yield tuple(block.args), _Loop(op)

    def yield_(self, *values: Value) -> Operation:
        return self.create("cuda_tile.yield", list(values))

    def continue_(self, *values: Value) -> Operation:
        return self.create("cuda_tile.continue", list(values))

    def break_(self, *values: Value) -> Operation:
        return self.create("cuda_tile.break", list(values))

    def return_(self, *values: Value) -> Operation:
        return self.create("cuda_tile.return", list(values))

    def _aggregate(self, name: str, operands: Sequence[Value], dim: int, identities: Sequence,
                   reduce: bool, extra: dict) -> tuple[Operation, Block]:
        operands = list(operands)
        ids = []
        for v, ident in zip(operands, identities):
            ids.append(ident if isinstance(ident, Attribute) else
                       _identity_attr(ident, v.type.element))
        results = []
        for v in operands:
            t = v.type
            results.append(TileType(tuple(d for i, d in enumerate(t.shape) if i != dim),
                                    t.element) if reduce else t)
        attrs = {"dim": IntegerAttr(int(dim), I32), "identities": ArrayAttr(tuple(ids)),
                 **extra}
        op = make_op(name, operands, results, attrs, 1, self.loc)
        arg_types = []
        for v in operands:
            scalar = TileType((), v.type.element)
            arg_types += [scalar, scalar]
        block = op.regions[0].add_block(arg_types)
        self.insert(op)
        return op, block

    @contextlib.contextmanager
    def reduce(self, operands: Sequence[Value], dim: int,
               identities: Sequence) -> Iterator[tuple]:
        """``with b.reduce([x], 0, [0.0]) as (args, red):`` builds the combiner (``args``
        alternate lhs/rhs per operand); end it with ``b.yield_(...)``.  ``red.results``."""
        op, block = self._aggregate("cuda_tile.reduce", operands, dim, identities, True, {})
        with self._region_body(op.regions[0], None):
            yield tuple(block.args), _Loop(op)

    @contextlib.contextmanager
    def scan(self, operands: Sequence[Value], dim: int, identities: Sequence, *,
             reverse: bool = False) -> Iterator[tuple]:
        """Like :meth:`reduce` for ``scan`` (results have the operands' shapes)."""
        op, block = self._aggregate("cuda_tile.scan", operands, dim, identities, False,
                                    {"reverse": IntegerAttr(1 if reverse else 0, I1)})
        with self._region_body(op.regions[0], None):
            yield tuple(block.args), _Loop(op)

    # -- views ---------------------------------------------------------------------------------

    def make_tensor_view(self, base: Value, shape: Sequence, strides: Sequence, *,
                         index_type: Optional[TypeLike] = None) -> Value:
        """``shape``/``strides`` entries are ints (static) or scalar tile Values (dynamic)."""
        dyn_shape = [d for d in shape if isinstance(d, Value)]
        dyn_strides = [d for d in strides if isinstance(d, Value)]
        el = base.type.element.pointee
        tv = TensorViewType(el, [None if isinstance(d, Value) else int(d) for d in shape],
                            [None if isinstance(d, Value) else int(d) for d in strides])
        if index_type is not None:
            it = to_type(index_type)
            for v in dyn_shape + dyn_strides:
                if v.type != it:
                    raise IRError(f"dynamic extent {v!r} is not of type {it}")
        return self.create("cuda_tile.make_tensor_view", base, dyn_shape, dyn_strides,
                           result_type=tv).result

    def make_partition_view(self, tensor_view: Value, tile: Sequence[int], *,
                            padding_value: Any = None,
                            dim_map: Optional[Sequence[int]] = None) -> Value:
        pad = PaddingValue.from_keyword(padding_value) if isinstance(padding_value, str) \
            else padding_value
        t = PartitionViewType(tile, tensor_view.type, dim_map, pad)
        return self.create("cuda_tile.make_partition_view", tensor_view, result_type=t).result

    def make_strided_view(self, tensor_view: Value, tile: Sequence[int],
                          traversal_strides: Sequence[int], *, padding_value: Any = None,
                          dim_map: Optional[Sequence[int]] = None) -> Value:
        pad = PaddingValue.from_keyword(padding_value) if isinstance(padding_value, str) \
            else padding_value
        t = StridedViewType(tile, traversal_strides, tensor_view.type, dim_map, pad)
        return self.create("cuda_tile.make_strided_view", tensor_view, result_type=t).result

    def make_gather_scatter_view(self, tensor_view: Value, tile: Sequence[int],
                                 sparse_dim: int, *, padding_value: Any = None) -> Value:
        pad = PaddingValue.from_keyword(padding_value) if isinstance(padding_value, str) \
            else padding_value
        t = GatherScatterViewType(tile, tensor_view.type, sparse_dim, pad)
        return self.create("cuda_tile.make_gather_scatter_view", tensor_view,
                           result_type=t).result

    def load_view_tko(self, view: Value, index: Sequence[Value], token: Optional[Value] = None,
                      *, memory_ordering_semantics: Any = "weak", **kwargs) -> tuple:
        """``(tile, token)`` loaded at ``index`` (the tile type comes from the view)."""
        vt = view.type
        if not isinstance(vt, TileViewType):
            raise IRError(f"load_view_tko needs a tile view, got {vt}")
        op = self.create("cuda_tile.load_view_tko", view, list(index), token,
                         memory_ordering_semantics=memory_ordering_semantics,
                         result_types=[vt.tile_type, to_type("token")], **kwargs)
        return tuple(op.results)

    def store_view_tko(self, tile: Value, view: Value, index: Sequence[Value],
                       token: Optional[Value] = None, *, memory_ordering_semantics: Any = "weak",
                       **kwargs) -> Value:
        return self.create("cuda_tile.store_view_tko", tile, view, list(index), token,
                           memory_ordering_semantics=memory_ordering_semantics,
                           **kwargs).result

    def get_tensor_shape(self, tensor_view: Value, index_type: TypeLike = "tile<i32>") -> tuple:
        t = to_type(index_type)
        rank = len(tensor_view.type.shape)
        return tuple(self.create("cuda_tile.get_tensor_shape", tensor_view,
                                 result_types=[t] * rank).results)

    def get_index_space_shape(self, view: Value, index_type: TypeLike = "tile<i32>") -> tuple:
        t = to_type(index_type)
        rank = view.type.index_rank
        return tuple(self.create("cuda_tile.get_index_space_shape", view,
                                 result_types=[t] * rank).results)


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------

def _lookup(name: str) -> OpSpec:
    spec = OP_REGISTRY.get(name) or OP_REGISTRY.get("cuda_tile." + name)
    if spec is None:
        raise IRError(f"unknown op {name!r}")
    return spec


def _results(op: Operation):
    if len(op.results) == 1:
        return op.results[0]
    if not op.results:
        return op
    return tuple(op.results)


def _assign_results(spec: OpSpec, state: TypeState, types: list, groups: dict) -> None:
    """Distribute explicitly given result types over the result groups."""
    n_fixed = sum(1 for r in spec.results if r.kind == SINGLE)
    n_var = len(types) - n_fixed
    pos = 0
    for r in spec.results:
        if r.kind == SINGLE:
            if pos >= len(types):
                return
            state.result_types[r.name] = [types[pos]]
            pos += 1
        elif r.kind == OPTIONAL:
            take = 1 if n_var > 0 else 0
            state.result_types[r.name] = types[pos:pos + take]
            pos += take
            n_var -= take
        else:
            take = max(n_var, 0)
            state.result_types[r.name] = types[pos:pos + take]
            pos += take
            n_var = 0


def dense(value: Any, type: Optional[TypeLike] = None) -> DenseElementsAttr:
    """A dense constant from a number or an array and a tile or element type."""
    from ...ir.dtypes import numpy_dtype
    t = to_type(type) if type is not None else None
    if isinstance(t, TileType):
        el, shape = t.element, t.shape
    else:
        el = t
        arr = np.asarray(value)
        if el is None:
            el = _element_of_dtype(arr.dtype)
        shape = arr.shape
    if not isinstance(el, ElementType):
        raise IRError(f"constant element type must be a number type, got {el}")
    dt = numpy_dtype(el.name)
    arr = np.asarray(value)
    if el.is_integer and el.name != "i1":
        data = _wrap(arr.astype(np.int64) if arr.dtype.kind != "O" else arr, el.width)
        data = np.asarray(data).astype(dt)
    elif el.name == "i1":
        data = arr.astype(bool)
    else:
        with np.errstate(over="ignore", invalid="ignore"):
            data = arr.astype(dt)
    if data.shape != tuple(shape):
        data = np.broadcast_to(data, shape).copy()
    return DenseElementsAttr(TileType(shape, el), data)


def _wrap(arr, width: int):
    arr = np.asarray(arr, dtype=object) if width == 64 else np.asarray(arr, dtype=np.int64)
    mask = (1 << width) - 1
    half = 1 << (width - 1)
    f = np.vectorize(lambda v: ((int(v) & mask) ^ half) - half, otypes=[object])
    return f(arr) if arr.size else arr


def _element_of_dtype(dt: np.dtype) -> ElementType:
    from ...ir.dtypes import element_name_of_dtype
    return ELEMENT_TYPES[element_name_of_dtype(dt)]


def _identity_attr(value: Any, el: ElementType) -> Attribute:
    if isinstance(el, ElementType) and el.is_float:
        return FloatAttr(float(value), el)
    if el is I1:
        return IntegerAttr(1 if value else 0, I1)
    return IntegerAttr(int(value), el)
