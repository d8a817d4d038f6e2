"""MLIR's math dialect (in progress)."""
