# The two set-up commands of the README live here: `make run` and `make test`.
# Both create .venv on first use and reinstall only when pyproject.toml changes.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev
RUN_STAMP := $(VENV)/.installed-run
# The suite runs on two processes (pytest-xdist), a test file to each in turn: its module's
# fixtures stay in one process. `make test TEST_WORKERS=0` runs it in this one process.
TEST_WORKERS ?= 2

.PHONY: run test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@ $(RUN_STAMP)

run: $(RUN_STAMP)
	@command -v fc-list >/dev/null && [ -z "$$(fc-list :lang=zh 2>/dev/null)" ] && \
		echo "make run: no Chinese font: the kiosk's Chinese shows as boxes (apt-get install -y fonts-noto-cjk)" >&2 || true
	$(BIN)/tablesight run

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile

bench: $(RUN_STAMP)
	$(BIN)/tablesight bench all

clean:
	rm -rf $(VENV) build *.egg-info
