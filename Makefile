# brewbalance — the two commands a newcomer needs are `make demo` and `make test`.
# Both set themselves up (a local .venv) on a machine with Python >= 3.11 and make.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
GAMES  ?= 200000

.PHONY: setup demo test bench lint clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: setup  ## simulate every game (GAMES per game) and write HTML + PDF reports to demo/
	$(BIN)/brewbalance demo --games $(GAMES) --out demo

test: setup  ## the whole test suite
	$(BIN)/python -m pytest

bench: setup  ## per-game speed profile, then Dwarfest at 1M/10M games and the Dask engine (prints the commands it ran)
	$(BIN)/python bench/profile.py
	$(BIN)/python bench/bench.py --full

lint: setup
	$(BIN)/ruff check brewbalance sim analysis reports tests bench

clean:
	rm -rf $(VENV) demo runs .pytest_cache .ruff_cache
