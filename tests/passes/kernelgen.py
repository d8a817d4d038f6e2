"""Random *valid, runnable* cuda_tile kernels for translation validation of the passes.

:func:`random_kernel` writes one ``entry`` as text: scalar ``i32``/``f32`` arguments, two output
pointers, and a body of random straight-line arithmetic, comparisons, selects, ``if`` ops (with
results, static and negated conditions, adjacent and nested ifs with shared conditions, early
``return``), ``for`` loops with iteration values, ``if``\\ s comparing the induction variable
with an invariant (what loop-split splits) and loop-invariant code, small vector tiles, and
``assume`` chains: the shapes the canonicalization patterns, CSE, LICM, loop-split and
constant folding look for.  Every value computed is xor-ed into the stored outputs (bit for bit,
floats through bitcast), so a pass that changes any of them changes the outputs.

:func:`fma_kernel` writes a kernel of multiply-add motifs together with the kernel fuse-fma is
specified to produce from it (fma where the product has one use and the same rounding mode and
flush-to-zero as the add/sub), which is the reference fuse-fma is validated against.

Loop bounds and the values compared with induction variables are small, so the loop-split
precondition (no overflow in the split-point arithmetic) holds.
"""

from __future__ import annotations

import random
from typing import Optional

import numpy as np

INT_ARGS = 3
FLOAT_ARGS = 3
OUT_INTS = 48
OUT_FLOATS = 48
VEC = 4
ROUNDINGS = ["nearest_even", "zero", "negative_inf", "positive_inf"]
SPECIAL_FLOATS = [0.0, -0.0, 1.0, -1.5, 0.1, 1e-40, 3.0e38, float("inf"), float("-inf"),
                  float("nan"), 2.0 ** -149, 0.30078125, 7.0, -3.25]
INT_PREDS = ["equal", "not_equal", "less_than", "less_than_or_equal", "greater_than",
             "greater_than_or_equal"]


