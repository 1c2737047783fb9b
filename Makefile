# Two commands set everything up on a fresh machine: `make run` and `make test`.
# `make run` installs the package and its runtime dependencies only; `make test` adds
# the dev extras (tests, type checker, docs, browser driver, the RL libraries). Each
# has its own stamp: `make run` after `make test` installs nothing, `make test` after
# `make run` adds only what is missing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
# where `make run` listens: `make run HOST=0.0.0.0 PORT=8080` (README: from a phone).
# Unset, `twmj serve` decides: TWMJ_HOST / TWMJ_PORT, else 127.0.0.1:8000.
HOST ?=
PORT ?=

.PHONY: run test install install-dev bench clean typecheck docs bench-env

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $(RUN_STAMP)

# the dev extras include the runtime, so this stamp stands for both
$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(DEV_STAMP) $(RUN_STAMP)

install: $(RUN_STAMP)

install-dev: $(DEV_STAMP)

run: $(RUN_STAMP)
	$(BIN)/twmj serve$(if $(HOST), --host '$(HOST)')$(if $(PORT), --port '$(PORT)')

# Four pytest workers on two cores: the tests mostly wait (on a bot's delay, a claim
# window, a page's next frame, a subprocess server), so two workers left the cores
# idle most of the time. `make test TEST_WORKERS=2` runs them two at a time.
TEST_WORKERS ?= 4

test: $(DEV_STAMP)
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS)

bench: $(DEV_STAMP)
	$(BIN)/python bench/hand.py

# mypy --strict over the gated modules (pyproject [tool.mypy]); `make test` runs it too
typecheck: $(DEV_STAMP)
	$(BIN)/python -m mypy

# the docs site with the API reference, into site/ (`make test` builds it too)
docs: $(DEV_STAMP)
	$(BIN)/python -m mkdocs build --strict

bench-env: $(DEV_STAMP)
	$(BIN)/python bench/env.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache site
