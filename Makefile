# Two commands for a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint build clean bench

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

build: $(STAMP)
	$(BIN)/rulings build

run: build
	$(BIN)/rulings serve --host 127.0.0.1 --port 5000 $(if $(WORKERS),--workers $(WORKERS))

lint: $(STAMP)
	$(BIN)/ruff check rulings kb web tests bench docs
	$(BIN)/ruff format --check rulings kb web tests bench docs
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) instance .pytest_cache .mypy_cache .ruff_cache

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]' || echo "tantivy (the bench extra) not installed: FTS5 alone"
	$(BIN)/python bench/fresh_queries.py --memory
	$(BIN)/python bench/search_bench.py
	$(BIN)/python bench/relevance.py bench/relevance.toml bench/relevance-heldout.toml
	$(BIN)/python bench/link_quality.py
	$(BIN)/python bench/load.py
	$(BIN)/python bench/adversarial.py
	$(BIN)/python bench/rulebook_bench.py
	$(BIN)/python bench/scale.py --profiles stress,realistic --shares 0.25,0.5,1
