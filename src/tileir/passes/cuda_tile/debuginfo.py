"""Debug-info passes: ``synthesize-debug-info-scopes`` (give every function without a debug
scope a subprogram built from its file locations, as NVIDIA's pass does for front ends that
emit none) and ``test-debuginfo-update-symbol-name`` (rename a symbol, its uses and the linkage
name of its subprogram)."""

from __future__ import annotations

import dataclasses
import posixpath
from typing import Any, Optional

from ...dialects.cuda_tile.attributes import (DICompileUnitAttr, DIFileAttr, DILoc, DISubprogramAttr,
                                              StringAttr, SymbolRefAttr)
from ...ir.diagnostics import ERROR, Diagnostic
from ...ir.core import Operation
from ...ir.locations import CallSiteLoc, FileLineColLoc, FusedLoc, Location, NameLoc
from ..manager import Pass, PassFailure, register_pass
from .function_passes import FUNCTIONS

__all__ = ["SynthesizeDebugInfoScopes", "UpdateSymbolName", "update_symbol_name",
           "synthesize_debug_info_scopes"]


def _file_loc(loc: Optional[Location]) -> Optional[FileLineColLoc]:
    """The file position a location stands for: a name's child, a call site's caller, the first
    file position directly in a fused location."""
    if isinstance(loc, FileLineColLoc):
        return loc
    if isinstance(loc, NameLoc):
        return _file_loc(loc.child)
    if isinstance(loc, CallSiteLoc):
        return _file_loc(loc.caller)
    if isinstance(loc, FusedLoc):
        return next((sub for sub in loc.locations if isinstance(sub, FileLineColLoc)), None)
    return None


def _file_attr(loc: FileLineColLoc) -> DIFileAttr:
    return DIFileAttr(posixpath.basename(loc.file), posixpath.dirname(loc.file))


def _has_di_loc(loc: Optional[Location]) -> bool:
    if isinstance(loc, DILoc):
        return True
    if isinstance(loc, NameLoc):
        return _has_di_loc(loc.child)
    if isinstance(loc, CallSiteLoc):
        return _has_di_loc(loc.callee) or _has_di_loc(loc.caller)
    if isinstance(loc, FusedLoc):
        return any(_has_di_loc(sub) for sub in loc.locations)
    return False


def _symbol_name(op: Operation) -> str:
    attr = op.attributes.get("sym_name")
    return attr.value if isinstance(attr, StringAttr) else str(attr)


def _scope_function(func: Operation, unit: DICompileUnitAttr) -> None:
    if _has_di_loc(func.loc):
        return
    file_attr = unit.file
    line = 1
    position = _file_loc(func.loc)
    if position is not None:
        file_attr = _file_attr(position)
        line = position.line
    else:
        position = FileLineColLoc(file_attr.name, 1, 1)
    name = _symbol_name(func)
    subprogram = DISubprogramAttr(file_attr, line, name, name, unit, line)
    for op in func.walk():
        op.loc = DILoc(_file_loc(op.loc) or position, subprogram)


def synthesize_debug_info_scopes(module: Operation) -> None:
    """Attach a compile unit and per-function subprograms to a ``cuda_tile.module``."""
    position = _file_loc(module.loc)
    file_attr = _file_attr(position) if position is not None else DIFileAttr("<unknown>", "")
    unit = DICompileUnitAttr(file_attr)
    for block in module.regions[0].blocks:
        for op in block.ops:
            if op.name in FUNCTIONS:
                _scope_function(op, unit)


@register_pass
class SynthesizeDebugInfoScopes(Pass):
    """Synthesize debug-info scopes for a cuda_tile module."""

    ARGUMENT = "synthesize-debug-info-scopes"
    DISPLAY = "SynthesizeDebugInfoScopesPass"
    SUMMARY = "Synthesize debug info scope information for a module"

    def run(self, op: Operation) -> None:
        modules = [op] if op.name == "cuda_tile.module" else \
            [m for m in op.walk(include_self=False) if m.name == "cuda_tile.module"]
        for module in modules:
            synthesize_debug_info_scopes(module)


# ------------------------------------------------------------------------------------------------
# symbol renaming


