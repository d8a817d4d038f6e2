"""``tileir.cutile``, the public name of :mod:`tileir.frontends.cutile` (the same module object,
so ``import tileir.cutile``, ``from tileir.cutile import launch`` and monkeypatching it all act on
the front end itself)."""

import sys

from .frontends import cutile as _frontend

sys.modules[__name__] = _frontend
