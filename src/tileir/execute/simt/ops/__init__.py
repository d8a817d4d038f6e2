"""Op families of the SIMT engine; importing this package registers every lowering."""

from . import (affine_ops, arith, async_ops, gpu_comm, gpu_host, gpu_kernel, indexops, launch, llvm_core, llvm_matrix, mathops, memref, memref_access,  # noqa: F401
               scf, scf_parallel, sparse, vector)
