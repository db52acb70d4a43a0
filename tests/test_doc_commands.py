"""Every command in the documentation can be pasted.

Each ```bash (or ```sh) block of README.md and docs/*.md is checked twice, without running
anything: ``bash -n`` parses the block as the shell would (an unquoted ``type_macro_f(...)`` is a
syntax error), and every ``unanimity ...`` or ``python -m metrics ...`` command in it is split as
the shell splits it (:mod:`shlex`) and parsed by the real argument parser
(:func:`metrics.cli.build_parser`), so that an option that does not exist, a missing value or
usage notation such as ``[--json]`` in a block meant to be pasted fails here.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from metrics.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_FENCE = re.compile(r"^```(?:bash|sh|shell)\s*\n(.*?)^```", re.M | re.S)
_OPERATORS = ("|", "||", "&&", ";", ">", ">>", "<", "&")


def _blocks() -> list[tuple[str, int, str]]:
    """(file, first line, text) of every shell block."""
    out = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for m in _FENCE.finditer(text):
            out.append((path.relative_to(ROOT).as_posix(), text[: m.start(1)].count("\n") + 1,
                        m.group(1)))
    return out


def _commands(block: str) -> list[list[str] | str]:
    """The argument lists of the ``unanimity`` / ``python -m metrics`` commands of a block:
    continuation lines joined as the shell joins them, comments dropped, a pipe or redirection
    ends the command; a command with an unquoted ``(`` or ``)`` comes back as its text (a
    problem to report)."""
    out: list[list[str] | str] = []
    for line in block.replace("\\\n", "").splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        tokens = list(lexer)
        bad = False
        for i, tok in enumerate(tokens):
            if tok in _OPERATORS:
                tokens = tokens[:i]
                break
            bad |= set(tok) <= set("();<>|&")
        if tokens[:1] == ["unanimity"] or tokens[:3] == ["python", "-m", "metrics"]:
            if bad:
                out.append(f"shell operator in: {line.strip()}")
            else:
                out.append(tokens[1:] if tokens[0] == "unanimity" else tokens[3:])
    return out


BLOCKS = _blocks()
COMMANDS = [(f"{f}:{n}", argv) for f, n, block in BLOCKS for argv in _commands(block)]


def test_the_docs_have_commands_to_check():
    assert len(COMMANDS) >= 20
    assert {cmd[0] for _, cmd in COMMANDS if isinstance(cmd, list)} >= {"info", "evaluate", "compare", "meta-evaluate",
                                               "check-reported", "dashboard"}


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash to parse with")
@pytest.mark.parametrize("where, block", [(f"{f}:{n}", b) for f, n, b in BLOCKS])
def test_each_block_is_valid_bash(where, block):
    got = subprocess.run(["bash", "-n"], input=block, capture_output=True, text=True)
    assert got.returncode == 0, f"{where}: {got.stderr.strip()}"


@pytest.mark.parametrize("where, argv", COMMANDS, ids=[w for w, _ in COMMANDS])
def test_each_command_parses(where, argv, capsys):
    assert isinstance(argv, list), f"{where}: {argv}"
    parser = build_parser()
    try:
        parser.parse_args(argv)
    except SystemExit as exc:
        assert exc.code == 0, f"{where}: unanimity {shlex.join(argv)}: {capsys.readouterr().err}"


def test_the_checks_catch_what_they_are_for():
    bad = "unanimity evaluate x --metrics a,type_macro_f(mapping=many_to_one) --out s.csv\n"
    assert subprocess.run(["bash", "-n"], input=bad, capture_output=True, text=True).returncode != 0
    assert _commands(bad)[0].startswith("shell operator in: unanimity evaluate")
    (argv,) = _commands("unanimity info demo_data/replab2013 [--json]   # usage notation\n")
    with pytest.raises(SystemExit):
        build_parser().parse_args(argv)
    assert _commands("unanimity info x --json | head -3  # a pipe ends it\n") == \
        [["info", "x", "--json"]]
    assert _commands('unanimity evaluate x \\\n  --metrics "a(k=2)",\\\nb\n') == \
        [["evaluate", "x", "--metrics", "a(k=2),b"]]
