"""MLIR's index dialect (in progress)."""
