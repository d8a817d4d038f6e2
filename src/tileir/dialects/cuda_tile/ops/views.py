"""§8 View operations: tensor views, tile views and loads/stores through them.

All of these have hand-written syntax in NVIDIA's dialect (see ``CUSTOM SYNTAX`` in
``op_formats.txt``); the parse/print functions here reproduce it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..attributes import MemoryOrderingSemantics, MemoryScope
from ....ir.core import Operation
from ....ir.opdef import OPTIONAL, VARIADIC, Attr, Operand, Result
from ..types import (TOKEN, GatherScatterViewType, PartitionViewType, PointerType,
                     StridedViewType, TensorViewType, TileType, TileViewType)
from .base import CudaTileOp
from ..constraints import (AnyTile, GatherScatterView, IntTile, PartitionView, ScalarInt,
                           ScalarPointer, StridedView, TensorView, TileView, Token)
from .memory import HINTS, OPT_SCOPE, ORDERING
from ....ir.traits import Pure
from ..verify_util import (VIEW_HINTS, then_verify, verify_memory_model_load,
                           verify_memory_model_store, verify_optimization_hints)

if TYPE_CHECKING:  # pragma: no cover
    from ....text.format import OpState
    from ....text.parser import Parser
    from ....text.printer import OpPrinter


# ---------------------------------------------------------------------------------------------
# make_tensor_view
# ---------------------------------------------------------------------------------------------

def _parse_make_tensor_view(parser: "Parser", state: "OpState") -> Operation:
    base = parser._parse_use()
    parser.expect(",")
    lists = {}
    for key in ("shape", "strides"):
        parser.expect_keyword(key)
        parser.expect("=")
        decl_off = parser.offset
        parser.expect("[")
        items: list = []
        dynamic: list = []

        def one():
            off = parser.offset
            value = parser.try_parse_integer()
            if value is not None:
                items.append((value, off))
                return
            t = parser.tok
            if not t or t[0] != "%":
                raise parser.error("expected either integer or SSA value")
            dynamic.append(parser._parse_use())
            items.append((None, off))
        parser.parse_comma_list(one, "]")
        parser.expect("]")
        lists[key] = (items, dynamic, decl_off)
        if key == "shape":
            parser.expect(",")
    if parser.tok == "{":
        state.attrs.update(parser.parse_attr_dict_body())
    parser.expect(":")
    index_type = None
    if lists["shape"][1] or lists["strides"][1]:
        index_type = parser.parse_type()
        parser.expect("->")
    type_off = parser.offset
    typ = parser.parse_type()
    if not isinstance(typ, TensorViewType):
        raise parser.error(f"expected 'tensor_view' type, but got '{typ}'", parser.offset)
    for key, declared in (("shape", typ.shape), ("strides", typ.strides)):
        items, _, decl_off = lists[key]
        label = "shape" if key == "shape" else "stride"
        if len(items) != len(declared):
            raise parser.error(f"expected {label} declaration to contain {len(declared)} elements "
                               f"due to tensor_view type, but {len(items)} were provided",
                               decl_off)
        for i, ((value, off), want) in enumerate(zip(items, declared)):
            if value != want:
                fmt = lambda v: "dynamic" if v is None else str(v)
                raise parser.error(f"input {label} dimension {i} does not match tensor_view type "
                                   f"(expected {fmt(want)}, got {fmt(value)})", off)
    state.operands["base"] = [base]
    state.operand_types["base"] = [TileType((), PointerType(typ.element))]
    state.operands["dynamicShape"] = lists["shape"][1]
    state.operands["dynamicStrides"] = lists["strides"][1]
    state.operand_types["dynamicShape"] = [index_type] * len(lists["shape"][1])
    state.operand_types["dynamicStrides"] = [index_type] * len(lists["strides"][1])
    state.result_types["result"] = [typ]
    return state.build()


def _print_make_tensor_view(printer: "OpPrinter", op: Operation) -> str:
    typ = op.results[0].type
    spec = op.SPEC
    s0, s1 = spec.operand_range(op, "dynamicShape")
    t0, t1 = spec.operand_range(op, "dynamicStrides")
    dyn_shape = iter(op.operands[s0:s1])
    dyn_strides = iter(op.operands[t0:t1])

    def mixed(values, dyn) -> str:
        return ", ".join(printer.value_name(next(dyn)) if v is None else str(v) for v in values)
    text = (f" {printer.value_name(op.operands[0])}, shape = [{mixed(typ.shape, dyn_shape)}], "
            f"strides = [{mixed(typ.strides, dyn_strides)}]")
    text += printer.attr_dict_text(op, set())
    text += " : "
    dynamic = op.operands[1:]
    if dynamic:
        text += dynamic[0].type.short + " -> "
    return text + typ.short


def verify_view_indices(view, index_types: list):
    """``TileView::verifyIndices`` for each view type (cuda-tile's wording)."""
    if not index_types:
        return None
    if isinstance(view, GatherScatterViewType):
        sd = view.sparse_dim
        if sd >= len(index_types):
            return (f"gather/scatter dimension {sd} is out of range for index count "
                    f"{len(index_types)}")
        g = index_types[sd]
        if not isinstance(g, TileType):
            return (f"expected index at sparse_dim position {sd} to be a tile type for "
                    "GatherScatterView")
        if g.rank != 1:
            return (f"expected index at sparse_dim position {sd} to be a 1D tensor for "
                    f"GatherScatterView, got rank {g.rank}")
        if g.shape[0] != view.tile_shape[sd]:
            return (f"expected gather/scatter index size ({g.shape[0]}) to match tile shape at "
                    f"gather/scatter dimension {sd} ({view.tile_shape[sd]})")
        base = None
        for i, t in enumerate(index_types):
            if i == sd:
                continue
            if not isinstance(t, TileType) or t.shape:
                return f"expected index {i} to be a scalar tile for GatherScatterView"
            if base is None:
                base = t
            elif t != base:
                return (f"expected scalar index {i} to have the same type as other scalar "
                        f"indices ('{base}'), got '{t}'")
        return None
    for t in index_types:
        if not isinstance(t, TileType):
            return f"expected index type to be a tile type, got '{t}'"
        if t.rank != 0:
            return f"expected index type to be a scalar tile, got '{t}'"
    base = index_types[0]
    for i, t in enumerate(index_types):
        if t != base:
            return (f"expected index type {i} to be the same as other index types ('{base}'), "
                    f"got '{t}'")
    return None


def verify_view_load_store(op, tile_type):
    """cuda-tile's verifyViewLoadStoreCommon (then the optimization hints)."""
    view = op.view.type
    index_types = [v.type for v in op.index]
    rank = view.index_rank
    if len(index_types) != rank:
        return f"expected {rank} index operands (based on view type), got {len(index_types)}"
    want = view.tile_type
    if tile_type != want:
        return f"expected tile type to be '{want}' (based on view type), got '{tile_type}'"
    msg = verify_view_indices(view, index_types)
    if msg:
        return msg
    inbounds = op.attributes.get("inbounds")
    if inbounds is not None and len(inbounds.value) != rank:
        # 13.4 (tileirdisasm 13.4.92's message)
        return (f"inbounds size ({len(inbounds.value)}) must match the number of index "
                f"dimensions ({rank})")
    return verify_optimization_hints(op, VIEW_HINTS)


def _verify_make_view(op):
    tv = op.operands[0].type
    want = op.results[0].type.tensor_view
    if tv != want:
        return (f"expected the type of the provided tensor_view value ('{tv}') to be the same as "
                f"the view's tensor_view type ('{want}')")
    return None


class MakeTensorViewOp(CudaTileOp):
    """``make_tensor_view %ptr, shape = [...], strides = [...] : [T ->] tensor_view<...>``."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "make_tensor_view", 0x43, "Views"
    OPERANDS = (Operand("base", ScalarPointer), Operand("dynamicShape", ScalarInt, VARIADIC),
                Operand("dynamicStrides", ScalarInt, VARIADIC))
    RESULTS = (Result("result", TensorView),)
    ATTR_SIZED_OPERANDS = True
    parse_custom = staticmethod(_parse_make_tensor_view)
    print_custom = staticmethod(_print_make_tensor_view)

    def asm_result_names(self):
        return ["tview"]

    def verify_op(self):
        spec = self.SPEC
        result = self.results[0].type
        base = self.operands[0].type.element.pointee
        if result.element != base:
            return (f"expected pointer to '{result.element}' to build tensor_view of this type, "
                    f"got '{base}'")
        s0, s1 = spec.operand_range(self, "dynamicShape")
        t0, t1 = spec.operand_range(self, "dynamicStrides")
        dyn_shape, dyn_strides = self.operands[s0:s1], self.operands[t0:t1]
        want = sum(1 for d in result.shape if d is None)
        if want != len(dyn_shape):
            return f"expected {want} dynamic shape operands, got {len(dyn_shape)}"
        want = sum(1 for d in result.strides if d is None)
        if want != len(dyn_strides):
            return f"expected {want} dynamic stride operands, got {len(dyn_strides)}"
        first = None
        if dyn_shape:
            first = dyn_shape[0].type
            for i, v in enumerate(dyn_shape):
                if v.type != first:
                    return (f"expected dynamic shape index {i} to be of the same type as the other "
                            f"dynamic values ('{first}'), got '{v.type}'")
        if dyn_strides:
            first = first or dyn_strides[0].type
            for i, v in enumerate(dyn_strides):
                if v.type != first:
                    return (f"expected dynamic stride index {i} to be of the same type as the "
                            f"other dynamic values ('{first}'), got '{v.type}'")
        return None



# ---------------------------------------------------------------------------------------------
# make_*_view
# ---------------------------------------------------------------------------------------------

def _make_view_parser(view_cls: type, what: str):
    def parse(parser: "Parser", state: "OpState") -> Operation:
        src = parser._parse_use()
        if parser.tok == "{":
            state.attrs.update(parser.parse_attr_dict_body())
        parser.expect(":")
        off = parser.offset
        typ = parser.parse_type()
        if not isinstance(typ, view_cls):
            raise parser.error(f"{parser.op_prefix()}expected '{what}' type, but got '{typ}'",
                               off)
        state.operands["tensor_view"] = [src]
        state.operand_types["tensor_view"] = [typ.tensor_view]
        state.result_types["result"] = [typ]
        return state.build()
    return parse


def _print_make_view(printer: "OpPrinter", op: Operation) -> str:
    return (f" {printer.value_name(op.operands[0])}{printer.attr_dict_text(op, set())} : "
            f"{op.results[0].type.short}")


class MakePartitionViewOp(CudaTileOp):
    """``make_partition_view %tv : partition_view<...>``."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "make_partition_view", 0x42, "Views"
    OPERANDS = (Operand("tensor_view", TensorView),)
    RESULTS = (Result("result", PartitionView),)
    TRAITS = (Pure,)
    parse_custom = staticmethod(_make_view_parser(PartitionViewType, "partition_view"))
    print_custom = staticmethod(_print_make_view)

    def asm_result_names(self):
        return ["pview"]

    def verify_op(self):
        return _verify_make_view(self)



class MakeStridedViewOp(CudaTileOp):
    """``make_strided_view %tv : strided_view<...>`` (13.3)."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP, SINCE = "make_strided_view", 0x74, "Views", "13.3"
    OPERANDS = (Operand("tensor_view", TensorView, since="13.3"),)
    RESULTS = (Result("result", StridedView, since="13.3"),)
    TRAITS = (Pure,)
    parse_custom = staticmethod(_make_view_parser(StridedViewType, "strided_view"))
    print_custom = staticmethod(_print_make_view)

    def asm_result_names(self):
        return ["sview"]

    def verify_op(self):
        return _verify_make_view(self)



class MakeGatherScatterViewOp(CudaTileOp):
    """``make_gather_scatter_view %tv : gather_scatter_view<...>`` (13.3)."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP, SINCE = "make_gather_scatter_view", 0x73, "Views", "13.3"
    OPERANDS = (Operand("tensor_view", TensorView),)
    RESULTS = (Result("result", GatherScatterView, since="13.3"),)
    TRAITS = (Pure,)
    parse_custom = staticmethod(_make_view_parser(GatherScatterViewType, "gather_scatter_view"))
    print_custom = staticmethod(_print_make_view)

    def asm_result_names(self):
        return ["gsview"]

    def verify_op(self):
        return _verify_make_view(self)



# ---------------------------------------------------------------------------------------------
# get_tensor_shape / get_index_space_shape
# ---------------------------------------------------------------------------------------------

def _shape_query_parser(kind: str):
    def parse(parser: "Parser", state: "OpState") -> Operation:
        src = parser._parse_use()
        parser.expect(":")
        off = parser.offset
        src_type = parser.parse_type()
        parser.expect("->")
        result_type = parser.parse_type()
        if kind == "tensor":
            if not isinstance(src_type, TensorViewType):
                raise parser.error(f"'cuda_tile.get_tensor_shape' expected tensor_view, got "
                                   f"'{src_type}'", off)
            rank = src_type.rank
        else:
            if not isinstance(src_type, TileViewType):
                raise parser.error(f"expected tile view, got '{src_type}'", off)
            rank = src_type.index_rank
        state.operands["src"] = [src]
        state.operand_types["src"] = [src_type]
        state.result_types["result"] = [result_type] * rank
        return state.build()
    return parse


def _print_shape_query(printer: "OpPrinter", op: Operation) -> str:
    text = f" {printer.value_name(op.operands[0])} : {op.operands[0].type.short} -> "
    return text + (op.results[0].type.short if op.results else "")


class GetTensorShapeOp(CudaTileOp):
    """The extents of a tensor view, one scalar per dimension."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "get_tensor_shape", 0x2F, "Views"
    OPERANDS = (Operand("src", TensorView),)
    RESULTS = (Result("result", ScalarInt, VARIADIC),)
    parse_custom = staticmethod(_shape_query_parser("tensor"))
    print_custom = staticmethod(_print_shape_query)

    def verify_op(self):
        rank = len(self.operands[0].type.shape)
        if len(self.results) != rank:
            return f"expected {rank} results due to tensor rank, but got {len(self.results)}"
        return None



class GetIndexSpaceShapeOp(CudaTileOp):
    """The index-space extents of a tile view, one scalar per index dimension."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "get_index_space_shape", 0x2D, "Views"
    OPERANDS = (Operand("src", TileView),)
    RESULTS = (Result("result", ScalarInt, VARIADIC),)
    parse_custom = staticmethod(_shape_query_parser("index"))
    print_custom = staticmethod(_print_shape_query)

    def verify_op(self):
        rank = self.operands[0].type.index_rank
        if len(self.results) != rank:
            return (f"expected {rank} results due to view index space rank, but got "
                    f"{len(self.results)}")
        return None



# ---------------------------------------------------------------------------------------------
# load_view_tko / store_view_tko / atomic_red_view_tko
# ---------------------------------------------------------------------------------------------

def parse_memory_attributes(parser: "Parser", state: "OpState") -> None:
    """``ORDER [SCOPE]`` keywords (cuda-tile's parseMemoryAttributes)."""
    from ....ir.diagnostics import ERROR, Diagnostic
    off = parser.offset
    prefix = parser.op_prefix()
    if parser.at_identifier():
        word = parser.parse_keyword()
    else:
        # cuda-tile ignores the failed parseKeyword (which reported its own error)
        parser.pending_diags.append(Diagnostic(ERROR, f"{prefix}expected valid keyword",
                                               parser.loc_at(off)))
        word = ""
    order = MemoryOrderingSemantics.from_keyword(word)
    if order is None:
        raise parser.error(f"{prefix}invalid memory_ordering_semantics attribute specification. "
                           f"Got \"{word}\" but expect one of: "
                           f"{', '.join(MemoryOrderingSemantics.keywords())}", off)
    state.attrs["memory_ordering_semantics"] = order
    if parser.at_identifier():
        off = parser.offset
        tok = parser.parse_keyword()
        if order is MemoryOrderingSemantics.WEAK:
            raise parser.error(f"{prefix}operation specifies weak memory ordering semantics, but "
                               f"then provides \"{tok}\" scope, expected no memory scope.", off)
        scope = MemoryScope.from_keyword(tok)
        if scope is None:
            raise parser.error(f"{prefix}invalid memory_scope attribute specification. Got "
                               f"\"{tok}\" but expect one of: "
                               f"{', '.join(MemoryScope.keywords())}", off)
        state.attrs["memory_scope"] = scope


def print_memory_attributes(op: Operation) -> str:
    text = " " + op.attributes["memory_ordering_semantics"].keyword
    scope = op.attributes.get("memory_scope")
    if scope is not None:
        text += " " + scope.keyword
    return text


def _parse_view_and_indices(parser: "Parser") -> tuple:
    view = parser._parse_use()
    parser.expect("[")
    indices = parser.parse_comma_list(parser._parse_use, "]")
    parser.expect("]")
    return view, indices


def _parse_optionals(parser: "Parser", state: "OpState", hints: bool = True) -> Optional[tuple]:
    token = None
    if parser.tok == "token":
        parser.i += 1
        parser.expect("=")
        token = parser._parse_use()
    if hints and parser.tok == "optimization_hints":
        parser.i += 1
        parser.expect("=")
        from ..syntax import parse_optimization_hints_body
        state.attrs["optimization_hints"] = parse_optimization_hints_body(
            parser, state.spec.name)
    if hints and parser.tok == "inbounds":
        # 13.4: ``inbounds = [true, false]``, one flag per index
        from ..attributes import DenseArrayAttr
        parser.i += 1
        parser.expect("=")
        parser.expect("[")

        def flag() -> bool:
            word = parser.parse_keyword("'true' or 'false'")
            if word not in ("true", "false"):
                raise parser.error("expected 'true' or 'false'", parser.offs[parser.i - 1])
            return word == "true"
        flags = parser.parse_comma_list(flag, "]")
        parser.expect("]")
        state.attrs["inbounds"] = DenseArrayAttr("i1", tuple(flags))
    if parser.tok == "attributes":
        parser.i += 1
        state.attrs.update(parser.parse_attr_dict_body())
    return token


def _parse_index_types(parser: "Parser", count: int) -> tuple[list, int]:
    types: list = []
    off = parser.offset
    if parser.consume(","):
        off = parser.offset
        first = parser.parse_type()
        if parser.tok == ",":
            types.append(first)
            while parser.consume(","):
                types.append(parser.parse_type())
        else:
            types = [first] * count
    return types, off


def _finish_indices(parser: "Parser", state: "OpState", indices: list, types: list,
                    off: int) -> None:
    if indices and not types:
        raise parser.error("index types must be specified when indices are present")
    if types and len(types) != len(indices):
        raise parser.error(f"expected {len(indices)} index types, got {len(types)}", off)
    state.operands["index"] = indices
    state.operand_types["index"] = types


def _set_token(state: "OpState", token) -> None:
    state.operands["token"] = [token] if token is not None else []
    state.operand_types["token"] = [TOKEN] if token is not None else []


def _parse_load_view(parser: "Parser", state: "OpState") -> Operation:
    parse_memory_attributes(parser, state)
    view, indices = _parse_view_and_indices(parser)
    token = _parse_optionals(parser, state)
    parser.expect(":")
    view_type = parser.parse_type()
    types, off = _parse_index_types(parser, len(indices))
    parser.expect("->")
    tile_type = parser.parse_type()
    parser.expect(",")
    token_type = parser.parse_type()
    state.operands["view"] = [view]
    state.operand_types["view"] = [view_type]
    _finish_indices(parser, state, indices, types, off)
    _set_token(state, token)
    state.result_types.update(tile=[tile_type], result_token=[token_type])
    return state.build()


def _print_index_types(indices) -> str:
    if not indices:
        return ""
    types = [v.type for v in indices]
    if all(t is types[0] for t in types):
        return ", " + types[0].short
    return "".join(", " + t.short for t in types)


def _print_optionals(printer: "OpPrinter", op: Operation, token) -> str:
    text = ""
    if token is not None:
        text += f" token = {printer.value_name(token)}"
    hints = op.attributes.get("optimization_hints")
    if hints is not None:
        text += f" optimization_hints = <{hints.body()}>"
    inbounds = op.attributes.get("inbounds")
    if inbounds is not None and any(inbounds.value):
        # 13.4; tileirdisasm prints it only when some index is marked in bounds
        text += " inbounds = [" + ", ".join("true" if v else "false" for v in inbounds.value) + "]"
    text += printer.attr_dict_text(op, {"memory_ordering_semantics", "memory_scope",
                                        "optimization_hints", "mode", "inbounds"},
                                   with_keyword=True)
    return text


def _print_load_view(printer: "OpPrinter", op: Operation) -> str:
    text = print_memory_attributes(op)
    text += f" {printer.value_name(op.view)}[" + ", ".join(
        printer.value_name(v) for v in op.index) + "]"
    text += _print_optionals(printer, op, op.token)
    text += f" : {op.view.type.short}{_print_index_types(op.index)}"
    text += f" -> {op.results[0].type.short}, {op.results[1].type.short}"
    return text


class LoadViewTkoOp(CudaTileOp):
    """Load the tile at ``index`` of a tile view (padding out-of-bounds elements)."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "load_view_tko", 0x3E, "Views"
    OPERANDS = (Operand("view", TileView), Operand("index", IntTile, VARIADIC),
                Operand("token", Token, OPTIONAL))
    RESULTS = (Result("tile", AnyTile), Result("result_token", Token))
    ATTRIBUTES = (ORDERING, OPT_SCOPE, HINTS,
                  Attr("inbounds", "array_i1", optional=True, since="13.4"))
    ATTR_SIZED_OPERANDS = True
    parse_custom = staticmethod(_parse_load_view)
    print_custom = staticmethod(_print_load_view)

    def verify_op(self):
        return then_verify(verify_view_load_store(self, self.results[0].type),
                           lambda: verify_memory_model_load(self))



def finish_view_store(parser: "Parser", state: "OpState", value_name: str, value, view,
                      indices: list, token) -> Operation:
    """The common tail of ``store_view_tko`` and ``atomic_red_view_tko``: the types
    ``: VALUE, VIEW[, INDEX...] -> TOKEN`` of the stored operand ``value_name`` (parsed use
    ``value``), the view and its indices; then the op is built."""
    parser.expect(":")
    value_type = parser.parse_type()
    parser.expect(",")
    view_type = parser.parse_type()
    types, off = _parse_index_types(parser, len(indices))
    parser.expect("->")
    token_type = parser.parse_type()
    state.operands.update({value_name: [value], "view": [view]})
    state.operand_types.update({value_name: [value_type], "view": [view_type]})
    _finish_indices(parser, state, indices, types, off)
    _set_token(state, token)
    state.result_types["result_token"] = [token_type]
    return state.build()


def _parse_store_view(parser: "Parser", state: "OpState") -> Operation:
    parse_memory_attributes(parser, state)
    tile = parser._parse_use()
    parser.expect(",")
    view, indices = _parse_view_and_indices(parser)
    token = _parse_optionals(parser, state)
    return finish_view_store(parser, state, "tile", tile, view, indices, token)


def _print_store_view(printer: "OpPrinter", op: Operation) -> str:
    text = print_memory_attributes(op)
    text += f" {printer.value_name(op.tile)}, {printer.value_name(op.view)}[" + ", ".join(
        printer.value_name(v) for v in op.index) + "]"
    text += _print_optionals(printer, op, op.token)
    text += f" : {op.tile.type.short}, {op.view.type.short}{_print_index_types(op.index)}"
    return text + f" -> {op.results[0].type.short}"


class StoreViewTkoOp(CudaTileOp):
    """Store a tile at ``index`` of a tile view (out-of-bounds elements are masked)."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "store_view_tko", 0x66, "Views"
    OPERANDS = (Operand("tile", AnyTile), Operand("view", TileView),
                Operand("index", IntTile, VARIADIC), Operand("token", Token, OPTIONAL))
    RESULTS = (Result("result_token", Token),)
    ATTRIBUTES = (ORDERING, OPT_SCOPE, HINTS,
                  Attr("inbounds", "array_i1", optional=True, since="13.4"))
    ATTR_SIZED_OPERANDS = True
    parse_custom = staticmethod(_parse_store_view)
    print_custom = staticmethod(_print_store_view)

    def verify_op(self):
        return then_verify(verify_view_load_store(self, self.tile.type),
                           lambda: verify_memory_model_store(self))