class _Body:
    """Values built so far by kind ("i" i32, "f" f32, "b" i1, "vi"/"vf" 4-element) and the
    text lines of the current block."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.counter = 0
        self.lines: list[str] = []
        self.indent = "    "
        self.pools: dict[str, list[str]] = {"i": [], "f": [], "b": [], "vi": [], "vf": []}
        self.stored: list[tuple[str, str]] = []  # (kind, value) still to be stored

    # -- helpers ---------------------------------------------------------------------------------

    def fresh(self) -> str:
        self.counter += 1
        return f"%v{self.counter}"

    def emit(self, text: str) -> None:
        self.lines.append(self.indent + text)

    def add(self, kind: str, name: str) -> str:
        self.pools[kind].append(name)
        return name

    def pick(self, kind: str) -> str:
        pool = self.pools[kind]
        if not pool or self.rng.random() < 0.15:
            return self.const(kind)
        return self.rng.choice(pool[-8:] if self.rng.random() < 0.7 else pool)

    def const(self, kind: str, value=None) -> str:
        r = self.rng
        v = self.fresh()
        if kind == "i":
            value = r.choice([0, 1, -1, 2, 3, 7, -8, 100, 2 ** 31 - 1, -2 ** 31]) \
                if value is None else value
            self.emit(f"{v} = constant <i32: {value}> : tile<i32>")
        elif kind == "f":
            value = r.choice([0.0, 1.0, -2.5, 0.5, 3.0, 1.0e-3]) if value is None else value
            self.emit(f"{v} = constant <f32: {float(value)!r}> : tile<f32>")
        elif kind == "b":
            value = r.random() < 0.5 if value is None else value
            self.emit(f"{v} = constant <i1: {'true' if value else 'false'}> : tile<i1>")
        elif kind == "vi":
            vals = [r.randint(-9, 9) for _ in range(VEC)] if value is None else value
            self.emit(f"{v} = constant <i32: [{', '.join(map(str, vals))}]> : tile<{VEC}xi32>")
        else:
            vals = [r.choice([0.0, 1.0, -2.5, 0.5]) for _ in range(VEC)] if value is None \
                else value
            self.emit(f"{v} = constant <f32: [{', '.join(map(repr, vals))}]> : "
                      f"tile<{VEC}xf32>")
        return self.add(kind, v)

    # -- statements -----------------------------------------------------------------------------

    def int_binary(self) -> None:
        r = self.rng
        op = r.choice(["addi", "subi", "muli", "andi", "ori", "xori", "maxi", "mini"])
        kind = "vi" if r.random() < 0.2 else "i"
        a, b = self.pick(kind), self.pick(kind)
        sign = f" {r.choice(['signed', 'unsigned'])}" if op in ("maxi", "mini") else ""
        t = _t(kind)
        self.add(kind, v := self.fresh())
        self.emit(f"{v} = {op} {a}, {b}{sign} : {t}")

    def float_binary(self) -> None:
        r = self.rng
        op = r.choice(["addf", "subf", "mulf", "mulf", "addf", "maxf", "minf", "divf"])
        kind = "vf" if r.random() < 0.2 else "f"
        a, b = self.pick(kind), self.pick(kind)
        mods = ""
        if op in ("addf", "subf", "mulf", "divf"):
            if r.random() < 0.3:
                mods += f" rounding<{r.choice(ROUNDINGS)}>"
            if r.random() < 0.2:
                mods += " flush_to_zero"
        self.add(kind, v := self.fresh())
        self.emit(f"{v} = {op} {a}, {b}{mods} : {_t(kind)}")

    def fma(self) -> None:
        kind = "f"
        a, b, c = self.pick(kind), self.pick(kind), self.pick(kind)
        mods = f" rounding<{self.rng.choice(ROUNDINGS)}>" if self.rng.random() < 0.3 else ""
        self.add(kind, v := self.fresh())
        self.emit(f"{v} = fma {a}, {b}, {c}{mods} : tile<f32>")

    def unary(self) -> None:
        r = self.rng
        choice = r.choice(["negf", "absf", "negi", "not", "exti", "sqrt"])
        v = self.fresh()
        if choice in ("negf", "absf"):
            self.emit(f"{v} = {choice} {self.pick('f')} : tile<f32>")
            self.add("f", v)
        elif choice == "sqrt":
            self.emit(f"{v} = sqrt {self.pick('f')} rounding<nearest_even> : tile<f32>")
            self.add("f", v)
        elif choice == "negi":
            self.emit(f"{v} = negi {self.pick('i')} : tile<i32>")
            self.add("i", v)
        elif choice == "not":
            true = self.const("b", True)
            self.emit(f"{v} = xori {self.pick('b')}, {true} : tile<i1>")
            self.add("b", v)
        else:
            self.emit(f"{v} = exti {self.pick('b')} {r.choice(['signed', 'unsigned'])} : "
                      "tile<i1> -> tile<i32>")
            self.add("i", v)

    def compare(self) -> None:
        r = self.rng
        v = self.fresh()
        if r.random() < 0.7:
            a, b = self.pick("i"), self.pick("i")
            self.emit(f"{v} = cmpi {r.choice(INT_PREDS)} {a}, {b}, "
                      f"{r.choice(['signed', 'unsigned'])} : tile<i32> -> tile<i1>")
        else:
            a, b = self.pick("f"), self.pick("f")
            self.emit(f"{v} = cmpf {r.choice(INT_PREDS)} {r.choice(['ordered', 'unordered'])} "
                      f"{a}, {b} : tile<f32> -> tile<i1>")
        self.add("b", v)

    def select(self) -> None:
        r = self.rng
        form = r.randrange(7)
        cond = self.pick("b")
        v = self.fresh()
        if form == 0:  # select c, true, false / false, true
            t, f = self.const("b", True), self.const("b", False)
            if r.random() < 0.5:
                t, f = f, t
            self.emit(f"{v} = select {cond}, {t}, {f} : tile<i1>, tile<i1>")
            self.add("b", v)
            return
        if form == 1:  # select c, 1, 0 (exti)
            one, zero = self.const("i", 1), self.const("i", 0)
            if r.random() < 0.5:
                one, zero = zero, one
            self.emit(f"{v} = select {cond}, {one}, {zero} : tile<i1>, tile<i32>")
        elif form == 2:  # select (cmpi eq/ne a, b), a, b
            a, b = self.pick("i"), self.pick("i")
            c = self.fresh()
            self.emit(f"{c} = cmpi {r.choice(['equal', 'not_equal'])} {a}, {b}, signed : "
                      "tile<i32> -> tile<i1>")
            self.emit(f"{v} = select {c}, {a}, {b} : tile<i1>, tile<i32>")
        elif form == 3:  # nested selects on one condition
            a, b, c = self.pick("i"), self.pick("i"), self.pick("i")
            inner = self.fresh()
            self.emit(f"{inner} = select {cond}, {a}, {b} : tile<i1>, tile<i32>")
            if r.random() < 0.5:
                self.emit(f"{v} = select {cond}, {inner}, {c} : tile<i1>, tile<i32>")
            else:
                self.emit(f"{v} = select {cond}, {c}, {inner} : tile<i1>, tile<i32>")
        elif form == 4:  # select x, x / static condition
            a = self.pick("f")
            other = a if r.random() < 0.5 else self.pick("f")
            if r.random() < 0.5:
                cond = self.const("b")
            self.emit(f"{v} = select {cond}, {a}, {other} : tile<i1>, tile<f32>")
            self.add("f", v)
            return
        elif form == 5:  # vector select of constants
            cv = self.fresh()
            bits = ", ".join(r.choice(["true", "false"]) for _ in range(VEC))
            self.emit(f"{cv} = constant <i1: [{bits}]> : tile<{VEC}xi1>")
            a, b = self.const("vi"), self.const("vi")
            self.emit(f"{v} = select {cv}, {a}, {b} : tile<{VEC}xi1>, tile<{VEC}xi32>")
            self.add("vi", v)
            return
        else:  # select on a negated condition
            true = self.const("b", True)
            n = self.fresh()
            self.emit(f"{n} = xori {cond}, {true} : tile<i1>")
            a, b = self.pick("i"), self.pick("i")
            self.emit(f"{v} = select {n}, {a}, {b} : tile<i1>, tile<i32>")
        self.add("i", v)

    def vector(self) -> None:
        """Broadcast a scalar to a vector (reshape + broadcast), or iota."""
        r = self.rng
        kind = r.choice(["i", "f"])
        el = "i32" if kind == "i" else "f32"
        s = self.pick(kind)
        rs, v = self.fresh(), self.fresh()
        self.emit(f"{rs} = reshape {s} : tile<{el}> -> tile<1x{el}>")
        self.emit(f"{v} = broadcast {rs} : tile<1x{el}> -> tile<{VEC}x{el}>")
        self.add("v" + kind, v)
        if r.random() < 0.3:
            io = self.fresh()
            self.emit(f"{io} = iota : tile<{VEC}xi32>")
            self.add("vi", io)

    def assume(self) -> None:
        x = self.pick("i")
        a, b = self.fresh(), self.fresh()
        pred = self.rng.choice(["bounded<?, ?>", "div_by<1>"])
        self.emit(f"{a} = assume {pred}, {x} : tile<i32>")
        self.emit(f"{b} = assume {pred}, {a} : tile<i32>")
        self.add("i", b)

    def duplicate(self) -> None:
        """The same pure op twice (for CSE)."""
        a, b = self.pick("i"), self.pick("i")
        v1, v2, s = self.fresh(), self.fresh(), self.fresh()
        self.emit(f"{v1} = addi {a}, {b} : tile<i32>")
        self.emit(f"{v2} = addi {a}, {b} : tile<i32>")
        self.emit(f"{s} = muli {v1}, {v2} : tile<i32>")
        self.add("i", s)

    def statement(self, depth: int, in_loop: bool) -> None:
        r = self.rng
        weights = [("int_binary", 4), ("float_binary", 4), ("fma", 1), ("unary", 2),
                   ("compare", 3), ("select", 3), ("vector", 1), ("assume", 1),
                   ("duplicate", 1)]
        if depth < 2:
            weights += [("if_op", 3), ("if_pair", 1), ("nested_if", 1), ("for_loop", 2)]
            if not in_loop:
                weights += [("early_return", 1), ("while_loop", 1)]
        names = [n for n, w in weights for _ in range(w)]
        name = r.choice(names)
        getattr(self, name)(*((depth, in_loop) if name in _NESTED else ()))

    def block(self, depth: int, in_loop: bool, count: int) -> None:
        for _ in range(count):
            self.statement(depth, in_loop)

    # -- control flow -------------------------------------------------------------------------

    def _branch(self, depth: int, in_loop: bool, kinds: list[str], allow_leave: bool,
                loop_values: Optional[list[str]] = None) -> str:
        """Emit a branch body; return its terminator line."""
        saved = {k: list(v) for k, v in self.pools.items()}
        self.block(depth + 1, in_loop, self.rng.randrange(0, 3))
        r = self.rng
        if allow_leave and loop_values is not None and r.random() < 0.25:
            term = f"continue {', '.join(loop_values)} : " + \
                ", ".join(_kind_of_loop_values(self, loop_values))
        else:
            vals = [self.pick(k) for k in kinds]
            if vals and r.random() < 0.15 and all(k == "b" for k in kinds):
                vals = [self.const("b") for _ in kinds]
            term = ("yield " + ", ".join(vals) + " : " + ", ".join(_t(k) for k in kinds)) \
                if kinds else "yield"
        self.pools = saved
        return term

    def if_op(self, depth: int, in_loop: bool, cond: Optional[str] = None,
              loop_values: Optional[list[str]] = None) -> list[str]:
        r = self.rng
        if cond is None:
            roll = r.random()
            cond = self.const("b") if roll < 0.15 else self.pick("b")
            if 0.15 <= roll < 0.3:
                true = self.const("b", True)
                n = self.fresh()
                self.emit(f"{n} = xori {cond}, {true} : tile<i1>")
                cond = n
        kinds = [r.choice(["i", "f", "b"] if in_loop else ["i", "f", "b", "vi"])
                 for _ in range(r.randrange(0, 3))]
        results = [self.fresh() for _ in kinds]
        head = (", ".join(results) + " = ") if results else ""
        types = f" -> ({', '.join(_t(k) for k in kinds)})" if kinds else ""
        self.emit(f"{head}if {cond}{types} {{")
        outer = self.indent
        self.indent += "  "
        then_term = self._branch(depth, in_loop, kinds, True, loop_values)
        self.emit(then_term)
        self.indent = outer
        has_else = bool(kinds) or r.random() < 0.5
        if has_else:
            self.emit("} else {")
            self.indent += "  "
            else_term = self._branch(depth, in_loop, kinds,
                                     not then_term.startswith("continue"), loop_values)
            self.emit(else_term)
            self.indent = outer
        self.emit("}")
        for k, v in zip(kinds, results):
            self.add(k, v)
        return results

    def if_pair(self, depth: int, in_loop: bool) -> None:
        """Two ifs in a row on the same (or negated) condition."""
        cond = self.pick("b")
        self.if_op(depth, in_loop, cond)
        if self.rng.random() < 0.4:
            true = self.const("b", True)
            n = self.fresh()
            self.emit(f"{n} = xori {cond}, {true} : tile<i1>")
            cond = n
        self.if_op(depth, in_loop, cond)

    def nested_if(self, depth: int, in_loop: bool) -> None:
        """``if a { if b {...} }`` with at most a trivial else."""
        r = self.rng
        a, b = self.pick("b"), self.pick("b")
        kinds = [r.choice(["i", "f"])] if r.random() < 0.5 else []
        outer_res = [self.fresh() for _ in kinds]
        inner_res = [self.fresh() for _ in kinds]
        types = f" -> ({', '.join(_t(k) for k in kinds)})" if kinds else ""
        else_vals = [self.pick(k) for k in kinds]
        self.emit((", ".join(outer_res) + " = " if kinds else "") + f"if {a}{types} {{")
        self.indent += "  "
        self.emit((", ".join(inner_res) + " = " if kinds else "") + f"if {b}{types} {{")
        self.indent += "  "
        saved = {k: list(v) for k, v in self.pools.items()}
        self.block(depth + 2, in_loop, r.randrange(1, 3))
        then_vals = [self.pick(k) for k in kinds]
        self.pools = saved
        self.emit(("yield " + ", ".join(then_vals) + " : " + ", ".join(map(_t, kinds)))
                  if kinds else "yield")
        self.indent = self.indent[:-2]
        if kinds:
            self.emit("} else {")
            self.emit("  yield " + ", ".join(else_vals) + " : " + ", ".join(map(_t, kinds)))
        self.emit("}")
        self.emit(("yield " + ", ".join(inner_res) + " : " + ", ".join(map(_t, kinds)))
                  if kinds else "yield")
        self.indent = self.indent[:-2]
        if kinds:
            self.emit("} else {")
            self.emit("  yield " + ", ".join(else_vals) + " : " + ", ".join(map(_t, kinds)))
        self.emit("}")
        for k, v in zip(kinds, outer_res):
            self.add(k, v)

    def early_return(self, depth: int, in_loop: bool) -> None:
        """``if c { store; return } [else { store; return }]``."""
        cond = self.pick("b")
        self.emit(f"if {cond} {{")
        self.indent += "  "
        self.emit_stores(limit=2)
        self.emit("return")
        self.indent = self.indent[:-2]
        if self.rng.random() < 0.4:
            self.emit("} else {")
            self.indent += "  "
            self.emit_stores(limit=2)
            self.emit("return")
            self.indent = self.indent[:-2]
        self.emit("}")

    def for_loop(self, depth: int, in_loop: bool) -> None:
        r = self.rng
        unsigned = r.random() < 0.2
        lo = r.randint(0, 4) if unsigned else r.randint(-4, 4)
        lb = self.const("i", lo)
        if r.random() < 0.5:
            ub = self.const("i", lo + r.randint(0, 10))
        else:  # bounded by an argument: clamp it to lo + [0, 10]
            arg = self.rng.choice([f"%a{i}" for i in range(INT_ARGS)])
            c_lo, c_hi = self.const("i", lo), self.const("i", lo + 10)
            t = self.fresh()
            self.emit(f"{t} = maxi {arg}, {c_lo} signed : tile<i32>")
            ub = self.fresh()
            self.emit(f"{ub} = mini {t}, {c_hi} signed : tile<i32>")
        step = self.const("i", r.choice([1, 1, 2, 3]))
        # the invariant the induction variable is compared with: small, so that the split
        # point arithmetic cannot overflow (the pass's precondition)
        if unsigned or r.random() < 0.5:
            bound = self.const("i", max(0, r.randint(lo - 1, lo + 8)) if unsigned
                               else r.randint(lo - 2, lo + 8))
        else:
            bound = f"%a{r.randrange(INT_ARGS)}"
        kinds = ["i"] + [r.choice(["i", "f"]) for _ in range(r.randrange(0, 2))]
        inits = [self.pick(k) for k in kinds]
        iv = self.fresh()
        iters = [self.fresh() for _ in kinds]
        results = [self.fresh() for _ in kinds]
        sign = "unsigned " if unsigned else ""
        self.emit(f"{', '.join(results)} = for {sign}{iv} in ({lb} to {ub}, step {step}) : "
                  f"tile<i32> iter_values(" +
                  ", ".join(f"{a} = {b}" for a, b in zip(iters, inits)) +
                  f") -> ({', '.join(map(_t, kinds))}) {{")
        self.indent += "  "
        saved = {k: list(v) for k, v in self.pools.items()}
        self.add("i", iv)
        for k, it in zip(kinds, iters):
            self.add(k, it)
        self._loop_types = kinds
        # loop-invariant work, then the split candidate: if (cmpi pred iv, invariant)
        if r.random() < 0.5:
            a, b = self.pick_outer(saved, "i"), self.pick_outer(saved, "i")
            self.add("i", v := self.fresh())
            self.emit(f"{v} = muli {a}, {b} : tile<i32>")
        self.block(depth + 1, True, r.randrange(0, 3))
        cmp = self.fresh()
        lhs, rhs = (iv, bound) if r.random() < 0.7 else (bound, iv)
        cmp_sign = "unsigned" if unsigned == (r.random() < 0.9) else "signed"
        self.emit(f"{cmp} = cmpi {r.choice(INT_PREDS)} {lhs}, {rhs}, {cmp_sign} : "
                  "tile<i32> -> tile<i1>")
        self.add("b", cmp)
        self._loop_types = kinds  # (a nested loop in the body above may have changed it)
        for _ in range(r.randrange(1, 3)):
            self.if_op(depth + 1, True, cmp, loop_values=None if r.random() < 0.5 else
                       [self._pick_of(k) for k in kinds])
        self.block(depth + 1, True, r.randrange(0, 2))
        nexts = [self.pick(k) for k in kinds]
        # every scalar the body computed flows into the first carried value (an i32)
        fresh_values = [v for k in ("i", "b", "f") for v in self.pools[k]
                        if v not in saved[k] and v not in iters]
        nexts[0] = self._xor_all("i", [iters[0]] + fresh_values)
        self.emit(f"continue {', '.join(nexts)} : {', '.join(map(_t, kinds))}")
        self.pools = saved
        self.indent = self.indent[:-2]
        self.emit("}")
        for k, v in zip(kinds, results):
            self.add(k, v)

    def while_loop(self, depth: int, in_loop: bool) -> None:
        """``loop`` counting %i up to a small bound, breaking out with an accumulator."""
        r = self.rng
        zero, one = self.const("i", 0), self.const("i", 1)
        bound = self.const("i", r.randint(0, 6)) if r.random() < 0.5 else \
            f"%a{r.randrange(INT_ARGS)}"
        init = self.pick("i")
        i, acc, result = self.fresh(), self.fresh(), self.fresh()
        self.emit(f"{result} = loop iter_values({i} = {zero}, {acc} = {init}) : "
                  "tile<i32>, tile<i32> -> tile<i32> {")
        self.indent += "  "
        saved = {k: list(v) for k, v in self.pools.items()}
        done = self.fresh()
        self.emit(f"{done} = cmpi greater_than_or_equal {i}, {bound}, signed : "
                  "tile<i32> -> tile<i1>")
        self.emit(f"if {done} {{")
        self.emit(f"  break {acc} : tile<i32>")
        self.emit("}")
        self.add("i", i)
        self.add("i", acc)
        if r.random() < 0.6:  # loop-invariant work
            a, b = self.pick_outer(saved, "i"), self.pick_outer(saved, "i")
            self.add("i", v := self.fresh())
            self.emit(f"{v} = addi {a}, {b} : tile<i32>")
        self.block(depth + 1, True, r.randrange(1, 4))
        fresh_values = [v for k in ("i", "b", "f") for v in self.pools[k]
                        if v not in saved[k] and v not in (i, acc)]
        nxt = self._xor_all("i", [acc] + fresh_values)
        step = self.fresh()
        self.emit(f"{step} = addi {i}, {one} : tile<i32>")
        self.emit(f"continue {step}, {nxt} : tile<i32>, tile<i32>")
        self.pools = saved
        self.indent = self.indent[:-2]
        self.emit("}")
        self.add("i", result)

    def _xor_all(self, kind: str, values: list[str]) -> str:
        """The bitwise xor of ``values`` (i32, i1 or f32 scalars) as one value of ``kind``."""
        bits = []
        for v in values:
            if v in self.pools["b"]:
                e = self.fresh()
                self.emit(f"{e} = exti {v} unsigned : tile<i1> -> tile<i32>")
                v = e
            elif v in self.pools["f"]:
                e = self.fresh()
                self.emit(f"{e} = bitcast {v} : tile<f32> -> tile<i32>")
                v = e
            bits.append(v)
        acc = bits[0]
        for v in bits[1:]:
            x = self.fresh()
            self.emit(f"{x} = xori {acc}, {v} : tile<i32>")
            acc = x
        if kind == "f":
            e = self.fresh()
            self.emit(f"{e} = bitcast {acc} : tile<i32> -> tile<f32>")
            acc = e
        return acc

    def _pick_of(self, kind: str) -> str:
        return self.pick(kind)

    def pick_outer(self, saved: dict, kind: str) -> str:
        pool = saved[kind]
        return self.rng.choice(pool) if pool else self.const(kind)

    # -- outputs -------------------------------------------------------------------------------

    def emit_stores(self, limit: Optional[int] = None) -> None:
        """Store ``limit`` random values to the outputs, or (no limit) all of them folded into
        one scalar and one vector by xor of their bits (so every value is observed with a few
        ops each)."""
        r = self.rng
        int_slot, float_slot = [0], [0]
        if limit is not None:
            items = [(k, v) for k in ("i", "f") for v in self.pools[k]]
            for kind, v in r.sample(items, min(limit, len(items))):
                if kind == "i":
                    self._store_scalar("%oi", "i32", v, int_slot)
                else:
                    self._store_scalar("%of", "f32", v, float_slot)
            return
        acc = {"": None, "v": None}
        for kind in ("i", "b", "f", "vi", "vf"):
            for v in self.pools[kind]:
                prefix = "v" if kind.startswith("v") else ""
                t = f"tile<{VEC}xi32>" if prefix else "tile<i32>"
                if kind == "b":
                    e = self.fresh()
                    self.emit(f"{e} = exti {v} unsigned : tile<i1> -> tile<i32>")
                    v = e
                elif kind in ("f", "vf"):
                    e = self.fresh()
                    ft = f"tile<{VEC}xf32>" if prefix else "tile<f32>"
                    self.emit(f"{e} = bitcast {v} : {ft} -> {t}")
                    v = e
                if acc[prefix] is None:
                    acc[prefix] = v
                    continue
                x = self.fresh()
                self.emit(f"{x} = xori {acc[prefix]}, {v} : {t}")
                acc[prefix] = x
        if acc[""] is not None:
            self._store_scalar("%oi", "i32", acc[""], int_slot)
        if acc["v"] is not None:
            self._store_vector("%oi", "i32", acc["v"], int_slot)
        # the float arguments' bits, stored as floats (the float store path)
        for v in self.pools["f"][:FLOAT_ARGS]:
            self._store_scalar("%of", "f32", v, float_slot)

    def _store_scalar(self, ptr: str, el: str, v: str, slot: list) -> None:
        off, p, tok = self.fresh(), self.fresh(), self.fresh()
        self.emit(f"{off} = constant <i32: {slot[0]}> : tile<i32>")
        self.emit(f"{p} = offset {ptr}, {off} : tile<ptr<{el}>>, tile<i32> -> tile<ptr<{el}>>")
        self.emit(f"{tok} = store_ptr_tko weak {p}, {v} : tile<ptr<{el}>>, tile<{el}> -> token")
        slot[0] += 1

    def _store_vector(self, ptr: str, el: str, v: str, slot: list) -> None:
        rs, bc, io, base, off, p, tok = (self.fresh() for _ in range(7))
        self.emit(f"{rs} = reshape {ptr} : tile<ptr<{el}>> -> tile<1xptr<{el}>>")
        self.emit(f"{bc} = broadcast {rs} : tile<1xptr<{el}>> -> tile<{VEC}xptr<{el}>>")
        self.emit(f"{io} = iota : tile<{VEC}xi32>")
        self.emit(f"{base} = constant <i32: {slot[0]}> : tile<{VEC}xi32>")
        self.emit(f"{off} = addi {io}, {base} : tile<{VEC}xi32>")
        self.emit(f"{p} = offset {bc}, {off} : tile<{VEC}xptr<{el}>>, tile<{VEC}xi32> -> "
                  f"tile<{VEC}xptr<{el}>>")
        self.emit(f"{tok} = store_ptr_tko weak {p}, {v} : tile<{VEC}xptr<{el}>>, "
                  f"tile<{VEC}x{el}> -> token")
        slot[0] += VEC


_NESTED = {"if_op", "if_pair", "nested_if", "early_return", "for_loop", "while_loop"}


def _kind_of_loop_values(body: _Body, values: list[str]) -> list[str]:
    return [_t(k) for k in body._loop_types]


def _t(kind: str) -> str:
    return {"i": "tile<i32>", "f": "tile<f32>", "b": "tile<i1>", "vi": f"tile<{VEC}xi32>",
            "vf": f"tile<{VEC}xf32>"}[kind]


def _signature() -> str:
    ints = ", ".join(f"%a{i}: tile<i32>" for i in range(INT_ARGS))
    floats = ", ".join(f"%b{i}: tile<f32>" for i in range(FLOAT_ARGS))
    return f"({ints}, {floats}, %oi: tile<ptr<i32>>, %of: tile<ptr<f32>>)"


def random_kernel(seed: int, name: str = "k", statements: int = 6) -> str:
    """One random ``entry`` named ``name`` (text)."""
    rng = random.Random(seed)
    body = _Body(rng)
    for i in range(INT_ARGS):
        body.add("i", f"%a{i}")
    for i in range(FLOAT_ARGS):
        body.add("f", f"%b{i}")
    body.block(0, False, statements)
    body.emit_stores()
    body.emit("return")
    return f"  entry @{name}{_signature()} {{\n" + "\n".join(body.lines) + "\n  }\n"


def fma_kernel(seed: int, name: str = "k", motifs: int = 5) -> tuple[str, str]:
    """A kernel of multiply-add/subtract motifs and the kernel fuse-fma must turn it into."""
    rng = random.Random(seed)
    original: list[str] = []
    expected: list[str] = []
    floats = [f"%b{i}" for i in range(FLOAT_ARGS)]
    count = [0]

    def fresh() -> str:
        count[0] += 1
        return f"%v{count[0]}"

    def both(line: str) -> None:
        original.append(line)
        expected.append(line)

    def mods(rounding: str, ftz: bool) -> str:
        text = "" if rounding == "nearest_even" and rng.random() < 0.5 else \
            f" rounding<{rounding}>"
        return text + (" flush_to_zero" if ftz else "")

    for _ in range(motifs):
        a, b, c = (rng.choice(floats) for _ in range(3))
        rm = rng.choice(ROUNDINGS)
        ftz = rng.random() < 0.2
        form = rng.randrange(6)
        mul, res = fresh(), fresh()
        mul_line = f"{mul} = mulf {a}, {b}{mods(rm, ftz)} : tile<f32>"
        if form in (0, 1, 2):  # (a*b)+c, c+(a*b), (a*b)-c: fused
            if form == 0:
                op_line = f"{res} = addf {mul}, {c}{mods(rm, ftz)} : tile<f32>"
                fused = f"{res} = fma {a}, {b}, {c}{mods(rm, ftz)} : tile<f32>"
                original += [mul_line, op_line]
                expected.append(fused)
            elif form == 1:
                op_line = f"{res} = addf {c}, {mul}{mods(rm, ftz)} : tile<f32>"
                fused = f"{res} = fma {a}, {b}, {c}{mods(rm, ftz)} : tile<f32>"
                original += [mul_line, op_line]
                expected.append(fused)
            else:
                neg = fresh()
                op_line = f"{res} = subf {mul}, {c}{mods(rm, ftz)} : tile<f32>"
                original += [mul_line, op_line]
                expected += [f"{neg} = negf {c} : tile<f32>",
                             f"{res} = fma {a}, {b}, {neg}{mods(rm, ftz)} : tile<f32>"]
        elif form == 3:  # different rounding or ftz: not fused
            other = rng.choice([m for m in ROUNDINGS if m != rm])
            if rng.random() < 0.5:
                op_line = f"{res} = addf {mul}, {c} rounding<{other}>" + \
                    (" flush_to_zero" if ftz else "") + " : tile<f32>"
            else:
                op_line = f"{res} = addf {mul}, {c} rounding<{rm}>" + \
                    ("" if ftz else " flush_to_zero") + " : tile<f32>"
            both(mul_line)
            both(op_line)
        elif form == 4:  # the product used twice: not fused
            res2 = fresh()
            both(mul_line)
            both(f"{res} = addf {mul}, {c} : tile<f32>")
            both(f"{res2} = subf {mul}, {a} : tile<f32>")
            floats.append(res2)
        else:  # subtraction from a product on the right: not fused (only addf commutes)
            both(mul_line)
            both(f"{res} = subf {c}, {mul}{mods(rm, ftz)} : tile<f32>")
        floats.append(res)
    stores_o: list[str] = []
    for i, v in enumerate(floats[FLOAT_ARGS:]):
        if i >= OUT_FLOATS:
            break
        off, p, tok = f"%so{i}", f"%sp{i}", f"%st{i}"
        stores_o += [f"{off} = constant <i32: {i}> : tile<i32>",
                     f"{p} = offset %of, {off} : tile<ptr<f32>>, tile<i32> -> tile<ptr<f32>>",
                     f"{tok} = store_ptr_tko weak {p}, {v} : tile<ptr<f32>>, tile<f32> -> token"]

    def render(lines: list[str]) -> str:
        return (f"  entry @{name}{_signature()} {{\n" +
                "\n".join("    " + line for line in lines + stores_o + ["return"]) + "\n  }\n")
    return render(original), render(expected)


def module_text(kernels: list[str]) -> str:
    return "cuda_tile.module @kernels {\n" + "".join(kernels) + "}\n"


def random_arguments(rng: np.random.Generator) -> list:
    """Arguments for one launch: small ints (loop bounds stay small), floats with specials,
    zeroed outputs."""
    ints = [np.int32(rng.integers(-12, 13)) for _ in range(INT_ARGS)]
    floats = []
    for _ in range(FLOAT_ARGS):
        if rng.random() < 0.3:
            floats.append(np.float32(SPECIAL_FLOATS[rng.integers(len(SPECIAL_FLOATS))]))
        else:
            floats.append(np.float32(rng.normal() * 10.0 ** int(rng.integers(-3, 4))))
    return ints + floats + [np.zeros(OUT_INTS, np.int32), np.zeros(OUT_FLOATS, np.float32)]
