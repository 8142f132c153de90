# quire: `make run` serves on ./quire.db, `make test` runs every test. SQLite is built with FTS5,
# so every go command takes the same tags (the C compile then happens once and stays cached).
GO      ?= go
TAGS    := -tags sqlite_fts5
ADDR    ?= 127.0.0.1:8080
DB      ?= ./quire.db

.PHONY: all generate build run test test-go test-compat compat-deps bench bench-revisions bench-web vet fuzz

all: build

generate:
	$(GO) generate ./gen/

build:
	$(GO) build $(TAGS) -o bin/quire ./cmd/quire

run: build
	@echo "quire: serving on http://$(ADDR) with database $(DB)"
	@echo "create a user and API token (in another terminal):"
	@echo "  ./bin/quire users create --db $(DB) --email you@example.com --name 'Your Name'"
	@echo "or a sample organization to look around in (prints a token and URLs):"
	@echo "  ./bin/quire demo --db $(DB)"
	./bin/quire serve --addr $(ADDR) --db $(DB)

vet:
	$(GO) vet $(TAGS) ./...

test: vet test-go test-compat

# The Go tests read GitBook's published spec from the compat suite's npm packages.
test-go: compat-deps
	$(GO) test $(TAGS) -count=1 ./...

compat-deps: testdata/compat/node_modules/.package-lock.json

testdata/compat/node_modules/.package-lock.json: testdata/compat/package-lock.json
	npm ci --prefix testdata/compat --no-audit --no-fund

test-compat:
	bash testdata/compat/run.sh

# The store benchmarks include the content model's figures (issue 9): BenchmarkRevisions5000Pages
# and BenchmarkRevisions20000Pages ingest a space and print ingest rate, batch, merge, listPages,
# page read latencies and database size; `make bench-revisions` runs only those.
bench: build
	$(GO) test $(TAGS) -run '^$$' -bench . -benchmem ./...
	bash testdata/bench/load.sh

bench-revisions:
	$(GO) test $(TAGS) -run '^$$' -bench 'Revisions' -benchtime 1x -v ./store/sqlite/ | grep -E 'pages:|^Benchmark|^ok'

# Fuzzing beyond the committed corpus (which every `go test` runs): FUZZTIME per target.
FUZZTIME ?= 30s
FUZZ_TARGETS := ./server/:FuzzSearchQuery ./server/:FuzzPageCursor ./server/:FuzzContentBatchBody \
	./store/:FuzzLinkExtraction ./internal/markdown/:FuzzRichtextRoundTrip
fuzz:
	@for t in $(FUZZ_TARGETS); do pkg=$${t%%:*}; name=$${t##*:}; \
		echo "fuzz $$name ($$pkg, $(FUZZTIME))"; \
		$(GO) test $(TAGS) -run '^$$' -fuzz "^$$name$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; done

# The published web's figures (issue 17): p95 time and weight of a page of a 200-page space.
bench-web:
	$(GO) test $(TAGS) -run '^$$' -bench 'WebPage200' -benchtime 300x ./server/
