"""Scalar ops in C: the expression of each arith / math op's result, with its undefined
behaviour checks emitted before it (:class:`ScalarOps`, a part of the kernel translator)."""

from __future__ import annotations

from ....ir.core import Operation
from .c_types import (BITS, CTYPE, ERR_UB, FLOATS, HALVES, UTYPE, NotNative, elem_of,
                      float_literal, half_bits)

__all__ = ["ScalarOps", "CMPI", "INT_BINARY", "FLOAT_BINARY", "FLOAT_CALLS", "MATH_UNARY",
           "BLOCK_IDS", "THREAD_IDS"]

CMPI = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
CMPI_C = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
#: the arith / math ops translated here, by kind
INT_BINARY = {"arith.addi", "arith.subi", "arith.muli", "arith.andi", "arith.ori", "arith.xori",
              "arith.shli", "arith.shrsi", "arith.shrui", "arith.divsi", "arith.divui",
              "arith.remsi", "arith.remui", "arith.ceildivsi", "arith.floordivsi",
              "arith.ceildivui", "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui"}
FLOAT_BINARY = {"arith.addf": "+", "arith.subf": "-", "arith.mulf": "*", "arith.divf": "/"}
FLOAT_CALLS = {"arith.remf": "fmod", "arith.maximumf": "tl_maximum",
               "arith.minimumf": "tl_minimum", "arith.maxnumf": "tl_maxnum",
               "arith.minnumf": "tl_minnum", "math.copysign": "copysign"}
MATH_UNARY = {"math.sqrt": "sqrt", "math.absf": "fabs"}
#: gpu ops whose value is the same for every thread of a block / differs per thread
BLOCK_IDS = ("gpu.block_id", "gpu.block_dim", "gpu.grid_dim", "gpu.subgroup_size",
             "gpu.num_subgroups")
THREAD_IDS = ("gpu.thread_id", "gpu.global_id", "gpu.lane_id", "gpu.subgroup_id")


