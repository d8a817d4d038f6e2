"""Specialised per-op encoders and decoders, generated once per (op, bytecode version).

The generic description of an op's encoding (:class:`~tileir.bytecode._ops.OpCodec`) is turned
into straight-line Python source: version decisions, flag bits and fixed operand/result counts
are resolved at generation time, varints take an inline one-byte fast path, and only the rare
cases (unusual attribute kinds, malformed IR, errors) call back into the reader or writer.  This
is what makes reading and writing run at several hundred thousand ops per second.
"""

from __future__ import annotations

from typing import Callable, Optional

from ..dialects.cuda_tile.attributes import enum_member_since
from ._ops import OpCodec
from .versions import Version

__all__ = ["make_encoder", "make_decoder"]


class _Src:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.consts: dict = {}

    def __call__(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)

    def const(self, value, prefix: str = "K") -> str:
        name = f"{prefix}{len(self.consts)}"
        self.consts[name] = value
        return name

    def source(self) -> str:
        return "\n".join(self.lines) + "\n"


def _put(src: _Src, ind: int, expr: str) -> None:
    """Append varint ``expr`` (a simple variable name) to ``out``."""
    src(ind, f"if {expr} < 128:")
    src(ind + 1, f"out.append({expr})")
    src(ind, f"elif {expr} < 16384:")
    src(ind + 1, f"out.append(({expr} & 127) | 128)")
    src(ind + 1, f"out.append({expr} >> 7)")
    src(ind, "else:")
    src(ind + 1, f"put_varint(out, {expr})")


def _put_type(src: _Src, ind: int, expr: str) -> None:
    src(ind, f"_t = {expr}")
    src(ind, "_i = tindex.get(_t)")
    src(ind, "if _i is None:")
    src(ind + 1, "_i = w.type_index(_t)")
    _put(src, ind, "_i")


def _put_value(src: _Src, ind: int, expr: str) -> None:
    src(ind, f"_i = vmap[{expr}]")
    _put(src, ind, "_i")