def _lookup(root: Operation, path: list[str]) -> Optional[Operation]:
    op: Optional[Operation] = root
    for name in path:
        found = None
        for region in op.regions:
            for block in region.blocks:
                for child in block.ops:
                    if "sym_name" in child.attributes and _symbol_name(child) == name:
                        found = child
        if found is None:
            return None
        op = found
    return op


def _spelled(path: list[str]) -> str:
    return "::".join(f"@{p}" for p in path)


def _replace_in(value: Any, old: Any, new: Any, memo: dict) -> Any:
    """``value`` with every ``old`` nested in it (attribute/location dataclasses) -> ``new``."""
    if value == old:
        return new
    try:
        if value in memo:  # attributes are immutable and hashable: key by value
            return memo[value]
    except TypeError:
        pass
    out = value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {}
        for f in dataclasses.fields(value):
            inner = getattr(value, f.name)
            if isinstance(inner, tuple):
                replaced = tuple(_replace_in(x, old, new, memo) for x in inner)
                if any(a is not b for a, b in zip(replaced, inner)):
                    changes[f.name] = replaced
            elif dataclasses.is_dataclass(inner):
                replaced = _replace_in(inner, old, new, memo)
                if replaced is not inner:
                    changes[f.name] = replaced
        if changes:
            out = dataclasses.replace(value, **changes)
    try:
        memo[value] = out
    except TypeError:
        pass
    return out


def _rename_uses(table: Operation, old: str, new: str) -> None:
    for op in table.walk(include_self=False):
        for key, attr in list(op.attributes.items()):
            if isinstance(attr, SymbolRefAttr) and attr.root == old:
                op.attributes[key] = dataclasses.replace(attr, root=new)


def update_symbol_name(symbol: Operation, new_name: str, scope: Operation,
                       update_uses: bool) -> None:
    """Rename ``symbol`` to ``new_name``, its uses in the enclosing symbol table when asked,
    and the linkage name of its subprogram everywhere inside ``scope``."""
    if symbol.parent_op is not None and scope is not symbol and \
            not any(a is scope for a in symbol.ancestors()):
        diag = Diagnostic(ERROR, "attempted to update symbol names in a scope that did not "
                          "enclose the symbol itself", symbol.loc)
        diag.attach_note("scope defined here", scope.loc)
        raise PassFailure([diag])
    old_name = _symbol_name(symbol)
    if update_uses and symbol.parent_op is not None:
        _rename_uses(symbol.parent_op, old_name, new_name)
    symbol.attributes["sym_name"] = StringAttr(new_name)
    loc = symbol.loc
    if not isinstance(loc, DILoc) or not isinstance(loc.scope, DISubprogramAttr):
        return
    old_sp = loc.scope
    new_sp = dataclasses.replace(old_sp, linkage_name=new_name)
    memo: dict = {}
    for op in scope.walk():
        op.loc = _replace_in(op.loc, old_sp, new_sp, memo)
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    if arg.loc is not None:
                        arg.loc = _replace_in(arg.loc, old_sp, new_sp, memo)


@register_pass
class UpdateSymbolName(Pass):
    """Test pass of NVIDIA's debug-info utilities: rename a (nested) symbol."""

    ARGUMENT = "test-debuginfo-update-symbol-name"
    DISPLAY = "TestDebugInfoUpdateSymbolName"
    SUMMARY = "Test the debuginfo utilities to update symbol names"
    OPTIONS = {"symbol-to-rename": (str, ""), "scope": (str, ""), "new-name": (str, ""),
               "update-uses": (bool, False)}

    def run(self, op: Operation) -> None:
        path = [p for p in self.options["symbol-to-rename"].split("::")]
        scope = op
        if self.options["scope"]:
            scope_path = self.options["scope"].split("::")
            scope = _lookup(op, scope_path)
            if scope is None:
                raise PassFailure([Diagnostic(ERROR, "could not find symbol op with name "
                                              f"'{_spelled(scope_path)}'", op.loc)])
        symbol = _lookup(op, path)
        if symbol is None:
            raise PassFailure([Diagnostic(ERROR, "could not find symbol op with name "
                                          f"'{_spelled(path)}'", op.loc)])
        update_symbol_name(symbol, self.options["new-name"], scope,
                           self.options["update-uses"])
