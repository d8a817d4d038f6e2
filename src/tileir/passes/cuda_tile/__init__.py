"""cuda_tile's patterns and passes: canonicalization patterns and folders, constant folding
with the executor's semantics, fuse-fma, loop-split and the debug-info passes."""

from . import canonical  # noqa: F401  (registers the canonicalization patterns)
from . import debuginfo, fuse_fma  # noqa: F401,E402  (register their passes)
from . import loop_split  # noqa: F401,E402
from . import fold  # noqa: F401,E402
