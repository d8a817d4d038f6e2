"""Sparse-library ops (cuSPARSE-style handles and computations), declared with MLIR's assembly
formats; ``custom<AsyncDependencies>`` is the gpu dialect's directive for ``async [%t, ..]``."""

from __future__ import annotations

from ....ir.opdef import OPTIONAL, VARIADIC, Attr, Operand, Result
from ....ir.verify import ATTR_KINDS
from ....text.format import CUSTOM_DIRECTIVES, CustomDirective
from ....text.registry import ATTR_KIND_PARSERS
from ..attributes import Prune2To4SpMatFlag, SpGEMMWorkEstimationOrComputeKind, TransposeMode
from ..types import ASYNC_TOKEN, DN_TENSOR_HANDLE, SPGEMMOP_HANDLE, SPMAT_HANDLE
from ....ir.attributes import TypeAttr
from .base import (INDEX, Exactly, GpuOp, attr_dict, parse_async, parse_attr_dict,
                   parse_keyword_enum, print_async)


def _parse_async_directive(parser, state, args) -> bool:
    parse_async(parser, state)
    return True


def _print_async_directive(printer, op, args) -> str:
    start, stop = op.SPEC.operand_range(op, "asyncDependencies")
    token = any(r.type is ASYNC_TOKEN for r in op.results[-1:]) and \
        "asyncToken" in op.SPEC.result_index and \
        op.SPEC.result_range(op, "asyncToken")[1] > op.SPEC.result_range(op, "asyncToken")[0]
    return print_async(printer, op, token, op.operands[start:stop])


CUSTOM_DIRECTIVES["AsyncDependencies"] = CustomDirective(_parse_async_directive,
                                                         _print_async_directive)

_ASYNC = "custom<AsyncDependencies>(type($asyncToken), $asyncDependencies)"
_DEPS = Operand("asyncDependencies", Exactly(ASYNC_TOKEN, "async token", ), kind=VARIADIC)
_TOKEN = Result("asyncToken", Exactly(ASYNC_TOKEN, "async token"), kind=OPTIONAL)


def _idx(name: str) -> Operand:
    return Operand(name, Exactly(INDEX, "index"))


def _handle(name: str, t) -> Operand:
    return Operand(name, Exactly(t, str(t)))


def _enum_kind(enum: type) -> str:
    """An attribute kind for a gpu enum in a declarative format: parsed as its keyword, printed
    as MLIR does (with its own leading space, see ``GpuEnum.custom_syntax``)."""
    kind = f"gpu.{enum.__name__}"
    ATTR_KIND_PARSERS[kind] = lambda parser: parse_keyword_enum(parser, enum)
    ATTR_KINDS[kind] = (lambda v: isinstance(v, enum), f"{enum.__name__} attribute")
    return kind


_TRANSPOSE = _enum_kind(TransposeMode)


def _mode(name: str) -> Attr:
    return Attr(name, _TRANSPOSE, default=TransposeMode.NON_TRANSPOSE)


_COMPUTE = Attr("computeType", "type")


class SparseOp(GpuOp):
    """Base of the sparse ops: all are asynchronous (``async [%deps]``) and return a token."""

    __slots__ = ()


class CreateDnTensorOp(SparseOp):
    MNEMONIC = "create_dn_tensor"
    ATTR_SIZED_OPERANDS = True
    OPERANDS = (_DEPS, Operand("memref"), Operand("dims", Exactly(INDEX, "index"),
                                                   kind=VARIADIC))
    RESULTS = (Result("dnTensor", Exactly(DN_TENSOR_HANDLE, "dense tensor handle")), _TOKEN)
    FORMAT = f"{_ASYNC} $memref `,` $dims attr-dict `:` type($dims) `into` type($memref)"


class DestroyDnTensorOp(SparseOp):
    MNEMONIC = "destroy_dn_tensor"
    OPERANDS = (_DEPS, _handle("dnTensor", DN_TENSOR_HANDLE))
    RESULTS = (_TOKEN,)
    FORMAT = f"{_ASYNC} $dnTensor attr-dict"


_SPMAT = Result("spmat", Exactly(SPMAT_HANDLE, "sparse matrix handle"))


class CreateCooOp(SparseOp):
    MNEMONIC = "create_coo"
    OPERANDS = (_DEPS, _idx("rows"), _idx("cols"), _idx("nnz"), Operand("rowIdxs"),
                Operand("colIdxs"), Operand("values"))
    RESULTS = (_SPMAT, _TOKEN)
    FORMAT = (f"{_ASYNC} $rows `,` $cols `,` $nnz `,` $rowIdxs `,` $colIdxs `,` $values "
              "attr-dict `:` type($rowIdxs) `,` type($colIdxs) `,` type($values)")


