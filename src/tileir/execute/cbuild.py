"""Compiling generated C with the system's C compiler, cached on disk and in memory.

Used by the SIMT engine's native backend (kernels as C, :mod:`.simt.native`) and by the
numerics' native helpers (:mod:`.numerics.native`).  Everything that uses it has a NumPy path
for machines without a compiler.

The compiler is ``$CC`` or the first of ``cc``, ``gcc``, ``clang`` on ``PATH``.  Flags keep IEEE
arithmetic exact: no fast math, no contraction of a multiply and an add into an fma, wrap-around
signed integers (``-fwrapv``).  A shared library is kept under ``$TILEIR_CACHE_DIR`` (default
``~/.cache/tileir/native``) named by a hash of the source, the compiler and the flags, so a kernel
is compiled once per machine; a cache that cannot be written falls back to a temporary folder.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import platform
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Optional

__all__ = ["NativeBuildError", "compiler", "load"]

FLAGS = ["-O3", "-std=gnu11", "-fPIC", "-shared", "-fno-fast-math", "-ffp-contract=off",
         "-fwrapv", "-fno-strict-aliasing", "-fno-math-errno", "-w"]
_lock = threading.Lock()
_loaded: dict[str, ctypes.CDLL] = {}
_compiler: list = []


class NativeBuildError(Exception):
    """No C compiler, or the compiler refused the generated source (the message says which)."""


def compiler() -> Optional[str]:
    """The C compiler's path, or None when there is none."""
    if not _compiler:
        found = os.environ.get("CC") or next(
            (p for p in (shutil.which(c) for c in ("cc", "gcc", "clang")) if p), None)
        _compiler.append(found)
    return _compiler[0]


def _flags() -> list[str]:
    arch = ["-march=native"] if platform.machine() in ("x86_64", "AMD64") else []
    return FLAGS + arch


def _cache_dir() -> Path:
    root = os.environ.get("TILEIR_CACHE_DIR")
    path = Path(root) if root else Path.home() / ".cache" / "tileir" / "native"
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".probe"
        probe.write_text("")
        return path
    except OSError:
        path = Path(tempfile.gettempdir()) / f"tileir-native-{os.getuid()}"
        path.mkdir(parents=True, exist_ok=True)
        return path


def load(source: str) -> ctypes.CDLL:
    """The shared library built from ``source`` (compiled on first use); the caller declares
    its functions' ``argtypes`` and ``restype``."""
    cc = compiler()
    if cc is None:
        raise NativeBuildError("no C compiler (set CC, or install cc/gcc/clang)")
    flags = _flags()
    key = hashlib.sha256("\0".join([source, cc, platform.node(), platform.machine()] + flags)
                         .encode()).hexdigest()[:32]
    with _lock:
        lib = _loaded.get(key)
        if lib is not None:
            return lib
        path = _cache_dir() / f"k{key}.so"
        if not path.exists():
            _compile(cc, flags, source, path)
        lib = ctypes.CDLL(str(path))
        _loaded[key] = lib
        return lib


def _compile(cc: str, flags: list[str], source: str, path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        c_file = Path(tmp) / "kernel.c"
        c_file.write_text(source)
        out = Path(tmp) / "kernel.so"
        try:
            proc = subprocess.run([cc, *flags, str(c_file), "-o", str(out), "-lm"],
                                  capture_output=True, text=True, timeout=120)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise NativeBuildError(f"{cc}: {e}") from None
        if proc.returncode != 0:
            raise NativeBuildError(f"{cc} failed: {proc.stderr.strip()[:2000]}")
        # (a rename is atomic: a concurrent process sees either no file or a whole one)
        tmp_target = path.with_suffix(f".{os.getpid()}.tmp")
        shutil.copyfile(out, tmp_target)
        os.replace(tmp_target, path)
