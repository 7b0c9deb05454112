# Two entry points for a fresh machine that has only python3:
#   make report   the main job: replays the worked example games (prints their ledgers)
#                 and builds the default balance reports reports/sbr.html, reports/strand.html
#   make test     the whole test suite (make test-fast: without the tests marked slow)
#   make lint     ruff (lint and format check), mypy on the shared layers, import-linter on the layers (CI runs it first)
#   make bench    games per second against the speed targets
# Both build .venv on first use and re-install when pyproject.toml changes.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: report test test-fast lint format bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(BIN)/python -m gamelab.sbr.kernel  # compile the SBR search kernel once (numba's cache), not on the first search
	$(BIN)/python -m gamelab.strand.kernel  # and STRAND's compiled refill
	touch $(STAMP)

WORKERS ?= 2  # processes playing games in make report (the machine's two cores); same tables at any count

report: $(STAMP)
	$(BIN)/gamelab replay data/playtests/*.json
	$(BIN)/gamelab report sbr --workers $(WORKERS) --out reports/sbr.html
	$(BIN)/gamelab report strand --workers $(WORKERS) --out reports/strand.html

test: $(STAMP)
	$(BIN)/python -m pytest -q

test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -m "not slow"

lint: $(STAMP)
	$(BIN)/ruff check gamelab tests scripts
	$(BIN)/ruff format --check gamelab tests scripts
	$(BIN)/mypy
	$(BIN)/lint-imports

format: $(STAMP)
	$(BIN)/ruff check --fix gamelab tests scripts
	$(BIN)/ruff format gamelab tests scripts

bench: $(STAMP)
	$(BIN)/gamelab bench

clean:
	rm -rf $(VENV) .pytest_cache
