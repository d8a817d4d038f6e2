"""Symbol lookups the gpu verifiers need: ``gpu.launch_func``'s kernel."""

from __future__ import annotations

from typing import Optional

from ....ir.core import Operation
from ....ir.diagnostics import ERROR, Diagnostic

_CONTAINER = "gpu.container_module"


def _symbol_table(op: Operation, name: str) -> Optional[Operation]:
    for region in op.regions:
        for block in region.blocks:
            for child in block.ops:
                sym = child.attributes.get("sym_name")
                if sym is not None and getattr(sym, "value", None) == name:
                    return child
    return None


def verify_launch_func(op: Operation) -> Optional[str]:
    """MLIR's LaunchFuncOp::verify and its symbol-use checks."""
    module = op.parent_op
    while module is not None and module.name != "builtin.module":
        module = module.parent_op
    if module is None or "gpu.container_module" not in module.attributes:
        return ("expected the closest surrounding module to have the 'gpu.container_module' "
                "attribute")
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
    func = _symbol_table(container, kernel.nested[-1])
    if func is None:
        return f"kernel function '{kernel}' is undefined"
    if func.name not in ("gpu.func", "llvm.func"):
        diag = Diagnostic(ERROR, f"'gpu.launch_func' op referenced kernel '{kernel}' is not a "
                          "function", op.loc)
        diag.attach_note("see the kernel definition here", func.loc)
        return diag
    if func.name == "gpu.func":
        if "gpu.kernel" not in func.attributes:
            return "kernel function is missing the 'gpu.kernel' attribute"
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
