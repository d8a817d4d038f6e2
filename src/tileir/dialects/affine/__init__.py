"""A slice of MLIR's affine dialect: ``affine.apply``, ``affine.min`` and ``affine.max``, the
ops MLIR's own GPU pipelines (``--convert-parallel-loops-to-gpu``, loop tiling) leave in host
code and kernels.  Maps and their parsing/printing are the builtin ``affine_map`` attribute's
(:mod:`tileir.dialects.builtin.affine`)."""

from __future__ import annotations

from . import ops  # noqa: F401  (registers the ops)
