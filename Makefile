# The two commands a newcomer needs are `make run` and `make test`; both install the system libraries first.
SWIFT ?= swift
BIN := .build/release/migration-bench
DEMO := Reports/demo

.PHONY: setup build run test benchmark-quick lint clean

setup:
	@scripts/setup

build: setup
	$(SWIFT) build -c release

# The main job. Until the scenario runner lands: generate the default store and place it at its model version.
run: build
	@mkdir -p $(DEMO)
	$(BIN) generate --model Scenarios/models/library.yaml --version V1 \
		--dataset Scenarios/datasets/library.yaml --size 100000 --output $(DEMO)/library-V1.sqlite --overwrite
	$(BIN) inspect $(DEMO)/library-V1.sqlite --model Scenarios/models/library.yaml

test: setup
	$(SWIFT) test

# The quick benchmark suite that CI runs; exits 3 when a target measured against the same run is missed.
benchmark-quick: build
	@mkdir -p Reports/benchmarks
	$(BIN) benchmark generator --quick --gate --json-output Reports/benchmarks/generator.json
	$(BIN) benchmark engine --quick --gate --json-output Reports/benchmarks/engine.json

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests

clean:
	rm -rf .build Reports/demo Reports/benchmarks