class CreateCooAoSOp(SparseOp):
    MNEMONIC = "create_coo_aos"
    OPERANDS = (_DEPS, _idx("rows"), _idx("cols"), _idx("nnz"), Operand("idxs"),
                Operand("values"))
    RESULTS = (_SPMAT, _TOKEN)
    FORMAT = (f"{_ASYNC} $rows `,` $cols `,` $nnz `,` $idxs `,` $values "
              "attr-dict `:` type($idxs) `,` type($values)")


class CreateCsrOp(SparseOp):
    MNEMONIC = "create_csr"
    OPERANDS = (_DEPS, _idx("rows"), _idx("cols"), _idx("nnz"), Operand("rowPos"),
                Operand("colIdxs"), Operand("values"))
    RESULTS = (_SPMAT, _TOKEN)
    FORMAT = (f"{_ASYNC} $rows `,` $cols `,` $nnz `,` $rowPos `,` $colIdxs `,` $values "
              "attr-dict `:` type($rowPos) `,` type($colIdxs) `,` type($values)")


class CreateCscOp(SparseOp):
    MNEMONIC = "create_csc"
    OPERANDS = (_DEPS, _idx("rows"), _idx("cols"), _idx("nnz"), Operand("colPos"),
                Operand("rowIdxs"), Operand("values"))
    RESULTS = (_SPMAT, _TOKEN)
    FORMAT = (f"{_ASYNC} $rows `,` $cols `,` $nnz `,` $colPos `,` $rowIdxs `,` $values "
              "attr-dict `:` type($colPos) `,` type($rowIdxs) `,` type($values)")


class CreateBsrOp(SparseOp):
    MNEMONIC = "create_bsr"
    OPERANDS = (_DEPS, _idx("brows"), _idx("bcols"), _idx("bnnz"), _idx("rBlockSize"),
                _idx("cBlockSize"), Operand("bRowPos"), Operand("bColIdxs"), Operand("values"))
    RESULTS = (_SPMAT, _TOKEN)
    FORMAT = (f"{_ASYNC} $brows `,` $bcols `,` $bnnz `,` $rBlockSize `,` $cBlockSize `,` "
              "$bRowPos `,` $bColIdxs `,` $values attr-dict `:` type($bRowPos) `,` "
              "type($bColIdxs) `,` type($values)")


class Create2To4SpMatOp(SparseOp):
    MNEMONIC = "create_2to4_spmat"
    OPERANDS = (_DEPS, _idx("rows"), _idx("cols"), Operand("memref"))
    RESULTS = (Result("spMat", Exactly(SPMAT_HANDLE, "sparse matrix handle")), _TOKEN)
    ATTRIBUTES = (Attr("pruneFlag", _enum_kind(Prune2To4SpMatFlag),
                       default=Prune2To4SpMatFlag.PRUNE_AND_CHECK),)
    FORMAT = (f"{_ASYNC} `{{` $pruneFlag `}}` $rows `,` $cols `,` $memref attr-dict "
              "`:` type($memref)")


class DestroySpMatOp(SparseOp):
    MNEMONIC = "destroy_sp_mat"
    OPERANDS = (_DEPS, _handle("spmat", SPMAT_HANDLE))
    RESULTS = (_TOKEN,)
    FORMAT = f"{_ASYNC} $spmat attr-dict"


class SpMVBufferSizeOp(SparseOp):
    MNEMONIC = "spmv_buffer_size"
    OPERANDS = (_DEPS, _handle("spmatA", SPMAT_HANDLE), _handle("dnX", DN_TENSOR_HANDLE),
                _handle("dnY", DN_TENSOR_HANDLE))
    RESULTS = (Result("bufferSz", Exactly(INDEX, "index")), _TOKEN)
    ATTRIBUTES = (_mode("modeA"), _COMPUTE)
    FORMAT = (f"{_ASYNC} $spmatA (`{{` $modeA^ `}}`)? `,` $dnX `,` $dnY attr-dict "
              "`into` $computeType")


class SpMVOp(SparseOp):
    MNEMONIC = "spmv"
    OPERANDS = (_DEPS, _handle("spmatA", SPMAT_HANDLE), _handle("dnX", DN_TENSOR_HANDLE),
                _handle("dnY", DN_TENSOR_HANDLE), Operand("buffer"))
    RESULTS = (_TOKEN,)
    ATTRIBUTES = (_mode("modeA"), _COMPUTE)
    FORMAT = (f"{_ASYNC} $spmatA (`{{` $modeA^ `}}`)? `,` $dnX `,` $dnY `,` $buffer attr-dict "
              "`:` type($buffer) `into` $computeType")


