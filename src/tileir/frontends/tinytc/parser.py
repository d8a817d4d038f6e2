"""The tinytc parser: recursive descent over tinytc v0.3.1's grammar.

As in tinytc, type annotations are checked while parsing (``Type of SSA value does not match
operand type`` at the span from the operand to its annotation), immediates take the type of
their annotation, identifiers may not shadow one of an enclosing scope, and each instruction's
result type is computed (and its rules checked) as soon as it is read (:mod:`.semantics`).
"""

from __future__ import annotations

from typing import Optional

from ...ir.limits import MAX_REGION_DEPTH
from .diagnostics import Loc, TinytcError
from .ir import (Function, GroupType, Imm, Inst, MemrefType, Program, Region,
                 ScalarType, Value, canonical_strides)
from .lexer import Token, tokenize
from .semantics import MESSAGES, SemanticError, infer

__all__ = ["parse_program"]

_INSTRUCTION_STARTS = ("axpby", "gemm", "gemv", "ger", "for", "foreach", "hadamard", "if",
                       "LOCAL_IDENTIFIER", "store", "sum", "yield", "}")
_VALUE_STARTS = ("alloca", "arith", "cast", "cmp", "expand", "fuse", "if", "load", "group_id",
                 "group_size", "size", "subview")


#: Deepest region nesting accepted (a function body is depth 1).  Regions are parsed, checked,
#: printed and lowered recursively; each level lowers to one cuda_tile region, plus a few for
#: the loops of a collective instruction, so the lowered module stays within the
#: MAX_REGION_DEPTH levels that the cuda_tile tools accept.
MAX_REGION_NESTING = MAX_REGION_DEPTH - 16


def _describe(tok: Token) -> str:
    return tok.kind


