# Every target sets itself up: a virtual environment in .venv with the project installed.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BUILDDIR ?= _build
SPHINXOPTS ?= -W
SPHINXBUILD = $(BIN)/sphinx-build -c conf -d $(BUILDDIR)/doctrees $(SPHINXOPTS)
PYTEST_ARGS ?=
# The suite runs on every core, a test file to a worker (module fixtures build once).
PYTEST_WORKERS ?= -n auto --dist loadfile

.PHONY: venv html check fix bind live test browser-deps lint bench mutation clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[book,test,live]'
	@# An editable install compiles no bytecode of the project's own (pip does, for a wheel).
	$(BIN)/python -m compileall -q sphinx_ext/verified_problems
	@touch $(STAMP)

## html: build the book into _build/html (fails on any wrong digit or warning)
html: $(STAMP)
	$(SPHINXBUILD) -b html book $(BUILDDIR)/html

## check: verify every problem without writing HTML; reports in _build/verify
check: $(STAMP)
	$(SPHINXBUILD) -b verify book $(BUILDDIR)/verify

## fix: rewrite diverging named digits to the printed ones (FIX_ARGS=--check, --diff, --inject)
fix: $(STAMP)
	$(BIN)/verified-fix book --conf conf --build $(BUILDDIR) $(FIX_ARGS)

## bind: record which printed quantity each free digit quotes, in book/_bindings (shows the
## diff; BIND_ARGS="--choose PAGE:LINE=QUANTITY", --check or --diff)
bind: $(STAMP)
	$(BIN)/verified-bind book --conf conf --build $(BUILDDIR) $(BIND_ARGS)

## live: live preview; saving a page or a snippet re-checks and reloads it
live: $(STAMP)
	$(BIN)/sphinx-autobuild -c conf -d $(BUILDDIR)/live-doctrees --watch scripts/snippets \
		--watch sphinx_ext book $(BUILDDIR)/live

## test: the whole test suite (installs Debian's chromium for the browser tests where it can)
test: $(STAMP) browser-deps
	$(BIN)/python -m pytest $(PYTEST_WORKERS) $(PYTEST_ARGS)

browser-deps:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing chromium for the browser tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null \
	      || echo "chromium could not be installed: the browser tests will be skipped"; \
	  else echo "chromium is not installed and this is not root: the browser tests will be skipped"; fi; }

lint: $(STAMP)
	$(BIN)/ruff check sphinx_ext tests scripts
	$(BIN)/mypy

## bench: verification cost as ratios against plain Sphinx and sphinxcontrib-programoutput
bench: $(STAMP)
	$(BIN)/python scripts/bench.py

## mutation: mutate every number of the book's checked pages (PAGES="book/a.md ...", EXTRA=DIR,
## MUTATION_ARGS="--all-digits --printed --bind --sample N --progress ..."; --printed: each free
## digit made every other printed number; --bind, on with EXTRA: verified-bind the copy first),
## one at a time; every mutant must fail the build
mutation: $(STAMP)
	$(BIN)/python scripts/mutation.py $(if $(PAGES),--pages $(PAGES)) \
		$(foreach dir,$(EXTRA),--extra $(dir)) $(MUTATION_ARGS)

## clean: remove the build output, the doctrees and the snippet cache
clean:
	rm -rf $(BUILDDIR)
