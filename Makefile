# Two commands: `make run` serves the demo tournament, `make test` runs every check.
# Both create .venv and install everything on a fresh machine.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test install sysdeps-run sysdeps-test lint worker bench clean

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

test: $(STAMP) sysdeps-test lint
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/python -m pytest

worker: $(STAMP)
	$(BIN)/celery -A config worker --loglevel=info --concurrency=2

bench: $(STAMP)
	for b in bench/*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .ruff_cache
