# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test install bench clean typecheck docs bench-env

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/twmj serve

test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2

bench: $(STAMP)
	$(BIN)/python bench/hand.py

# mypy --strict over the gated modules (pyproject [tool.mypy]); `make test` runs it too
typecheck: $(STAMP)
	$(BIN)/python -m mypy

# the docs site with the API reference, into site/ (`make test` builds it too)
docs: $(STAMP)
	$(BIN)/python -m mkdocs build --strict

bench-env: $(STAMP)
	$(BIN)/python bench/env.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache site
