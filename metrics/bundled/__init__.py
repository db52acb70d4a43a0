"""The bundled campaigns and the documents the dashboard shows, wherever Unanimity runs from.

``demo_data`` and ``docs`` here are links to the repository's ``demo_data/`` and ``docs/`` in a
source checkout (and an editable install), and folders of files in an installed wheel
(``pyproject.toml``, ``[tool.setuptools.package-data]``): the same paths serve both, resolved to
the repository's own folders in a checkout.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["campaign_path", "doc_path"]

_HERE = Path(__file__).resolve().parent


def campaign_path(name: str) -> Path:
    """The folder of a bundled campaign (``replab2013``, ``ud-ewt``)."""
    return (_HERE / "demo_data" / name).resolve()


def doc_path(name: str) -> Path:
    """A page of the documentation (``measures.md``)."""
    return (_HERE / "docs" / name).resolve()
