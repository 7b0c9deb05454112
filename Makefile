# Two entry points for a fresh machine that has only python3:
#   make report   the main job: builds the default balance reports reports/strand.html, reports/sbr.html
#                 and replays the worked example games (prints their ledgers)
#   make test     the whole test suite (make test-fast: without the tests marked slow)
#   make lint     ruff (lint and format check), mypy on the shared layers, import-linter on the layers (CI runs it first)
#   make bench    games per second against the speed targets
# Both build .venv on first use and re-install when pyproject.toml changes.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
COMPILED := $(VENV)/.compiled
# each game's compiled modules: an edit of one compiles that game's code again
SBR_KERNELS := gamelab/core/compiled.py gamelab/sbr/kernel.py gamelab/sbr/greedy.py gamelab/sbr/lookahead.py
STRAND_KERNELS := gamelab/core/compiled.py gamelab/strand/kernel.py

.PHONY: report report-strand test test-fast lint format bench clean

# uv installs the same packages as pip in a fraction of the time (parallel downloads and unpacking:
# docs/performance.md, "Compile time and the first make report"); pip does it where uv cannot be had.
# Bytecode is compiled at install, as pip does: else every process (and every worker) compiles
# scipy's and pandas' sources again, since this machine sets PYTHONDONTWRITEBYTECODE.
# make report installs what the reports need; the tests' and lint's tools come with make test or lint.
install = ( (test -x $(BIN)/uv || $(BIN)/python -m pip install --quiet uv) \
	    && $(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -e '$(1)' ) \
	  || ( $(BIN)/python -m pip install --quiet --upgrade pip && $(BIN)/python -m pip install --quiet -e '$(1)' )

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(call install,.)
	touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	$(call install,.[test])
	touch $(TEST_STAMP)

# numba's on-disk caches of the games' compiled code, built once (and again after an edit of a compiled
# module), not on the first search (its CPU time: docs/performance.md, "Compile time and the first make
# report"; lint needs none of it: CI runs both at once)
# (SBR's at a lower priority: in make report it compiles beside the STRAND report, the longer of the two)
$(VENV)/.compiled-sbr: $(STAMP) $(SBR_KERNELS)
	nice -n 10 $(BIN)/python -m gamelab.sbr.kernel
	touch $@

$(VENV)/.compiled-strand: $(STAMP) $(STRAND_KERNELS)
	$(BIN)/python -m gamelab.strand.kernel
	touch $@

$(COMPILED): $(VENV)/.compiled-sbr $(VENV)/.compiled-strand
	touch $(COMPILED)

WORKERS ?= 2# processes playing games in make report (the machine's two cores); same tables at any count

# The STRAND report plays on both cores while SBR's code compiles on one (about 40 s from an empty
# cache), then the SBR report, then the worked examples' ledgers.  (The SBR report beside the STRAND
# one as well was slower: six processes on two cores.)
report: $(STAMP)
	@$(MAKE) --no-print-directory -j2 report-strand $(VENV)/.compiled-sbr
	$(BIN)/gamelab report sbr --workers $(WORKERS) --out reports/sbr.html
	$(BIN)/gamelab replay data/playtests/*.json

report-strand: $(VENV)/.compiled-strand
	$(BIN)/gamelab report strand --workers $(WORKERS) --out reports/strand.html

# The tests run on every core (pytest-xdist, a test file per process: a file's session fixtures,
# such as the JupyterLab server, start once); the suite is about 10 minutes of CPU, 6 on two cores.
TEST_PROCS ?= auto

test: $(TEST_STAMP) $(COMPILED)
	$(BIN)/python -m pytest -q -n $(TEST_PROCS) --dist loadfile

test-fast: $(TEST_STAMP) $(COMPILED)
	$(BIN)/python -m pytest -q -n $(TEST_PROCS) --dist loadfile -m "not slow"

lint: $(TEST_STAMP)
	$(BIN)/ruff check gamelab tests scripts
	$(BIN)/ruff format --check gamelab tests scripts
	$(BIN)/mypy
	$(BIN)/lint-imports

format: $(TEST_STAMP)
	$(BIN)/ruff check --fix gamelab tests scripts
	$(BIN)/ruff format gamelab tests scripts

bench: $(COMPILED)
	$(BIN)/gamelab bench

clean:
	rm -rf $(VENV) .pytest_cache
