"""A slice of MLIR's affine dialect: ``affine.apply``, ``affine.min`` and ``affine.max`` (the
ops MLIR's own GPU pipelines, ``--convert-parallel-loops-to-gpu`` and loop tiling, leave in
host code and kernels), ``affine.load``/``affine.store`` and the structured control flow
``affine.for``/``affine.if``/``affine.parallel``/``affine.yield``.  Maps, sets and their
parsing/printing are the builtin ``affine_map``/``affine_set`` attributes'
(:mod:`tileir.dialects.builtin.affine`); which values may be dimensions and symbols is
:mod:`tileir.dialects.affine.validity`'s."""

from __future__ import annotations

from . import control, ops  # noqa: F401  (registers the ops)