class _Parser:
    def __init__(self, source: str, filename: str) -> None:
        self.source = source
        self.filename = filename
        self.toks = tokenize(source, filename)
        self.pos = 0
        self.scopes: list[dict[str, Value]] = []
        self.functions: dict[str, Function] = {}
        self.depth = 0

    # -- tokens ------------------------------------------------------------------------------

    @property
    def tok(self) -> Token:
        return self.toks[self.pos]

    def error(self, message: str, loc: Loc) -> TinytcError:
        return TinytcError(message, loc, self.filename, self.source)

    def unexpected(self, *expected: str) -> TinytcError:
        text = f"syntax error, unexpected {_describe(self.tok)}"
        if expected:
            text += ", expecting " + " or ".join(expected[:4])
        return self.error(text, self.tok.loc)

    def accept(self, kind: str) -> Optional[Token]:
        if self.tok.kind == kind:
            tok = self.tok
            self.pos += 1
            return tok
        return None

    def expect(self, *kinds: str) -> Token:
        if self.tok.kind in kinds:
            tok = self.tok
            self.pos += 1
            return tok
        raise self.unexpected(*kinds)

    @property
    def last_loc(self) -> Loc:
        return self.toks[self.pos - 1].loc

    # -- scopes ------------------------------------------------------------------------------

    def define(self, name: str, value: Value, loc: Loc) -> None:
        for scope in reversed(self.scopes):
            other = scope.get(name)
            if other is not None:
                from .diagnostics import format_range
                raise self.error(f"Identifier %{name} was already used at "
                                 f"{self.filename}:{format_range(other.loc)}", loc)
        value.loc = loc
        self.scopes[-1][name] = value

    def lookup(self, tok: Token) -> Value:
        for scope in reversed(self.scopes):
            v = scope.get(tok.value)
            if v is not None:
                return v
        raise self.error(f"Undefined identifier %{tok.value}", tok.loc)

    # -- program -----------------------------------------------------------------------------

    def program(self) -> Program:
        funcs = [self.function()]
        while self.tok.kind == "func":
            funcs.append(self.function())
        if self.tok.kind != "end of file":
            raise self.unexpected("end of file", "func")
        return Program(funcs, self.filename, self.source)

    def function(self) -> Function:
        start = self.expect("func").loc
        self.scopes.append({})
        name_tok = self.expect("GLOBAL_IDENTIFIER")
        self.expect("(")
        args: list[Value] = []
        if self.tok.kind != ")":
            while True:
                tok = self.expect("LOCAL_IDENTIFIER")
                self.expect(":")
                ty, _ = self.data_type()
                v = Value(tok.value, ty)
                self.define(tok.value, v, tok.loc)
                args.append(v)
                if not self.accept(","):
                    break
        rparen = self.expect(")").loc
        fn = Function(name_tok.value, args, Region(), loc=start.to(rparen))
        while self.tok.kind in ("work_group_size", "subgroup_size"):
            if self.accept("work_group_size"):
                self.expect("(")
                m = self.positive()
                self.expect(",")
                n = self.positive()
                self.expect(")")
                fn.work_group_size = (m, n)
            else:
                self.expect("subgroup_size")
                self.expect("(")
                fn.subgroup_size = self.positive()
                self.expect(")")
        if fn.work_group_size is not None and fn.subgroup_size is not None and \
                fn.work_group_size[0] % fn.subgroup_size:
            raise self.error(MESSAGES["work_group_size"], fn.loc.to(self.last_loc))
        if name_tok.value in self.functions:
            from .diagnostics import format_range
            other = self.functions[name_tok.value]
            raise self.error(f"Identifier @{name_tok.value} was already used at "
                             f"{self.filename}:{format_range(other.loc)}", fn.loc)
        self.functions[name_tok.value] = fn
        fn.body = self.region()
        self.scopes.pop()
        return fn

    def positive(self) -> int:
        tok = self.expect("INTEGER_CONSTANT")
        if tok.value <= 0:
            raise self.error("Must be a non-negative number", tok.loc)
        return tok.value

    # -- types -------------------------------------------------------------------------------

    def scalar_type(self) -> tuple[ScalarType, Loc]:
        tok = self.expect("INTEGER_TYPE", "FLOATING_TYPE")
        return ScalarType(tok.value), tok.loc

    def data_type(self):
        if self.tok.kind == "memref":
            return self.memref_type()
        if self.tok.kind == "group":
            return self.group_type()
        if self.tok.kind in ("INTEGER_TYPE", "FLOATING_TYPE"):
            return self.scalar_type()
        raise self.unexpected("INTEGER_TYPE", "FLOATING_TYPE", "memref", "group")

    def constant_or_dynamic(self) -> Optional[int]:
        tok = self.expect("INTEGER_CONSTANT", "?")
        return None if tok.kind == "?" else tok.value

    def memref_type(self) -> tuple[MemrefType, Loc]:
        start = self.expect("memref").loc
        self.expect("<")
        el, el_loc = self.scalar_type()
        shape = []
        while self.accept("x"):
            shape.append(self.constant_or_dynamic())
        strides = None
        if self.accept(","):
            self.expect("strided")
            self.expect("<")
            strides = []
            if self.tok.kind != ">":
                strides.append(self.constant_or_dynamic())
                while self.accept(","):
                    strides.append(self.constant_or_dynamic())
            end_list = self.last_loc
            self.expect(">")
            if len(strides) != len(shape):
                raise self.error("Shape and stride list must have the same length",
                                 el_loc.to(end_list))
        end = self.expect(">").loc
        loc = start.to(end)
        if any(s is not None and s < 0 for s in shape) or \
                any(s is not None and s < 0 for s in (strides or ())):
            raise self.error(MESSAGES["invalid_shape"], loc)
        shape_t = tuple(shape)
        if strides is not None and not _layout_ok(shape_t, tuple(strides)):
            raise self.error(MESSAGES["invalid_layout"], loc)
        strides_t = tuple(strides) if strides is not None else canonical_strides(shape_t)
        if not _fits_address_space(el.name, shape_t, strides_t):
            raise self.error(f"Memref type is too large: its elements span more than "
                             f"{_INT64_MAX} bytes", loc)
        return MemrefType(el.name, shape_t, strides_t), loc

    def group_type(self) -> tuple[GroupType, Loc]:
        start = self.expect("group").loc
        self.expect("<")
        memref, _ = self.memref_type()
        offset: Optional[int] = 0
        if self.accept(","):
            self.expect("offset")
            self.expect(":")
            offset = self.constant_or_dynamic()
        end = self.expect(">").loc
        return GroupType(memref, offset), start.to(end)

    def memref_or_group_type(self):
        if self.tok.kind == "group":
            return self.group_type()
        if self.tok.kind == "memref":
            return self.memref_type()
        raise self.unexpected("memref", "group")

    # -- operands ----------------------------------------------------------------------------

    def var(self) -> tuple[Value, Loc]:
        tok = self.expect("LOCAL_IDENTIFIER")
        return self.lookup(tok), tok.loc

    def identifier_or_constant(self):
        tok = self.expect("LOCAL_IDENTIFIER", "INTEGER_CONSTANT", "FLOATING_CONSTANT")
        if tok.kind == "LOCAL_IDENTIFIER":
            return self.lookup(tok), tok.loc
        return Imm(tok.value, None, tok.loc, tok.text), tok.loc

    def index_operand(self):
        """``index_identifier_or_const``: an index variable or an integer constant."""
        tok = self.expect("LOCAL_IDENTIFIER", "INTEGER_CONSTANT")
        if tok.kind == "LOCAL_IDENTIFIER":
            v = self.lookup(tok)
            self.check_scalar(v, ScalarType("index"), tok.loc, tok.loc)
            return v, tok.loc
        return Imm(tok.value, ScalarType("index"), tok.loc, tok.text), tok.loc

    def type_mismatch(self, loc1: Loc, loc2: Loc) -> TinytcError:
        return self.error(MESSAGES["type_mismatch"], loc1.to(loc2))

    def check_scalar(self, operand, ty: ScalarType, loc1: Loc, loc2: Loc) -> None:
        if isinstance(operand, Imm):
            operand.type = ty
            if ty.name in ("f32", "f64"):
                operand.value = float(operand.value)
            elif isinstance(operand.value, float):
                raise self.type_mismatch(loc1, loc2)
            return
        if operand.type != ty:
            raise self.type_mismatch(loc1, loc2)

    def check_type(self, value: Value, ty, loc1: Loc, loc2: Loc) -> None:
        if value.type != ty:
            raise self.type_mismatch(loc1, loc2)

    # -- regions and instructions ------------------------------------------------------------

    def region(self) -> Region:
        start = self.expect("{").loc
        if self.depth >= MAX_REGION_NESTING:
            raise self.error(f"Regions nest too deeply (at most {MAX_REGION_NESTING} levels)",
                             start)
        self.depth += 1
        self.scopes.append({})
        insts = []
        while self.tok.kind != "}":
            insts.append(self.instruction())
        end = self.expect("}").loc
        self.scopes.pop()
        self.depth -= 1
        return Region(insts, start.to(end))

    def finish(self, inst: Inst, start: Loc) -> Inst:
        inst.loc = start.to(self.last_loc)
        try:
            types = infer(inst)
        except SemanticError as exc:
            raise self.error(str(exc), inst.loc) from None
        inst.results = [Value("", t) for t in types]
        return inst

    def instruction(self) -> Inst:
        kind = self.tok.kind
        handler = {"axpby": self.blas, "sum": self.blas, "gemm": self.blas,
                   "gemv": self.blas, "ger": self.blas, "hadamard": self.blas,
                   "for": self.for_inst, "foreach": self.for_inst, "if": self.if_inst,
                   "LOCAL_IDENTIFIER": self.var_definition, "store": self.store,
                   "yield": self.yield_inst}.get(kind)
        if handler is None:
            raise self.unexpected(*_INSTRUCTION_STARTS[:4])
        return handler()

    def modifiers(self, inst: Inst, names: tuple) -> None:
        for name in names:
            inst.attrs[name] = self.expect(".n", ".t").kind[1:]
        inst.attrs["atomic"] = bool(self.accept(".atomic"))

    #: operand kinds of the collective BLAS instructions: s = alpha/beta, m = memref
    _BLAS_OPERANDS = {"axpby": "smsm", "sum": "smsm", "gemm": "smmsm", "gemv": "smmsm",
                      "ger": "smmsm", "hadamard": "smmsm"}

    def blas(self) -> Inst:
        """``OP[.modifiers] operands : types`` of axpby, sum, gemm, gemv, ger, hadamard."""
        start = self.tok.loc
        op = self.expect(*self._BLAS_OPERANDS).kind
        inst = Inst(op)
        self.modifiers(inst, {"gemm": ("ta", "tb"), "gemv": ("ta",), "axpby": ("ta",),
                              "sum": ("ta",)}.get(op, ()))
        kinds = self._BLAS_OPERANDS[op]
        operands = []
        for i, kind in enumerate(kinds):
            if i:
                self.expect(",")
            operands.append(self.identifier_or_constant() if kind == "s" else self.var())
        self.expect(":")
        types = []
        for i, kind in enumerate(kinds):
            if i:
                self.expect(",")
            types.append(self.scalar_type() if kind == "s" else self.memref_type())
        for kind, (v, lv), (t, lt) in zip(kinds, operands, types):
            if kind == "s":
                self.check_scalar(v, t, lv, lt)
            else:
                self.check_type(v, t, lv, lt)
        inst.operands = [v for v, _ in operands]
        inst.types = [t for t, _ in types]
        return self.finish(inst, start)

    def for_inst(self) -> Inst:
        start = self.tok.loc
        op = self.expect("for", "foreach").kind
        var_tok = self.expect("LOCAL_IDENTIFIER")
        self.expect("=")
        lo, l_lo = self.identifier_or_constant()
        self.expect(",")
        hi, l_hi = self.identifier_or_constant()
        step = l_step = None
        if op == "for" and self.accept(","):
            step, l_step = self.identifier_or_constant()
        ty, l_ty = ScalarType("index"), None
        if self.accept(":"):
            tok = self.expect("INTEGER_TYPE")
            ty, l_ty = ScalarType(tok.value), tok.loc
        self.check_scalar(lo, ty, l_lo, l_ty or l_lo)
        self.check_scalar(hi, ty, l_hi, l_ty or l_hi)
        if step is not None:
            self.check_scalar(step, ty, l_step, l_ty or l_step)
        loop_var = Value(var_tok.value, ty)
        self.define(var_tok.value, loop_var, var_tok.loc)
        inst = Inst(op, [lo, hi] + ([step] if step is not None else []), [ty],
                    attrs={"loop_var": loop_var, "explicit_type": l_ty is not None})
        inst.regions = [self.region()]
        return self.finish(inst, start)

    def if_inst(self) -> Inst:
        start = self.expect("if").loc
        cond, l_cond = self.identifier_or_constant()
        types = []
        returns = False
        if self.accept("->"):
            returns = True
            self.expect("(")
            if self.tok.kind != ")":
                types.append(self.scalar_type()[0])
                while self.accept(","):
                    types.append(self.scalar_type()[0])
            self.expect(")")
        then = self.region()
        regions = [then]
        if self.accept("else"):
            regions.append(self.region())
        self.check_scalar(cond, ScalarType("i1"), l_cond, l_cond)
        inst = Inst("if", [cond], types, regions=regions, attrs={"returns": returns})
        return self.finish(inst, start)

    def var_definition(self) -> Inst:
        names = [self.expect("LOCAL_IDENTIFIER")]
        while self.accept(","):
            names.append(self.expect("LOCAL_IDENTIFIER"))
        ids_loc = names[0].loc.to(names[-1].loc)
        self.expect("=")
        if self.tok.kind not in _VALUE_STARTS:
            raise self.unexpected(*_VALUE_STARTS[:4])
        inst = self.if_inst() if self.tok.kind == "if" else self.value_instruction()
        if len(names) == 1 and not inst.results:
            raise self.error("Instruction does not return value", ids_loc)
        if len(names) != len(inst.results):
            raise self.error("Number of identifiers does not equal number of returned values",
                             ids_loc)
        for tok, res in zip(names, inst.results):
            res.name = tok.value
            self.define(tok.value, res, ids_loc)
        return inst

    def value_instruction(self) -> Inst:
        start = self.tok.loc
        kind = self.tok.kind
        self.pos += 1
        if kind == "alloca":
            self.expect("->")
            ty, _ = self.memref_type()
            return self.finish(Inst("alloca", types=[ty]), start)
        if kind in ("group_id", "group_size"):
            return self.finish(Inst(kind), start)
        if kind == "arith":
            op_tok = self.expect("ARITHMETIC", "ARITHMETIC_UNARY")
            a, l_a = self.identifier_or_constant()
            operands = [(a, l_a)]
            if op_tok.kind == "ARITHMETIC":
                self.expect(",")
                operands.append(self.identifier_or_constant())
            self.expect(":")
            ty, l_ty = self.scalar_type()
            for v, lv in operands:
                self.check_scalar(v, ty, lv, l_ty)
            return self.finish(Inst("arith", [v for v, _ in operands], [ty],
                                    attrs={"kind": op_tok.value}), start)
        if kind == "cast":
            a, l_a = self.identifier_or_constant()
            self.expect(":")
            src, l_src = self.scalar_type()
            self.expect("->")
            dst, _ = self.scalar_type()
            self.check_scalar(a, src, l_a, l_src)
            return self.finish(Inst("cast", [a], [src, dst]), start)
        if kind == "cmp":
            cond = self.expect("CMP_CONDITION").value
            a, l_a = self.identifier_or_constant()
            self.expect(",")
            b, l_b = self.identifier_or_constant()
            self.expect(":")
            ty, l_ty = self.scalar_type()
            self.check_scalar(a, ty, l_a, l_ty)
            self.check_scalar(b, ty, l_b, l_ty)
            return self.finish(Inst("cmp", [a, b], [ty], attrs={"cond": cond}), start)
        if kind == "expand":
            src, l_src = self.var()
            self.expect("[")
            mode = self.expect("INTEGER_CONSTANT").value
            self.expect("->")
            shape = [self.expand_entry()]
            self.expect("x")
            shape.append(self.expand_entry())
            while self.accept("x"):
                shape.append(self.expand_entry())
            self.expect("]")
            self.expect(":")
            ty, l_ty = self.memref_type()
            self.check_type(src, ty, l_src, l_ty)
            return self.finish(Inst("expand", [src] + shape, [ty], attrs={"mode": mode}), start)
        if kind == "fuse":
            src, l_src = self.var()
            self.expect("[")
            lo = self.expect("INTEGER_CONSTANT").value
            self.expect(",")
            hi = self.expect("INTEGER_CONSTANT").value
            self.expect("]")
            self.expect(":")
            ty, l_ty = self.memref_type()
            self.check_type(src, ty, l_src, l_ty)
            return self.finish(Inst("fuse", [src], [ty], attrs={"from": lo, "to": hi}), start)
        if kind == "load":
            src, l_src = self.var()
            idx = self.index_list()
            self.expect(":")
            ty, l_ty = self.memref_or_group_type()
            self.check_type(src, ty, l_src, l_ty)
            return self.finish(Inst("load", [src] + idx, [ty]), start)
        if kind == "size":
            src, l_src = self.var()
            self.expect("[")
            mode = self.expect("INTEGER_CONSTANT").value
            self.expect("]")
            self.expect(":")
            ty, l_ty = self.memref_type()
            self.check_type(src, ty, l_src, l_ty)
            return self.finish(Inst("size", [src], [ty], attrs={"mode": mode}), start)
        # subview
        src, l_src = self.var()
        self.expect("[")
        slices = []
        if self.tok.kind != "]":
            slices.append(self.slice())
            while self.accept(","):
                slices.append(self.slice())
        self.expect("]")
        self.expect(":")
        ty, l_ty = self.memref_type()
        self.check_type(src, ty, l_src, l_ty)
        operands = [src]
        for off, size in slices:
            operands.append(off)
            if size is not None:
                operands.append(size)
        return self.finish(Inst("subview", operands, [ty], attrs={"slices": slices}), start)

    def expand_entry(self):
        tok = self.expect("LOCAL_IDENTIFIER", "INTEGER_CONSTANT", "?")
        if tok.kind == "LOCAL_IDENTIFIER":
            v = self.lookup(tok)
            self.check_scalar(v, ScalarType("index"), tok.loc, tok.loc)
            return v
        if tok.kind == "?":
            return Imm(None, ScalarType("index"), tok.loc, "?")
        return Imm(tok.value, ScalarType("index"), tok.loc, tok.text)

    def slice(self):
        if self.tok.kind == ":":
            tok = self.expect(":")
            return (Imm(0, ScalarType("index"), tok.loc, "0"),
                    Imm(None, ScalarType("index"), tok.loc, "?"))
        off, _ = self.index_operand()
        if not self.accept(":"):
            return (off, None)
        if self.tok.kind == "?":
            tok = self.expect("?")
            return (off, Imm(None, ScalarType("index"), tok.loc, "?"))
        size, _ = self.index_operand()
        return (off, size)

    def index_list(self) -> list:
        self.expect("[")
        idx = []
        if self.tok.kind != "]":
            idx.append(self.index_operand()[0])
            while self.accept(","):
                idx.append(self.index_operand()[0])
        self.expect("]")
        return idx

    def store(self) -> Inst:
        start = self.expect("store").loc
        val, _ = self.var()
        self.expect(",")
        dst, l_dst = self.var()
        idx = self.index_list()
        self.expect(":")
        ty, l_ty = self.memref_type()
        self.check_type(dst, ty, l_dst, l_ty)
        return self.finish(Inst("store", [val, dst] + idx, [ty]), start)

    def yield_inst(self) -> Inst:
        start = self.expect("yield").loc
        vals = []
        if self.tok.kind != ":":
            vals.append(self.identifier_or_constant())
            while self.accept(","):
                vals.append(self.identifier_or_constant())
        colon = self.expect(":").loc
        types = []
        if self.tok.kind in ("INTEGER_TYPE", "FLOATING_TYPE"):
            types.append(self.scalar_type())
            while self.accept(","):
                types.append(self.scalar_type())
        vals_loc = vals[0][1].to(vals[-1][1]) if vals else colon
        types_loc = types[0][1].to(types[-1][1]) if types else colon
        if len(vals) != len(types):
            raise self.error("Identifier and scalar type list must have the same length",
                             vals_loc.to(types_loc))
        for (v, _), (t, _) in zip(vals, types):
            self.check_scalar(v, t, vals_loc, types_loc)
        inst = Inst("yield", [v for v, _ in vals], [t for t, _ in types])
        return self.finish(inst, start)


