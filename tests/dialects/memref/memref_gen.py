"""A random generator of valid memref modules (allocation, loads and stores, casts, views,
atomics, metadata, inside ``scf.for`` loops and ``memref.alloca_scope``), in MLIR's custom
syntax, for differential tests against mlir-opt."""

from __future__ import annotations

import random

ELEMENTS = ("f32", "f16", "i32", "i8", "i64", "f64")
FLOAT_KINDS = ("addf", "maximumf", "maxnumf", "minimumf", "minnumf", "mulf", "assign")
INT_KINDS = ("addi", "andi", "maxs", "maxu", "mins", "minu", "muli", "ori", "xori", "assign")


class _Gen:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.n = 0
        self.lines: list[str] = []
        self.memrefs: list[tuple[str, list, str, str]] = []  # (name, shape, elem, space)
        self.index: list[str] = []

    def fresh(self) -> str:
        self.n += 1
        return f"%v{self.n}"

    def emit(self, depth: int, text: str) -> None:
        self.lines.append("  " * depth + text)

    def idx(self, depth: int) -> str:
        if self.index and self.rng.random() < 0.8:
            return self.rng.choice(self.index)
        v = self.fresh()
        self.emit(depth, f'{v} = "test.v"() : () -> index')
        self.index.append(v)
        return v

    def value(self, elem: str, depth: int) -> str:
        v = self.fresh()
        self.emit(depth, f'{v} = "test.v"() : () -> {elem}')
        return v

    @staticmethod
    def mtype(shape, elem, space="") -> str:
        dims = "".join(("?" if d is None else str(d)) + "x" for d in shape)
        return f"memref<{dims}{elem}{', ' + space if space else ''}>"

    def alloc(self, depth: int, op: str) -> None:
        rng = self.rng
        shape = [rng.choice((None, 1, 2, 4, 7)) for _ in range(rng.randint(0, 3))]
        elem = rng.choice(ELEMENTS)
        space = rng.choice(("", "", "1", "3"))
        dyn = ", ".join(self.idx(depth) for d in shape if d is None)
        v = self.fresh()
        align = f" {{alignment = {rng.choice((8, 16, 64))} : i64}}" if rng.random() < 0.3 else ""
        self.emit(depth, f"{v} = memref.{op}({dyn}){align} : {self.mtype(shape, elem, space)}")
        self.memrefs.append((v, shape, elem, space))

    def access(self, depth: int) -> None:
        rng = self.rng
        name, shape, elem, space = rng.choice(self.memrefs)
        t = self.mtype(shape, elem, space)
        ids = ", ".join(self.idx(depth) for _ in shape)
        kind = rng.choice(("load", "store", "dim", "rank", "cast", "atomic", "generic",
                           "metadata", "pointer", "prefetch", "align", "copy", "spacecast",
                           "subview", "subview", "transpose"))
        nt = " {nontemporal = true}" if rng.random() < 0.2 else ""
        if kind == "load":
            self.emit(depth, f"{self.fresh()} = memref.load {name}[{ids}]{nt} : {t}")
        elif kind == "store":
            val = self.value(elem, depth)
            self.emit(depth, f"memref.store {val}, {name}[{ids}]{nt} : {t}")
        elif kind == "dim" and shape:
            self.emit(depth, f"{self.fresh()} = memref.dim {name}, {self.idx(depth)} : {t}")
        elif kind == "rank":
            self.emit(depth, f"{self.fresh()} = memref.rank {name} : {t}")
        elif kind == "cast":
            if rng.random() < 0.5:
                target = self.mtype([None] * len(shape), elem, space)
            else:
                target = f"memref<*x{elem}{', ' + space if space else ''}>"
            self.emit(depth, f"{self.fresh()} = memref.cast {name} : {t} to {target}")
        elif kind == "atomic":
            kinds = FLOAT_KINDS if elem.startswith("f") else INT_KINDS
            val = self.value(elem, depth)
            self.emit(depth, f"{self.fresh()} = memref.atomic_rmw {rng.choice(kinds)} {val}, "
                      f"{name}[{ids}] : ({elem}, {t}) -> {elem}")
        elif kind == "generic":
            arg = self.fresh()
            self.emit(depth, f"{self.fresh()} = memref.generic_atomic_rmw {name}[{ids}] : {t} {{")
            self.emit(depth, f"^bb0({arg}: {elem}):")
            self.emit(depth + 1, f"memref.atomic_yield {arg} : {elem}")
            self.emit(depth, "}")
        elif kind == "metadata":
            rank = len(shape)
            types = ", ".join([f"memref<{elem}{', ' + space if space else ''}>"] +
                              ["index"] * (1 + 2 * rank))
            self.emit(depth, f"{self.fresh()}:{2 + 2 * rank} = memref.extract_strided_metadata "
                      f"{name} : {t} -> {types}")
        elif kind == "pointer":
            self.emit(depth, f"{self.fresh()} = memref.extract_aligned_pointer_as_index {name}"
                      f" : {t} -> index")
        elif kind == "prefetch":
            self.emit(depth, f"memref.prefetch {name}[{ids}], {rng.choice(('read', 'write'))}, "
                      f"locality<{rng.randint(0, 3)}>, {rng.choice(('data', 'instr'))} : {t}")
        elif kind == "align":
            self.emit(depth, f"{self.fresh()} = memref.assume_alignment {name}, "
                      f"{rng.choice((1, 4, 16))} : {t}")
        elif kind == "copy":
            self.emit(depth, f"memref.copy {name}, {name} : {t} to {t}")
        elif kind == "subview" and shape and None not in shape:
            self.subview(depth, name, shape, elem, space)
        elif kind == "transpose" and len(shape) > 1 and None not in shape:
            self.transpose(depth, name, shape, elem, space)
        elif kind == "spacecast":
            other = self.mtype(shape, elem, "" if space else "5")
            self.emit(depth, f"{self.fresh()} = memref.memory_space_cast {name} : {t} to "
                      f"{other}")

    def subview(self, depth: int, name: str, shape: list, elem: str, space: str) -> None:
        """A static subview of an identity-layout memref, with the result type MLIR infers
        (computed here independently: row-major strides times the steps, the offset)."""
        rng = self.rng
        strides = [1] * len(shape)
        for i in range(len(shape) - 2, -1, -1):
            strides[i] = strides[i + 1] * shape[i + 1]
        offs, sizes, steps = [], [], []
        for d in shape:
            off = rng.randrange(d)
            step = rng.choice((1, 1, 2))
            size = rng.randint(1, max(1, (d - off + step - 1) // step))
            offs.append(off)
            sizes.append(size)
            steps.append(step)
        dyn_off = rng.random() < 0.3
        offset = "?" if dyn_off else str(sum(o * s for o, s in zip(offs, strides)))
        off_text = [self.idx(depth) if dyn_off and i == 0 else str(o) for i, o in enumerate(offs)]
        layout = ("strided<[" + ", ".join(str(s * t) for s, t in zip(strides, steps)) + "]"
                  + ("" if offset == "0" else f", offset: {offset}") + ">")
        result = self.mtype(sizes, f"{elem}, {layout}", space)
        src = self.mtype(shape, elem, space)
        self.emit(depth, f"{self.fresh()} = memref.subview {name}[{', '.join(off_text)}] "
                  f"[{', '.join(map(str, sizes))}] [{', '.join(map(str, steps))}] : {src} to "
                  f"{result}")

    def transpose(self, depth: int, name: str, shape: list, elem: str, space: str) -> None:
        """A transpose of an identity-layout memref; the result layout is the strided linear
        map of the permuted row-major strides, spelled as MLIR prints it (d0 + d1 * 8 ...)."""
        rng = self.rng
        rank = len(shape)
        strides = [1] * rank
        for i in range(rank - 2, -1, -1):
            strides[i] = strides[i + 1] * shape[i + 1]
        dims = list(range(rank))
        while dims == sorted(dims):
            rng.shuffle(dims)
        names = ", ".join(f"d{i}" for i in range(rank))
        perm = f"({names}) -> ({', '.join(f'd{d}' for d in dims)})"
        terms = [f"d{i}" if strides[d] == 1 else f"d{i} * {strides[d]}"
                 for i, d in enumerate(dims)]
        layout = f"affine_map<({names}) -> ({' + '.join(terms)})>"
        result = self.mtype([shape[d] for d in dims], f"{elem}, {layout}", space)
        self.emit(depth, f"{self.fresh()} = memref.transpose {name} {perm} : "
                  f"{self.mtype(shape, elem, space)} to {result}")

    def block(self, depth: int, budget: int) -> None:
        rng = self.rng
        saved = (len(self.memrefs), len(self.index))
        for _ in range(rng.randint(1, 5)):
            r = rng.random()
            if r < 0.25 or not self.memrefs:
                self.alloc(depth, rng.choice(("alloc", "alloca")))
            elif r < 0.85 or budget <= 0:
                self.access(depth)
            elif r < 0.93:
                lb, ub, st = self.idx(depth), self.idx(depth), self.idx(depth)
                iv = self.fresh()
                self.emit(depth, f"scf.for {iv} = {lb} to {ub} step {st} {{")
                self.index.append(iv)
                self.block(depth + 1, budget - 1)
                self.index.remove(iv)
                self.emit(depth, "}")
            else:
                self.emit(depth, "memref.alloca_scope {")
                self.block(depth + 1, budget - 1)
                self.emit(depth, "}")
        del self.memrefs[saved[0]:]
        del self.index[saved[1]:]


def random_module(rng: random.Random) -> str:
    """One random module: its ops inside a top-level ``memref.alloca_scope``."""
    gen = _Gen(rng)
    gen.emit(0, "memref.alloca_scope {")
    gen.block(1, 3)
    gen.emit(0, "}")
    return "\n".join(gen.lines) + "\n"
