# Two commands on a fresh machine: `make demo` and `make test`. Both create .venv if it is missing and
# install the project with every extra first.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.ont-installed

.PHONY: demo test test-fast servers lint notebooks clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[all]'
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/ont demo

# The remote-endpoint tests start Virtuoso and the Oxigraph server on loopback themselves, and the admin-page
# test drives Debian's Chromium; `servers` installs both from Debian when missing (needs root, as in CI).
servers:
	@command -v virtuoso-t >/dev/null 2>&1 || bash .ci/install-servers.sh
	@test -x /usr/bin/chromium || bash .ci/install-browser.sh

test: $(STAMP) servers
	$(VENV)/bin/ruff check ont_platform tests benchmarks examples
	$(VENV)/bin/ruff format --check ont_platform tests benchmarks examples
	$(VENV)/bin/mypy
	$(PY) -m pytest

# `make test` on 2 workers, without ruff and the tests marked remote, browser, notebook or slow (see pyproject.toml)
test-fast: $(STAMP)
	$(PY) -m pytest -q -n 2 -m "not remote and not browser and not notebook and not slow"

lint: $(STAMP)
	$(VENV)/bin/ruff check ont_platform tests benchmarks examples
	$(VENV)/bin/ruff format --check ont_platform tests benchmarks examples
	$(VENV)/bin/mypy

# Run every notebook of examples/notebooks and store it with its outputs (the explore notebook's reasoner needs
# Java); tests/notebooks fails when a stored output differs from a fresh run.
notebooks: $(STAMP)
	$(PY) examples/notebooks/execute.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