_INT64_MAX = (1 << 63) - 1


def _fits_address_space(element: str, shape: tuple, strides: tuple) -> bool:
    """Whether every static stride, and the bytes the static modes span, fit tinytc's 64-bit
    sizes (sizes and offsets are ``int64``; larger ones would wrap in the lowered code)."""
    if any(s is not None and s > _INT64_MAX for s in strides):
        return False
    if any(n == 0 for n in shape):
        return True
    span = 1 + sum((n - 1) * s for n, s in zip(shape, strides)
                   if n is not None and s is not None)
    return span * _element_bytes(element) <= _INT64_MAX


def _element_bytes(element: str) -> int:
    """Bytes of one element of scalar type ``element`` (``index`` is 64-bit)."""
    if element == "index":
        return 8
    return max(1, int(element[1:]) // 8)


def _layout_ok(shape: tuple, strides: tuple) -> bool:
    """The reference's restriction on strided layouts (checked where all entries are known):
    1 <= S_1 and S_(i-1) s_(i-1) <= S_i."""
    if strides and strides[0] is not None and strides[0] < 1:
        return False
    for i in range(1, len(strides)):
        prev, size, cur = strides[i - 1], shape[i - 1], strides[i]
        if None not in (prev, size, cur) and prev * size > cur:
            return False
    return True


def parse_program(source: str, filename: str = "<stdin>") -> Program:
    """Parse (and type-check) a tinytc program; raises :class:`TinytcError`."""
    from .checker import check_program
    prog = _Parser(source, filename).program()
    check_program(prog)
    return prog


