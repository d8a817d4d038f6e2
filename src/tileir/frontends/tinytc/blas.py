"""Lowering of tinytc's collective BLAS instructions (axpby, gemm, gemv, ger, hadamard, sum)
to tile code over blocks of the output: masked edges, the BLAS beta rule, atomics, and the
partition-view fast path for small static gemm on (sub)views of arguments."""

from __future__ import annotations

import itertools
from typing import Callable

from .ir import Imm, Inst, ScalarType, is_float
from .tiles import Dim, MemrefVal, TileEmitter, _pieces, _pow2, _tile, cuda_element

__all__ = ["BlasLowering"]

#: largest block edge per collective op (powers of two)
_BLOCK_2D = 64
_BLOCK_1D = 256
#: largest mode of a memref that the view path (:meth:`BlasLowering.by_views`) takes
_VIEW_MAX = 128


class BlasLowering(TileEmitter):
    """The collective BLAS instructions (``op_gemm`` ...)."""

    def scalar_arg(self, op, ty: ScalarType, target: str):
        return self.scalar_as(op, ty.name, target)

    def blocks(self, dims: list, caps: list, body: Callable[[list, list], None]) -> None:
        """Call ``body(offsets, block_sizes)`` for every block of an iteration space with
        sizes ``dims`` (ints or i64 values); a dimension that fits its cap is one block."""
        plan = []
        for d, cap in zip(dims, caps):
            if isinstance(d, int) and d <= cap:
                plan.append((None, max(_pow2(d), 1)))
            else:
                plan.append((d, cap))

        def rec(k: int, offsets: list) -> None:
            if k == len(plan):
                body(offsets, [blk for _, blk in plan])
                return
            size, blk = plan[k]
            if size is None:
                rec(k + 1, offsets + [0])
                return
            with self.b.for_(self.const(0, "i64"), self.i64(size), self.const(blk, "i64")) \
                    as (off, _, _):
                rec(k + 1, offsets + [off])

        rec(0, [])

    def lane_index(self, offset: Dim, size: Dim, blk: int, rank: int, axis: int):
        """(indices along ``axis`` of a rank-``rank`` block, in-bounds mask or None)."""
        lanes = self.b.iota(result_type=_tile((blk,), "i64"))
        if not (isinstance(offset, int) and offset == 0):
            lanes = self.b.addi(lanes, self.bcast(self.i64(offset), (blk,)))
        mask = None
        if not (isinstance(size, int) and isinstance(offset, int) and offset + blk <= size):
            mask = self.b.cmpi(lanes, self.bcast(self.i64(size), (blk,)),
                               comparison_predicate="less_than", signedness="signed",
                               result_type="i1")
            mask = self.along(mask, rank, axis) if rank > 1 else mask
        idx = self.along(lanes, rank, axis) if rank > 1 else lanes
        return idx, mask

    def read_tile(self, mem: MemrefVal, idx: list, mask, shape: tuple, el: str):
        """Elements ``mem[idx]`` as a tile of ``shape`` converted to ``el`` (0 where masked)."""
        idx = [self.bcast(i, shape) if not isinstance(i, int) else i for i in idx]
        m = self.bcast(mask, shape) if mask is not None else None
        if not shape:
            v = self.load(mem, idx, m)
        else:
            ptrs = self.pointers(mem, idx)
            ptrs = self.bcast(ptrs, shape)
            v = self.load(MemrefVal(mem.element, ptrs, [], []), [], m)
        return self.convert(v, mem.element, el)

    def update(self, inst: Inst, out: MemrefVal, idx: list, mask, value, el: str, alpha,
               beta_op, beta) -> None:
        """out[idx] = alpha * value + beta * out[idx] (BLAS rule: beta = 0 does not read)."""
        shape = self.shape_of(value)
        if alpha is not None:
            value = self.mul(value, self.bcast(alpha, shape), el)
        idx = [self.bcast(i, shape) if not isinstance(i, int) else i for i in idx]
        m = self.bcast(mask, shape) if mask is not None else None
        out_el = cuda_element(out.element)
        zero_beta = isinstance(beta_op, Imm) and beta_op.value == 0
        one_beta = isinstance(beta_op, Imm) and beta_op.value == 1
        ptrs = self.bcast(self.pointers(out, idx), shape) if shape else self.pointers(out, idx)
        if inst.attrs.get("atomic"):
            self.atomic_update(ptrs, m, value, el, out, beta, zero_beta, one_beta)
            return
        if not zero_beta:
            read_mask = m
            if not one_beta and not isinstance(beta_op, Imm):
                nz = self.convert(beta, el, "i1")
                read_mask = self.and_mask(m, self.bcast(nz, shape) if shape else nz)
            old = self.convert(self.load(MemrefVal(out.element, ptrs, [], []), [], read_mask),
                               out.element, el)
            if not one_beta:
                old = self.mul(old, self.bcast(beta, shape), el)
            value = self.add(value, old, el)
        self.store(self.convert(value, el, out.element) if out_el != el else value,
                   MemrefVal(out.element, ptrs, [], []), [], m)

    def mul(self, x, y, el: str):
        if is_float(el):
            return self.b.mulf(x, y, rounding_mode="nearest_even")
        return self.b.muli(x, y)

    def add(self, x, y, el: str):
        if is_float(el):
            return self.b.addf(x, y, rounding_mode="nearest_even")
        return self.b.addi(x, y)

    def atomic_update(self, ptrs, mask, value, el: str, out: MemrefVal, beta, zero_beta: bool,
                      one_beta: bool) -> None:
        b = self.b
        out_el = cuda_element(out.element)
        value = self.convert(value, el, out.element)
        shape = self.shape_of(value)
        if zero_beta or one_beta:
            mode = "xchg" if zero_beta else ("addf" if is_float(out_el) else "add")
            b.atomic_rmw_tko(ptrs, value, mask, memory_ordering_semantics="relaxed",
                             memory_scope="device", mode=mode)
            return
        beta_out = self.convert(beta, el, out.element)
        beta_t = self.bcast(beta_out, shape)
        beta_nz = self.convert(beta_out, out.element, "i1")
        pending0 = mask if mask is not None else self.bcast(self.const(1, "i1"), shape)
        with b.loop([pending0]) as ((pending,), _):
            old, _ = b.load_ptr_tko(ptrs, pending, self.const(0, out_el, shape),
                                    memory_ordering_semantics="weak")
            scaled = self.mul(old, beta_t, out_el)
            keep = b.select(self.bcast(beta_nz, shape), scaled,
                            self.const(0, out_el, shape))
            new = self.add(value, keep, out_el)
            got, _ = b.atomic_cas_tko(ptrs, old, new, pending,
                                      memory_ordering_semantics="relaxed", memory_scope="device")
            if is_float(out_el):
                ibits = "i64" if out_el == "f64" else "i32"
                same = b.cmpi(b.bitcast(got, result_type=ibits),
                              b.bitcast(old, result_type=ibits),
                              comparison_predicate="equal", signedness="signed",
                              result_type="i1")
            else:
                same = b.cmpi(got, old, comparison_predicate="equal", signedness="signed",
                              result_type="i1")
            not_same = b.xori(same, self.bcast(self.const(1, "i1"), shape))
            still = b.andi(pending, not_same)
            flat = still
            if len(shape) > 1:
                n = 1
                for s in shape:
                    n *= s
                flat = b.reshape(still, result_type=_tile((n,), "i1"))
            anyleft = flat
            if shape:
                with b.reduce([flat], 0, [0]) as (args, red):
                    b.yield_(b.ori(args[0], args[1]))
                anyleft = red.results[0]
            done = b.xori(anyleft, self.const(1, "i1"))
            br = b.if_(done)
            with br.then_():
                b.break_()
            b.continue_(still)

    def compute_type(self, inst: Inst) -> str:
        return cuda_element(inst.types[-1].element)

    def alpha_beta(self, inst: Inst, el: str) -> tuple:
        """(alpha or None for an immediate 1, beta) converted to the compute type ``el``."""
        ops = inst.operands
        n = len(ops)
        alpha_op, beta_op = ops[0], ops[n - 2]
        t_alpha, t_beta = inst.types[0], inst.types[n - 2]
        alpha = None if isinstance(alpha_op, Imm) and alpha_op.value == 1 \
            else self.scalar_arg(alpha_op, t_alpha, el)
        return alpha, self.scalar_arg(beta_op, t_beta, el)

    def output_block(self, out: MemrefVal, offsets: list, blks: list) -> tuple:
        """(index tiles, per-mode masks, combined mask, shape) of one block of ``out``."""
        rank = len(blks)
        idx, masks = [], []
        for d in range(rank):
            i, m = self.lane_index(offsets[d], out.shape[d], blks[d], rank, d)
            idx.append(i)
            masks.append(m)
        return idx, masks, self.and_mask(*masks), tuple(blks)

    def op_axpby(self, inst: Inst) -> None:
        _, a_val, beta_op, b_val = inst.operands
        _, t_a, _, t_b = inst.types
        el = self.compute_type(inst)
        alpha, beta = self.alpha_beta(inst, el)
        a, out = self.env[a_val], self.env[b_val]
        trans = inst.attrs["ta"] == "t" and t_a.order == 2
        rank = t_b.order
        if self.by_views(inst, (a, out)):
            views: dict = {}
            self.view_update(inst, out, lambda st, sz: self.view_tile(a, st, sz, el, views,
                                                                      trans),
                             el, alpha, beta_op, beta, views)
            return
        caps = [_BLOCK_1D] if rank == 1 else [_BLOCK_2D] * rank

        def body(offsets: list, blks: list) -> None:
            idx, _, mask, shape = self.output_block(out, offsets, blks)
            a_idx = idx[::-1] if trans else idx
            av = self.read_tile(a, a_idx, mask, shape, el)
            self.update(inst, out, idx, mask, av, el, alpha, beta_op, beta)

        self.blocks(out.shape, caps, body)

    def op_hadamard(self, inst: Inst) -> None:
        self.blas3_elementwise(inst)

    def op_ger(self, inst: Inst) -> None:
        self.blas3_elementwise(inst)

    def blas3_elementwise(self, inst: Inst) -> None:
        _, a_val, b_val, beta_op, c_val = inst.operands
        el = self.compute_type(inst)
        alpha, beta = self.alpha_beta(inst, el)
        a, bm, out = self.env[a_val], self.env[b_val], self.env[c_val]
        rank = inst.types[-1].order
        if self.by_views(inst, (a, bm, out)):
            views: dict = {}

            def product(st: tuple, sz: tuple):
                if inst.op == "hadamard":
                    av = self.view_tile(a, st, sz, el, views)
                    bv = self.view_tile(bm, st, sz, el, views)
                else:
                    av = self.bcast(self.along(self.view_tile(a, st[:1], sz[:1], el, views),
                                               2, 0), sz)
                    bv = self.bcast(self.along(self.view_tile(bm, st[1:], sz[1:], el, views),
                                               2, 1), sz)
                return self.mul(av, bv, el)

            self.view_update(inst, out, product, el, alpha, beta_op, beta, views)
            return
        caps = [_BLOCK_1D] if rank == 1 else [_BLOCK_2D] * 2

        def body(offsets: list, blks: list) -> None:
            idx, masks, mask, shape = self.output_block(out, offsets, blks)
            if inst.op == "hadamard":
                av = self.read_tile(a, idx, mask, shape, el)
                bv = self.read_tile(bm, idx, mask, shape, el)
            else:
                av = self.read_tile(a, [idx[0]], masks[0], shape, el)
                bv = self.read_tile(bm, [idx[1]], masks[1], shape, el)
            self.update(inst, out, idx, mask, self.mul(av, bv, el), el, alpha, beta_op, beta)

        self.blocks(out.shape, caps, body)

    def reduce_sum(self, v, dim: int, el: str):
        with self.b.reduce([v], dim, [0.0 if is_float(el) else 0]) as (args, red):
            self.b.yield_(self.add(args[0], args[1], el))
        return red.results[0]

    def k_loop(self, k_size: Dim, cap: int, init, step: Callable):
        """acc = step(acc, k_offset, k_block) over blocks of K (one block if it fits)."""
        if isinstance(k_size, int) and k_size <= cap:
            return step(init, 0, max(_pow2(k_size), 1))
        with self.b.for_(self.const(0, "i64"), self.i64(k_size), self.const(cap, "i64"),
                         [init]) as (k0, (acc,), loop):
            self.b.continue_(step(acc, k0, cap))
        return loop.results[0]

    def by_views(self, inst: Inst, mems) -> bool:
        """Whether the view path applies to a non-atomic instruction on ``mems``: each a
        static (sub)view of an argument (or alloca) of order at least 1, with modes of 1 to
        :data:`_VIEW_MAX` elements that lie inside the argument's static modes (so that no
        piece reaches past the argument's edge, where a view load would give padding and a
        store would write nothing instead of the out-of-bounds error of the pointer path).  The instruction then runs on exact power-of-two pieces of its output (56 =
        32 + 16 + 8), each operand piece loaded through a strided view of its argument, the
        same view for every work group (no pointer tiles, no masks: the executor reads all
        work groups' pieces at once), and the output pieces are stored through such views."""
        if inst.attrs.get("atomic"):
            return False
        return all(m.root is not None and m.root.shape and m.element != "i1" and
                   all(isinstance(s, int) and 0 < s <= _VIEW_MAX for s in m.shape) and
                   _inside_root(m) for m in mems)

    def view_tile(self, mem: MemrefVal, starts: tuple, sizes: tuple, el: str, views: dict,
                  trans: bool = False):
        """The piece ``[starts, starts + sizes)`` of op(``mem``) (``mem`` transposed for
        ``trans``) in the compute type ``el``, loaded once per instruction (``views``)."""
        key = ("tile", id(mem), starts, sizes, trans)
        if key not in views:
            if trans:
                t = self.view_piece(mem, starts[::-1], sizes[::-1], el, views)
                t = self.b.permute(t, permutation=[1, 0], result_type=_tile(sizes, el))
            else:
                t = self.view_piece(mem, starts, sizes, el, views)
            views[key] = t
        return views[key]

    def view_update(self, inst: Inst, out: MemrefVal, value_of: Callable, el: str, alpha,
                    beta_op, beta, views: dict) -> None:
        """out = alpha * value + beta * out over the exact power-of-two pieces of ``out``
        (see :meth:`by_views`), ``value_of(starts, sizes)`` giving each piece's value; every
        piece is computed (and ``out`` read) before any is stored, so an output that overlaps
        an operand reads the operand's old values, as the one-block path does."""
        results = []
        for piece in itertools.product(*(_pieces(n) for n in out.shape)):
            starts = tuple(p[0] for p in piece)
            sizes = tuple(p[1] for p in piece)
            value = self.alpha_beta_sum(
                value_of(starts, sizes),
                lambda: self.view_piece(out, starts, sizes, el, views),
                el, alpha, beta_op, beta)
            results.append((starts, sizes, value))
        for starts, sizes, value in results:
            self.view_piece(out, starts, sizes, el, views, store=value)

    def alpha_beta_sum(self, value, read_old: Callable, el: str, alpha, beta_op, beta):
        """alpha * value + beta * old, ``old = read_old()`` (a tile of value's shape) read
        only where the BLAS rule lets it count: never for an immediate beta of 0, and a
        run-time beta of 0 ignores it (NaN or Inf in the output does not come through)."""
        shape = self.shape_of(value)
        if alpha is not None:
            value = self.mul(value, self.bcast(alpha, shape), el)
        if isinstance(beta_op, Imm) and beta_op.value == 0:
            return value
        old = read_old()
        if not (isinstance(beta_op, Imm) and beta_op.value == 1):
            if not isinstance(beta_op, Imm):
                nz = self.bcast(self.convert(beta, el, "i1"), shape)
                old = self.b.select(nz, old, self.const(0, el, shape))
            old = self.mul(old, self.bcast(beta, shape), el)
        return self.add(value, old, el)

    def op_gemm(self, inst: Inst) -> None:
        if not self.gemm_by_views(inst):
            self.matrix_product(inst)

    def view_piece(self, mem: MemrefVal, starts: tuple, sizes: tuple, el: str, cache: dict,
                   store=None):
        """Load (or, with ``store``, store) the block ``[starts, starts + sizes)`` of a
        static-shaped memref through a strided view (traversal strides 1: the index is the
        element offset) of its root argument.  ``cache`` keeps the views and indices of one
        instruction (they are the same for all its pieces).  The views pad with zero: a block
        that overhangs the root argument's edge (see :func:`_overhang_is_padding`) loads zeros
        there and stores nothing there."""
        r = mem.root
        rank = len(r.shape)
        tile = [1] * rank
        for d, n in enumerate(sizes):
            tile[r.modes[d]] = n
        index = []
        for rd in range(rank):
            off = r.offsets[rd]
            if rd in r.modes:
                off = self.iadd(off, starts[r.modes.index(rd)])
            key = ("index", id(off), off if isinstance(off, int) else None)
            if key not in cache:
                cache[key] = self.const(off, "i32") if isinstance(off, int) else \
                    self.b.trunci(off, result_type="i32")
            index.append(cache[key])
        vkey = ("view", id(r.base), tuple(tile))
        if vkey not in cache:
            tkey = ("tensor", id(r.base))
            if tkey not in cache:
                cache[tkey] = self.b.make_tensor_view(r.base, shape=r.shape, strides=r.strides)
            cache[vkey] = self.b.make_strided_view(cache[tkey], tile=tile,
                                                   traversal_strides=[1] * rank,
                                                   padding_value="zero")
        view = cache[vkey]
        if store is not None:
            value = self.convert(store, el, mem.element)
            value = self.b.reshape(value, result_type=_tile(tile, cuda_element(mem.element)))
            self.b.store_view_tko(value, view, index)
            return None
        t, _ = self.b.load_view_tko(view, index)
        t = self.b.reshape(t, result_type=_tile(tuple(sizes), cuda_element(mem.element)))
        return self.convert(t, mem.element, el)

    def gemm_by_views(self, inst: Inst) -> bool:
        """Static small gemm on memrefs that are (sub)views of arguments, loaded through
        strided views of the arguments and multiplied with mmaf; no masks.  Where every
        operand's modes end at its argument's edge (the recipes' per-group matrices), each
        operand is one power-of-two tile whose overhang is the views' zero padding (56x9x56:
        one 64x16x64 mmaf; the executor multiplies only the loaded part, see
        ``execute/semantics/padded_mma.py``); otherwise exact power-of-two pieces (56 = 32 +
        16 + 8).  False where this shape does not apply.  (Two overlapping pieces, 56 = 32 +
        32 at 0 and 24, were measured slower on the executor.)"""
        _, a_val, b_val, beta_op, c_val = inst.operands
        el = self.compute_type(inst)
        if inst.attrs["atomic"] or not is_float(el):
            return False
        a, bm, out = self.env[a_val], self.env[b_val], self.env[c_val]
        if any(m.root is None or any(not isinstance(s, int) for s in m.shape)
               for m in (a, bm, out)):
            return False
        dims = list(out.shape) + [a.shape[0] if inst.attrs["ta"] == "t" else a.shape[1]]
        if any(not 0 < d <= 128 for d in dims):
            return False
        padded = all(_overhang_is_padding(m) for m in (a, bm, out))
        if padded:
            m_p, n_p, k_p = ([(0, _pow2(d))] for d in dims)
        else:
            m_p, n_p, k_p = (_pieces(d) for d in dims)
        ta, tb = inst.attrs["ta"] == "t", inst.attrs["tb"] == "t"
        alpha, beta = self.alpha_beta(inst, el)
        views: dict = {}
        tiles: dict = {}

        def operand(mem: MemrefVal, rows, cols, trans: bool):
            """Piece rows x cols of op(mem)."""
            key = (id(mem), rows, cols, trans)
            if key not in tiles:
                shape = (rows[1], cols[1])
                if trans:
                    t = self.view_piece(mem, (cols[0], rows[0]), (cols[1], rows[1]), el, views)
                    t = self.b.permute(t, permutation=[1, 0], result_type=_tile(shape, el))
                else:
                    t = self.view_piece(mem, (rows[0], cols[0]), shape, el, views)
                tiles[key] = t
            return tiles[key]

        results = []
        for mp in m_p:
            for np_ in n_p:
                shape = (mp[1], np_[1])
                acc = self.const(0, el, shape)
                for kp in k_p:
                    acc = self.b.mmaf(operand(a, mp, kp, ta), operand(bm, kp, np_, tb), acc)
                if padded and not (isinstance(beta_op, Imm) and beta_op.value == 0) and \
                        tuple(out.shape) != shape:
                    results += self.padded_update(acc, out, el, alpha, beta_op, beta, views)
                    continue
                # every old piece is read before any piece is written
                start = (mp[0], np_[0])
                acc = self.alpha_beta_sum(acc, lambda: self.view_piece(out, start, shape, el,
                                                                       views),
                                          el, alpha, beta_op, beta)
                results.append((start, shape, acc))
        for start, shape, value in results:
            self.view_piece(out, start, shape, el, views, store=value)
        return True

    def padded_update(self, acc, out: MemrefVal, el: str, alpha, beta_op, beta,
                      views: dict) -> list:
        """``(start, sizes, alpha * acc + beta * out)`` for each exact power-of-two piece of
        ``out`` (56x9: 32x8, 32x1, 16x8, ...), where ``acc`` is the zero-padded power-of-two
        tile of all of ``out``: each piece of ``acc`` is ``extract``ed (a piece of size p
        starts at a multiple of p, so it is slice number start / p) and ``out`` is read in
        the same exact pieces, never past its edge (a padded view read of ``out`` is loaded
        work group by work group by the executor)."""
        shape = self.shape_of(acc)
        results = []
        for piece in itertools.product(*(_pieces(n) for n in out.shape)):
            starts = tuple(p[0] for p in piece)
            sizes = tuple(p[1] for p in piece)
            sub = acc
            if sizes != shape:
                index = [self.const(st // sz, "i32") for st, sz in zip(starts, sizes)]
                sub = self.b.create("cuda_tile.extract", acc, index,
                                    result_type=_tile(sizes, el)).result
            value = self.alpha_beta_sum(sub, lambda: self.view_piece(out, starts, sizes, el,
                                                                     views),
                                        el, alpha, beta_op, beta)
            results.append((starts, sizes, value))
        return results

    def op_gemv(self, inst: Inst) -> None:
        self.matrix_product(inst)

    def op_sum(self, inst: Inst) -> None:
        self.matrix_product(inst)

    def matrix_product(self, inst: Inst) -> None:
        """gemm, gemv and sum: out = alpha * sum_k opA[i, k] * opB[k, j] + beta * out."""
        op = inst.op
        if op == "sum":
            _, a_val, beta_op, c_val = inst.operands
            b_val = None
        else:
            _, a_val, b_val, beta_op, c_val = inst.operands
        t_a, t_c = inst.types[1], inst.types[-1]
        el = self.compute_type(inst)
        alpha, beta = self.alpha_beta(inst, el)
        a, out = self.env[a_val], self.env[c_val]
        bmat = self.env[b_val] if b_val is not None else None
        ta = inst.attrs["ta"] == "t"
        tb = inst.attrs.get("tb") == "t"
        out_rank = t_c.order
        if op == "sum" and t_a.order == 1:
            k_size = a.shape[0]
        else:
            k_size = a.shape[0] if ta else a.shape[1]
        use_mma = op == "gemm" and is_float(el)
        if op != "gemm" and self.by_views(inst, (a, out) if bmat is None else (a, bmat, out)):
            views: dict = {}

            def row_sums(st: tuple, sz: tuple):
                """sum_k op(A)[i, k] (* x[k]) for the rows of one piece of the output."""
                acc = None
                for k0, kb in _pieces(k_size):
                    if out_rank == 0:       # sum of a vector
                        part = self.reduce_sum(self.view_tile(a, (k0,), (kb,), el, views), 0, el)
                    else:
                        av = self.view_tile(a, (st[0], k0), (sz[0], kb), el, views, ta)
                        if op == "gemv":
                            xv = self.view_tile(bmat, (k0,), (kb,), el, views)
                            av = self.mul(av, self.bcast(self.along(xv, 2, 1), (sz[0], kb)), el)
                        part = self.reduce_sum(av, 1, el)
                    acc = part if acc is None else self.add(acc, part, el)
                return acc

            self.view_update(inst, out, row_sums, el, alpha, beta_op, beta, views)
            return

        def body(offsets: list, blks: list) -> None:
            idx, _, mask, shape = self.output_block(out, offsets, blks)

            def step(acc, k0, kb: int):
                if op == "gemm":
                    bm_, bn_ = shape
                    ri, rm = self.lane_index(offsets[0], out.shape[0], bm_, 2, 0)
                    ki, km = self.lane_index(k0, k_size, kb, 2, 1)
                    a_idx = [ki, ri] if ta else [ri, ki]
                    av = self.read_tile(a, a_idx, self.and_mask(rm, km), (bm_, kb), el)
                    kj, kmj = self.lane_index(k0, k_size, kb, 2, 0)
                    cj, cm = self.lane_index(offsets[1], out.shape[1], bn_, 2, 1)
                    b_idx = [cj, kj] if tb else [kj, cj]
                    bv = self.read_tile(bmat, b_idx, self.and_mask(kmj, cm), (kb, bn_), el)
                    if use_mma:
                        return self.b.mmaf(av, bv, acc)
                    a3 = self.b.reshape(av, result_type=_tile((bm_, kb, 1), el))
                    b3 = self.b.reshape(bv, result_type=_tile((1, kb, bn_), el))
                    prod = self.mul(self.bcast(a3, (bm_, kb, bn_)),
                                    self.bcast(b3, (bm_, kb, bn_)), el)
                    return self.add(acc, self.reduce_sum(prod, 1, el), el)
                if out_rank == 0:       # sum of a vector
                    ki, km = self.lane_index(k0, k_size, kb, 1, 0)
                    av = self.read_tile(a, [ki], km, (kb,), el)
                    return self.add(acc, self.reduce_sum(av, 0, el), el)
                bm_ = shape[0]
                ri, rm = self.lane_index(offsets[0], out.shape[0], bm_, 2, 0)
                ki, km = self.lane_index(k0, k_size, kb, 2, 1)
                a_idx = [ki, ri] if ta else [ri, ki]
                av = self.read_tile(a, a_idx, self.and_mask(rm, km), (bm_, kb), el)
                if op == "gemv":
                    kv, kvm = self.lane_index(k0, k_size, kb, 1, 0)
                    bv = self.read_tile(bmat, [kv], kvm, (kb,), el)
                    bv = self.bcast(self.along(bv, 2, 1), (bm_, kb))
                    av = self.mul(av, bv, el)
                return self.add(acc, self.reduce_sum(av, 1, el), el)

            init = self.const(0, el, shape)
            acc = self.k_loop(k_size, _BLOCK_2D, init, step)
            self.update(inst, out, idx, mask, acc, el, alpha, beta_op, beta)

        caps = [_BLOCK_2D] * out_rank
        self.blocks(out.shape, caps, body)


def _overhang_is_padding(mem: MemrefVal) -> bool:
    """Whether a power-of-two tile over the static (sub)view ``mem`` overhangs only past its
    root argument's edge: each mode whose size is not a power of two ends where the argument
    does, so the overhang lies outside the argument's tensor view (loads give the padding,
    stores skip it)."""
    r = mem.root
    for d, size in enumerate(mem.shape):
        if _pow2(size) == size:
            continue
        rd = r.modes[d]
        off, full = r.offsets[rd], r.shape[rd]
        if not (isinstance(off, int) and isinstance(full, int) and off + size == full):
            return False
    return True


def _inside_root(mem: MemrefVal) -> bool:
    """Whether each mode of the (sub)view ``mem`` lies, by static offsets and sizes, inside
    the static extent of its root argument's mode (see :meth:`BlasLowering.by_views`)."""
    r = mem.root
    for d, size in enumerate(mem.shape):
        rd = r.modes[d]
        off, full = r.offsets[rd], r.shape[rd]
        if not (isinstance(off, int) and isinstance(full, int) and isinstance(size, int)
                and 0 <= off and off + size <= full):
            return False
    return True