class ScalarOps:
    """The translation of scalar ops (mixed into the kernel translator, which provides
    ``ref(value)`` and ``emit(line, depth)``)."""

    def expr(self, op: Operation, depth: int) -> str:
        """The C expression of a scalar op's (single) result; undefined behaviour checks are
        emitted before it."""
        name = op.name
        res = op.results[0]
        elem = elem_of(res)
        ct = CTYPE[elem]
        a = [self.ref(x) for x in op.operands]
        if name == "arith.constant":
            attr = op.attributes["value"]
            if elem in FLOATS:
                return float_literal(float(attr.value), elem)
            if elem in HALVES:
                return f"(uint16_t)0x{half_bits(float(attr.value), elem):04x}u"
            value = int(attr.value) if not isinstance(attr.value, bool) else int(attr.value)
            bits = BITS[elem]
            value &= (1 << bits) - 1
            if elem == "i1":
                return str(value)
            if value >= 1 << (bits - 1):
                value -= 1 << bits
            if value == -(1 << 63):
                return "INT64_MIN"
            return f"({ct})({value}{'LL' if bits == 64 else ''})"
        if name in BLOCK_IDS or name in THREAD_IDS:
            axis = op.attributes["dimension"].keyword if "dimension" in op.attributes else "x"
            return {"gpu.block_id": "b" + axis, "gpu.block_dim": "B" + axis.upper(),
                    "gpu.grid_dim": {"x": "gx", "y": "gy", "z": "(int64_t)P[2]"}[axis],
                    "gpu.thread_id": "t" + axis,
                    "gpu.global_id": f"(b{axis} * B{axis.upper()} + t{axis})",
                    "gpu.lane_id": "(tl % 32)", "gpu.subgroup_id": "(tl / 32)",
                    "gpu.subgroup_size": "32", "gpu.num_subgroups": "((NT + 31) / 32)"}[name]
        if elem in HALVES or (name in ("arith.cmpf", "arith.extf") and
                              elem_of(op.operands[0]) in HALVES):
            return self.half(op, elem, a)
        if name in FLOAT_BINARY:
            return f"({a[0]} {FLOAT_BINARY[name]} {a[1]})"
        if name in FLOAT_CALLS:
            fn = FLOAT_CALLS[name]
            suffix = "f" if elem == "f32" else ""
            return f"{fn}{suffix}({a[0]}, {a[1]})"
        if name in MATH_UNARY:
            return f"{MATH_UNARY[name]}{'f' if elem == 'f32' else ''}({a[0]})"
        if name == "math.fma":
            return f"fma{'f' if elem == 'f32' else ''}({a[0]}, {a[1]}, {a[2]})"
        if name == "arith.negf":
            return f"(-{a[0]})"
        if name == "arith.cmpf":
            return _cmpf(int(op.attributes["predicate"].value), a[0], a[1])
        if name == "arith.cmpi":
            return _cmpi(CMPI[int(op.attributes["predicate"].value)], elem_of(op.operands[0]),
                         a[0], a[1])
        if name == "arith.select":
            return f"({a[0]} ? {a[1]} : {a[2]})"
        if name in INT_BINARY:
            return self.int_binary(name, elem, a[0], a[1], depth)
        src = elem_of(op.operands[0])
        if name in ("arith.extf", "arith.truncf"):
            return f"({ct}){a[0]}"
        if name in ("arith.sitofp", "arith.uitofp"):
            if src == "i1":
                return f"({ct})({'-' if name == 'arith.sitofp' else ''}(int){a[0]})"
            return f"({ct})({UTYPE[src]}){a[0]}" if name == "arith.uitofp" else f"({ct}){a[0]}"
        if name in ("arith.fptosi", "arith.fptoui"):
            bits = BITS[elem]
            if name == "arith.fptosi":
                # in range once truncated: (-2^(w-1) - 1, 2^(w-1)); for i64 the double below
                # -2^63 is -2^63 - 2048, so the bound is -2^63 itself, inclusive
                hi = 2.0 ** (bits - 1)
                low = f">= {-hi!r}" if bits == 64 else f"> {-hi - 1.0!r}"
                self.emit(f"if (!((double){a[0]} {low} && (double){a[0]} < {hi!r})) "
                          f"TL_FAIL({ERR_UB});", depth)
                return f"({ct}){a[0]}"
            hi = 2.0 ** bits
            self.emit(f"if (!((double){a[0]} > -1.0 && (double){a[0]} < {hi!r})) "
                      f"TL_FAIL({ERR_UB});", depth)
            return f"({ct})({UTYPE[elem]}){a[0]}"
        if name in ("arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast",
                    "arith.index_castui"):
            return _int_cast(name, src, elem, a[0])
        raise NotNative(f"'{name}'")  # pragma: no cover - check_op refuses it first

    def half(self, op: Operation, elem: str, a: list[str]) -> str:
        """An op on f16/bf16 values (bit patterns): through f32, rounded once."""
        name = op.name
        src = elem_of(op.operands[0]) if op.operands else elem
        wide = [f"tl_f32_from_{src}({x})" for x in a] if src in HALVES else list(a)
        narrow = f"tl_{elem}_from_f32" if elem in HALVES else ""
        if name == "arith.select":
            return f"({a[0]} ? {a[1]} : {a[2]})"
        if name == "arith.negf":
            return f"(uint16_t)({a[0]} ^ 0x8000u)"
        if name == "arith.cmpf":
            return _cmpf(int(op.attributes["predicate"].value), wide[0], wide[1])
        if name == "arith.extf":
            return wide[0] if elem == "f32" else f"(double){wide[0]}"
        if name == "arith.truncf" and src == "f32":
            return f"{narrow}({a[0]})"
        if name in FLOAT_BINARY:
            return f"{narrow}({wide[0]} {FLOAT_BINARY[name]} {wide[1]})"
        if name in FLOAT_CALLS:
            return f"{narrow}({FLOAT_CALLS[name]}f({wide[0]}, {wide[1]}))"
        if name in MATH_UNARY:
            return f"{narrow}({MATH_UNARY[name]}f({wide[0]}))"
        raise NotNative(f"'{name}' on {elem}")

    def int_binary(self, name: str, elem: str, x: str, y: str, depth: int) -> str:
        ct, ut, bits = CTYPE[elem], UTYPE[elem], BITS[elem]
        if elem == "i1":
            table = {"arith.addi": "^", "arith.subi": "^", "arith.muli": "&", "arith.andi": "&",
                     "arith.ori": "|", "arith.xori": "^"}
            if name in table:
                return f"(uint8_t)({x} {table[name]} {y})"
            signed = name in ("arith.maxsi", "arith.minsi")
            big = name in ("arith.maxsi", "arith.maxui")
            # i1 signed: true is -1, so the signed maximum is the logical and
            return f"(uint8_t)({x} {'&' if signed == big else '|'} {y})"
        wrap = {"arith.addi": "+", "arith.subi": "-", "arith.muli": "*"}
        if name in wrap:
            return f"({ct})(({ut}){x} {wrap[name]} ({ut}){y})"
        if name in ("arith.andi", "arith.ori", "arith.xori"):
            sym = {"arith.andi": "&", "arith.ori": "|", "arith.xori": "^"}[name]
            return f"({ct})({x} {sym} {y})"
        if name in ("arith.shli", "arith.shrsi", "arith.shrui"):
            self.emit(f"if (({ut}){y} >= {bits}u) TL_FAIL({ERR_UB});", depth)
            if name == "arith.shli":
                return f"({ct})(({ut}){x} << ({ut}){y})"
            if name == "arith.shrsi":
                return f"({ct})({x} >> ({ut}){y})"
            return f"({ct})(({ut}){x} >> ({ut}){y})"
        if name in ("arith.maxsi", "arith.minsi"):
            return f"({x} {'>' if name == 'arith.maxsi' else '<'} {y} ? {x} : {y})"
        if name in ("arith.maxui", "arith.minui"):
            return f"(({ut}){x} {'>' if name == 'arith.maxui' else '<'} ({ut}){y} ? {x} : {y})"
        self.emit(f"if ({y} == 0) TL_FAIL({ERR_UB});", depth)
        if name in ("arith.divui", "arith.remui", "arith.ceildivui"):
            q = f"({ut}){x} / ({ut}){y}"
            if name == "arith.remui":
                return f"({ct})(({ut}){x} % ({ut}){y})"
            if name == "arith.divui":
                return f"({ct})({q})"
            return f"({ct})({q} + (({ut}){x} % ({ut}){y} != 0))"
        smin = f"(({ct})(({ut})1 << {bits - 1}))"
        self.emit(f"if ({x} == {smin} && {y} == -1) TL_FAIL({ERR_UB});", depth)
        if name == "arith.remsi":
            return f"({ct})({x} % {y})"
        if name == "arith.divsi":
            return f"({ct})({x} / {y})"
        inexact = f"({x} % {y} != 0)"
        if name == "arith.ceildivsi":
            return f"({ct})({x} / {y} + ({inexact} && (({x} < 0) == ({y} < 0))))"
        return f"({ct})({x} / {y} - ({inexact} && (({x} < 0) != ({y} < 0))))"



