"""Lazy re-exports of a package's public names (PEP 562).

A package ``__init__`` that re-exports names of its submodules eagerly imports all of them (and
their dependencies) as soon as any one submodule is imported, and turns the package into a hub
of import cycles. :func:`lazy_exports` instead imports the submodule that holds a name the first
time the name is asked for (``from metrics import evaluate``, ``metrics.evaluate``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(package: str, where: Mapping[str, str]
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package`` exporting ``name`` from module
    ``where[name]`` (a full dotted module name), imported on first use and then cached in the
    package's namespace."""

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(importlib.import_module(package), name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(where) | set(vars(importlib.import_module(package))))

    return __getattr__, __dir__