def make_encoder(codec: OpCodec, version: Version) -> Callable:
    """``enc(w, op, out)``: append the instruction for ``op`` to ``out`` and number its
    results in ``w.vmap``."""
    from ._prims import put_varint, varint_bytes
    plan = codec.plan(version)
    src = _Src()
    src(0, "def enc(w, op, out):")
    src(1, "vmap = w.vmap")
    src(1, "tindex = w.types.index")
    opc = varint_bytes(codec.opcode)
    if len(opc) == 1:
        src(1, f"out.append({opc[0]})")
    else:
        src(1, f"out += {src.const(opc)}")
    # -- results ----------------------------------------------------------------------------
    src(1, "res = op.results")
    fixed_results = not codec.variadic_results and plan.result_mask is None
    if plan.result_mask is not None:
        src(1, f"kept = w.kept_results(op, {src.const(plan)})")
    elif fixed_results:
        src(1, f"if len(res) != {len(codec.results)}:")
        src(2, "w.bad_arity(op, 'results')")
        src(1, "kept = res")
    else:
        src(1, "kept = res")
    if plan.write_count:
        src(1, "_n = len(kept)")
        _put(src, 1, "_n")
    if fixed_results:
        for k in range(len(codec.results)):
            _put_type(src, 1, f"res[{k}].type")
    else:
        src(1, "for _r in kept:")
        _put_type(src, 2, "_r.type")
    src(1, "attrs = op.attributes")
    # -- flags --------------------------------------------------------------------------------
    need_sizes = codec.attr_sized
    if need_sizes:
        src(1, f"sizes = w.operand_sizes(op, {src.const(codec.spec)})")
    if codec.n_flags:
        src(1, "flags = 0")
        for info in codec.attrs:
            if info.bit is None:
                continue
            src(1, f"if {info.name!r} in attrs:")
            if info.since > version:
                src(2, f"w.too_new(op, 'optional attribute', {info.name!r}, "
                       f"{src.const(info.since)})")
            src(2, f"flags |= {1 << info.bit}")
        if codec.attr_sized:
            for k, info in enumerate(codec.operands):
                if info.bit is None:
                    continue
                src(1, f"if sizes[{k}]:")
                if info.since > version:
                    src(2, f"w.too_new(op, 'optional operand', {info.name!r}, "
                           f"{src.const(info.since)})")
                src(2, f"flags |= {1 << info.bit}")
        if plan.has_flags:
            _put(src, 1, "flags")
    # -- attributes ---------------------------------------------------------------------------
    for info in codec.attrs:
        if info.unit:
            continue
        name = info.name
        ic = src.const(info, "I")
        if info.optional:
            if info.since > version:
                continue
            src(1, f"v = attrs.get({name!r})")
            src(1, "if v is not None:")
            src(2, f"w.put_inline(out, {info.kind!r}, v, op, {ic})")
            continue
        if info.since > version:
            src(1, f"v = attrs.get({name!r})")
            src(1, f"if v is not None and not w.is_default({ic}, v):")
            src(2, f"w.too_new_required(op, {ic})")
            continue
        src(1, f"v = attrs.get({name!r})")
        src(1, "if v is None:")
        src(2, f"v = w.default_value(op, {ic})")
        if info.kind == "enum":
            ec = src.const(info.enum, "E")
            src(1, f"if v.__class__ is {ec}:")
            src(2, "_e = v._value_")
            known = len(_members_in(info.enum, version))
            if known < len(info.enum):
                src(2, f"if _e >= {known}:")
                src(3, "w.too_new_enum(op, v)")
            _put(src, 2, "_e")
            src(1, "else:")
            src(2, f"w.put_inline(out, 'enum', v, op, {ic})")
        else:
            src(1, f"w.put_inline(out, {info.kind!r}, v, op, {ic})")
    # -- operands -----------------------------------------------------------------------------
    src(1, "opnds = op.operands")
    if codec.attr_sized:
        src(1, "_p = 0")
        for k, info in enumerate(codec.operands):
            if info.kind == "single":
                _put_value(src, 1, "opnds[_p]")
                src(1, "_p += 1")
            elif info.kind == "variadic":
                src(1, f"_n = sizes[{k}]")
                _put(src, 1, "_n")
                src(1, "for _v in opnds[_p:_p + _n]:")
                _put_value(src, 2, "_v")
                src(1, "_p += _n")
            else:
                src(1, f"if sizes[{k}]:")
                _put_value(src, 2, "opnds[_p]")
                src(2, "_p += 1")
    elif codec.counted_operands:
        src(1, "_n = len(opnds)")
        _put(src, 1, "_n")
        src(1, "for _v in opnds:")
        _put_value(src, 2, "_v")
    elif codec.n_single_operands:
        src(1, f"if len(opnds) != {codec.n_single_operands}:")
        src(2, "w.bad_arity(op, 'operands')")
        for k in range(codec.n_single_operands):
            _put_value(src, 1, f"opnds[{k}]")
    # -- regions ------------------------------------------------------------------------------
    if codec.num_regions:
        src(1, "regs = op.regions")
        src(1, "_n = len(regs)")
        _put(src, 1, "_n")
        src(1, "for _reg in regs:")
        src(2, "_n = len(_reg.blocks)")
        _put(src, 2, "_n")
        src(2, "for _b in _reg.blocks:")
        src(3, "w.write_block(_b, out)")
    # -- numbering ----------------------------------------------------------------------------
    if fixed_results and len(codec.results) == 1:
        src(1, "_n = w.next_value")
        src(1, "vmap[res[0]] = _n")
        src(1, "w.next_value = _n + 1")
    elif fixed_results and not codec.results:
        pass
    else:
        src(1, "_n = w.next_value")
        src(1, "for _r in kept:")
        src(2, "vmap[_r] = _n")
        src(2, "_n += 1")
        src(1, "w.next_value = _n")
    namespace = dict(src.consts)
    namespace["put_varint"] = put_varint
    exec(compile(src.source(), f"<bytecode encoder {codec.name} {version}>", "exec"), namespace)
    fn = namespace["enc"]
    fn.source = src.source()
    return fn


