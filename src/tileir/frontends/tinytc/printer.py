"""Print a tinytc program as tinytc text (parse -> print -> parse -> print is a fixed point)."""

from __future__ import annotations

from .ir import Function, Inst, Program, Region, Value

__all__ = ["print_program"]

_INDENT = "    "


def _ops(values) -> str:
    return ", ".join(str(v) for v in values)


def _types(types) -> str:
    return ", ".join(str(t) for t in types)


def _mods(inst: Inst, names) -> str:
    text = "".join("." + inst.attrs[n] for n in names)
    return text + (".atomic" if inst.attrs.get("atomic") else "")


def _expand_shape(entries) -> str:
    """``2x?`` as tinytc prints it, but with spaces around an ``x`` next to an identifier
    (``%m x ?``): ``%mx?`` would lex as the identifier ``%mx``."""
    text = str(entries[0])
    for prev, cur in zip(entries, entries[1:]):
        sep = " x " if isinstance(prev, Value) or isinstance(cur, Value) else "x"
        text += sep + str(cur)
    return text


def _slice(off, size) -> str:
    if size is None:
        return str(off)
    return f"{off}:{size}"


def _inst(inst: Inst, depth: int, out: list) -> None:
    pad = _INDENT * depth
    op = inst.op
    named = inst.results and all(r.name for r in inst.results)
    lhs = ", ".join("%" + r.name for r in inst.results) if named else ""
    prefix = pad + (lhs + " = " if lhs else "")
    ops, ts = inst.operands, inst.types
    if op in ("axpby", "sum"):
        out.append(f"{pad}{op}{_mods(inst, ('ta',))} {_ops(ops)} : {_types(ts)}")
    elif op in ("gemm", "gemv", "ger", "hadamard"):
        names = {"gemm": ("ta", "tb"), "gemv": ("ta",)}.get(op, ())
        out.append(f"{pad}{op}{_mods(inst, names)} {_ops(ops)} : {_types(ts)}")
    elif op in ("for", "foreach"):
        ty = f" : {ts[0]}" if inst.attrs.get("explicit_type") else ""
        out.append(f"{pad}{op} %{inst.attrs['loop_var'].name} = {_ops(ops)}{ty} {{")
        _body(inst.regions[0], depth + 1, out)
        out.append(pad + "}")
    elif op == "if":
        ret = f" -> ({_types(ts)})" if inst.attrs.get("returns") else ""
        out.append(f"{prefix}if {ops[0]}{ret} {{")
        _body(inst.regions[0], depth + 1, out)
        if len(inst.regions) > 1:
            out.append(pad + "} else {")
            _body(inst.regions[1], depth + 1, out)
        out.append(pad + "}")
    elif op == "yield":
        out.append(f"{pad}yield {_ops(ops)}".rstrip() + f" : {_types(ts)}".rstrip())
    elif op == "store":
        val, dst, *idx = ops
        out.append(f"{pad}store {val}, {dst}[{_ops(idx)}] : {ts[0]}")
    elif op == "alloca":
        out.append(f"{prefix}alloca -> {ts[0]}")
    elif op in ("group_id", "group_size"):
        out.append(prefix + op)
    elif op == "arith":
        out.append(f"{prefix}arith.{inst.attrs['kind']} {_ops(ops)} : {ts[0]}")
    elif op == "cast":
        out.append(f"{prefix}cast {ops[0]} : {ts[0]} -> {ts[1]}")
    elif op == "cmp":
        out.append(f"{prefix}cmp.{inst.attrs['cond']} {_ops(ops)} : {ts[0]}")
    elif op == "expand":
        out.append(f"{prefix}expand {ops[0]}[{inst.attrs['mode']}->{_expand_shape(ops[1:])}] "
                   f": {ts[0]}")
    elif op == "fuse":
        out.append(f"{prefix}fuse {ops[0]}[{inst.attrs['from']},{inst.attrs['to']}] : {ts[0]}")
    elif op == "load":
        out.append(f"{prefix}load {ops[0]}[{_ops(ops[1:])}] : {ts[0]}")
    elif op == "size":
        out.append(f"{prefix}size {ops[0]}[{inst.attrs['mode']}] : {ts[0]}")
    elif op == "subview":
        slices = ",".join(_slice(o, s) for o, s in inst.attrs["slices"])
        out.append(f"{prefix}subview {ops[0]}[{slices}] : {ts[0]}")
    else:  # pragma: no cover - every parsed instruction is listed above
        raise ValueError(f"cannot print instruction {op!r}")


def _body(region: Region, depth: int, out: list) -> None:
    for inst in region.insts:
        _inst(inst, depth, out)


def _function(fn: Function, out: list) -> None:
    args = ", ".join(f"%{a.name}: {a.type}" for a in fn.args)
    attrs = ""
    if fn.work_group_size is not None:
        attrs += f" work_group_size({fn.work_group_size[0]},{fn.work_group_size[1]})"
    if fn.subgroup_size is not None:
        attrs += f" subgroup_size({fn.subgroup_size})"
    out.append(f"func @{fn.name}({args}){attrs} {{")
    _body(fn.body, 1, out)
    out.append("}")


def print_program(prog: Program) -> str:
    """The program as tinytc text."""
    out: list[str] = []
    for i, fn in enumerate(prog.functions):
        if i:
            out.append("")
        _function(fn, out)
    return "\n".join(out) + "\n"
