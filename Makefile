# Two commands on a fresh machine: `make demo` and `make test`. Both create .venv if it is missing and install
# from the lock files in requirements/ (exact versions, every file checked against its hash):
#   requirements/demo.txt  the dependencies of pyproject.toml, no extra: all that `ont demo` needs
#   requirements/test.txt  the `test` extra (which takes in `server` and `guardrails`): what the test suite needs
# then the project itself, editable, with no dependency of its own resolved (the lock has them all).
# `make lock` writes both files again after pyproject.toml changes; `make lock-upgrade` moves every pin to the
# newest release. Either needs the package index; installing from the lock needs only its files.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
# --no-compile: Python writes the bytecode of a module when it is first imported, instead of pip compiling every
# module of every package at install (most of litellm, botocore or matplotlib is never imported here); it took the
# demo set's install from 30-43 s to 21-27 s on the 2-core machine at load 16
PIP := $(PY) -m pip install --quiet --disable-pip-version-check --no-compile
DEMO_STAMP := $(VENV)/.ont-demo
TEST_STAMP := $(VENV)/.ont-test
# uv writes the lock files, from a folder of its own (.venv-lock, not the project's .venv); pip installs from them
UV_VERSION := 0.13.9
LOCK_VENV := .venv-lock
UV := $(LOCK_VENV)/bin/uv
LOCK_ARGS := --universal --python-version 3.11 --generate-hashes --quiet --custom-compile-command "make lock"

.PHONY: demo test test-fast servers lint notebooks clean lock lock-upgrade

$(PY):
	$(PYTHON) -m venv $(VENV)

$(DEMO_STAMP): requirements/demo.txt pyproject.toml | $(PY)
	$(PIP) --require-hashes -r requirements/demo.txt
	$(PIP) --no-deps --no-build-isolation -e .
	touch $@

# the test set holds the demo set, so a test install also counts as a demo install
$(TEST_STAMP): requirements/test.txt pyproject.toml | $(PY)
	$(PIP) --require-hashes -r requirements/test.txt
	$(PIP) --no-deps --no-build-isolation -e .
	touch $@ $(DEMO_STAMP)

demo: $(DEMO_STAMP)
	$(VENV)/bin/ont demo

# The remote-endpoint tests start Virtuoso and the Oxigraph server on loopback themselves, and the admin-page
# test drives Debian's Chromium; `servers` installs both from Debian when missing (needs root, as in CI).
servers:
	@command -v virtuoso-t >/dev/null 2>&1 || bash .ci/install-servers.sh
	@test -x /usr/bin/chromium || bash .ci/install-browser.sh

test: $(TEST_STAMP) servers
	$(VENV)/bin/ruff check ont_platform tests benchmarks examples
	$(VENV)/bin/ruff format --check ont_platform tests benchmarks examples
	$(VENV)/bin/mypy
	$(PY) -m pytest

# `make test` on 2 workers, without ruff and the tests marked remote, browser, notebook or slow (see pyproject.toml)
test-fast: $(TEST_STAMP)
	$(PY) -m pytest -q -n 2 -m "not remote and not browser and not notebook and not slow"

lint: $(TEST_STAMP)
	$(VENV)/bin/ruff check ont_platform tests benchmarks examples
	$(VENV)/bin/ruff format --check ont_platform tests benchmarks examples
	$(VENV)/bin/mypy

# Run every notebook of examples/notebooks and store it with its outputs (the explore notebook's reasoner needs
# Java); tests/notebooks fails when a stored output differs from a fresh run.
notebooks: $(TEST_STAMP)
	$(PY) examples/notebooks/execute.py

# The test set is resolved first; the demo set is then held to its versions, so both install the same release of
# every package they share.
lock: | $(UV)
	$(UV) pip compile pyproject.toml requirements/build.in --extra test $(LOCK_ARGS) -o requirements/test.txt
	$(UV) pip compile pyproject.toml requirements/build.in $(LOCK_ARGS) -c requirements/test.txt -o requirements/demo.txt

lock-upgrade: | $(UV)
	$(UV) pip compile pyproject.toml requirements/build.in --extra test $(LOCK_ARGS) --upgrade -o requirements/test.txt
	$(UV) pip compile pyproject.toml requirements/build.in $(LOCK_ARGS) -c requirements/test.txt --upgrade -o requirements/demo.txt

$(UV):
	$(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/python -m pip install --quiet uv==$(UV_VERSION)

clean:
	rm -rf $(VENV) $(LOCK_VENV) .pytest_cache .hypothesis build *.egg-info
