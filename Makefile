# siltfence: `make run` serves the app with a demo village as it runs in production (gunicorn,
# debug off, collected static files), `make dev` with Django's development server and
# debug on, `make test` runs the suite.
# The Makefile finds a Python 3.12 or newer by running each candidate, since a version
# manager's shim can exist and still fail.

SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin
PY_CANDIDATES := $(PYTHON) python3.13 python3.12 python3 \
  $(wildcard $(shell pyenv root 2>/dev/null)/versions/3.1[2-9]*/bin/python3)
PYTHON_FOUND := $(firstword $(foreach p,$(PY_CANDIDATES),$(shell $(p) -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1 && echo $(p))))
HOST ?= 127.0.0.1
PORT ?= 8000
# Where the SQLite database, the uploads, the collected static files and the demo's
# generated secret key live (git-ignored).
DATA ?= var
# `make run`: production settings, over plain http on this computer only. The secret key is
# made once and kept in $(DATA)/secret-key. The demo has no mail server: it says so on purpose
# (SILTFENCE_EMAIL=console, logged as a warning at each start) and its emails are printed.
RUN_ENV = SILTFENCE_ENV=production SILTFENCE_LOCAL_HTTP=true SILTFENCE_EMAIL=console \
  SILTFENCE_DATA_DIR=$(abspath $(DATA)) ALLOWED_HOSTS=127.0.0.1,localhost,[::1] \
  SECRET_KEY="$$(cat $(DATA)/secret-key)" SILTFENCE_URL=http://$(HOST):$(PORT)/ \
  SILTFENCE_AUDIT_KEY="$$(cat $(DATA)/audit-key)" \
  SILTFENCE_SECOND_FACTOR_KEY="$$(cat $(DATA)/second-factor-key)" \
  SILTFENCE_DEFAULT_JURISDICTION=$${SILTFENCE_DEFAULT_JURISDICTION:-spencer-wi}

.PHONY: run demo-code dev test lint typecheck test-unit test-postgres test-browser bench install clean

$(BIN)/.installed: pyproject.toml
	@if [ -z "$(PYTHON_FOUND)" ]; then echo "siltfence needs Python 3.12 or newer; none was found (set PYTHON=/path/to/python3.12)." >&2; exit 1; fi
	@test -x $(BIN)/python || $(PYTHON_FOUND) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@

install: $(BIN)/.installed

$(DATA)/secret-key:
	@mkdir -p -m 700 $(DATA)
	@umask 077 && $(PYTHON_FOUND) -c 'import secrets; print(secrets.token_urlsafe(50))' > $@.new
	@mv $@.new $@

# The key that signs the audit record's checkpoints, kept out of the database (and out of git).
$(DATA)/audit-key:
	@mkdir -p -m 700 $(DATA)
	@umask 077 && $(PYTHON_FOUND) -c 'import secrets; print(secrets.token_urlsafe(48))' > $@.new
	@mv $@.new $@

# The key that encrypts the authenticator apps' keys in the database (decision 33), kept out
# of the database (and out of git) like the audit key.
$(DATA)/second-factor-key:
	@mkdir -p -m 700 $(DATA)
	@umask 077 && $(PYTHON_FOUND) -c 'import secrets; print(secrets.token_urlsafe(48))' > $@.new
	@mv $@.new $@

run: install $(DATA)/secret-key $(DATA)/audit-key $(DATA)/second-factor-key
	@$(RUN_ENV) $(BIN)/python -m siltfence.manage migrate --noinput
	@$(RUN_ENV) $(BIN)/python -m siltfence.manage collectstatic --noinput --verbosity 0
	@$(RUN_ENV) $(BIN)/python -m tools.demo_load
	@$(RUN_ENV) $(BIN)/python -m siltfence.manage siltfence_sweep
	@$(RUN_ENV) SILTFENCE_AUDIT_CLERK_EMAIL=clerk@localhost $(BIN)/siltfence audit checkpoint
	@echo "Serving http://$(HOST):$(PORT)/ with gunicorn, and the task worker (the daily rain sweep, reminders); Ctrl-C stops both."
	@$(RUN_ENV) bash -c '$(BIN)/python -m siltfence.manage db_worker --no-startup-delay & worker=$$!; \
	  trap "kill $$worker 2>/dev/null; wait $$worker 2>/dev/null" EXIT; \
	  $(BIN)/gunicorn -c python:siltfence.config.gunicorn --bind $(HOST):$(PORT)'

# The current sign-in code of a demo official (the demo's keys are published; any other
# account is refused): make demo-code WHO=spencer-building-inspector [KEY=1 for the key].
# The demo's loader and this printer are tools of the repository (tools/), not of the
# installed package: they run from here, with the repository's root as the current folder.
demo-code: install $(DATA)/secret-key $(DATA)/audit-key $(DATA)/second-factor-key
	@$(RUN_ENV) $(BIN)/python -m tools.demo_code $(if $(KEY),--key) -- "$(WHO)"

# The same demo on Django's development server, with debug pages and code reloading.
# The same key as `make run`'s, since both use the database in $(DATA).
DEV_ENV = SILTFENCE_DATA_DIR=$(abspath $(DATA)) \
  SILTFENCE_SECOND_FACTOR_KEY="$$(cat $(DATA)/second-factor-key)"
dev: install $(DATA)/second-factor-key
	$(DEV_ENV) $(BIN)/python -m siltfence.manage migrate --noinput
	$(DEV_ENV) SILTFENCE_URL=http://$(HOST):$(PORT)/ $(BIN)/python -m tools.demo_load
	$(DEV_ENV) $(BIN)/python -m siltfence.manage runserver $(HOST):$(PORT)

lint: install
	$(BIN)/ruff check src tests bench tools
	$(BIN)/ruff format --check src tests bench tools

typecheck: install
	$(BIN)/mypy

# Test processes (pytest-xdist): one per processor by default; TEST_JOBS=0 runs the tests
# in this process, as a debugger wants.
TEST_JOBS ?= logical

# The whole suite on SQLite, with lint and type checks first. The browser tests have
# their own target, which installs Debian's Chromium when it is missing.
test: lint typecheck
	$(BIN)/python -m pytest -m "not browser" -n $(TEST_JOBS)

# The database-backed suites again, on PostgreSQL (started here if it is down). Tests that
# run on their own SQLite file or on no database (marked no_suite_database) ran in make test.
test-postgres: install
	@bash .ci/postgres-up
	@command -v pg_dump >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-client >/dev/null; }
	DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test} \
	  $(BIN)/python -m pytest tests/integration tests/e2e -m "not browser and not no_suite_database" \
	  -n $(TEST_JOBS)

test-browser: install
	@command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }
	$(BIN)/python -m pytest tests/e2e -m browser -n $(TEST_JOBS)

bench: install
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
