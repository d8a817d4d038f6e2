"""Op families of the SIMT engine; importing this package registers every lowering."""

from . import arith, gpu_kernel, indexops, launch, mathops, memref_access, scf  # noqa: F401
