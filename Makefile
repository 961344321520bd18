# Two commands on a fresh machine: `make run` (serve the site with demo data) and `make test`.
.PHONY: run test lint check format messages bench clean

# Django 6.1 needs Python 3.12+; take the first interpreter on PATH that is new enough
# (with pyenv, .python-version makes python3.12 resolve).
PYTHON ?= $(shell for p in python3.13 python3.12 python3; do \
	$$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1 && { echo $$p; break; }; done)
VENV := .venv
# `make run` serves on this port: PORT=8133 make run.
PORT ?= 8000
BIN := $(VENV)/bin

$(BIN)/python:
	@test -n "$(PYTHON)" || { echo "Python 3.12 or newer is needed (see .python-version)"; exit 1; }
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: $(BIN)/python requirements.txt requirements-dev.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

# Development only: DEBUG on, the development secret key, the local-memory cache.
# Production is set from the environment (docs/deployment.md).
run check messages: export DJANGO_DEBUG = 1

run: $(VENV)/.installed
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py demo
	$(BIN)/python manage.py serve --port $(PORT)

# The whole suite, and its slowest tests at the end; PYTEST_ARGS adds to it (e.g. -x, a path).
# It runs in one process per core (pytest-xdist; an idle one takes tests from a busy one);
# TEST_PROCESSES=0 runs it in this one.
TEST_PROCESSES ?= auto
test: $(VENV)/.installed
	$(BIN)/python -m pytest -n $(TEST_PROCESSES) --dist worksteal --durations=15 $(PYTEST_ARGS)

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-logo

# The system checks, and no model change without its migration.
check: $(VENV)/.installed
	$(BIN)/python manage.py check
	$(BIN)/python manage.py makemigrations --check --dry-run

format: $(VENV)/.installed
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Re-extract and compile translations after changing user-facing text.
messages: $(VENV)/.installed
	$(BIN)/python manage.py makemessages -l ru --no-location --ignore=.venv --ignore=bench
	$(BIN)/python manage.py compilemessages --ignore=.venv

# The benchmarks also need OpenSpiel (the yardstick of bench/playouts.py); tests do not.
$(VENV)/.bench-installed: $(VENV)/.installed requirements-bench.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-bench.txt
	touch $@

bench: $(VENV)/.bench-installed
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .hypothesis
