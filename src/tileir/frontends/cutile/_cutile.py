"""Importing NVIDIA's cuTile Python (``cuda.tile``) on demand, with a clear error when it is
missing.  Nothing in :mod:`tileir.cutile` imports ``cuda.tile`` at import time."""

from __future__ import annotations

__all__ = ["CutileNotInstalledError", "require_cutile", "INSTALL_HINT"]

#: tileir is installed from a checkout (it is not on PyPI); cuda-tile is
INSTALL_HINT = 'pip install -e ".[cutile]" in the tileir checkout, or pip install cuda-tile'


class CutileNotInstalledError(ImportError):
    """cuTile Python (the ``cuda-tile`` package, module ``cuda.tile``) cannot be imported."""


_CT = None


def require_cutile():
    """The ``cuda.tile`` module, or :class:`CutileNotInstalledError` telling how to install it."""
    global _CT
    if _CT is not None:
        return _CT
    try:
        import cuda.tile as ct
        from cuda.tile.compilation import export_kernel  # noqa: F401
    except ImportError as exc:
        raise CutileNotInstalledError(
            "tileir.cutile needs NVIDIA's cuTile Python (the 'cuda-tile' package, module "
            f"cuda.tile), which is not installed ({exc}); install it with: {INSTALL_HINT}"
        ) from exc
    _CT = ct
    return ct
