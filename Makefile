# `make run` serves the demo tournament, `make test` runs every check, `make check` runs the fast
# tests for the edit-test loop.
# Each creates .venv and installs everything on a fresh machine.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test check install sysdeps-run sysdeps-test lint worker bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

sysdeps-run:
	bash scripts/sysdeps.sh run

sysdeps-test:
	bash scripts/sysdeps.sh test

run: $(STAMP) sysdeps-run
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo --if-empty
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Every test, in parallel (pytest-xdist, a worker per core); each browser story is an xdist group,
# so its steps run in order in one worker.
test: $(STAMP) sysdeps-test lint
	$(BIN)/lint-imports --no-logo
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/python -m pytest -n auto --dist loadgroup

# The fast part, in parallel: no browser, nothing marked slow (real workers, dry runs).
check: $(STAMP) sysdeps-test
	$(BIN)/lint-imports --no-logo
	$(BIN)/python -m pytest -m "not slow and not browser" -n auto

worker: $(STAMP)
	$(BIN)/celery -A config worker --loglevel=info --concurrency=2

bench: $(STAMP)
	for b in bench/*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .ruff_cache .import_linter_cache
