"""Bytecode versions: which versions exist, which this build reads and writes, and the newest
opcode of each (cuda-tile's ``isOpcodeAvailableInVersion``).

tileir reads and writes 13.1, 13.2, 13.3 and 13.4.  cuda-tile 13.3 (whose lit corpus tileir runs)
knows only 13.1-13.3, plus the test-only versions 250.0 and 250.1 when built with
``TILE_IR_INCLUDE_TESTS``; setting the environment variable ``TILEIR_CUDA_TILE_COMPAT=13.3`` makes
tileir behave as that testing build (newest version 13.3, test versions and test ops enabled), so
its messages and ``--list-versions`` output match the corpus exactly.
"""

from __future__ import annotations

import os
from functools import total_ordering
from typing import Optional, Union

__all__ = ["Version", "parse_version", "supported_versions", "current_version", "min_version",
           "max_opcode", "testing_enabled", "V13_1", "V13_2", "V13_3", "V13_4", "DEFAULT_VERSION",
           "version_range_text", "lookup_version"]


@total_ordering
class Version:
    """A bytecode version ``major.minor[.tag]`` (the header stores u8, u8, u16)."""

    __slots__ = ("major", "minor", "tag", "key")

    def __init__(self, major: int, minor: int, tag: int = 0) -> None:
        self.major = major
        self.minor = minor
        self.tag = tag
        self.key = (major, minor, tag)

    def __eq__(self, other) -> bool:
        if isinstance(other, Version):
            return self.key == other.key
        if isinstance(other, str):
            try:
                return self.key == parse_version(other).key
            except ValueError:
                return False
        return NotImplemented

    def __lt__(self, other) -> bool:
        if isinstance(other, str):
            other = parse_version(other)
        return self.key < other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __str__(self) -> str:
        if self.tag:
            return f"{self.major}.{self.minor}.{self.tag}"
        return f"{self.major}.{self.minor}"

    def full(self) -> str:
        """``major.minor.tag`` (cuda-tile's header error spells all three)."""
        return f"{self.major}.{self.minor}.{self.tag}"

    def __repr__(self) -> str:
        return f"Version({self})"


V13_1, V13_2, V13_3, V13_4 = Version(13, 1), Version(13, 2), Version(13, 3), Version(13, 4)
V250_0, V250_1 = Version(250, 0), Version(250, 1)

#: The version ``tileir.write_bytecode`` targets by default.
DEFAULT_VERSION = V13_3

#: Newest public opcode per version (opcodes are assigned in version order).
_MAX_OPCODE = {(13, 1): 0x6D, (13, 2): 0x6E, (13, 3): 0x75, (13, 4): 0x7A,
               (250, 0): 0x3002, (250, 1): 0x3002}


def compat() -> Optional[str]:
    return os.environ.get("TILEIR_CUDA_TILE_COMPAT") or None


def testing_enabled() -> bool:
    """Test-only versions (250.x) and ops (``testing$bytecode_test_*``) are available."""
    return compat() is not None or os.environ.get("TILEIR_BYTECODE_TESTING") == "1"


def current_version() -> Version:
    """The newest production version this build supports."""
    c = compat()
    if c:
        try:
            v = parse_version(c)
            if V13_1 <= v <= V13_4:
                return v
        except ValueError:
            pass
    return V13_4


def min_version() -> Version:
    return V13_1


def supported_versions() -> list[Version]:
    """All versions, in order (``--list-versions``)."""
    cur = current_version()
    out = [v for v in (V13_1, V13_2, V13_3, V13_4) if v <= cur]
    if testing_enabled():
        out += [V250_0, V250_1]
    return out


def lookup_version(major: int, minor: int, tag: int = 0) -> Optional[Version]:
    """cuda-tile's ``BytecodeVersion::fromVersion``: a known major.minor (any tag), else None."""
    for v in supported_versions():
        if v.major == major and v.minor == minor:
            return Version(major, minor, tag)
    return None


def version_range_text() -> str:
    return f"[{min_version()} - {current_version()}]"


def max_opcode(version: Version) -> int:
    return _MAX_OPCODE.get((version.major, version.minor), -1)


def parse_version(text: Union[str, Version, tuple]) -> Version:
    """``"13.3"`` / ``"13.3.0"`` / ``(13, 3)`` -> Version (syntax only; see lookup_version)."""
    if isinstance(text, Version):
        return text
    if isinstance(text, tuple):
        return Version(*text)
    parts = str(text).strip().split(".")
    if len(parts) not in (2, 3) or not all(p.isdigit() for p in parts):
        raise ValueError(f"invalid bytecode version '{text}'")
    nums = [int(p) for p in parts]
    if nums[0] > 255 or nums[1] > 255 or (len(nums) == 3 and nums[2] > 65535):
        raise ValueError(f"invalid bytecode version '{text}'")
    return Version(*nums)
