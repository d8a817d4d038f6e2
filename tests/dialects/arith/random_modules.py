"""A generator of random, valid modules of the func, arith, math, index and cf dialects (for
differential testing against mlir-opt).  Deterministic for a given seed."""

from __future__ import annotations

import random
from typing import Optional

INT_TYPES = ("i1", "i8", "i16", "i32", "i64")
FLOAT_TYPES = ("f16", "bf16", "f32", "f64")
SHAPED = ("vector<4xi32>", "vector<2xf32>", "tensor<3xi8>", "tensor<?xf64>", "vector<[4]xi16>",
          "tensor<2x2xi64>", "vector<2x3xf16>")
INT_BINARY = ("addi", "subi", "muli", "divsi", "divui", "ceildivsi", "ceildivui", "floordivsi",
              "remsi", "remui", "andi", "ori", "xori", "shli", "shrsi", "shrui", "maxsi",
              "maxui", "minsi", "minui")
OVERFLOW_OPS = ("addi", "subi", "muli", "shli")
EXACT_OPS = ("divsi", "divui", "shrsi", "shrui")
FLOAT_BINARY = ("addf", "subf", "mulf", "divf", "remf", "maximumf", "minimumf", "maxnumf",
                "minnumf")
MATH_UNARY = ("absf", "ceil", "cos", "exp", "floor", "log", "sin", "sqrt", "tanh", "erf",
              "rsqrt", "round", "trunc", "atan", "cbrt")
MATH_BINARY = ("atan2", "copysign", "powf")
FASTMATH = ("fast", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc")
CMPI = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
CMPF = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult",
        "ule", "une", "uno", "true")
INDEX_BINARY = ("add", "sub", "mul", "divs", "divu", "ceildivs", "ceildivu", "floordivs",
                "rems", "remu", "maxs", "maxu", "mins", "minu", "shl", "shrs", "shru", "and",
                "or", "xor")


def _element(t: str) -> str:
    if t.startswith(("vector<", "tensor<")):
        return t[t.rindex("x") + 1:-1]
    return t


def _with_element(t: str, element: str) -> str:
    if t.startswith(("vector<", "tensor<")):
        return t[:t.rindex("x") + 1] + element + ">"
    return element


def _is_int(t: str) -> bool:
    return _element(t) in INT_TYPES or _element(t) == "index"


def _is_float(t: str) -> bool:
    return _element(t) in FLOAT_TYPES


def _width(e: str) -> int:
    return {"bf16": 16, "f16": 16, "f32": 32, "f64": 64}.get(e) or int(e[1:])


