# cdpilot — every target sets up what it needs (.venv, Chromium) itself, idempotently.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
.DEFAULT_GOAL := help

.PHONY: help venv chromium generate check-generated check test demo clean

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

generate: $(INSTALLED) ## compile schemas/ into generated/
	$(PY) -m codegen

check-generated: $(INSTALLED) ## fail if generated/ is stale or any tool lacks a well-typed handler (fast, no browser)
	$(PY) -m codegen --check
	$(VENV)/bin/cdpilot --check-handlers

check: $(INSTALLED) ## ruff, mypy --strict on src/ and generated/, check-generated
	$(VENV)/bin/ruff check src codegen tests demo
	$(VENV)/bin/ruff format --check src codegen tests demo
	$(VENV)/bin/mypy
	$(MAKE) --no-print-directory check-generated

test: check chromium ## check, then the whole test suite against a real headless Chromium
	$(PY) -m pytest -q

demo: $(INSTALLED) chromium ## launch headless Chromium and drive a bundled page over a real MCP stdio session
	$(PY) demo/run.py

clean: ## remove caches (keeps .venv)
	rm -rf .mypy_cache .ruff_cache build *.egg-info src/*.egg-info generated/*.egg-info