class SpMMBufferSizeOp(SparseOp):
    """Its results are two variadic groups (``resultSegmentSizes``), which the declarative
    machinery does not model: hand-written syntax."""

    MNEMONIC = "spmm_buffer_size"
    OPERANDS = (_DEPS, _handle("spmatA", SPMAT_HANDLE), _handle("dnmatB", DN_TENSOR_HANDLE),
                _handle("dnmatC", DN_TENSOR_HANDLE))
    RESULTS = (Result("bufferSzs", kind=VARIADIC), Result("asyncToken", kind=OPTIONAL))
    ATTRIBUTES = (_mode("modeA"), _mode("modeB"), _COMPUTE,
                  Attr("resultSegmentSizes", "array_i32"))

    @staticmethod
    def parse_custom(parser, state):
        from ....ir.attributes import DenseArrayAttr
        parse_async(parser, state)
        for k, (name, mode) in enumerate((("spmatA", "modeA"), ("dnmatB", "modeB"),
                                          ("dnmatC", None))):
            if k:
                parser.expect(",")
            state.operands[name] = [parser._parse_use()]
            if mode is not None and parser.tok == "{":
                parser.i += 1
                state.attrs[mode] = parse_keyword_enum(parser, TransposeMode)
                parser.expect("}")
        parse_attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        sizes = parser.parse_comma_list(parser.parse_type)
        state.set_types("bufferSzs", "result", sizes, off)
        parser.expect_keyword("into")
        state.attrs["computeType"] = TypeAttr(parser.parse_type())
        n_token = len(state.result_types.get("asyncToken", []))
        state.attrs["resultSegmentSizes"] = DenseArrayAttr("i32", (len(sizes), n_token))

    def _sizes(self) -> tuple:
        seg = self.attributes.get("resultSegmentSizes")
        return tuple(seg.value) if seg is not None else (len(self.results), 0)

    def asm_result_names(self):
        n, token = self._sizes()
        return ["bufferSzs"] + [None] * (n - 1) + ["asyncToken"] * token

    @staticmethod
    def print_custom(printer, op):
        n, token = op._sizes()
        text = " " + print_async(printer, op, bool(token), op.operands[:-3])
        name = printer.value_name
        pieces = []
        for v, mode in zip(op.operands[-3:], ("modeA", "modeB", None)):
            piece = name(v)
            value = op.attributes.get(mode) if mode else None
            if value is not None and value is not TransposeMode.NON_TRANSPOSE:
                piece += "{ " + value.keyword + "}"
            pieces.append(piece)
        text += " " + ", ".join(pieces) + attr_dict(
            printer, op, ("modeA", "modeB", "computeType", "resultSegmentSizes"))
        types = ", ".join(str(r.type) for r in op.results[:n])
        return text + f" : {types} into {op.attributes['computeType'].value}"

    def verify_op(self):
        n, token = self._sizes()
        if n + token != len(self.results) or token > 1:
            return "result group sizes do not match 'resultSegmentSizes'"
        for i, r in enumerate(self.results):
            want = INDEX if i < n else ASYNC_TOKEN
            if r.type is not want:
                return f"result #{i} must be {'index' if i < n else 'async token'}, but got " \
                    f"'{r.type}'"
        return None


class SpMMOp(SparseOp):
    MNEMONIC = "spmm"
    ATTR_SIZED_OPERANDS = True
    OPERANDS = (_DEPS, _handle("spmatA", SPMAT_HANDLE), _handle("dnmatB", DN_TENSOR_HANDLE),
                _handle("dnmatC", DN_TENSOR_HANDLE), Operand("buffers", kind=VARIADIC))
    RESULTS = (_TOKEN,)
    ATTRIBUTES = (_mode("modeA"), _mode("modeB"), _COMPUTE)
    FORMAT = (f"{_ASYNC} $spmatA (`{{` $modeA^ `}}`)? `,` $dnmatB (`{{` $modeB^ `}}`)? `,` "
              "$dnmatC `,` $buffers attr-dict `:` type($buffers) `into` $computeType")


