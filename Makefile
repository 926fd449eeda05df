# cdpilot — every target sets up what it needs (.venv, Chromium) itself, idempotently.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
# pytest-xdist workers for make test; each runs whole test files, so a file's servers and browser stay in one
TEST_WORKERS ?= 2
.DEFAULT_GOAL := help

.PHONY: help venv chromium haproxy generate check-generated check devapps test demo bench docs docs-check new-tool bench-codegen reliability clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-16s %s\n", $$1, $$2}'

$(INSTALLED): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -e '.[dev]'
	@touch $@

venv: $(INSTALLED) ## create .venv and install cdpilot with its pinned dev tools

chromium: ## install Debian's chromium when no browser is found
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium ..."; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

haproxy: ## install Debian's haproxy when missing (the suite tests the documented replica set-up behind it)
	@command -v haproxy >/dev/null 2>&1 || { \
	  echo "installing Debian's haproxy ..."; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq haproxy >/dev/null; }

generate: $(INSTALLED) ## compile schemas/ into generated/
	$(PY) -m codegen

check-generated: $(INSTALLED) ## fail if generated/ is stale or any tool lacks a well-typed handler (fast, no browser)
	$(PY) -m codegen --check
	$(VENV)/bin/cdpilot --check-handlers

check: $(INSTALLED) ## ruff and mypy --strict over src, generated, codegen, tests and bench; check-generated
	$(VENV)/bin/ruff check src codegen tests demo bench
	$(VENV)/bin/ruff format --check src codegen tests demo bench
	$(VENV)/bin/mypy
	$(MAKE) --no-print-directory check-generated

devapps: $(INSTALLED) ## npm ci the JavaScript dev apps of the e2e tests into ~/.cache/cdpilot/devapps (node/npm from Debian if missing)
	$(PY) -m tests.support.devapps

test: check chromium haproxy devapps ## check, then the whole test suite against a real headless Chromium (TEST_WORKERS=2 processes)
	$(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadfile

demo: $(INSTALLED) chromium ## launch headless Chromium and drive a bundled page over a real MCP stdio session
	$(PY) demo/run.py

bench: venv chromium devapps ## measure cdpilot side by side with the stock MCP SDK and a raw floor; writes bench-report.json
	$(PY) -m bench

docs: generate ## the static docs site (every tool from schemas/, the configuration from the settings model) in build/docs/
	$(PY) -m codegen.site --out build/docs

docs-check: docs chromium ## drive build/docs in headless Chromium (console, links, search, modes); screenshots in build/docs-check/
	CDPILOT_DOCS_SITE=build/docs CDPILOT_DOCS_SHOTS=build/docs-check $(PY) -m pytest -q tests/docs

new-tool: $(INSTALLED) ## start a tool: make new-tool NAME=<tool> GROUP=<group> writes its schema and a failing test
	$(PY) -m codegen.new_tool --name "$(NAME)" --group "$(GROUP)"

bench-codegen: $(INSTALLED) ## time codegen: the real schemas, 1,000 synthetic ones, and a run with nothing changed
	$(PY) -m bench.codegen_bench

reliability: $(INSTALLED) chromium ## the reliability suites at full scale (fuzzing, framing, hangs, kills, exits, security, soak); writes reliability-report.json
	CDPILOT_RELIABILITY_SCALE=full $(PY) -m pytest -q tests/reliability
	@echo "figures: reliability-report.json"

clean: ## remove caches (keeps .venv)
	rm -rf .mypy_cache .ruff_cache build *.egg-info src/*.egg-info generated/*.egg-info
