# The two commands of the README: `make run` and `make test` (plus `make bench`).
# Each installs what it needs into .venv (and node_modules, with npm) first;
# nothing else is assumed.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: install run test bench lint format services clean

$(VENV)/.runtime-installed: requirements.txt
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is needed, found " + sys.version' 
	@test -x $(PY) || $(PYTHON) -m venv $(VENV) || { echo "python3 -m venv failed: install the python3-venv package"; exit 1; }
	$(PY) -m pip install -q --disable-pip-version-check -r requirements.txt
	@touch $@

$(VENV)/.dev-installed: $(VENV)/.runtime-installed requirements-dev.txt
	$(PY) -m pip install -q --disable-pip-version-check -r requirements-dev.txt
	@touch $@

# The consoles' browser libraries (idiomorph), exactly as package-lock.json pins
# them, into node_modules/, which Django serves as static files (config/settings.py).
node_modules/.installed: package.json package-lock.json
	@command -v npm >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	  (apt-get update -qq && apt-get install -y -qq npm >/dev/null); } || \
	  { echo "npm is needed for the consoles' browser libraries: install Node.js and npm"; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

## make install: the runtime virtualenv and the consoles' browser libraries
install: $(VENV)/.runtime-installed node_modules/.installed

## make run: migrate, load the demo floor, start web + worker + beat + projector (Ctrl-C stops them)
run: $(VENV)/.runtime-installed node_modules/.installed
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo_floor
	$(PY) manage.py runfloor

## make test: lint, layer contracts, then the suite on the embedded default and on PostgreSQL + Redis
test: $(VENV)/.dev-installed node_modules/.installed
	bash .ci/test

## make bench: benchmarks in bench/ (ratios against a baseline run side by side)
bench: $(VENV)/.dev-installed node_modules/.installed
	bash .ci/services postgres redis
	$(PY) bench/commands.py --read-models both --workers 1 2
	$(PY) bench/read_your_writes.py
	$(PY) bench/hand_eval.py
	$(PY) bench/timers.py
	$(PY) bench/balance.py
	$(PY) bench/day.py
	$(PY) bench/wait_estimate.py
	$(PY) bench/ledger.py
	$(PY) bench/replay.py
	$(PY) bench/store_size.py
	$(PY) bench/table_age.py
	$(PY) bench/rebuild_shadow.py
	$(PY) bench/rebuild.py
	$(PY) bench/reports.py
	$(PY) bench/console.py
	$(PY) bench/live.py
	$(PY) bench/broker.py
	$(PY) bench/soak.py --backend embedded --minutes 10

lint: $(VENV)/.dev-installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

format: $(VENV)/.dev-installed
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

services:
	bash .ci/services all

clean:
	rm -rf var .pytest_cache node_modules
