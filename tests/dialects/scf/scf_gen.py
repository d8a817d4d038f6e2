"""A random generator of valid scf modules (nested loops, conditionals, switches, parallel
loops with reductions...), in MLIR's custom syntax, for differential tests against mlir-opt.
Leaf values come from unregistered ``test.*`` ops so no other dialect is needed."""

from __future__ import annotations

import random

TYPES = ("index", "i32", "i64", "f32", "i1", "tensor<4xf32>")


class _Gen:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.n = 0
        self.lines: list[str] = []
        self.pending: list = []

    def fresh(self) -> str:
        self.n += 1
        return f"%v{self.n}"

    def emit(self, depth: int, text: str) -> None:
        self.lines.append("  " * depth + text)

    def pick(self, scope: dict, t: str, depth: int) -> str:
        if scope.get(t) and self.rng.random() < 0.8:
            return self.rng.choice(scope[t])
        v = self.fresh()
        self.emit(depth, f'{v} = "test.v"() : () -> {t}')
        scope.setdefault(t, []).append(v)
        return v

    def body(self, scope: dict, depth: int, budget: int) -> None:
        for _ in range(self.rng.randint(0, 3)):
            if budget <= 0:
                break
            budget -= 1
            self.op(scope, depth, budget)

    def results(self) -> list[str]:
        return [self.rng.choice(TYPES[:5]) for _ in range(self.rng.randint(0, 2))]

    def define(self, scope: dict, types: list[str]) -> str:
        if not types:
            return ""
        v = self.fresh()
        # the results become usable after the op: op() adds them when it is done
        self.pending.append((scope, [(t, v if len(types) == 1 else f"{v}#{i}")
                                     for i, t in enumerate(types)]))
        return f"{v}:{len(types)} = " if len(types) > 1 else f"{v} = "

    def yield_(self, scope: dict, depth: int, types: list[str], op: str = "scf.yield") -> None:
        if types:
            vals = [self.pick(scope, t, depth) for t in types]
            self.emit(depth, f"{op} {', '.join(vals)} : {', '.join(types)}")
        elif self.rng.random() < 0.5:
            self.emit(depth, op)

    def op(self, outer: dict, depth: int, budget: int) -> None:
        mark = len(self.pending)
        self._op(outer, depth, budget)
        done, self.pending = self.pending[mark:], self.pending[:mark]
        for scope, values in done:
            for t, v in values:
                scope.setdefault(t, []).append(v)

    def _op(self, outer: dict, depth: int, budget: int) -> None:
        rng = self.rng
        kind = rng.choice(("for", "if", "while", "parallel", "execute", "switch", "forall",
                           "use"))
        scope = {k: list(v) for k, v in outer.items()}
        if kind == "use":
            t = rng.choice(TYPES)
            self.emit(depth, f'"test.use"({self.pick(outer, t, depth)}) : ({t}) -> ()')
            return
        if kind == "for":
            t = rng.choice(("index", "index", "i32", "i64"))
            lb, ub, st = (self.pick(outer, t, depth) for _ in range(3))
            iters = self.results()
            inits = [self.pick(outer, it, depth) for it in iters]
            iv = self.fresh()
            scope.setdefault(t, []).append(iv)
            args = [self.fresh() for _ in iters]
            for a, it in zip(args, iters):
                scope.setdefault(it, []).append(a)
            head = ("unsigned " if rng.random() < 0.2 else "") + f"{iv} = {lb} to {ub} step {st}"
            if iters:
                head += (" iter_args(" + ", ".join(f"{a} = {i}" for a, i in zip(args, inits)) +
                         f") -> ({', '.join(iters)})")
            if t != "index":
                head += f" : {t}"
            self.emit(depth, f"{self.define(outer, iters)}scf.for {head} {{")
            self.body(scope, depth + 1, budget)
            self.yield_(scope, depth + 1, iters)
            self.emit(depth, "}")
        elif kind == "if":
            cond = self.pick(outer, "i1", depth)
            types = self.results()
            arrow = f" -> ({', '.join(types)})" if types else ""
            self.emit(depth, f"{self.define(outer, types)}scf.if {cond}{arrow} {{")
            self.body(scope, depth + 1, budget)
            self.yield_(scope, depth + 1, types)
            if types or rng.random() < 0.5:
                self.emit(depth, "} else {")
                inner = {k: list(v) for k, v in outer.items()}
                self.body(inner, depth + 1, budget)
                self.yield_(inner, depth + 1, types)
            self.emit(depth, "}")
        elif kind == "while":
            iters = self.results()
            inits = [self.pick(outer, it, depth) for it in iters]
            cond = self.pick(outer, "i1", depth)
            args = [self.fresh() for _ in iters]
            for a, it in zip(args, iters):
                scope.setdefault(it, []).append(a)
            assign = ("(" + ", ".join(f"{a} = {i}" for a, i in zip(args, inits)) + ") "
                      if iters else "")
            ftype = f"({', '.join(iters)}) -> ({', '.join(iters)})"
            self.emit(depth, f"{self.define(outer, iters)}scf.while {assign}: {ftype} {{")
            self.body(scope, depth + 1, budget)
            vals = "".join(f" {v}" for v in [", ".join(self.pick(scope, t, depth + 1)
                                                       for t in iters)] if iters)
            self.emit(depth + 1, f"scf.condition({cond}){vals}" +
                      (f" : {', '.join(iters)}" if iters else ""))
            self.emit(depth, "} do {")
            after = {k: list(v) for k, v in outer.items()}
            if iters:
                names = [self.fresh() for _ in iters]
                self.emit(depth, "^bb0(" + ", ".join(f"{n}: {t}" for n, t in zip(names, iters))
                          + "):")
                for n, t in zip(names, iters):
                    after.setdefault(t, []).append(n)
            self.body(after, depth + 1, budget)
            vals = [self.pick(after, t, depth + 1) for t in iters]
            self.emit(depth + 1, "scf.yield" + (f" {', '.join(vals)} : {', '.join(iters)}"
                                                if iters else ""))
            self.emit(depth, "}")
        elif kind == "parallel":
            rank = rng.randint(1, 3)
            bounds = [[self.pick(outer, "index", depth) for _ in range(rank)] for _ in range(3)]
            ivs = [self.fresh() for _ in range(rank)]
            scope.setdefault("index", []).extend(ivs)
            types = [rng.choice(("i32", "f32")) for _ in range(rng.randint(0, 2))]
            inits = [self.pick(outer, t, depth) for t in types]
            head = (f"({', '.join(ivs)}) = ({', '.join(bounds[0])}) to ({', '.join(bounds[1])})"
                    f" step ({', '.join(bounds[2])})")
            if types:
                head += f" init ({', '.join(inits)}) -> " + (
                    types[0] if len(types) == 1 else f"({', '.join(types)})")
            self.emit(depth, f"{self.define(outer, types)}scf.parallel {head} {{")
            self.body(scope, depth + 1, budget)
            if types:
                vals = [self.pick(scope, t, depth + 1) for t in types]
                self.emit(depth + 1, f"scf.reduce({', '.join(vals)} : {', '.join(types)}) {{")
                for k, t in enumerate(types):
                    a, b = self.fresh(), self.fresh()
                    self.emit(depth + 1, f"^bb0({a}: {t}, {b}: {t}):")
                    self.emit(depth + 2, f"scf.reduce.return {rng.choice((a, b))} : {t}")
                    self.emit(depth + 1, "}, {" if k + 1 < len(types) else "}")
            elif rng.random() < 0.5:
                self.emit(depth + 1, "scf.reduce")
            self.emit(depth, "}")
        elif kind == "execute":
            types = self.results()
            arrow = (f" -> {types[0]}" if len(types) == 1 else
                     f" -> ({', '.join(types)})" if types else "")
            inline = " no_inline" if rng.random() < 0.3 else ""
            self.emit(depth, f"{self.define(outer, types)}scf.execute_region{arrow}{inline} {{")
            self.body(scope, depth + 1, budget)
            vals = [self.pick(scope, t, depth + 1) for t in types]
            self.emit(depth + 1, "scf.yield" + (f" {', '.join(vals)} : {', '.join(types)}"
                                                if types else ""))
            self.emit(depth, "}")
        elif kind == "switch":
            arg = self.pick(outer, "index", depth)
            types = self.results()
            arrow = f" -> {', '.join(types)}" if types else ""
            self.emit(depth, f"{self.define(outer, types)}scf.index_switch {arg}{arrow}")
            for value in sorted(rng.sample(range(-5, 10), rng.randint(0, 3))):
                self.emit(depth, f"case {value} {{")
                inner = {k: list(v) for k, v in outer.items()}
                self.body(inner, depth + 1, budget)
                vals = [self.pick(inner, t, depth + 1) for t in types]
                self.emit(depth + 1, "scf.yield" + (f" {', '.join(vals)} : {', '.join(types)}"
                                                    if types else ""))
                self.emit(depth, "}")
            self.emit(depth, "default {")
            self.body(scope, depth + 1, budget)
            self.yield_(scope, depth + 1, types)
            self.emit(depth, "}")
        else:  # forall
            rank = rng.randint(1, 2)
            ivs = [self.fresh() for _ in range(rank)]
            scope.setdefault("index", []).extend(ivs)

            def item(d):
                return self.pick(outer, "index", d) if rng.random() < 0.5 else \
                    str(rng.randint(1, 9))
            if rng.random() < 0.5:
                head = f"({', '.join(ivs)}) in ({', '.join(item(depth) for _ in ivs)})"
            else:
                lists = [", ".join(item(depth) for _ in ivs) for _ in range(3)]
                head = f"({', '.join(ivs)}) = ({lists[0]}) to ({lists[1]}) step ({lists[2]})"
            outs = ["tensor<4xf32>"] * rng.randint(0, 2)
            if outs:
                inits = [self.pick(outer, t, depth) for t in outs]
                args = [self.fresh() for _ in outs]
                scope.setdefault("tensor<4xf32>", []).extend(args)
                head += (" shared_outs(" + ", ".join(f"{a} = {i}" for a, i in zip(args, inits))
                         + f") -> ({', '.join(outs)})")
            self.emit(depth, f"{self.define(outer, outs)}scf.forall {head} {{")
            self.body(scope, depth + 1, budget)
            if rng.random() < 0.5:
                self.emit(depth + 1, "scf.forall.in_parallel {")
                self.emit(depth + 1, "}")
            self.emit(depth, "}")


def random_module(rng: random.Random) -> str:
    """One random module body (ops at the top level of the implicit module)."""
    gen = _Gen(rng)
    scope: dict = {}
    for _ in range(rng.randint(1, 4)):
        gen.op(scope, 0, 6)
    return "\n".join(gen.lines) + "\n"
