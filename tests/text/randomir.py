"""Random Tile IR modules for property tests, built with :class:`tileir.ir.builder.Builder`.

``build_module(draw)`` asks ``draw(strategy)`` for every choice, so hypothesis can shrink a
failing module.  The modules cover every op family (integer, floating point, bitwise,
conversions, shape ops, constants with special float values, assume predicates, memory and
views, atomics, control flow with regions, reduce/scan, print/assert, MMA, globals) and random
locations; they parse and print but are not meant to verify.
"""

from __future__ import annotations

import contextlib

import numpy as np
from hypothesis import strategies as st

from tileir.dialects.cuda_tile.attributes import (DICompileUnitAttr, DIFileAttr, DILexicalBlockAttr,
                                                  DILoc, DISubprogramAttr)
from tileir.dialects.cuda_tile.builder import Builder
from tileir.ir.locations import UNKNOWN_LOC, CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc
from tileir.dialects.cuda_tile.types import TileType

INT_ELEMENTS = ["i1", "i8", "i16", "i32", "i64"]
FLOAT_ELEMENTS = ["f16", "bf16", "f32", "f64"]
SHAPES = [(), (2,), (4,), (2, 4), (4, 4), (1, 8)]

SPECIAL_FLOATS = [0.0, -0.0, 1.0, -1.5, 0.1, 1e-40, 3.0e38, 65504.0, float("inf"),
                  float("-inf"), float("nan"), 12345678.0, 2.0 ** -149, 0.30078125]


def _tile(shape, el: str):
    from tileir.dialects.cuda_tile.types import ELEMENT_TYPES
    return TileType(shape, ELEMENT_TYPES[el])