# ---------------------------------------------------------------------------------------------
# Decoders
# ---------------------------------------------------------------------------------------------

def _get(src: _Src, ind: int, var: str) -> None:
    """Read a varint from ``data`` at ``pos`` into ``var`` (inline fast paths)."""
    src(ind, f"{var} = data[pos]")
    src(ind, f"if {var} < 128:")
    src(ind + 1, "pos += 1")
    src(ind, "elif data[pos + 1] < 128:")
    src(ind + 1, f"{var} = ({var} & 127) | (data[pos + 1] << 7)")
    src(ind + 1, "pos += 2")
    src(ind, "else:")
    src(ind + 1, "b.pos = pos")
    src(ind + 1, f"{var} = b.varint()")
    src(ind + 1, "pos = b.pos")


def _get_type(src: _Src, ind: int, var: str) -> None:
    _get(src, ind, "_x")
    src(ind, f"{var} = tcache[_x] if _x < ntypes else None")
    src(ind, f"if {var} is None:")
    src(ind + 1, f"{var} = b.type_at(_x, pos)")


def _get_value(src: _Src, ind: int, var: str) -> None:
    src(ind, "_q = pos")
    _get(src, ind, "_x")
    src(ind, "if _x >= nvals:")
    src(ind + 1, "b.bad_operand(_x, nvals, _q)")
    src(ind, f"{var} = values[_x]")


def _read_list(src: _Src, target: str, get: Callable, item: str, *,
               count_var: Optional[str] = None, fixed: int = 0) -> None:
    """Emit code reading a list of items with ``get`` (``_get_type``/``_get_value``) into
    ``target``: a loop over the run-time count ``count_var``, or ``fixed`` unrolled reads."""
    if count_var is not None:
        src(1, f"{target} = []")
        src(1, f"for _k in range({count_var}):")
        get(src, 2, item)
        src(2, f"{target}.append({item})")
        return
    names = [f"{item}{k}" for k in range(fixed)]
    for name in names:
        get(src, 1, name)
    src(1, f"{target} = [" + ", ".join(names) + "]")


def fast_make() -> bool:
    """Whether ops can be built by setting their slots directly (the IR classes still have
    exactly the slots this module knows); otherwise the generic constructor is used."""
    from .reader import _OP_SLOTS_OK, _RESULT_SLOTS_OK
    return _OP_SLOTS_OK and _RESULT_SLOTS_OK


def _members_in(enum: type, version: Version) -> tuple:
    """The members of ``enum`` that bytecode ``version`` has (values 0..n-1; members added
    later, per ``enum_member_since``, come last)."""
    members = tuple(enum(i) for i in range(len(enum)))
    if [m.value for m in members] != list(range(len(members))):
        raise AssertionError(f"non-contiguous enum {enum}")
    known = [m for m in members if not version < (enum_member_since(m) or "13.1")]
    if members[:len(known)] != tuple(known):
        raise AssertionError(f"{enum}: members newer than {version} must come last")
    return tuple(known)


