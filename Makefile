# bgmatch: `make run` serves the site for a first look, `make test` runs the whole suite. `make help` lists targets.

PY ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.DEFAULT_GOAL := help
.PHONY: help venv run venue venue-restore test lint typecheck bench bench-tournaments clean

help: ## List the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  %-10s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip

# What running needs (make run), and the same with the developer tools (make test, lint, typecheck); each is
# installed again only when pyproject.toml changes.
$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $(RUN_STAMP)

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(DEV_STAMP) $(RUN_STAMP)

venv: $(DEV_STAMP) ## Create .venv and install the project with its dev tools (again only when pyproject.toml changes)

run: $(RUN_STAMP) ## Install what running needs, migrate, load the demo event and serve http://127.0.0.1:8000 (SQLite and eager tasks unless DATABASE_URL/CELERY_BROKER_URL)
	$(BIN)/python manage.py migrate --noinput -v 0
	$(BIN)/python manage.py load_demo --login
	@echo "bgmatch: http://$(HOST):$(PORT)/ (directors' pages: http://$(HOST):$(PORT)/manage/, log in as demo / demo)"
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

venue: $(RUN_STAMP) ## Serve a club night from this machine to the room's phones (PORT, PUBLIC_URL, DATABASE_URL; README: "Run your club night from a laptop")
	$(BIN)/python -m config.venue serve --port $(PORT)

venue-restore: $(RUN_STAMP) ## Put a backup back as the venue's database, the venue stopped (BACKUP=venue-data/backups/db-....sqlite3)
	$(BIN)/python -m config.venue restore "$(BACKUP)"

test: venv ## Run the whole test suite (extra pytest options: make test PYTEST_ARGS='-k health')
	$(BIN)/pytest $(PYTEST_ARGS)

lint: venv ## Check lint and formatting with ruff, and the layers of docs/ARCHITECTURE.md with import-linter
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: venv ## Type-check with mypy (strict on engine/)
	$(BIN)/mypy engine common games tournaments config

bench: venv ## Run the engine benchmark against OpenSpiel (installs the optional bench extra)
	$(BIN)/python -m pip install -q -e '.[dev,bench]'
	$(BIN)/python bench/engine_bench.py

bench-tournaments: venv ## Tournaments benchmark on PostgreSQL (DATABASE_URL; BENCH_ARGS=--quick for a short run)
	DJANGO_SETTINGS_MODULE=config.settings $(BIN)/python bench/tournaments_bench.py $(BENCH_ARGS)

clean: ## Remove the virtualenv, caches and collected static files (keeps db.sqlite3)
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache .mypy_cache staticfiles build dist *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