class SDDMMBufferSizeOp(SparseOp):
    MNEMONIC = "sddmm_buffer_size"
    OPERANDS = (_DEPS, _handle("dnmatA", DN_TENSOR_HANDLE), _handle("dnmatB", DN_TENSOR_HANDLE),
                _handle("spmatC", SPMAT_HANDLE))
    RESULTS = (Result("bufferSz", Exactly(INDEX, "index")), _TOKEN)
    ATTRIBUTES = (_mode("modeA"), _mode("modeB"), _COMPUTE)
    FORMAT = (f"{_ASYNC} $dnmatA (`{{` $modeA^ `}}`)? `,` $dnmatB (`{{` $modeB^ `}}`)? `,` "
              "$spmatC attr-dict `into` $computeType")


class SDDMMOp(SparseOp):
    MNEMONIC = "sddmm"
    OPERANDS = (_DEPS, _handle("dnmatA", DN_TENSOR_HANDLE), _handle("dnmatB", DN_TENSOR_HANDLE),
                _handle("spmatC", SPMAT_HANDLE), Operand("buffer"))
    RESULTS = (_TOKEN,)
    ATTRIBUTES = (_mode("modeA"), _mode("modeB"), _COMPUTE)
    FORMAT = (f"{_ASYNC} $dnmatA (`{{` $modeA^ `}}`)? `,` $dnmatB (`{{` $modeB^ `}}`)? `,` "
              "$spmatC `,` $buffer attr-dict `:` type($buffer) `into` $computeType")


class SpGEMMCreateDescrOp(SparseOp):
    MNEMONIC = "spgemm_create_descr"
    OPERANDS = (_DEPS,)
    RESULTS = (Result("desc", Exactly(SPGEMMOP_HANDLE, "SpGEMM operation handle")), _TOKEN)
    FORMAT = f"{_ASYNC} attr-dict"


class SpGEMMDestroyDescrOp(SparseOp):
    MNEMONIC = "spgemm_destroy_descr"
    OPERANDS = (_DEPS, _handle("desc", SPGEMMOP_HANDLE))
    RESULTS = (_TOKEN,)
    FORMAT = f"{_ASYNC} $desc attr-dict"


class SpGEMMWorkEstimationOrComputeOp(SparseOp):
    MNEMONIC = "spgemm_work_estimation_or_compute"
    OPERANDS = (_DEPS, _handle("desc", SPGEMMOP_HANDLE), _handle("spmatA", SPMAT_HANDLE),
                _handle("spmatB", SPMAT_HANDLE), _handle("spmatC", SPMAT_HANDLE),
                _idx("bufferSz"), Operand("buffer"))
    RESULTS = (Result("bufferSzNew", Exactly(INDEX, "index")), _TOKEN)
    ATTRIBUTES = (_mode("modeA"), _mode("modeB"), _COMPUTE,
                  Attr("kind", _enum_kind(SpGEMMWorkEstimationOrComputeKind)))
    FORMAT = (f"{_ASYNC} `{{` $kind `}}` $spmatA (`{{` $modeA^ `}}`)? `,` $spmatB "
              "(`{` $modeB^ `}`)? `,` $spmatC `,` $desc `,` $bufferSz `,` $buffer attr-dict "
              "`:` $computeType `into` type($buffer)")


class SpGEMMCopyOp(SparseOp):
    MNEMONIC = "spgemm_copy"
    OPERANDS = (_DEPS, _handle("desc", SPGEMMOP_HANDLE), _handle("spmatA", SPMAT_HANDLE),
                _handle("spmatB", SPMAT_HANDLE), _handle("spmatC", SPMAT_HANDLE))
    RESULTS = (_TOKEN,)
    ATTRIBUTES = (_mode("modeA"), _mode("modeB"), _COMPUTE)
    FORMAT = (f"{_ASYNC} $spmatA (`{{` $modeA^ `}}`)? `,` $spmatB (`{{` $modeB^ `}}`)? `,` "
              "$spmatC `,` $desc attr-dict `:` $computeType")


class SpMatGetSizeOp(SparseOp):
    MNEMONIC = "spmat_get_size"
    OPERANDS = (_DEPS, _handle("spmat", SPMAT_HANDLE))
    RESULTS = (Result("rows", Exactly(INDEX, "index")), Result("cols", Exactly(INDEX, "index")),
               Result("nnz", Exactly(INDEX, "index")), _TOKEN)
    FORMAT = f"{_ASYNC} $spmat attr-dict"


class SetCsrPointersOp(SparseOp):
    MNEMONIC = "set_csr_pointers"
    OPERANDS = (_DEPS, _handle("spmat", SPMAT_HANDLE), Operand("positions"),
                Operand("coordinates"), Operand("values"))
    RESULTS = (_TOKEN,)
    FORMAT = (f"{_ASYNC} $spmat `,` $positions `,` $coordinates `,` $values attr-dict `:` "
              "type($positions) `,` type($coordinates) `,` type($values)")