def _cmpf(pred: int, a: str, b: str) -> str:
    table = {0: "0", 1: f"({a} == {b})", 2: f"({a} > {b})", 3: f"({a} >= {b})",
             4: f"({a} < {b})", 5: f"({a} <= {b})", 6: f"({a} < {b} || {a} > {b})",
             7: f"({a} == {a} && {b} == {b})", 8: f"!({a} < {b} || {a} > {b})",
             9: f"!({a} <= {b})", 10: f"!({a} < {b})", 11: f"!({a} >= {b})",
             12: f"!({a} > {b})", 13: f"({a} != {b})", 14: f"({a} != {a} || {b} != {b})",
             15: "1"}
    return f"(uint8_t){table[pred]}"


def _cmpi(pred: str, elem: str, a: str, b: str) -> str:
    sym = CMPI_C[pred[-2:]]
    if pred in ("eq", "ne"):
        return f"(uint8_t)({a} {sym} {b})"
    if pred[0] == "u":
        ut = UTYPE[elem]
        return f"(uint8_t)(({ut}){a} {sym} ({ut}){b})"
    if elem == "i1":        # signed i1: true is -1
        return f"(uint8_t)(-(int){a} {sym} -(int){b})"
    return f"(uint8_t)({a} {sym} {b})"


def _int_cast(name: str, src: str, dst: str, a: str) -> str:
    ct = CTYPE[dst]
    if dst == "i1":
        return f"(uint8_t)({a} & 1)"
    if BITS[dst] <= BITS[src]:
        return f"({ct}){a}"
    zero_extend = name in ("arith.extui", "arith.index_castui")
    if src == "i1":
        return f"({ct}){a}" if zero_extend else f"({ct})(-(int64_t){a})"
    return f"({ct})({UTYPE[src]}){a}" if zero_extend else f"({ct}){a}"
