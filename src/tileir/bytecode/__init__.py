"""CUDA Tile IR bytecode: reading and writing NVIDIA's ``.tilebc`` format (13.1 - 13.4).

``write_bytecode(module, version="13.3") -> bytes`` and ``read_bytecode(data) -> module`` are the
public entry points (also exported as ``tileir.write_bytecode`` / ``tileir.read_bytecode``).
The format follows NVIDIA's cuda-tile reader and writer; see ``../shared/reference/
bytecode_spec.md`` for a summary.
"""

from __future__ import annotations

from .errors import BytecodeError, BytecodeWriteError
from .reader import is_bytecode, read_bytecode
from .versions import (DEFAULT_VERSION, Version, current_version, parse_version,
                       supported_versions)
from .writer import write_bytecode

__all__ = ["read_bytecode", "write_bytecode", "is_bytecode", "BytecodeError",
           "BytecodeWriteError", "Version", "parse_version", "supported_versions",
           "current_version", "DEFAULT_VERSION"]
