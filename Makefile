# The two entry points of the README: `make demo` (venv + install + the main job: the app on the bundled demo) and `make check`
# (venv + install + lint + types + tests). CI runs `.ci/run`, which runs `make check`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
BASE := $(VENV)/.installed-base
DEV := $(VENV)/.installed-dev

.PHONY: demo check lint types test venv clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(BASE): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

# The test suite also trains tiny models (--smoke), so it needs the train extra (CPU torch).
$(DEV): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev,train]'
	touch $@ $(BASE)

venv: $(BASE)

demo: $(BASE)
	$(BIN)/companion app

lint: $(DEV)
	$(BIN)/ruff check companion tests benchmarks training

types: $(DEV)
	$(BIN)/mypy

test: $(DEV)
	$(BIN)/python -m pytest -q -p no:cacheprovider

check: lint types test

clean:
	rm -rf $(VENV)
