# modtool — run `make` to list the targets.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.DEFAULT_GOAL := help

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | expand -t 12

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)  ## create .venv and install modtool with its dev tools

demo: $(STAMP)  ## count every day of the bundled example game (offline)
	$(BIN)/modtool count games/example-botc --day all

test: $(STAMP)  ## run the test suite (replays ../shared/fixtures/mafiascum-dev when present)
	$(BIN)/pytest

data: $(STAMP)  ## rebuild modtool/data (role data) from ../shared's seeds and botc-data
	$(BIN)/python tools/build_data.py

lint: $(STAMP)  ## ruff check and format check
	$(BIN)/ruff check modtool tests benchmarks tools
	$(BIN)/ruff format --check modtool tests benchmarks tools

soak: $(STAMP)  ## the loopback fault test over many seeds (SEEDS=200; not part of make test)
	MODTOOL_SOAK_SEEDS=$${SEEDS:-200} $(BIN)/pytest -q tests/test_faults.py -k random_faults

bench: $(STAMP)  ## speed benchmarks, printing ratios (not part of make test)
	$(BIN)/python benchmarks/run.py

clean:  ## remove the virtual environment and caches
	rm -rf $(VENV) .pytest_cache build *.egg-info

.PHONY: help install demo test data lint soak bench clean
