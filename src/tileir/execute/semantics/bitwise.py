"""§8.9 Bitwise operations: andi, ori, xori (on the storage bits; i1 is a bool)."""

from __future__ import annotations

import numpy as np

from .. import numerics as N
from ..plan import lowering
from ._common import elementwise, element_name

_UFUNC = {"andi": np.bitwise_and, "ori": np.bitwise_or, "xori": np.bitwise_xor}


@lowering("andi", "ori", "xori", fold=True)
def _lower_bitwise(op, cc):
    name = op.name.split(".", 1)[1]
    elem = element_name(op.results[0].type)
    if elem == "i4":
        impl = getattr(N, name)
        return elementwise(op, cc, lambda a, b: impl(a, b, elem))
    return elementwise(op, cc, _UFUNC[name])
