# One command sets everything up: a virtual environment in .venv with the project installed.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SPHINXOPTS ?=
BUILDDIR ?= _build
SPHINXBUILD = $(BIN)/sphinx-build -c conf -d $(BUILDDIR)/doctrees $(SPHINXOPTS)

.PHONY: html test check fix bench live clean lint venv mutation

venv: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	@touch $(STAMP)

html: $(STAMP)
	$(SPHINXBUILD) -b html book $(BUILDDIR)/html

test: $(STAMP)
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check sphinx_ext tests scripts
	$(BIN)/mypy

clean:
	rm -rf $(BUILDDIR)
