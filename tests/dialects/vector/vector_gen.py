"""A random generator of valid vector modules (broadcasts, extracts/inserts, element lists,
loads/stores incl. masked and transfer forms with permutation maps, reductions, multi-dim
reductions, scans, type casts of memrefs, shuffles, casts, masks and vector.mask around the
maskable ops), in MLIR's custom syntax, for differential tests against mlir-opt."""

from __future__ import annotations

import random

FLOATS = ("f32", "f16", "f64", "bf16")
INTS = ("i32", "i8", "i64", "i16")
FLOAT_KINDS = ("add", "mul", "minnumf", "maxnumf", "minimumf", "maximumf")
INT_KINDS = ("add", "mul", "minui", "minsi", "maxui", "maxsi", "and", "or", "xor")


def _vt(shape, elem) -> str:
    return "vector<" + "".join(f"{d}x" for d in shape) + elem + ">"


class _Gen:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.n = 0
        self.lines: list[str] = []

    def fresh(self) -> str:
        self.n += 1
        return f"%v{self.n}"

    def val(self, t: str) -> str:
        v = self.fresh()
        self.lines.append(f'{v} = "test.v"() : () -> {t}')
        return v

    def op(self) -> None:
        rng = self.rng
        elem = rng.choice(FLOATS + INTS)
        shape = [rng.choice((1, 2, 3, 4, 8)) for _ in range(rng.randint(1, 3))]
        vt = _vt(shape, elem)
        kind = rng.choice(("broadcast", "extract", "insert", "from_elements", "load", "store",
                           "maskedload", "maskedstore", "reduction", "fma", "shuffle",
                           "shape_cast", "constant_mask", "create_mask", "transfer_read",
                           "transfer_write", "multi_reduction", "scan", "type_cast",
                           "masked"))
        out = self.fresh() + " = "
        if kind == "broadcast":
            k = rng.randint(0, len(shape))
            src_shape = [rng.choice((1, d)) for d in shape[k:]]
            src = _vt(src_shape, elem) if src_shape and rng.random() < 0.7 else elem
            self.lines.append(f"{out}vector.broadcast {self.val(src)} : {src} to {vt}")
        elif kind in ("extract", "insert"):
            k = rng.randint(0, len(shape))
            pos = ", ".join(self.val("index") if rng.random() < 0.3 else
                            str(rng.randrange(shape[i])) for i in range(k))
            part = _vt(shape[k:], elem) if k < len(shape) else elem
            if kind == "extract":
                self.lines.append(f"{out}vector.extract {self.val(vt)}[{pos}] : {part} from {vt}")
            else:
                self.lines.append(f"{out}vector.insert {self.val(part)}, {self.val(vt)} [{pos}]"
                                  f" : {part} into {vt}")
        elif kind == "from_elements":
            n = 1
            for d in shape:
                n *= d
            x = self.val(elem)
            self.lines.append(f"{out}vector.from_elements {', '.join([x] * n)} : {vt}")
        elif kind in ("load", "store", "maskedload", "maskedstore"):
            rank = rng.randint(len(shape), 3)
            mt = "memref<" + "".join(rng.choice(("?x", "16x")) for _ in range(rank)) + elem + ">"
            m = self.val(mt)
            ids = ", ".join(self.val("index") for _ in range(rank))
            v1 = _vt(shape[-1:], elem)
            if kind == "load":
                self.lines.append(f"{out}vector.load {m}[{ids}] : {mt}, {vt}")
            elif kind == "store":
                self.lines.append(f"vector.store {self.val(vt)}, {m}[{ids}] : {mt}, {vt}")
            else:
                mask = _vt(shape[-1:], "i1")
                mk, pv = self.val(mask), self.val(v1)
                if kind == "maskedload":
                    self.lines.append(f"{out}vector.maskedload {m}[{ids}], {mk}, {pv} : {mt}, "
                                      f"{mask}, {v1} into {v1}")
                else:
                    self.lines.append(f"vector.maskedstore {m}[{ids}], {mk}, {pv} : {mt}, "
                                      f"{mask}, {v1}")
        elif kind == "reduction":
            v1 = _vt(shape[-1:], elem)
            kinds = FLOAT_KINDS if elem in FLOATS else INT_KINDS
            acc = f", {self.val(elem)}" if rng.random() < 0.4 else ""
            src = self.val(v1)
            fm = " fastmath<fast>" if elem in FLOATS and rng.random() < 0.2 else ""
            self.lines.append(f"{out}vector.reduction <{rng.choice(kinds)}>, {src}{acc}{fm} : "
                              f"{v1} into {elem}")
        elif kind == "multi_reduction":
            kinds = FLOAT_KINDS if elem in FLOATS else INT_KINDS
            dims = sorted(rng.sample(range(len(shape)), rng.randint(1, len(shape))))
            kept = [d for i, d in enumerate(shape) if i not in dims]
            rt = _vt(kept, elem) if kept else elem
            attrs = " {tag}" if rng.random() < 0.2 else ""
            self.lines.append(f"{out}vector.multi_reduction <{rng.choice(kinds)}>, "
                              f"{self.val(vt)}, {self.val(rt)}{attrs} {dims} : {vt} to {rt}")
        elif kind == "scan":
            kinds = FLOAT_KINDS if elem in FLOATS else INT_KINDS
            dim = rng.randrange(len(shape))
            it = _vt(shape[:dim] + shape[dim + 1:], elem)
            out = self.fresh() + ":2 = "
            inclusive = rng.choice(("true", "false"))
            self.lines.append(f"{out}vector.scan <{rng.choice(kinds)}>, {self.val(vt)}, "
                              f"{self.val(it)} {{inclusive = {inclusive}, reduction_dim = {dim}}}"
                              f" : {vt}, {it}")
        elif kind == "type_cast":
            k = rng.randint(0, len(shape))
            mt = "memref<" + "".join(f"{d}x" for d in shape) + elem + ">"
            rt = "memref<" + "".join(f"{d}x" for d in shape[:k]) + _vt(shape[k:], elem) + ">"
            self.lines.append(f"{out}vector.type_cast {self.val(mt)} : {mt} to {rt}")
        elif kind == "masked":
            self._masked(out, shape, elem, vt)
        elif kind == "fma":
            ft = _vt(shape, rng.choice(FLOATS))
            a = self.val(ft)
            self.lines.append(f"{out}vector.fma {a}, {a}, {a} : {ft}")
        elif kind == "shuffle":
            a, b = self.val(vt), self.val(vt)
            total = 2 * shape[0]
            mask = ", ".join(str(rng.randrange(-1, total)) for _ in range(rng.randint(1, 6)))
            self.lines.append(f"{out}vector.shuffle {a}, {b} [{mask}] : {vt}, {vt}")
        elif kind == "shape_cast":
            n = 1
            for d in shape:
                n *= d
            self.lines.append(f"{out}vector.shape_cast {self.val(vt)} : {vt} to "
                              f"{_vt([n], elem)}")
        elif kind == "constant_mask":
            sizes = [rng.randint(1, d) for d in shape]
            if rng.random() < 0.2:
                sizes = [0] * len(shape)
            sizes = ", ".join(str(x) for x in sizes)
            self.lines.append(f"{out}vector.constant_mask [{sizes}] : {_vt(shape, 'i1')}")
        elif kind == "create_mask":
            ids = ", ".join(self.val("index") for _ in shape)
            self.lines.append(f"{out}vector.create_mask {ids} : {_vt(shape, 'i1')}")
        else:
            rank = len(shape) + rng.randint(0, 1)
            dims = list(range(rank))
            rng.shuffle(dims)
            chosen = dims[:len(shape)]
            perm = (f"affine_map<({', '.join(f'd{i}' for i in range(rank))}) -> "
                    f"({', '.join(f'd{i}' for i in chosen)})>")
            container = rng.choice(("memref", "tensor"))
            st = f"{container}<" + "".join("16x" for _ in range(rank)) + elem + ">"
            base = self.val(st)
            ids = ", ".join(self.val("index") for _ in range(rank))
            bounds = ", ".join(rng.choice(("true", "false")) for _ in shape)
            attrs = f" {{in_bounds = [{bounds}], permutation_map = {perm}}}"
            if kind == "transfer_read":
                self.lines.append(f"{out}vector.transfer_read {base}[{ids}], {self.val(elem)}"
                                  f"{attrs} : {st}, {vt}")
            else:
                res = out if container == "tensor" else ""
                self.lines.append(f"{res}vector.transfer_write {self.val(vt)}, {base}[{ids}]"
                                  f"{attrs} : {vt}, {st}")


    def _masked(self, out: str, shape: list, elem: str, vt: str) -> None:
        """vector.mask around one of MLIR 22's maskable ops (reduction, gather, outerproduct,
        transfer_read with or without passthru)."""
        rng = self.rng
        n = shape[-1]
        v1, m1 = _vt([n], elem), _vt([n], "i1")
        inner = rng.choice(("reduction", "gather", "outerproduct", "transfer_read"))
        if inner == "reduction":
            kinds = FLOAT_KINDS if elem in FLOATS else INT_KINDS
            body = f"vector.reduction <{rng.choice(kinds)}>, {self.val(v1)} : {v1} into {elem}"
            self.lines.append(f"{out}vector.mask {self.val(m1)} {{ {body} }} : {m1} -> {elem}")
        elif inner == "gather":
            mt, it = f"memref<16x{elem}>", _vt([n], "index")
            body = (f"vector.gather {self.val(mt)}[{self.val('index')}][{self.val(it)}], "
                    f"{self.val(m1)}, {self.val(v1)} : {mt}, {it}, {m1}, {v1} into {v1}")
            self.lines.append(f"{out}vector.mask {self.val(m1)} {{ {body} }} : {m1} -> {v1}")
        elif inner == "outerproduct":
            k = rng.choice((1, 2, 4))
            rt, mt = _vt([n, k], elem), _vt([n, k], "i1")
            body = (f"vector.outerproduct {self.val(v1)}, {self.val(_vt([k], elem))}, "
                    f"{self.val(rt)} : {v1}, {_vt([k], elem)}")
            self.lines.append(f"{out}vector.mask {self.val(mt)} {{ {body} }} : {mt} -> {rt}")
        else:
            st = f"memref<16x{elem}>"
            pt = f", {self.val(v1)}" if rng.random() < 0.5 else ""
            body = (f"vector.transfer_read {self.val(st)}[{self.val('index')}], "
                    f"{self.val(elem)} : {st}, {v1}")
            self.lines.append(f"{out}vector.mask {self.val(m1)}{pt} {{ {body} }} : {m1} -> {v1}")


def random_module(rng: random.Random) -> str:
    gen = _Gen(rng)
    for _ in range(rng.randint(1, 6)):
        gen.op()
    return "\n".join(gen.lines) + "\n"
