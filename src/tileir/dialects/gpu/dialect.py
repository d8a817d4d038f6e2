"""The gpu dialect's registrations with :mod:`tileir.ir`: attribute kinds its op declarations
use and regions isolated from above."""

from __future__ import annotations

from ...ir import verify as _verify
from ...ir.attributes import IntegerAttr, SymbolRefAttr
from ...text import registry

_verify.ATTR_KINDS.update({
    "index": (lambda v: isinstance(v, IntegerAttr) and str(v.type) == "index", "index attribute"),
    "symbol_ref": (lambda v: isinstance(v, SymbolRefAttr), "symbol reference attribute"),
})
registry.ISOLATED_OPS.update({"gpu.func", "gpu.module"})


def _generic_defaults(spec, attrs: dict) -> None:
    """A generic ``gpu.binary`` without ``offloadingHandler`` gets the one its custom form
    implies (``#gpu.select_object``), so that printing it in the custom form and reading that
    back gives the same op (mlir-opt keeps it absent in the generic form: see the note on
    issue 14)."""
    if spec.name == "gpu.binary":
        from .attributes import SelectObjectAttr
        attrs.setdefault("offloadingHandler", SelectObjectAttr(None))


registry.GENERIC_ATTR_NORMALIZERS["gpu"] = _generic_defaults
