"""Symbol lookups the gpu verifiers need: ``gpu.launch_func``'s kernel.

As in MLIR, ``gpu.launch_func`` itself only checks that its module is a container module; the
kernel references are checked by the ``gpu.container_module`` attribute's verification, on
entrance to the module (before its nested ops), and only for launches placed directly in the
bodies of the module's functions."""

from __future__ import annotations

from typing import Any, Optional

from ....ir.attributes import UnitAttr
from ....ir.core import Operation
from ....ir.diagnostics import ERROR, Diagnostic
from ....ir.traits import FunctionLike
from ....ir.verify import register_attribute_verifier

_CONTAINER = "gpu.container_module"
_FUNCTIONS = ("func.func", "gpu.func", "llvm.func")


def _symbol_table(op: Operation, name: str) -> Optional[Operation]:
    for region in op.regions:
        for block in region.blocks:
            for child in block.ops:
                sym = child.attributes.get("sym_name")
                if sym is not None and getattr(sym, "value", None) == name:
                    return child
    return None


def _is_function(op: Operation) -> bool:
    """Whether ``op`` is a FunctionOpInterface op."""
    if op.name in _FUNCTIONS:
        return True
    spec = op.SPEC
    return spec is not None and FunctionLike in spec.traits


def verify_launch_func(op: Operation) -> Optional[str]:
    """MLIR's LaunchFuncOp::verify: the closest module must be a container module."""
    module = op.parent_op
    while module is not None and module.name != "builtin.module":
        module = module.parent_op
    if module is None or not isinstance(module.attributes.get(_CONTAINER), UnitAttr):
        return ("expected the closest surrounding module to have the 'gpu.container_module' "
                "attribute")
    return None


def _check_kernel(module: Operation, op: Operation):
    """The kernel checks of one ``gpu.launch_func`` (None when valid)."""
    kernel = op.attributes.get("kernel")
    if kernel is None or not getattr(kernel, "nested", ()):
        return None
    container = _symbol_table(module, kernel.root)
    if container is None:
        return f"kernel container '{kernel.root}' is undefined"
    if container.name == "gpu.binary":
        return None
    if container.name != "gpu.module":
        return f"kernel module '{kernel.root}' is undefined"
    func = container
    for name in kernel.nested:
        func = _symbol_table(func, name) if func is not None else None
    if func is None:
        return f"kernel function '{kernel}' is undefined"
    if not _is_function(func):
        diag = Diagnostic(ERROR, f"'gpu.launch_func' op referenced kernel '{kernel}' is not a "
                          "function", op.loc)
        diag.attach_note("see the kernel definition here", func.loc)
        return diag
    if "gpu.kernel" not in func.attributes:
        return "kernel function is missing the 'gpu.kernel' attribute"
    if func.name == "gpu.func":
        ftype = func.attributes["function_type"].value
        spec = op.SPEC
        start, stop = spec.operand_range(op, "kernelOperands")
        args = op.operands[start:stop]
        if len(ftype.inputs) != len(args):
            return "got " + str(len(args)) + " kernel operands but expected " + \
                str(len(ftype.inputs))
        for i, (want, v) in enumerate(zip(ftype.inputs, args)):
            if v.type != want:
                return f"type of function argument {i} does not match"
    return None


def _walk_launches(op: Operation):
    for region in op.regions:
        for block in region.blocks:
            for child in block.ops:
                if child.name == "gpu.launch_func":
                    yield child
                elif child.regions:
                    yield from _walk_launches(child)


def verify_container_module(op: Operation, value: Any) -> Optional[tuple]:
    """GPUDialect::verifyOperationAttribute for ``gpu.container_module``."""
    if not isinstance(value, UnitAttr):
        return None
    if op.name != "builtin.module":
        return op, Diagnostic(ERROR, f"expected '{_CONTAINER}' attribute to be attached to "
                              "'builtin.module'", op.loc)
    for launch in _walk_launches(op):
        parent = launch.parent_op
        if parent is None or parent.parent_op is not op:
            continue  # MLIR checks launches directly in the module's functions only
        error = _check_kernel(op, launch)
        if error is not None:
            return launch, error
    return None


register_attribute_verifier(_CONTAINER, verify_container_module)
