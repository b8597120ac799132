# `make run` serves the demo tournament, `make test` runs every check, `make check` runs the fast
# tests for the edit-test loop.
# Each creates .venv and installs everything on a fresh machine.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# `make run DEMO=0`: no demo tournament; the first account's setup link is printed instead.
DEMO ?= 1

.PHONY: run test check install sysdeps-run sysdeps-test sysdeps-messages messages lint worker bench clean

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

sysdeps-messages:
	bash scripts/sysdeps.sh messages

# The translations (locale/): collect the marked strings into locale/fr/LC_MESSAGES/django.po,
# then, once translated there, compile django.mo; commit both (the app needs no gettext to run).
messages: export DEBUG ?= 1
messages: $(STAMP) sysdeps-messages
	$(BIN)/python manage.py makemessages -l fr --no-obsolete --ignore=.venv --ignore=staticfiles --ignore=tests --ignore=bench
	$(BIN)/python manage.py compilemessages --ignore=.venv

# The development server, with Django's debug pages and a development secret key: DEBUG is off
# unless asked for.
run: export DEBUG ?= 1
# A real Celery worker runs beside it (scripts/run.sh), on a queue kept in var/broker/ unless
# REDIS_URL says otherwise.
run: $(STAMP) sysdeps-run
	BIN=$(BIN) HOST=$(HOST) PORT=$(PORT) DEMO=$(DEMO) bash scripts/run.sh

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Every test, in parallel (pytest-xdist, a worker per core); each browser story is an xdist group,
# so its steps run in order in one worker.
test: $(STAMP) sysdeps-test lint
	$(BIN)/lint-imports --no-logo
	DEBUG=1 $(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/python -m pytest -n auto --dist loadgroup

# The fast part, in parallel: no browser, nothing marked slow (real workers, dry runs).
check: $(STAMP) sysdeps-test
	$(BIN)/lint-imports --no-logo
	$(BIN)/python -m pytest -m "not slow and not browser" -n auto

# Development defaults, as for `make run`; production sets its own (docs/deploy.md).
worker: export DEBUG ?= 1
worker: $(STAMP)
	$(BIN)/celery -A config worker --loglevel=info --concurrency=2

# The benchmarks talk to the app in plain HTTP with development defaults.
bench: export DEBUG ?= 1
bench: export SECURE_SSL_REDIRECT ?= 0
bench: $(STAMP)
	for b in bench/*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .ruff_cache .import_linter_cache var/numba
