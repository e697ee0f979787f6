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

bench: setup  ## throughput, compile time and peak memory (prints the commands it ran)
	$(BIN)/python bench/bench.py --full
	$(BIN)/python bench/bench.py --game homebrewers --games 100000 --no-dask
	$(BIN)/python bench/bench.py --game dragon_brew --games 200000 --no-dask

lint: setup
	$(BIN)/ruff check brewbalance sim analysis reports tests bench

clean:
	rm -rf $(VENV) demo runs .pytest_cache .ruff_cache