class _Body:
    """The ops of one block and the values they define."""

    def __init__(self, rng: random.Random, values: list[tuple[str, str]], prefix: str) -> None:
        self.rng = rng
        self.values = list(values)
        self.lines: list[str] = []
        self.prefix = prefix
        self.count = 0

    def fresh(self) -> str:
        self.count += 1
        return f"%{self.prefix}{self.count}"

    def pick(self, pred) -> Optional[tuple[str, str]]:
        found = [v for v in self.values if pred(v[1])]
        return self.rng.choice(found) if found else None

    def emit(self, text: str, t: str, name: Optional[str] = None) -> str:
        name = name or self.fresh()
        self.lines.append(f"  {name} = {text}")
        self.values.append((name, t))
        return name

    def flags(self, choices: tuple, max_count: int = 2) -> list[str]:
        k = self.rng.randint(1, max_count)
        return self.rng.sample(choices, k)

    def step(self) -> None:
        rng = self.rng
        kind = rng.choice(("const", "int", "int", "float", "float", "cmp", "select", "cast",
                           "math", "index", "ext"))
        getattr(self, "_" + kind)()

    def _dense(self) -> None:
        """A dense constant of a vector or tensor type (splat or element list)."""
        rng = self.rng
        t = rng.choice(("vector<4xi32>", "vector<2xf32>", "tensor<3xi8>", "tensor<2x2xi64>",
                        "vector<2x3xf16>", "vector<4xi1>", "tensor<2xbf16>"))
        e = _element(t)
        dims = [int(d) for d in t[t.index("<") + 1:t.rindex("x")].split("x")]
        count = 1
        for d in dims:
            count *= d

        def element() -> str:
            if e == "i1":
                return rng.choice(("true", "false"))
            if e in FLOAT_TYPES:
                return rng.choice(("0.0", "1.5", "-2.0", "0.25"))
            return str(rng.randint(-100, 100))
        if rng.random() < 0.5:
            body = element()
        else:
            flat = [element() for _ in range(count)]
            if len(dims) == 2:
                rows = [flat[r * dims[1]:(r + 1) * dims[1]] for r in range(dims[0])]
                body = "[" + ", ".join("[" + ", ".join(row) + "]" for row in rows) + "]"
            else:
                body = "[" + ", ".join(flat) + "]"
        self.emit(f"arith.constant dense<{body}> : {t}", t)

    def _const(self) -> None:
        rng = self.rng
        if rng.random() < 0.25:
            return self._dense()
        t = rng.choice(INT_TYPES + FLOAT_TYPES + ("index",))
        if t == "i1":
            self.emit(f"arith.constant {rng.choice(('true', 'false'))}", t)
        elif t in FLOAT_TYPES:
            value = rng.choice(("0.0", "1.0", "-2.5", "3.140625", "0.5") +
                               (("1.0e+10",) if t in ("f32", "f64") else ()))
            self.emit(f"arith.constant {value} : {t}", t)
        else:
            bits = 64 if t == "index" else _width(t)
            value = rng.randint(-(1 << min(bits - 1, 20)), (1 << min(bits - 1, 20)) - 1)
            self.emit(f"arith.constant {value} : {t}", t)

    def _int(self) -> None:
        v = self.pick(_is_int)
        if v is None:
            return self._const()
        op = self.rng.choice(INT_BINARY)
        other = self.pick(lambda t: t == v[1]) or v
        suffix = ""
        if op in OVERFLOW_OPS and self.rng.random() < 0.4:
            suffix = " overflow<" + ", ".join(self.flags(("nsw", "nuw"))) + ">"
        elif op in EXACT_OPS and self.rng.random() < 0.3:
            suffix = " exact"
        self.emit(f"arith.{op} {v[0]}, {other[0]}{suffix} : {v[1]}", v[1])

    def _float(self) -> None:
        v = self.pick(_is_float)
        if v is None:
            return self._const()
        op = self.rng.choice(FLOAT_BINARY + ("negf",))
        fm = ""
        if self.rng.random() < 0.4:
            fm = " fastmath<" + ",".join(self.flags(FASTMATH)) + ">"
        if op == "negf":
            self.emit(f"arith.negf {v[0]}{fm} : {v[1]}", v[1])
        else:
            other = self.pick(lambda t: t == v[1]) or v
            self.emit(f"arith.{op} {v[0]}, {other[0]}{fm} : {v[1]}", v[1])

    def _cmp(self) -> None:
        v = self.pick(lambda t: _is_int(t) or _is_float(t))
        if v is None:
            return self._const()
        result = _with_element(v[1], "i1")
        if _is_int(v[1]):
            self.emit(f"arith.cmpi {self.rng.choice(CMPI)}, {v[0]}, {v[0]} : {v[1]}", result)
        else:
            self.emit(f"arith.cmpf {self.rng.choice(CMPF)}, {v[0]}, {v[0]} : {v[1]}", result)

    def _select(self) -> None:
        v = self.pick(lambda t: True)
        cond = self.pick(lambda t: t == "i1")
        if v is None or cond is None:
            return self._cmp()
        shaped_cond = self.pick(lambda t: t == _with_element(v[1], "i1") and t != "i1")
        if shaped_cond is not None and self.rng.random() < 0.5:
            self.emit(f"arith.select {shaped_cond[0]}, {v[0]}, {v[0]} : {shaped_cond[1]}, "
                      f"{v[1]}", v[1])
        else:
            self.emit(f"arith.select {cond[0]}, {v[0]}, {v[0]} : {v[1]}", v[1])

    def _cast(self) -> None:
        rng = self.rng
        v = self.pick(lambda t: _element(t) in INT_TYPES + FLOAT_TYPES)
        if v is None:
            return self._const()
        e = _element(v[1])
        if e in INT_TYPES:
            op, target = rng.choice((("sitofp", rng.choice(FLOAT_TYPES)),
                                     ("uitofp", rng.choice(FLOAT_TYPES)),
                                     ("index_cast", "index"), ("index_castui", "index")))
            if e in ("i16", "i32", "i64") and rng.random() < 0.3:
                op, target = "bitcast", {"i16": "f16", "i32": "f32", "i64": "f64"}[e]
        else:
            op, target = rng.choice((("fptosi", rng.choice(INT_TYPES)),
                                     ("fptoui", rng.choice(INT_TYPES))))
            if e in ("f32", "f64") and rng.random() < 0.3:
                op, target = "bitcast", {"f32": "i32", "f64": "i64"}[e]
        t = _with_element(v[1], target)
        self.emit(f"arith.{op} {v[0]} : {v[1]} to {t}", t)

    def _ext(self) -> None:
        rng = self.rng
        v = self.pick(lambda t: _element(t) in INT_TYPES + FLOAT_TYPES)
        if v is None:
            return self._const()
        e = _element(v[1])
        pool = INT_TYPES if e in INT_TYPES else ("f16", "f32", "f64")
        wider = [p for p in pool if _width(p) > _width(e)]
        narrower = [p for p in pool if _width(p) < _width(e)]
        if e in INT_TYPES:
            if wider and (not narrower or rng.random() < 0.5):
                op, target = rng.choice(("extsi", "extui")), rng.choice(wider)
                suffix = ""
            elif narrower:
                op, target, suffix = "trunci", rng.choice(narrower), ""
                if rng.random() < 0.3:
                    suffix = " overflow<" + ", ".join(self.flags(("nsw", "nuw"))) + ">"
            else:
                return self._const()
        else:
            if wider and (not narrower or rng.random() < 0.5):
                op, target, suffix = "extf", rng.choice(wider), ""
            elif narrower:
                op, target = "truncf", rng.choice(narrower)
                suffix = rng.choice(("", " to_nearest_even", " downward", " upward",
                                     " toward_zero", " to_nearest_away"))
            else:
                return self._const()
            if rng.random() < 0.3:
                suffix += " fastmath<" + ",".join(self.flags(FASTMATH)) + ">"
        t = _with_element(v[1], target)
        self.emit(f"arith.{op} {v[0]}{suffix} : {v[1]} to {t}", t)

    def _math(self) -> None:
        v = self.pick(_is_float)
        if v is None:
            return self._const()
        fm = " fastmath<fast>" if self.rng.random() < 0.3 else ""
        r = self.rng.random()
        if r < 0.08:
            self.emit(f"math.fma {v[0]}, {v[0]}, {v[0]}{fm} : {v[1]}", v[1])
        elif r < 0.16:
            self.emit(f"math.clampf {v[0]} to [{v[0]}, {v[0]}]{fm} : {v[1]}", v[1])
        elif r < 0.24:
            name = self.fresh()
            self.lines.append(f"  {name}:2 = math.sincos {v[0]}{fm} : {v[1]}")
            self.lines.append(f"  {self.fresh()} = arith.addf {name}#0, {name}#1 : {v[1]}")
        elif r < 0.3 and "x" not in v[1]:
            i = self.pick(lambda t: t in ("i32", "i64", "index"))
            if i is not None:
                self.emit(f"math.fpowi {v[0]}, {i[0]}{fm} : {v[1]}, {i[1]}", v[1])
        elif r < 0.36:
            self.emit(f"math.isnan {v[0]} : {v[1]}", _with_element(v[1], "i1"))
        elif r < 0.7:
            self.emit(f"math.{self.rng.choice(MATH_UNARY)} {v[0]}{fm} : {v[1]}", v[1])
        else:
            self.emit(f"math.{self.rng.choice(MATH_BINARY)} {v[0]}, {v[0]}{fm} : {v[1]}", v[1])

    def _index(self) -> None:
        rng = self.rng
        a = self.pick(lambda t: t == "index")
        if a is None:
            self.emit(f"index.constant {rng.randint(-100, 100)}", "index")
            return
        b = self.pick(lambda t: t == "index") or a
        choice = rng.random()
        if choice < 0.6:
            self.emit(f"index.{rng.choice(INDEX_BINARY)} {a[0]}, {b[0]}", "index")
        elif choice < 0.75:
            self.emit(f"index.cmp {rng.choice(CMPI)}({a[0]}, {b[0]})", "i1")
        elif choice < 0.85:
            t = rng.choice(INT_TYPES)
            self.emit(f"index.{rng.choice(('casts', 'castu'))} {a[0]} : index to {t}", t)
        elif choice < 0.92:
            self.emit("index.sizeof", "index")
        else:
            self.emit(f"index.bool.constant {rng.choice(('true', 'false'))}", "i1")


