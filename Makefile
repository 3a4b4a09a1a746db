# aicnet: `make run` starts the GUI on an example, `make test` runs every test headless.
# The first use creates .venv and installs the project with its test tools; then each checks
# the system libraries Qt needs (and pdftoppm for the tests) and installs what is missing when
# it can without a password (tools/system_deps.py).

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
EXAMPLE ?= examples/small-hgx.fabric
ARGS ?=
SYSTEM_DEPS := $(PY) tools/system_deps.py

.PHONY: run test bench lint bundle clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@# bytecode now, as a wheel install has it: a start with PYTHONDONTWRITEBYTECODE set
	@# would otherwise compile ~50,000 lines every time (~0.1 s of each `aicnet` command)
	$(PY) -m compileall -q aicnet_gui > /dev/null
	touch $(STAMP)

run: $(STAMP)
	@$(SYSTEM_DEPS) gui
	$(VENV)/bin/aicnet-gui $(ARGS) $(EXAMPLE)

test: $(STAMP)
	@$(SYSTEM_DEPS) offscreen pdftoppm
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q

lint: $(STAMP)
	$(VENV)/bin/ruff check aicnet_gui tests benchmarks tools
	$(VENV)/bin/lint-imports

bench: $(STAMP)
	@$(SYSTEM_DEPS) offscreen
	@for script in benchmarks/bench_*.py; do echo "== $$script"; QT_QPA_PLATFORM=offscreen $(PY) $$script || exit 1; done

bundle: $(STAMP)
	$(PY) -m pip install --quiet 'pyinstaller>=6.3'
	@$(SYSTEM_DEPS) offscreen
	$(VENV)/bin/pyinstaller --noconfirm --clean --distpath dist --workpath build packaging/aicnet-gui.spec
	QT_QPA_PLATFORM=offscreen dist/aicnet-gui/aicnet-gui --screenshot dist/bundle-smoke.png $(EXAMPLE)
	@echo "bundle: dist/aicnet-gui/ (smoke screenshot: dist/bundle-smoke.png)"

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
