"""MLIR's cf dialect (in progress)."""