def random_module(seed: int, blocks: Optional[int] = None) -> str:
    """One random module: a declaration, a callee and a function of several blocks."""
    rng = random.Random(seed)
    arg_types = [rng.choice(INT_TYPES + FLOAT_TYPES + SHAPED + ("index",))
                 for _ in range(rng.randint(1, 5))]
    args = [(f"%a{k}", t) for k, t in enumerate(arg_types)]
    nblocks = blocks if blocks is not None else rng.randint(1, 4)
    lines = [f"func.func private @ext(i32, f32) -> (i64 {{test.r}})",
             "func.func @callee(%x: i32) -> i32 {\n  return %x : i32\n}"]
    sig = ", ".join(f"{n}: {t}" for n, t in args)
    lines.append(f"func.func @f({sig}) -> i32 {{")
    carried: list[tuple[str, str]] = []
    for b in range(nblocks):
        prefix = f"v{b}_"
        header_args = [(f"%p{b}_{k}", t) for k, (_, t) in enumerate(carried)]
        if b > 0:
            head = f"^bb{b}" + (("(" + ", ".join(f"{n}: {t}" for n, t in header_args) + ")")
                                if header_args else "") + ":"
            lines.append(head)
        body = _Body(rng, args + header_args, prefix)
        c = body.emit("arith.constant 7 : i32", "i32", f"%k{b}")
        for _ in range(rng.randint(2, 10)):
            body.step()
        if rng.random() < 0.3:
            body.emit(f"func.call @callee({c}) : (i32) -> i32", "i32")
        if rng.random() < 0.15:
            fn = body.emit("func.constant @callee : (i32) -> i32", "(i32) -> i32")
            body.emit(f"func.call_indirect {fn}({c}) : (i32) -> i32", "i32")
        if rng.random() < 0.1:
            f32 = body.emit("arith.constant 2.0 : f32", "f32")
            body.lines.append(f"  {body.fresh()} = func.call @ext({c}, {f32}) : (i32, f32) -> i64")
        lines.extend(body.lines)
        if b == nblocks - 1:
            lines.append(f"  return {c} : i32")
            break
        passed = rng.sample(body.values, min(len(body.values), rng.randint(0, 3)))
        carried = passed
        operands = ", ".join(n for n, _ in passed)
        types = ", ".join(t for _, t in passed)
        target = f"^bb{b + 1}" + (f"({operands} : {types})" if passed else "")
        cond = body.pick(lambda t: t == "i1")
        r = rng.random()
        if cond is not None and r < 0.4:
            weights = " weights([25, 75])" if rng.random() < 0.3 else ""
            lines.append(f"  cf.cond_br {cond[0]}{weights}, {target}, {target}")
        elif r < 0.6:
            flag = body.pick(lambda t: t in ("i8", "i16", "i32", "i64"))
            if flag is not None:
                cases = sorted(set(rng.randint(-5, 5) for _ in range(rng.randint(0, 3))))
                table = [f"    default: {target}"] + [f"    {v}: {target}" for v in cases]
                lines.append(f"  cf.switch {flag[0]} : {flag[1]}, [\n" + ",\n".join(table)
                             + "\n  ]")
            else:
                lines.append(f"  cf.br {target}")
        else:
            if cond is not None and rng.random() < 0.5:
                lines.append(f'  cf.assert {cond[0]}, "check {b}"')
            lines.append(f"  cf.br {target}")
    lines.append("}")
    return "\n".join(lines)
