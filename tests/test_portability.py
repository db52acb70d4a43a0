"""The tests pass from a clone in any folder.

A test that names a place on the machine (the temporary folder, a home or a work folder) passes
on one machine and fails on the next: a clone under the temporary folder once failed two
dashboard tests that forbade its name in messages where the Data page rightly shows the
campaign's source path. Places are found from the test file (``Path(__file__)``), ``tmp_path``,
:mod:`tempfile` or the code under test (``dashboard.data.uploads.upload_root``); the fixed paths
allowed are the system's browser and the ``PATH`` of a subprocess.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# a folder of the machine, not inside a longer name: "/tmp/", "|/tmp", "/work/x", "/home/u"
_PLACE = re.compile(r"(?<![\w.$}])/(tmp|work|home|root|Users|var/folders)\b")
_ALLOWED = ("/usr/bin/chromium", "/usr/bin:/bin")


def _places(source: str) -> list[tuple[int, str]]:
    """(line, string literal) of every string literal of ``source`` that names a machine folder."""
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.STRING and _PLACE.search(tok.string) \
                and not any(a in tok.string for a in _ALLOWED):
            out.append((tok.start[0], tok.string))
    return out


def test_no_test_names_a_machine_folder():
    bad = [f"{path.relative_to(ROOT)}:{line}: {text}"
           for path in sorted((ROOT / "tests").rglob("*.py")) if path != Path(__file__).resolve()
           for line, text in _places(path.read_text(encoding="utf-8"))]
    assert not bad, "\n".join(bad)


def test_the_check_sees_the_old_mistakes():
    old = ('STORAGE = re.compile(r"unanimity-uploads|up-[0-9a-f]{16}/|/tmp/")\n'
           'assert "/tmp" not in msgs[0]\n'
           'p = Path("/work/shared/campaigns")\n')
    assert [line for line, _ in _places(old)] == [1, 2, 3]
    fine = ('p = tmp_path / "tmp"\nq = Path(tempfile.gettempdir()) / "x"\n'
            'exe = "/usr/bin/chromium"\n# a comment about /tmp/ is no assumption\n')
    assert _places(fine) == []
