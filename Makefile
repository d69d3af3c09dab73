# The only commands anyone needs. `make run` brings the arena up; `make test` runs every test.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
PY     := $(VENV)/bin/python
HOST   ?= 127.0.0.1
PORT   ?= 8000

# Debian packages each command needs, installed with apt when missing (root or passwordless sudo).
RUN_PACKAGES  := bubblewrap python3.11 python3-seccomp
TEST_PACKAGES := bubblewrap python3.11 python3-seccomp chromium chromium-driver docker-compose redis-server nginx-light

# $(call apt_ensure,pkgs): install the Debian packages of the list that are not installed yet.
define apt_ensure
missing=""; \
	if command -v dpkg >/dev/null 2>&1; then \
	  for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	fi; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
	  else SUDO=none; fi; \
	  if [ "$$SUDO" = none ]; then echo "note: please install these Debian packages:$$missing"; \
	  else echo "installing Debian packages:$$missing"; \
	    export DEBIAN_FRONTEND=noninteractive; \
	    $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null 2>&1 || \
	    { $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq --no-install-recommends $$missing; }; \
	  fi; \
	fi
endef

.PHONY: help run test test-docker test-fast test-strength test-faults lint mypy format bench schemathesis system-packages test-packages bot-packages clean assets

help:
	@echo "make run    install everything and start the arena (web + worker + beat) on http://$(HOST):$(PORT)/"
	@echo "make test   install what the tests need and run the whole suite"
	@echo "make test-fast  the inner loop: rules, services, API (no browser, no strength, no slow tests)"
	@echo "make test-strength  only the bots' strength tests (hundreds of matches each; in make test)"
	@echo "make test-docker  build the image, start the compose stack, upload and play (needs Docker; minutes)"
	@echo "make test-faults  only the fault test (a tournament while connections drop, a worker dies, Redis pauses)"
	@echo "make lint   ruff check + ruff format --check + mypy (make mypy: the types alone)"
	@echo "make bench  run every benchmark in benchmarks/"
	@echo "make schemathesis  fuzz the API on a live gunicorn (needs DATABASE_URL: PostgreSQL)"
	@echo "make assets  rebuild the bundled scripts (the playground's editor) from assets/ (needs node and npm)"

$(PY):
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { rm -rf $(VENV); \
	  $(call apt_ensure,python3-venv); $(PYTHON) -m venv $(VENV); }
	@$(PY) -m pip install -q --upgrade pip

$(VENV)/.run-deps: requirements.txt | $(PY)
	$(PY) -m pip install -q -r requirements.txt
	@touch $@

$(VENV)/.dev-deps: requirements.txt requirements-dev.txt | $(PY)
	$(PY) -m pip install -q -r requirements-dev.txt
	@touch $@ $(VENV)/.run-deps

system-packages:
	@$(call apt_ensure,$(RUN_PACKAGES))

test-packages:
	@$(call apt_ensure,$(TEST_PACKAGES))
	@# node and npm rebuild the editor bundle to check it (tests/foundation/test_assets.py); any
	@# node on the PATH will do, Debian's when there is none.
	@command -v npm >/dev/null 2>&1 || { $(call apt_ensure,nodejs npm); }

# The third-party packages bots may import (engine/botpackages.py: numpy), installed for the
# sandbox's own interpreter (Debian's python3.11) under .venv/bot-packages/; a no-op once there.
bot-packages: $(VENV)/.run-deps
	@$(PY) -m engine packages --install >/dev/null

run: $(VENV)/.run-deps system-packages bot-packages
	DEBUG=$${DEBUG:-1} $(PY) manage.py arena_up --host $(HOST) --port $(PORT)

# The suite runs on PYTEST_WORKERS processes (pytest-xdist; default: one per CPU, at most 4;
# PYTEST_WORKERS=0 runs it in this one process). Each worker has its own test database,
# Redis database, sandbox uid and cgroup (tests/README.md).
PYTEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); [ $$n -gt 4 ] && n=4; echo $$n)
XDIST := -n $(PYTEST_WORKERS) --dist worksteal
# The suite starts hundreds of Python processes (pytest's workers, manage.py, Celery workers,
# servers, the CLI): each compiles the repository's modules again unless their bytecode is
# cached, so a PYTHONDONTWRITEBYTECODE in the environment is dropped for the tests (collecting
# the suite: 19 s a process without the cache, 7 s with it). __pycache__ is ignored by git,
# the image and the kits.
TEST_ENV := DEBUG=$${DEBUG:-0} PYTHONDONTWRITEBYTECODE=

test: $(VENV)/.dev-deps test-packages bot-packages
	$(TEST_ENV) $(PY) -m pytest $(XDIST) $(PYTEST_ARGS)

# The inner loop: everything but browser, strength, slow and fault tests (under two minutes on
# two cores).
FAST_MARKERS := not browser and not strength and not slow and not faults
test-fast: $(VENV)/.dev-deps bot-packages
	$(TEST_ENV) $(PY) -m pytest $(XDIST) -m "$(FAST_MARKERS)" $(PYTEST_ARGS)

# Also part of `make test`: the built-in bots' strength, hundreds of matches each.
test-strength: $(VENV)/.dev-deps bot-packages
	$(TEST_ENV) $(PY) -m pytest $(XDIST) -m strength $(PYTEST_ARGS)

# Not part of `make test`: builds the image and runs the compose stack (tests/deploy). Needs a
# Docker engine and the pinned base images (or tests/deploy/standin/build.sh without a registry).
test-docker: $(VENV)/.dev-deps
	ARENA_DOCKER_TESTS=1 $(TEST_ENV) $(PY) -m pytest -s -m docker tests/deploy $(PYTEST_ARGS)

# Also part of `make test`; needs PostgreSQL (DATABASE_URL), Redis (REDIS_URL) and redis-server.
test-faults: $(VENV)/.dev-deps test-packages bot-packages
	$(TEST_ENV) $(PY) -m pytest -m faults tests/workers $(PYTEST_ARGS)

# Every schemathesis check against gunicorn with DEBUG=0 on a scratch PostgreSQL database;
# fails on any failure. SCHEMATHESIS_MAX_EXAMPLES sets the budget per operation.
schemathesis: $(VENV)/.dev-deps bot-packages
	$(PY) tests/live/schemathesis_run.py $(SCHEMATHESIS_ARGS)

# Plain mypy: what it checks and how strictly is pyproject.toml's [tool.mypy] (its `files`:
# engine, sandbox, arena, workers; strict for engine/, sandbox/ and arena/algorithms/, the
# rest with the django-stubs and drf-stubs plugins), so `make mypy` and a bare `mypy` agree.
MYPY := $(VENV)/bin/mypy

lint: $(VENV)/.dev-deps
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(MYPY)

mypy: $(VENV)/.dev-deps
	$(MYPY)

format: $(VENV)/.dev-deps
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: $(VENV)/.dev-deps system-packages bot-packages
	@for f in benchmarks/*.py; do echo "# $$f"; $(PY) $$f || exit 1; done

# The site's bundled scripts (CodeMirror for the playground's editor), from the versions pinned
# in assets/package-lock.json. The bundle is committed, so `make run` needs no node;
# tests/foundation/test_assets.py rebuilds it and fails if the committed one differs.
assets:
	cd assets && npm ci --no-audit --no-fund && npm run build

clean:
	rm -rf $(VENV) staticfiles test-artifacts .pytest_cache .ruff_cache .mypy_cache
