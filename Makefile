# Two commands for a fresh machine (Python 3.11+ and Node 20+): `make run` and `make test`.
# `make test-fast` is the inner loop (docs/testing.md): no live stack, no browser, fewer Hypothesis examples.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
NODE_INSTALLED := frontend/node_modules/.installed
BUNDLE := static/dist/game.js
FRONTEND_SOURCES := $(shell find frontend/src -type f 2>/dev/null) frontend/vite.config.ts frontend/tsconfig.json

# This machine's environment sets PYTHONDONTWRITEBYTECODE=1. Every Python process then compiles our modules
# again and pytest rewrites every test module again: about 10 s per pytest worker, and a second or more for each
# process a live stack starts. Writing __pycache__ (git ignores it) saves that (docs/testing.md).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test test-fast install build migrate lint golden bench bench-validate bench-engine bench-frontend bench-site bench-hot-path bench-bots bench-players bench-rambots clean cluster cluster-fault cluster-down test-cluster bench-cluster-scaling

$(BIN)/python:
	$(PYTHON) -c 'import sys; sys.exit("RoboRacer needs Python 3.11 or newer" if sys.version_info < (3, 11) else 0)'
	$(PYTHON) -m venv $(VENV)

$(INSTALLED): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

install: $(INSTALLED)

$(NODE_INSTALLED): frontend/package.json frontend/package-lock.json
	cd frontend && npm install --no-audit --no-fund --loglevel=error
	touch $@

# The engine's catalog as the browser reads it (issue 36, docs/frontend.md "The catalog"): generated, not kept in git.
CATALOG_JSON := frontend/src/generated/catalog.json
$(CATALOG_JSON): $(INSTALLED) engine/catalog.py $(wildcard engine/elements/*.py engine/modules/*.py)
	mkdir -p $(dir $@)
	$(BIN)/python -m engine catalog --browser > $@.tmp && mv $@.tmp $@

$(BUNDLE): $(NODE_INSTALLED) $(FRONTEND_SOURCES) $(CATALOG_JSON)
	cd frontend && npm run build --silent

build: $(BUNDLE)

migrate: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_courses

run: install build migrate
	$(BIN)/python -m roboracer.run

# The whole suite; it prints the 15 slowest tests so a slow one is seen when it arrives (budget: docs/testing.md).
# Two pytest-xdist workers (one per core here; PYTEST_WORKERS=0 runs in one process): docs/testing.md.
PYTEST_WORKERS ?= 2
test: install build
	$(BIN)/python -m ruff check .
	$(BIN)/lint-imports --no-cache  # the import graph's contracts (pyproject.toml, docs/architecture.md "Layers")
	cd frontend && npm test --silent
	$(BIN)/python -m compileall -q -j 0 roboracer games engine  # once, before the workers and live stacks import them
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --durations=15 $(PYTEST_ARGS)

# ruff, the node unit tests, and every test that needs neither the live stack (a real worker or ASGI server)
# nor a browser: tests/engine (its import checks included) and the site's own tests.
FAST_MARKERS := not integration and not e2e
test-fast: install $(NODE_INSTALLED) $(CATALOG_JSON)
	$(BIN)/python -m ruff check .
	$(BIN)/lint-imports --no-cache
	cd frontend && npm test --silent
	$(BIN)/python -m compileall -q -j 0 roboracer games engine
	$(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) -m "$(FAST_MARKERS)" --durations=10 $(PYTEST_ARGS)

lint: install
	$(BIN)/python -m ruff check .
	$(BIN)/lint-imports --no-cache

# The engine's golden hash (tests/bench/golden.py): fails when the engine's behaviour changed (docs/testing.md).
golden: install
	$(BIN)/python tests/bench/golden.py $(GOLDEN_ARGS)

bench: bench-engine bench-frontend

# BENCH_ARGS="--against REV": this tree's engine against REV's, timed in alternation (tests/bench/engine_turns.py).
bench-engine: install
ifeq ($(BENCH_ARGS),)
	$(BIN)/python tests/bench/engine_turns.py
	$(BIN)/python tests/bench/rulesets.py
else
	$(BIN)/python tests/bench/engine_turns.py $(BENCH_ARGS)
endif

bench-validate: install
	$(BIN)/python tests/bench/course_validation.py $(BENCH_ARGS)

bench-frontend: install build
	$(BIN)/python tests/bench/frontend.py

bench-bots: install
	$(BIN)/python tests/bench/bots.py $(BENCH_ARGS)

bench-players: install
	$(BIN)/python tests/bench/players.py

bench-rambots: install
	$(BIN)/python tests/bench/rambots_bots.py $(BENCH_ARGS)

bench-site: install build
	$(BIN)/python tests/bench/site.py $(BENCH_ARGS)

bench-hot-path: install
	$(BIN)/python tests/bench/hot_path.py $(BENCH_ARGS)

# The site as a cluster of hosts (network namespaces on a bridge, HAProxy in front): docs/cluster.md. Root only.
cluster: install build
	$(BIN)/python -m roboracer.cluster

# A fault scenario against the running cluster: SCENARIO=none|kill-web|kill-worker|restart-redis|restart-postgres|partition-worker|partition-web-db|latency-web|stop-beat
SCENARIO ?= kill-web
cluster-fault: install
	$(BIN)/python -m tests.cluster.faults $(SCENARIO) $(FAULT_ARGS)

# Stops what a killed `make cluster` left (processes, namespaces, bridge); a new `make cluster` does it too.
cluster-down: install
	$(BIN)/python -m roboracer.cluster --down

# Scaling by adding hosts (issue 39): the cluster with 1, 2, 3 web+worker pairs, each web and worker host held to a
# fifth of a core; prints capacity and efficiency (docs/scaling.md). Root only; a benchmark, not a test.
bench-cluster-scaling: install build
	$(BIN)/python tests/bench/cluster_scaling.py $(BENCH_ARGS)

# The cluster's own tests (tests/cluster/cluster_tests.py; `make test` never collects them): start the cluster,
# run every fault scenario (40 games each), check each history. Budget: 10 minutes; 7 to 9 here. .ci/run runs it
# after make test (docs/cluster.md, "Status").
test-cluster: install
	$(BIN)/python -m compileall -q -j 0 roboracer games engine tests/cluster
	$(BIN)/python -m pytest -p no:cacheprovider -v -s --durations=0 tests/cluster/cluster_tests.py $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) frontend/node_modules static/dist var