def make_decoder(codec: OpCodec, version: Version) -> Callable:
    """``dec(b, block, values, start, loc) -> op``: decode the instruction whose opcode has
    been read (``b.pos`` just after it), number its results into ``values``."""
    plan = codec.plan(version)
    src = _Src()
    src(0, "def dec(b, block, values, start, loc):")
    src(1, "data = b.data")
    src(1, "pos = b.pos")
    src(1, "tcache = b.tcache")
    src(1, "ntypes = len(tcache)")
    src(1, "nvals = len(values)")
    cc = src.const(codec, "C")
    # -- results ------------------------------------------------------------------------------
    n_results = len(codec.results)
    if plan.write_count:
        _get(src, 1, "nres")
        src(1, "if nres > len(data) - pos:")
        src(2, f"b.fail('failed to read number of result types for {codec.name}', pos)")
        if plan.result_mask is not None:
            src(1, f"if nres != {plan.n_results}:")
            src(2, f"b.fail('result count mismatch for {codec.name}: expected {plan.n_results} "
                   f"compatible results but got ' + str(nres), pos)")
        elif not codec.variadic_results:
            src(1, f"if nres != {n_results}:")
            src(2, f"b.fail('expected {n_results} results for {codec.name}, got ' + str(nres), "
                   f"start)")
        _read_list(src, "rtypes", _get_type, "_t", count_var="nres")
    else:
        _read_list(src, "rtypes", _get_type, "_t", fixed=plan.n_results)
    if plan.result_mask is not None:
        src(1, f"rtypes = b.full_result_types({cc}, rtypes)")
    # -- flags --------------------------------------------------------------------------------
    if plan.has_flags:
        _get(src, 1, "flags")
    else:
        src(1, "flags = 0")
    # -- attributes ---------------------------------------------------------------------------
    src(1, "attrs = {}")
    for info in codec.attrs:
        name = info.name
        ic = src.const(info, "I")
        if info.since > version:
            if not info.optional and info.default is not None:
                src(1, f"attrs[{name!r}] = {src.const(info.default)}")
            continue
        ind = 1
        if info.optional:
            src(1, f"if flags & {1 << info.bit}:")
            ind = 2
            if info.unit:
                src(2, f"attrs[{name!r}] = UNIT")
                continue
        if info.kind == "enum":
            members = _members_in(info.enum, version)
            mc = src.const(members, "M")
            src(ind, "_q = pos")
            _get(src, ind, "_x")
            src(ind, f"if _x < {len(members)}:")
            src(ind + 1, f"attrs[{name!r}] = {mc}[_x]")
            src(ind, "else:")
            src(ind + 1, "b.bad_enum(_x, _q)")
        elif info.kind == "dense":
            src(ind, "_q = pos")
            _get(src, ind, "_x")
            src(ind, f"attrs[{name!r}] = b.r.constant(_x, rtypes[0] if rtypes else None, "
                     f"b.base + _q)")
        else:
            src(ind, "b.pos = pos")
            src(ind, f"_v = b.attr({ic}, rtypes)")
            src(ind, "pos = b.pos")
            src(ind, "if _v is not None:")
            src(ind + 1, f"attrs[{name!r}] = _v")
    # -- operands -----------------------------------------------------------------------------
    segs = "None"
    if codec.attr_sized:
        src(1, "opnds = []")
        seg_names = []
        for k, info in enumerate(codec.operands):
            sn = f"_s{k}"
            seg_names.append(sn)
            if info.kind == "single":
                src(1, f"{sn} = 1")
                _get_value(src, 1, "_o")
                src(1, "opnds.append(_o)")
            elif info.kind == "variadic":
                _get(src, 1, sn)
                src(1, f"if {sn} > len(data) - pos:")
                src(2, f"b.fail('failed to read operands for {info.name} segment, exceeds the "
                       f"remaining data', pos)")
                src(1, f"for _k in range({sn}):")
                _get_value(src, 2, "_o")
                src(2, "opnds.append(_o)")
            elif info.since > version:
                src(1, f"if flags & {1 << info.bit}:")
                src(2, f"b.fail(\"malformed bytecode: flag set for operand '{info.name}' which "
                       f"requires {info.since} but reading {version} bytecode\", pos)")
                src(1, f"{sn} = 0")
            else:
                src(1, f"{sn} = 1 if flags & {1 << info.bit} else 0")
                src(1, f"if {sn}:")
                _get_value(src, 2, "_o")
                src(2, "opnds.append(_o)")
        segs = "(" + ", ".join(seg_names) + ",)"
    elif codec.counted_operands:
        _get(src, 1, "_c")
        src(1, "if _c > len(data) - pos:")
        src(2, "b.fail('failed to read operand count', pos)")
        lo = codec.n_single_operands
        if codec.has_variadic_operands:
            src(1, f"if _c < {lo}:")
        else:
            src(1, f"if _c < {lo} or _c > {lo + codec.n_optional_operands}:")
        src(2, f"b.fail('unexpected number of operands (' + str(_c) + ') for {codec.name}', "
               f"start)")
        _read_list(src, "opnds", _get_value, "_o", count_var="_c")
    else:
        _read_list(src, "opnds", _get_value, "_o", fixed=codec.n_single_operands)
    # -- regions ------------------------------------------------------------------------------
    if codec.num_regions:
        src(1, "_q = pos")
        _get(src, 1, "_x")
        src(1, f"if _x != {codec.num_regions}:")
        src(2, f"b.fail('{codec.name} op expected {codec.num_regions} regions, got ' + "
               f"str(_x), _q)")
        src(1, "b.pos = pos")
        src(1, "regs = [" + ", ".join(["b.region(values)"] * codec.num_regions) + "]")
        src(1, "pos = b.pos")
    else:
        src(1, "regs = None")
    src(1, "b.pos = pos")
    if fast_make():
        # Inline op construction (same state as Operation.__init__ builds).
        src(1, "op = new(CLS)")
        src(1, "op.name = NAME")
        src(1, "op.operands = opnds")
        if not codec.attr_sized and not codec.counted_operands:
            for k in range(codec.n_single_operands):
                src(1, f"_o{k}.uses.append((op, {k}))")
        else:
            src(1, "_k = 0")
            src(1, "for _o in opnds:")
            src(2, "_o.uses.append((op, _k))")
            src(2, "_k += 1")
        if plan.write_count or plan.result_mask is not None:
            src(1, "res = []")
            src(1, "_k = 0")
            src(1, "for _t in rtypes:")
            src(2, "_r = new(OpResult)")
            src(2, "_r.type = _t")
            src(2, "_r.uses = []")
            src(2, "_r.owner = op")
            src(2, "_r.index = _k")
            src(2, "res.append(_r)")
            src(2, "_k += 1")
        else:
            names = []
            for k in range(plan.n_results):
                src(1, f"_r{k} = new(OpResult)")
                src(1, f"_r{k}.type = _t{k}")
                src(1, f"_r{k}.uses = []")
                src(1, f"_r{k}.owner = op")
                src(1, f"_r{k}.index = {k}")
                names.append(f"_r{k}")
            src(1, "res = [" + ", ".join(names) + "]")
        src(1, "op.results = res")
        src(1, "op.attributes = attrs")
        if codec.num_regions:
            src(1, "for _reg in regs:")
            src(2, "_reg.parent = op")
            src(1, "op.regions = regs")
        else:
            src(1, "op.regions = []")
        src(1, "op.parent = block")
        src(1, "op.loc = loc")
        src(1, f"op.segments = {segs}")
    else:
        src(1, f"op = CLS(NAME, opnds, rtypes, attrs, {'regs' if codec.num_regions else 0}, loc, "
               f"{segs})")
        src(1, "op.parent = block")
        src(1, "res = op.results")
    if plan.result_mask is not None:
        src(1, f"values.extend(res[i] for i in {src.const(plan.result_mask)})")
    elif plan.write_count:
        src(1, "values.extend(res)")
    elif plan.n_results == 1:
        src(1, "values.append(_r0)" if fast_make() else "values.append(res[0])")
    elif plan.n_results:
        src(1, "values.extend(res)")
    src(1, "return op")
    from ..dialects.cuda_tile.attributes import UNIT
    from ..ir.core import OpResult
    namespace = dict(src.consts)
    namespace.update(UNIT=UNIT, CLS=codec.cls, NAME=codec.name, new=object.__new__,
                     OpResult=OpResult)
    exec(compile(src.source(), f"<bytecode decoder {codec.name} {version}>", "exec"), namespace)
    fn = namespace["dec"]
    fn.source = src.source()
    return fn
