# quire: `make run` serves on ./quire.db, `make test` runs every test. SQLite is built with FTS5,
# so every go command takes the same tags (the C compile then happens once and stays cached).
GO      ?= go
TAGS    := -tags sqlite_fts5
ADDR    ?= 127.0.0.1:8080
DB      ?= ./quire.db

.PHONY: all generate build build-race run test test-in-cluster test-go test-postgres-and-processes test-cmd test-server-postgres test-compat compat-deps bench bench-http bench-revisions bench-conversations bench-translate bench-web vet fuzz

all: build

generate:
	$(GO) generate ./gen/

build:
	$(GO) build $(TAGS) -o bin/quire ./cmd/quire

# The race detector's build of quire, which the compat suite serves (make test).
build-race:
	$(GO) build $(TAGS) -race -o bin/quire-race ./cmd/quire

run: build
	@echo "quire: serving on http://$(ADDR) with database $(DB)"
	@echo "create a user and API token (in another terminal):"
	@echo "  ./bin/quire users create --db $(DB) --email you@example.com --name 'Your Name'"
	@echo "or a sample organization to look around in (prints a token and URLs):"
	@echo "  ./bin/quire demo --db $(DB)"
	./bin/quire serve --addr $(ADDR) --db $(DB)

vet:
	$(GO) vet $(TAGS) ./...

# make test runs everything on SQLite and on a throwaway PostgreSQL 15 cluster (Debian's
# postgresql package), started here and removed at the end whatever the outcome: the Go tests
# under the race detector with QUIRE_TEST_POSTGRES_URL set (the conformance suite, the two-node
# and concurrency tests use it) and, beside them, the server suite on PostgreSQL followed by
# cmd/quire's tests and the compat suite against a race build of `quire serve` on each backend
# (in parallel). The cluster
# runs without fsync (QUIRE_PG_DURABLE=off: nothing of it outlives the run, and no test crashes
# the machine), so the database each test copies and drops costs no disk flushes.
test: vet compat-deps
	QUIRE_PG_DURABLE=off bash testdata/postgres/with-cluster.sh $(MAKE) --no-print-directory test-in-cluster

# Inside the cluster, two lanes side by side (each prints its output whole when done): the Go
# tests of every package but cmd/quire (server's on SQLite); and the server suite on PostgreSQL,
# cmd/quire's tests (which start quire processes) and the compat suite. cmd/quire moved to the
# second lane when the first was the longer by about as much as cmd/quire takes (839 s in all).
test-in-cluster:
	$(MAKE) --no-print-directory -j2 --output-sync=target test-go test-postgres-and-processes

test-postgres-and-processes:
	$(MAKE) --no-print-directory test-server-postgres
	$(MAKE) --no-print-directory test-cmd
	$(MAKE) --no-print-directory test-compat

# The Go tests read GitBook's published spec from the compat suite's npm packages. Without
# QUIRE_TEST_POSTGRES_URL the PostgreSQL tests skip. Every package runs under the race detector
# (issue 24): the concurrency lives in server, store, internal/jobs and cmd/quire (whose node and
# concurrency tests start the test binary itself as quire serve, so those servers are race builds
# too and a race report in their output fails the test), and the others cost little more under it,
# so all of them do rather than a list that new code could fall out of. The 20-minute bound per
# package is a backstop for a loaded machine, not the budget (make test's is 15 minutes in all).
# ./server/ is named first so that go test starts the longest package first (the others share
# the second of its two slots beside it) rather than after cmd/ and internal/. Every package is
# listed by go list, cmd/quire left to test-cmd. GOGC=200 halves the collections: the garbage
# collector was a ninth of the server suite's CPU under the race detector, and memory is not short.
test-go: compat-deps
	GOGC=200 $(GO) test $(TAGS) -race -count=1 -timeout 20m ./server/ $$($(GO) list ./... | grep -v '/cmd/quire$$')

test-cmd: compat-deps
	GOGC=200 $(GO) test $(TAGS) -race -count=1 -timeout 20m ./cmd/quire/

