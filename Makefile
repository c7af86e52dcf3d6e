# The two commands a newcomer needs are `make run` and `make test`; both install the system libraries first.
SWIFT ?= swift
BIN := .build/release/migration-bench

.PHONY: setup build run check test benchmark-quick lint clean

setup:
	@scripts/setup

build: setup
	$(SWIFT) build -c release

# The main job: every scenario of the catalog at its quick size, verified and measured, with reports in
# Reports/latest/ (index.html, report.json, junit.xml, summary.md). Exit code 2 or 3 when a cell fails.
run: build
	$(BIN) run --quick

# check on an example history (four versions, renames, a default-filled attribute): a store of every version
# migrated to the last, verified and measured; reports in Reports/check/latest/. Exit code 2 on an error finding.
check: build
	$(BIN) check Scenarios/models/library-history.yaml --out Reports/check

# The package's tests, the README's example package among them (Examples/AppMigrationTests, built and run as a
# test target of this package), then scripts/check-library-graph: MigrationTesting's graph holds no jemalloc and no
# Linux-only call outside an #if, and the example's manifest is valid.
test: setup
	$(SWIFT) test
	SWIFT=$(SWIFT) scripts/check-library-graph

# The quick benchmark suite that CI runs; exits 3 when a target measured against the same run is missed.
benchmark-quick: build
	@mkdir -p Reports/benchmarks
	$(BIN) benchmark generator --quick --gate --json-output Reports/benchmarks/generator.json
	$(BIN) benchmark engine --quick --gate --json-output Reports/benchmarks/engine.json

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Examples

clean:
	rm -rf .build Reports/benchmarks Reports/check Reports/latest Reports/2*
