"""Figure, table and section numbers cited from the papers match the paper texts.

The JAIR 2011 UIR text in ``../shared/papers`` lost its digits: its figures and tables are
numbered by counting their captions in order, its sections by counting the headings. The
type-level paper's text has one table. Citations once wrong (JAIR "Fig. 8/10/12/13-15", "Table
3", "§5.2", "§3-§4", the threshold curve as "Fig. 6"; the type-level "Tables 2-3") must not come
back; every JAIR figure citation is checked against the subject of the caption it names.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAPERS = ROOT.parent / "shared" / "papers"
JAIR = PAPERS / "uir-jair2011-amigo-gonzalo-artiles-verdejo.txt"
TYPE_LEVEL = PAPERS / "type-level-clustering-evaluation-reichart-abend-rappoport.txt"

#: JAIR figure -> words of its caption (the text's order), and the subjects the project cites
JAIR_FIGURES = {5: "vs uir", 7: "weakest single metric improvement",
                10: "improvement detected across uir thresholds", 11: "predictive power",
                12: "predictive power", 13: "predictive power"}
JAIR_TABLES = {2: "system ranking according to f", 3: "example of experiment input",
               4: "counter sample for transitivity", 5: "increase when f increases for all",
               6: "statistical significance tests", 7: "results with bcubed precision and recall"}
#: a citation's subject (words on its line or the line before) -> the JAIR figure it must name
SUBJECT_FIGURE = [(re.compile(r"threshold", re.I), {10}),
                  (re.compile(r"weakest|ten (system )?pairs", re.I), {7}),
                  (re.compile(r"(Δ|Delta )F vs UIR|triangle", re.I), {5}),
                  (re.compile(r"test[- ]bed|§7", re.I), {11, 12, 13})]

KNOWN_WRONG = [
    (r"JAIR(?: 2011| 42)?,? Figs?\. ?(?:6|8|12)\b", "JAIR Figs 6, 8, 12 are not the cited ones"),
    (r"Figs?\. ?13\s*[–-]\s*15", "the cross-test-bed figures are JAIR Figs 11-13"),
    (r"JAIR(?: 2011)?,? §5\.2", "pair classes and significance are JAIR §6.1"),
    (r"JAIR(?: 2011| 42)?,? §3\s*[–-]\s*§?4", "unanimous improvement is JAIR §4"),
    (r"JAIR 2011 §5,", "the UIR threshold study is JAIR §6.3"),
    (r"Tables 2\s*[–-]\s*3", "the type-level paper's results are its Table 1"),
    (r"Table 5 of the paper: ten test cases", "the UIR example input is JAIR Table 3"),
    (r"JAIR(?: 2011)?,?\s+Table 3\b", "JAIR Table 3 is the UIR example input; the rankings by "
     "F at two alphas are its Table 2"),
]


def _tracked() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "*.md", "*.py"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    here = Path(__file__).name
    return [ROOT / f for f in out if not f.endswith(here) and (ROOT / f).exists()]


def _captions(kind: str) -> list[str]:
    """The JAIR captions of one kind in order: a caption line is ``figure`` / ``table``, the
    number and colon lost to spaces (four or more), then the caption."""
    text = JAIR.read_text(encoding="utf-8", errors="replace")
    lines = re.findall(rf"^{kind} {{4,}}(\S.*)$", text, flags=re.M)
    # "figure 10 shows ..." also leaves four spaces: a text line, not a caption
    return [c.strip() for c in lines if not c.startswith("shows ")]


@pytest.mark.skipif(not JAIR.exists(), reason="the paper texts are not in ../shared/papers")
def test_jair_captions_counted_in_order():
    figures, tables = _captions("figure"), _captions("table")
    assert len(figures) == 13 and len(tables) == 7
    for number, words in JAIR_FIGURES.items():
        assert words in re.sub(r"\s+", " ", figures[number - 1]), (number, figures[number - 1])
    for number, words in JAIR_TABLES.items():
        assert words in re.sub(r"\s+", " ", tables[number - 1]), (number, tables[number - 1])


@pytest.mark.skipif(not JAIR.exists(), reason="the paper texts are not in ../shared/papers")
def test_jair_sections_counted_in_order():
    lines = JAIR.read_text(encoding="utf-8", errors="replace").splitlines()

    def headings(indent: int, after_blank: bool) -> list[tuple[int, str]]:
        # "6 F versus UIR: ..." lost its number and colon: the indent tells the level (3
        # spaces for "6 ", 4 for "6.1 "); a heading ends without a space, and a section's
        # heading follows a blank line
        pat = re.compile(rf" {{{indent}}}[a-z][a-z ]*[a-z]")
        return [(i, re.sub(r"\s+", " ", line.strip())) for i, line in enumerate(lines)
                if pat.fullmatch(line) and len(line) < 80
                and (not after_blank or (i and not lines[i - 1].strip()))]

    top = headings(3, True)
    assert [h for _, h in top] == [
        "introduction", "combining functions for evaluation metrics",
        "combining metrics in clustering tasks", "proposal", "theoretical foundations",
        "f versus uir empirical study",
        "uir as predictor of the stability of results across test collections",
        "parametric versus non parametric uir", "conclusions"]
    sixth = (top[5][0], top[6][0])
    subs = [h for i, h in headings(4, False) if sixth[0] < i < sixth[1]]
    assert subs == ["uir rewarding robustness", "correlation between f and uir",
                    "a significance threshold for uir", "uir and system rankings"]


@pytest.mark.skipif(not TYPE_LEVEL.exists(), reason="the paper texts are not in ../shared/papers")
def test_type_level_paper_has_one_table():
    text = TYPE_LEVEL.read_text(encoding="utf-8")
    assert re.findall(r"Table (\d+):", text) == ["1"]


def test_no_known_wrong_citation():
    bad = []
    for path in _tracked():
        text = path.read_text(encoding="utf-8", errors="replace")
        for pattern, why in KNOWN_WRONG:
            for m in re.finditer(pattern, text):
                line = text.count("\n", 0, m.start()) + 1
                bad.append(f"{path.relative_to(ROOT)}:{line}: {m.group(0)!r} ({why})")
    assert not bad, "\n".join(bad)


def _figure_numbers(cite: str) -> set[int]:
    nums = [int(x) for x in re.findall(r"\d+", cite)]
    return set(range(nums[0], nums[-1] + 1)) if len(nums) > 1 else {nums[0]}


def test_jair_figure_citations_name_their_subject():
    cite = re.compile(r"JAIR(?: 2011| 42)?(?: §\d+)?,? Figs?\. ?(\d+(?:\s*[–-]\s*\d+)?)")
    bad = []
    for path in _tracked():
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        for i, line in enumerate(lines):
            for m in cite.finditer(line):
                numbers = _figure_numbers(m.group(1))
                if max(numbers) > 13:
                    bad.append(f"{path.relative_to(ROOT)}:{i + 1}: {m.group(0)} (13 figures)")
                window = (lines[i - 1] if i else "") + " " + line
                wanted = set().union(*[w for s, w in SUBJECT_FIGURE if s.search(window)])
                if wanted and not numbers & wanted:
                    bad.append(f"{path.relative_to(ROOT)}:{i + 1}: {m.group(0)} "
                               f"(its subject is Fig. {sorted(wanted)})")
    assert not bad, "\n".join(bad)
