# Two entry points for a fresh machine that has only python3:
#   make report   the main job: replays the worked example games (prints their ledgers)
#                 and builds the default balance reports reports/sbr.html, reports/strand.html
#   make test     the whole test suite
# Both build .venv on first use and re-install when pyproject.toml changes.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: report test bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

report: $(STAMP)
	$(BIN)/gamelab replay data/playtests/*.json
	$(BIN)/gamelab report sbr --out reports/sbr.html
	$(BIN)/gamelab report strand --out reports/strand.html

test: $(STAMP)
	$(BIN)/python -m pytest -q

clean:
	rm -rf $(VENV) .pytest_cache