class Gen:
    """Keeps the values built so far, by type, and builds random ops from them."""

    def __init__(self, draw, b: Builder) -> None:
        self.draw = draw
        self.b = b
        self.pool: dict = {}

    def add(self, v):
        self.pool.setdefault(v.type, []).append(v)
        return v

    def value(self, t):
        """A value of type ``t`` (a fresh constant when there is none)."""
        vals = self.pool.get(t)
        if vals and self.draw(st.booleans()):
            return vals[self.draw(st.integers(0, len(vals) - 1))]
        return self.const(t)

    def const(self, t):
        el = t.element.name
        n = int(np.prod(t.shape)) if t.shape else 1
        splat = self.draw(st.booleans())
        if el == "i1":
            vals = [self.draw(st.booleans()) for _ in range(1 if splat else n)]
        elif el.startswith("i"):
            w = int(el[1:])
            vals = [self.draw(st.integers(-(1 << (w - 1)), (1 << (w - 1)) - 1))
                    for _ in range(1 if splat else n)]
        else:
            vals = [self.draw(st.sampled_from(SPECIAL_FLOATS) | st.floats(width=32))
                    for _ in range(1 if splat else n)]
        arr = np.array(vals * (n if splat else 1)).reshape(t.shape) if t.shape else \
            np.array(vals[0])
        return self.add(self.b.constant(arr, t))

    def int_tile(self):
        return _tile(self.draw(st.sampled_from(SHAPES)), self.draw(st.sampled_from(INT_ELEMENTS)))

    def float_tile(self):
        return _tile(self.draw(st.sampled_from(SHAPES)),
                     self.draw(st.sampled_from(FLOAT_ELEMENTS)))

    # -- families --------------------------------------------------------------------------

    def integer(self):
        b, d = self.b, self.draw
        t = self.int_tile()
        x, y = self.value(t), self.value(t)
        op = d(st.sampled_from(["addi", "subi", "muli", "shli", "divi", "remi", "maxi", "mini",
                                "shri", "mulhii", "andi", "ori", "xori", "absi", "negi",
                                "cmpi"]))
        sign = d(st.sampled_from(["signed", "unsigned"]))
        if op in ("addi", "subi", "muli", "shli"):
            r = getattr(b, op)(x, y, overflow=d(st.sampled_from(
                ["none", "no_signed_wrap", "no_unsigned_wrap", "no_wrap"])))
        elif op == "divi":
            r = b.divi(x, y, signedness=sign,
                       rounding=d(st.sampled_from(["zero", "positive_inf", "negative_inf"])))
        elif op in ("remi", "maxi", "mini", "shri"):
            r = getattr(b, op)(x, y, signedness=sign)
        elif op in ("mulhii", "andi", "ori", "xori"):
            r = getattr(b, op)(x, y)
        elif op == "absi":
            r = b.absi(x)
        elif op == "negi":
            r = b.negi(x, overflow=d(st.sampled_from(["none", "no_signed_wrap"])))
        else:
            r = b.cmpi(x, y, comparison_predicate=d(st.sampled_from(
                ["equal", "not_equal", "less_than", "less_than_or_equal", "greater_than",
                 "greater_than_or_equal"])), signedness=sign)
        self.add(r)

    def floating(self):
        b, d = self.b, self.draw
        t = self.float_tile()
        x, y = self.value(t), self.value(t)
        ieee = ["nearest_even", "zero", "negative_inf", "positive_inf"]
        op = d(st.sampled_from(["addf", "subf", "mulf", "divf", "fma", "remf", "maxf", "minf",
                                "pow", "atan2", "unary", "tanh", "exp", "exp2", "rsqrt", "sqrt",
                                "cmpf", "select"]))
        ftz = d(st.booleans())
        if op in ("addf", "subf", "mulf"):
            r = getattr(b, op)(x, y, rounding_mode=d(st.sampled_from(ieee)), flush_to_zero=ftz)
        elif op == "divf":
            r = b.divf(x, y, rounding_mode=d(st.sampled_from(ieee + ["approx", "full"])),
                       flush_to_zero=ftz)
        elif op == "fma":
            r = b.fma(x, y, self.value(t), rounding_mode=d(st.sampled_from(ieee)),
                      flush_to_zero=ftz)
        elif op in ("maxf", "minf"):
            r = getattr(b, op)(x, y, flush_to_zero=ftz, propagate_nan=d(st.booleans()))
        elif op in ("remf", "pow", "atan2"):
            r = getattr(b, op)(x, y)
        elif op == "unary":
            r = getattr(b, d(st.sampled_from(["absf", "negf", "ceil", "floor", "cos", "cosh",
                                             "sin", "sinh", "tan", "log", "log2"])))(x)
        elif op in ("tanh", "exp"):
            r = getattr(b, op)(x, rounding_mode=d(st.sampled_from(["approx", "full"])))
        elif op in ("exp2", "rsqrt"):
            r = getattr(b, op)(x, flush_to_zero=ftz)
        elif op == "sqrt":
            r = b.sqrt(x, rounding_mode=d(st.sampled_from(ieee + ["approx"])), flush_to_zero=ftz)
        elif op == "cmpf":
            r = b.cmpf(x, y, comparison_predicate=d(st.sampled_from(
                ["equal", "not_equal", "less_than", "greater_than_or_equal"])),
                comparison_ordering=d(st.sampled_from(["ordered", "unordered"])))
        else:
            c = self.value(t.with_element(_tile((), "i1").element))
            r = b.select(c, x, y)
        self.add(r)

    def conversion(self):
        b, d = self.b, self.draw
        shape = d(st.sampled_from(SHAPES))
        op = d(st.sampled_from(["exti", "trunci", "ftof", "ftoi", "itof", "bitcast",
                                "ptr_to_int"]))
        if op == "exti":
            r = b.exti(self.value(_tile(shape, "i8")), signedness="signed", result_type="i32")
        elif op == "trunci":
            r = b.trunci(self.value(_tile(shape, "i64")), result_type="i16",
                         overflow=d(st.sampled_from(["none", "no_wrap"])))
        elif op == "ftof":
            r = b.ftof(self.value(_tile(shape, "f32")), result_type="f16",
                       rounding_mode=d(st.sampled_from(["nearest_even", "zero"])))
        elif op == "ftoi":
            r = b.ftoi(self.value(_tile(shape, "f32")), signedness="unsigned",
                       result_type="i32", saturating=d(st.booleans()))
        elif op == "itof":
            r = b.itof(self.value(_tile(shape, "i32")), signedness="signed",
                       result_type="f64", rounding_mode=d(st.sampled_from(["nearest_even",
                                                                          "positive_inf"])))
        elif op == "bitcast":
            r = b.bitcast(self.value(_tile(shape, "f32")), result_type="i32")
        else:
            r = b.ptr_to_int(self.ptr, result_type="i64")
        self.add(r)

    def shape_ops(self):
        b, d = self.b, self.draw
        op = d(st.sampled_from(["reshape", "broadcast", "permute", "cat", "extract", "iota",
                                "offset"]))
        if op == "reshape":
            r = b.reshape(self.value(_tile((2, 4), "f32")), result_type="tile<8xf32>")
        elif op == "broadcast":
            r = b.broadcast(self.value(_tile((1, 8), "i32")), result_type="tile<4x8xi32>")
        elif op == "permute":
            r = b.permute(self.value(_tile((2, 4), "f16")), permutation=[1, 0],
                          result_type="tile<4x2xf16>")
        elif op == "cat":
            r = b.cat(self.value(_tile((2, 4), "i8")), self.value(_tile((2, 4), "i8")), dim=0,
                      result_type="tile<4x4xi8>")
        elif op == "extract":
            i = self.value(_tile((), "i32"))
            r = b.extract(self.value(_tile((4, 4), "f32")), [i, i], result_type="tile<2x4xf32>")
        elif op == "iota":
            r = b.iota(result_type="tile<8xi32>")
        else:
            ptrs = b.broadcast(b.reshape(self.ptr, result_type="tile<1xptr<f32>>"),
                               result_type="tile<4xptr<f32>>")
            r = b.offset(ptrs, self.value(_tile((4,), "i64")))
        self.add(r)

    def assume(self):
        b, d = self.b, self.draw
        pred = d(st.sampled_from(["div_by<16>", "div_by<4, every 2 along 0>", "bounded<0, ?>",
                                  "bounded<?, 100>", "bounded<-5, 7>", "same_elements<[2]>"]))
        self.add(b.assume(self.value(_tile((4,), "i32")), predicate=pred))

    def memory(self):
        b, d = self.b, self.draw
        op = d(st.sampled_from(["load_ptr", "store_ptr", "view", "atomic", "tokens"]))
        ptrs = b.broadcast(b.reshape(self.ptr, result_type="tile<1xptr<f32>>"),
                           result_type="tile<4xptr<f32>>")
        tok = b.make_token()
        order = d(st.sampled_from(["weak", "relaxed", "acquire"]))
        scope = None if order == "weak" else d(st.sampled_from(["tl_blk", "device", "sys"]))
        hints = d(st.sampled_from([None, {"sm_100": {"latency": 3}},
                                   {"default": {}, "sm_90": {"allow_tma": False}}]))
        if op == "load_ptr":
            mask = self.value(_tile((4,), "i1")) if d(st.booleans()) else None
            pad = self.value(_tile((4,), "f32")) if mask is not None and d(st.booleans()) \
                else None
            v, t = b.load_ptr_tko(ptrs, mask, pad, tok if d(st.booleans()) else None,
                                  memory_ordering_semantics=order, memory_scope=scope,
                                  optimization_hints=hints)
            self.add(v)
        elif op == "store_ptr":
            b.store_ptr_tko(ptrs, self.value(_tile((4,), "f32")),
                            self.value(_tile((4,), "i1")) if d(st.booleans()) else None,
                            tok, memory_ordering_semantics=d(st.sampled_from(
                                ["weak", "relaxed", "release"])), memory_scope=None)
        elif op == "view":
            n = self.value(_tile((), "i32"))
            tv = b.make_tensor_view(self.ptr, shape=[n, 16], strides=[16, 1])
            pv = b.make_partition_view(tv, tile=[4, 8], padding_value=d(st.sampled_from(
                [None, "zero", "nan", "neg_inf"])), dim_map=d(st.sampled_from([None, [1, 0]])))
            i = self.value(_tile((), "i32"))
            v, t2 = b.load_view_tko(pv, [i, i], tok, optimization_hints=hints)
            self.add(v)
            b.store_view_tko(v, pv, [i, i], t2, inbounds=d(st.sampled_from(
                [None, [True, False]])))
            self.add(b.get_tensor_shape(tv)[0])
            self.add(b.get_index_space_shape(pv, "tile<i64>")[1])
        elif op == "atomic":
            iptr = b.int_to_ptr(b.ptr_to_int(ptrs, result_type="i64"),
                                result_type="tile<4xptr<i32>>")
            v = self.value(_tile((4,), "i32"))
            r, t = b.atomic_rmw_tko(iptr, v, None, tok, memory_ordering_semantics="relaxed",
                                    memory_scope="device", mode=d(st.sampled_from(
                                        ["add", "max", "xchg", "and"])))
            r2, t3 = b.atomic_cas_tko(iptr, v, r, self.value(_tile((4,), "i1")), t,
                                      memory_ordering_semantics="acq_rel",
                                      memory_scope="sys")
            self.add(r2)
        else:
            t2 = b.make_token()
            b.join_tokens([tok, t2])

    @contextlib.contextmanager
    def scope(self):
        """Values made inside a nested region are not visible after it."""
        saved = {t: list(vs) for t, vs in self.pool.items()}
        try:
            yield
        finally:
            self.pool = saved

    def control(self, depth: int):
        self._control(depth)

    def _control(self, depth: int):
        b, d = self.b, self.draw
        op = d(st.sampled_from(["if", "for", "loop", "reduce", "scan"]))
        t = self.float_tile()
        if op == "if":
            c = self.value(_tile((), "i1"))
            results = d(st.booleans())
            br = b.if_(c, [t] if results else [], with_else=results or d(st.booleans()))
            with br.then_(), self.scope():
                self.body(depth + 1)
                if results:
                    b.yield_(self.value(t))
            if br.op.regions[1].blocks:
                with br.else_(), self.scope():
                    if results:
                        b.yield_(self.value(t))
            for r in br.results:
                self.add(r)
        elif op == "for":
            it = d(st.sampled_from(["i32", "i64"]))
            lb, ub, step = (self.value(_tile((), it)) for _ in range(3))
            inits = [self.value(t)] if d(st.booleans()) else []
            with b.for_(lb, ub, step, inits, unsigned=d(st.booleans())) as (iv, args, loop), \
                    self.scope():
                self.body(depth + 1)
                if args:
                    b.continue_(b.addf(args[0], args[0]))
            for r in loop.results:
                self.add(r)
        elif op == "loop":
            x = self.value(t)
            with b.loop([x], [t]) as ((arg,), loop), self.scope():
                c = self.value(_tile((), "i1"))
                br = b.if_(c)
                with br.then_():
                    b.break_(arg)
                b.continue_(arg)
            self.add(loop.result)
        else:
            shape = d(st.sampled_from([(4,), (2, 4)]))
            xt = _tile(shape, "f32")
            it = _tile(shape, "i32")
            two = d(st.booleans())
            operands = [self.value(xt)] + ([self.value(it)] if two else [])
            ids = [float("-inf")] + ([0] if two else [])
            dim = len(shape) - 1
            if op == "reduce":
                cm = b.reduce(operands, dim, ids)
            else:
                cm = b.scan(operands, dim, ids, reverse=d(st.booleans()))
            with cm as (args, red), self.scope():
                b.yield_(b.maxf(args[0], args[1]), *([b.addi(args[2], args[3])] if two else []))
            for r in red.results:
                self.add(r)

    def misc(self):
        b, d = self.b, self.draw
        op = d(st.sampled_from(["print", "assert", "grid", "mma", "global"]))
        if op == "print":
            args = [self.value(_tile((), "i32"))] if d(st.booleans()) else []
            fmt = d(st.sampled_from(["x=%d\n", "tab\there \"q\" \\ done", "plain", "é"]))
            b.print_tko(args, b.make_token() if d(st.booleans()) else None, str=fmt)
        elif op == "assert":
            b.assert_(self.value(_tile((4,), "i1")), message="bad \"value\"")
        elif op == "grid":
            for v in b.get_tile_block_id() + b.get_num_tile_blocks():
                self.add(v)
        elif op == "mma":
            if d(st.booleans()):
                a = self.value(_tile((4, 8), "f16"))
                bb = self.value(_tile((8, 4), "f16"))
                self.add(b.mmaf(a, bb, self.value(_tile((4, 4), "f32"))))
            else:
                a = self.value(_tile((4, 8), "i8"))
                bb = self.value(_tile((8, 4), "i8"))
                self.add(b.mmai(a, bb, self.value(_tile((4, 4), "i32")), signedness_lhs="signed",
                                signedness_rhs="unsigned"))
        else:
            self.add(b.get_global(self.global_name))

    def body(self, depth: int = 0):
        families = [self.integer, self.floating, self.conversion, self.shape_ops, self.assume,
                    self.memory, self.misc]
        n = self.draw(st.integers(0, 3 if depth else 6))
        for _ in range(n):
            if depth < 2 and self.draw(st.integers(0, 5)) == 0:
                self.control(depth)
            else:
                self.draw(st.sampled_from(families))()


