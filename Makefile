# Ferry: `make demo` and `make test` work on a fresh machine; both run `make setup` first.
SWIFT ?= swift
MANUAL_DATE ?= 2026-11-22

.PHONY: setup build release demo test docs samples bench bench-memory bench-instructions fuzz sanitize clean

setup:
	@scripts/setup.sh

build: setup
	$(SWIFT) build

release: setup
	$(SWIFT) build -c release

demo: build
	@scripts/demo.sh

# The tests run on an optimised build (`-enable-testing` for their `@testable` imports). On CI's
# two cores: building 11.5 min against 7, the tests 7.5 min against 19.5; `make docs` then builds
# its own debug build (5.5 min); the whole CI run 26.5 min against 29.2. It has a build path of
# its own, so that `make release` and the tests do not rebuild each other's.
TEST_BUILD = -c release --build-path .build/tests -Xswiftc -enable-testing

test: setup
	python3 scripts/check_layers.py
	python3 scripts/check_platform.py
	python3 scripts/check_columns.py --self-test
	python3 scripts/check_columns.py
	$(SWIFT) build --build-tests $(TEST_BUILD)
	SWIFT=$(SWIFT) scripts/run_tests.sh $(TEST_BUILD)
	python3 scripts/test_view_in_browser.py --ferry $$($(SWIFT) build $(TEST_BUILD) --show-bin-path)/ferry
	python3 scripts/test_formats_with_tools.py --ferry $$($(SWIFT) build $(TEST_BUILD) --show-bin-path)/ferry
	@$(MAKE) --no-print-directory docs

# Times convert, export and verify on N generated brew logs against sqlite-utils, the sqlite3
# shell and tar/sha256sum; then the store cases: the same logs converted from a SwiftData store,
# dumped against sqlite3 -json, and converted at 4×N for memory (release build; many minutes at
# the default million records).
# Then second runs: the same logs converted again into the store holding them (as JSON, with a
# tenth of them changed, as a SwiftData store), a bundle merged into a store holding all or half
# of them, each against its first run, and the same again at 4×N for growth.
# Last, FORMAT_N schema.org recipes made from the corpus's JSON-LD, as NDJSON and as one @graph.
N ?= 1000000
RUNS ?= 3
FORMAT_N ?= 100000
bench: release
	python3 scripts/bench.py --records $(N) --runs $(RUNS)
	python3 scripts/bench_store.py --records $(N) --runs $(RUNS)
	python3 scripts/bench_again.py --records $(N) --runs $(RUNS)
	python3 scripts/bench_coredata.py --records $(N) --runs $(RUNS)
	python3 scripts/bench_formats.py --records $(FORMAT_N)

# Peak memory of convert at N and at 4×N records, and its growth (minutes; 3 GB of generated data).
bench-memory: release
	python3 scripts/bench_memory.py --records $(N) --factor 4 --runs 1

# Instructions per record of convert, per thread, under valgrind's callgrind (20,000 records; a
# figure this machine's varying speed does not move; needs valgrind).
bench-instructions: release
	python3 scripts/bench_instructions.py

# Fuzzes each reader for FUZZ_SECONDS (default 60); not part of `make test`.
fuzz: setup
	scripts/fuzz.sh

# The test suite under AddressSanitizer, then ThreadSanitizer (separate build folders).
sanitize: setup
	LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lsan-suppressions.txt:print_suppressions=0 $(SWIFT) test --sanitize=address --build-path .build/asan
	$(SWIFT) test --sanitize=thread --build-path .build/tsan

# Rewrites the sample stores in Samples/ (the models in Formats/ are built into ferry by the
# EmbedModels build plugin).
samples: setup
	$(SWIFT) run make-sample-stores

# Manual page and shell completions, from swift-argument-parser, and the DocC of the libraries an
# app embeds (the readers and the conversion; FerryConvert's has an article on converting at first
# launch), into out/.
DOCC_TARGETS = FerryModel FerryCoreData FerryCanonical FerryConvert
docs: build
	$(SWIFT) package generate-manual --configuration debug --date $(MANUAL_DATE) >/dev/null
	@mkdir -p out/man/man1 out/completions
	cp .build/plugins/GenerateManual/outputs/ferry/ferry.1 out/man/man1/ferry.1
	.build/debug/ferry --generate-completion-script bash > out/completions/ferry.bash
	.build/debug/ferry --generate-completion-script zsh > out/completions/_ferry
	.build/debug/ferry --generate-completion-script fish > out/completions/ferry.fish
	@rm -rf out/docs && mkdir -p out/docs
	@for target in $(DOCC_TARGETS); do \
		$(SWIFT) package --allow-writing-to-directory out/docs generate-documentation --target $$target \
			--output-path out/docs/$$target >/dev/null 2>out/docs-$$target.log || { cat out/docs-$$target.log; exit 1; }; \
	done
	@echo "wrote out/man/man1/ferry.1, out/completions/ and out/docs/ ($(DOCC_TARGETS))"

clean:
	rm -rf .build out
