"""The package version, read from the installed distribution's metadata (one owner:
``pyproject.toml``), without importing anything heavy, so that ``unanimity --version`` is fast."""

from __future__ import annotations

from importlib import metadata

__all__ = ["DISTRIBUTION", "package_version"]

#: The distribution name of ``pyproject.toml``.
DISTRIBUTION = "unanimity"


def package_version() -> str:
    """The installed version of Unanimity; ``0+unknown`` for a source tree run uninstalled."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "0+unknown"