def random_location(draw, files):
    kind = draw(st.sampled_from(["unknown", "file", "name", "callsite", "fused", "di"]))
    fl = FileLineColLoc(draw(st.sampled_from(["a.py", "dir/b.py", "we ird\"name.py"])),
                        draw(st.integers(0, 300)), draw(st.integers(0, 80)))
    if kind == "unknown":
        return UNKNOWN_LOC
    if kind == "file":
        return fl
    if kind == "name":
        return NameLoc(draw(st.sampled_from(["x", "my var"])),
                       fl if draw(st.booleans()) else None)
    if kind == "callsite":
        return CallSiteLoc(fl, FileLineColLoc("caller.py", 1, 2))
    if kind == "fused":
        return FusedLoc((fl, FileLineColLoc("other.py", 3, 4)))
    f = files[draw(st.integers(0, len(files) - 1))]
    cu = DICompileUnitAttr(f)
    sp = DISubprogramAttr(f, draw(st.integers(1, 50)), "kern", "kern_mangled", cu,
                          draw(st.sampled_from([None, 7])))
    scope = sp if draw(st.booleans()) else DILexicalBlockAttr(sp, f, 3, draw(st.sampled_from(
        [None, 4])))
    return DILoc(fl, scope)


def build_module(draw, *, locations: bool = False):
    b = Builder(name=draw(st.sampled_from(["kernels", "m"])))
    g = Gen(draw, b)
    g.global_name = "g0"
    b.global_("g0", np.array([1.5, -0.0, float("nan"), 2.0], dtype=np.float32), "f32",
              constant=draw(st.booleans()), alignment=draw(st.sampled_from([None, 16])),
              private=draw(st.booleans()))
    n_entries = draw(st.integers(1, 2))
    for k in range(n_entries):
        with b.entry(f"kernel{k}", ["tile<ptr<f32>>", "tile<i32>", "tile<f32>"],
                     hints=draw(st.sampled_from([None, {"sm_100": {"num_cta_in_cga": 2},
                                                        "default": {"occupancy": 4}}]))) as args:
            g.pool = {}
            g.ptr = args[0]
            for a in args[1:]:
                g.add(a)
            g.body()
    if locations:
        files = [DIFileAttr("k.py", "/src"), DIFileAttr("lib.py", "/usr/lib")]
        for op in b.module.walk():
            op.loc = random_location(draw, files)
    return b.module
