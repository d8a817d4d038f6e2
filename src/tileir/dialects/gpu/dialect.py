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