compat-deps: testdata/compat/node_modules/.package-lock.json

testdata/compat/node_modules/.package-lock.json: testdata/compat/package-lock.json
	npm ci --prefix testdata/compat --no-audit --no-fund

# The server suite again with every test server on a fresh PostgreSQL database (copied from one
# migrated template). Not under the race detector: the SQLite run of the same tests has it, and on
# 2 cores the two race runs side by side outlast go test's 10-minute limit; this run is for what
# the engine changes. Eight tests at a time rather than one per core: a test on PostgreSQL
# mostly waits for its queries' round trips and its database's copy, and eight overlap those
# waits (about a third of the wall time of two at a time). The suite's static checks (of the
# source: TestFilesLayered) skip under the race detector and so run here only.
test-server-postgres: compat-deps
	QUIRE_TEST_SERVER_BACKEND=postgres GOGC=200 $(GO) test $(TAGS) -count=1 -parallel 8 -timeout 20m ./server/

# The compat suite serves the race build: a race report or a recovered panic in the server's log
# fails the suite (testdata/compat/run.sh).
test-compat: build-race
	QUIRE_BIN=$(CURDIR)/bin/quire-race bash testdata/compat/run-all.sh

# The store benchmarks include the content model's figures (issue 9): BenchmarkRevisions5000Pages
# and BenchmarkRevisions20000Pages ingest a space and print ingest rate, batch, merge, listPages,
# page read latencies and database size; `make bench-revisions` runs only those, and
# BenchmarkRevisions20000PagesPostgres the same on a throwaway PostgreSQL cluster.
# Then the targets of issue 31 as a client sees them (testdata/bench/targets.sh): cmd/contentbench
# ingests PAGES pages over HTTP into `quire serve` on SQLite and on PostgreSQL, measures merges,
# the page list and search, load.sh the GET path against a bare Echo server, and the table prints
# each figure beside its target. `make bench-http` runs only that (PAGES=100000 for the large run,
# PROFILE=1 OUT=dir for CPU profiles of the servers).
PAGES ?= 20000
bench: build
	$(GO) test $(TAGS) -run '^$$' -bench . -benchmem ./...
	bash testdata/postgres/with-cluster.sh bash -c '$(GO) test $(TAGS) -run "^$$" -bench "Revisions20000PagesPostgres" -benchtime 1x -v ./store/sqlstore/ | grep -E "pages:|^Benchmark|^ok" && PAGES=$(PAGES) bash testdata/bench/targets.sh'

bench-http: build
	PAGES=$(PAGES) bash testdata/postgres/with-cluster.sh bash testdata/bench/targets.sh

# Conversations (issue 16): BenchmarkConversationsAnalyse10000 (internal/jobs) ingests 10,000
# conversations through the store and runs the one analysis job they queue, reporting the seconds of
# each part and the adjusted Rand index of the stored clusters against the labelled corpus (10,000
# perturbed samples, and the 382-conversation corpus itself); BenchmarkAnalyze10000
# (internal/conversations) is the engine alone, with the index on the tuning corpus (ARI-corpus)
# and on the held-out corpus it was not tuned on (ARI-heldout). `make bench-conversations` runs only those.
bench-conversations:
	$(GO) test $(TAGS) -run '^$$' -bench 'Analy[sz]e10000' -benchtime 1x ./internal/jobs/ ./internal/conversations/ | grep -E '^Benchmark|^ok'

# Translations (issue 32): BenchmarkTranslateApertium (internal/translate) is the throughput in words
# per second against a real Apertium (APy and apertium-eng-spa, started by the benchmark; skipped when
# they are not installed). `make bench` runs it with the others; `make bench-translate` alone.
bench-translate:
	$(GO) test $(TAGS) -run '^$$' -bench 'TranslateApertium' -benchtime 20x ./internal/translate/ | grep -E '^Benchmark|^ok'

bench-revisions:
	$(GO) test $(TAGS) -run '^$$' -bench 'Revisions' -benchtime 1x -v ./store/sqlstore/ | grep -E 'pages:|^Benchmark|^ok'

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
