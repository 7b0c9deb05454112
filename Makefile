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
# The games with compiled code, found as gamelab/core/registry.py finds games (a sub-package with a
# game.py) that have a kernel.py (their core/compiled.py Group), and each one's compiled modules (the
# files using core/compiled.py or its decorators): an edit of one compiles that game's code again.
GAMES := $(patsubst gamelab/%/game.py,%,$(wildcard gamelab/*/game.py))
COMPILED_GAMES := $(patsubst gamelab/%/kernel.py,%,$(wildcard $(GAMES:%=gamelab/%/kernel.py)))
compiled_files = $(shell grep -l -E 'gamelab\.core\.compiled|^@(jit|entry|inline)$$' gamelab/$(1)/*.py)
# the default balance reports of make report, in order: the first plays while the others' code compiles
REPORTS := strand sbr

.PHONY: report $(REPORTS:%=report-%) test test-fast lint format bench clean

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
# report"; lint needs none of it: CI runs both at once).  One stamp per game (.compiled-<game>), warmed by
# python -m gamelab.core.compiled <game>; at a lower priority: in make report the other games' code
# compiles beside the first report.
.SECONDEXPANSION:
$(VENV)/.compiled-%: $(STAMP) gamelab/core/compiled.py $$(call compiled_files,$$*)
	nice -n 10 $(BIN)/python -m gamelab.core.compiled $*
	touch $@

$(COMPILED): $(COMPILED_GAMES:%=$(VENV)/.compiled-%)
	touch $(COMPILED)

WORKERS ?= 2# processes playing games in make report (the machine's two cores); same tables at any count

# The first report (STRAND's) plays on both cores while the other reports' games compile on one (SBR's:
# about 40 s from an empty cache), then the other reports, then the worked examples' ledgers.  (The SBR
# report beside the STRAND one as well was slower: six processes on two cores.)
report: $(STAMP)
	@$(MAKE) --no-print-directory -j2 report-$(firstword $(REPORTS)) \
	  $(patsubst %,$(VENV)/.compiled-%,$(filter $(COMPILED_GAMES),$(wordlist 2,$(words $(REPORTS)),$(REPORTS))))
	@$(MAKE) --no-print-directory $(patsubst %,report-%,$(wordlist 2,$(words $(REPORTS)),$(REPORTS)))
	$(BIN)/gamelab replay data/playtests/*.json

# report-<game>: one report, after its game's compiled code (a rule per report, generated)
define report_rule
report-$(1): $(STAMP) $(if $(filter $(1),$(COMPILED_GAMES)),$(VENV)/.compiled-$(1))
	$(BIN)/gamelab report $(1) --workers $(WORKERS) --out reports/$(1).html
	$(BIN)/python -m gamelab.report.onenumber reports/$(1).html  # one number per quantity (issue 37)
endef
$(foreach report,$(REPORTS),$(eval $(call report_rule,$(report))))

# The tests run on every core (pytest-xdist): one test at a time goes to whichever process is free
# (--dist loadgroup), so the slow ones spread over both cores, except that a test file whose fixtures
# outlive a test (a JupyterLab server, a Dask cluster, a report built once) runs whole in one process
# (tests/conftest.py groups it); the 20 slowest tests are listed at the end, so that a run that took
# longer says where the time went.
TEST_PROCS ?= auto

test: $(TEST_STAMP) $(COMPILED)
	$(BIN)/python -m pytest -q -n $(TEST_PROCS) --dist loadgroup --durations=20

test-fast: $(TEST_STAMP) $(COMPILED)
	$(BIN)/python -m pytest -q -n $(TEST_PROCS) --dist loadgroup -m "not slow"

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
