# The two entry points of the README: `make demo` (venv + install + the main job) and `make check`
# (venv + install + lint + types + tests). CI runs `.ci/run`, which runs `make check`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo check lint types test venv clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(BIN)/companion demo

lint: $(STAMP)
	$(BIN)/ruff check companion tests benchmarks training

types: $(STAMP)
	$(BIN)/mypy

test: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider

check: lint types test

clean:
	rm -rf $(VENV)
