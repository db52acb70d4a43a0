# Unanimity: the two commands of the README, and what they need.
#   make dashboard   install into .venv, then start the dashboard on the bundled RepLab 2013 campaign
#   make test        install into .venv (and Debian's chromium for the browser tests), run ruff,
#                    mypy and every test
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.unanimity-installed
PORT   ?= 8501

.PHONY: dashboard test lint browser bench install demo-data

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test,bench,dask]"
	touch $(STAMP)

dashboard: $(STAMP)
	$(BIN)/unanimity dashboard demo_data/replab2013 --port $(PORT)

browser:
	bash scripts/install_browser.sh

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

# The linter and the type checker first (CONTRIBUTING.md); then unit, property and AppTest tests
# in parallel; then the browser tests alone, so that their timings (first chart, re-render) are
# not measured against a machine busy with other tests.
test: $(STAMP) browser lint
	$(BIN)/python -m pytest -n 2 --dist loadfile -m "not e2e"
	$(BIN)/python -m pytest -m e2e

bench: $(STAMP)
	$(BIN)/python bench/run.py

demo-data: $(STAMP)
	$(BIN)/python scripts/make_demo_data.py
