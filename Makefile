# Everyday commands. Each target installs what it needs into .venv first, so a fresh clone
# needs only Python 3.11+ and make (and, for the browser tests, root or sudo for apt-get).

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
export NO_MKDOCS_2_WARNING := 1

.PHONY: demo test lint typecheck pytest site serve bench browser clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed-demo: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[demo]'
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@ $(VENV)/.installed-demo

$(VENV)/.installed-bench: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test,bench]'
	touch $@ $(VENV)/.installed-test $(VENV)/.installed-demo

## The main job: start the demo agent on 127.0.0.1 and check it with th-ext, end to end.
demo: $(VENV)/.installed-demo
	$(BIN)/th-ext demo

## Every check: lint, type-check, and the whole test suite (browser tests included).
test: $(VENV)/.installed-test browser
	$(BIN)/ruff check cli tests benchmarks
	$(BIN)/mypy
	$(BIN)/pytest

lint: $(VENV)/.installed-test
	$(BIN)/ruff check cli tests benchmarks

typecheck: $(VENV)/.installed-test
	$(BIN)/mypy

pytest: $(VENV)/.installed-test
	$(BIN)/pytest

## Debian's Chromium for the real-browser tests.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium with apt-get (needs root or sudo) for the browser tests"; \
	  .ci/install-chromium; }

## Build the site into build/site, failing on any warning.
site: $(VENV)/.installed-test
	$(BIN)/mkdocs build --strict

## Preview the site at http://127.0.0.1:8000/tiny-harness/ while editing.
serve: $(VENV)/.installed-test
	$(BIN)/mkdocs serve

## Speed and memory figures, as ratios to the tools we compare with.
bench: $(VENV)/.installed-bench
	$(BIN)/python benchmarks/bench_cli.py

clean:
	rm -rf build dist .pytest_cache .mypy_cache .ruff_cache
