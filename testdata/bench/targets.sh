#!/usr/bin/env bash
# The speed targets of issue 31, measured over HTTP on both engines and printed side by side:
# cmd/contentbench ingests PAGES pages (default 20,000) into a `quire serve` on a fresh SQLite file,
# then into one on a fresh PostgreSQL database, and measures merges, the page list and search;
# load.sh gives the GET /v1/spaces/{id} ratio against a bare Echo server on each engine.
#
#   bash testdata/postgres/with-cluster.sh bash testdata/bench/targets.sh     # what make bench runs
#   PAGES=100000 bash testdata/postgres/with-cluster.sh bash testdata/bench/targets.sh
#
# Without QUIRE_TEST_POSTGRES_URL only SQLite is measured. The table says, per figure, whether the
# target holds; it is a report, not a test (STRICT=1 makes a missed target fail the script).
# PROFILE=1 also writes a CPU profile of each server's first PROFILE_SECONDS (default 20) of the run to $OUT/<engine>.pprof.
set -euo pipefail
cd "$(dirname "$0")/../.."

PAGES=${PAGES:-20000}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/quire-targets.XXXXXX")
OUT=${OUT:-$TMP}
PIDS=()
cleanup() {
	local pid
	for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
	for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
	[[ "$OUT" == "$TMP" ]] && rm -rf "$TMP"
	rm -rf "$TMP/db"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== building bin/quire and contentbench"
go build -tags sqlite_fts5 -o bin/quire ./cmd/quire
go build -o "$TMP/contentbench" ./cmd/contentbench

source testdata/bench/ports.sh

# measure ENGINE DB: serves DB, runs contentbench against it, and keeps its figures in
# $TMP/ENGINE.figures (plus "size" in MB).
measure() {
	local engine=$1 db=$2 port mport token pid i prof=
	token=$(bin/quire users create --db "$db" --email bench@example.com --name Bench | sed -n 's/.*"token":"\([^"]*\)".*/\1/p')
	[[ -n "$token" ]] || { echo "targets.sh: users create printed no token" >&2; exit 1; }
	port=$(free_port)
	mport=$(free_port)
	bin/quire serve --addr "127.0.0.1:$port" --db "$db" --rate-limit 0 --metrics-addr "127.0.0.1:$mport" --pprof 2>"$TMP/$engine.log" &
	pid=$!
	PIDS+=("$pid")
	for i in $(seq 1 100); do
		curl -fsS -o /dev/null --max-time 1 "http://127.0.0.1:$port/healthz" 2>/dev/null && break
		kill -0 "$pid" 2>/dev/null || { tail -n 20 "$TMP/$engine.log" >&2; exit 1; }
		sleep 0.1
	done
	if [[ "${PROFILE:-0}" == 1 ]]; then
		curl -fsS -o "$OUT/$engine.pprof" "http://127.0.0.1:$mport/debug/pprof/profile?seconds=${PROFILE_SECONDS:-20}" &
		prof=$!
	fi
	echo "== $engine: $PAGES pages over HTTP"
	"$TMP/contentbench" -url "http://127.0.0.1:$port" -token "$token" -pages "$PAGES" -label "$engine" >"$TMP/$engine.out"
	grep -v '^FIGURE ' "$TMP/$engine.out"
	sed -n 's/^FIGURE //p' "$TMP/$engine.out" >"$TMP/$engine.figures"
	[[ -z "$prof" ]] || wait "$prof" || echo "targets.sh: no profile of $engine" >&2
	kill "$pid" && wait "$pid" 2>/dev/null || true
	if [[ "$db" == postgres* ]]; then
		echo "size $(psql "$db" -Atq -c 'SELECT round(pg_database_size(current_database()) / 1e6)')" >>"$TMP/$engine.figures"
	else
		echo "size $(du -cm "$db"* | tail -n 1 | cut -f1)" >>"$TMP/$engine.figures"
	fi
	# The GET path against a bare Echo server, on this engine.
	local ratio target=0.6
	[[ "$db" == postgres* ]] && target=0.45
	TARGET=$target BENCH_DB="$db" bash testdata/bench/load.sh >"$TMP/$engine.load" 2>&1 || { cat "$TMP/$engine.load" >&2; exit 1; }
	ratio=$(sed -n 's/.*, ratio \([0-9.]*\) .*/\1/p' "$TMP/$engine.load")
	grep 'ratio' "$TMP/$engine.load"
	echo "get_ratio $ratio" >>"$TMP/$engine.figures"
}

mkdir -p "$TMP/db"
measure SQLite "$TMP/db/quire.db"
ENGINES=(SQLite)
if [[ -n "${QUIRE_TEST_POSTGRES_URL:-}" ]]; then
	PGDB=$(bash testdata/postgres/cluster.sh createdb "$QUIRE_TEST_POSTGRES_URL" "quire_targets_$$")
	measure PostgreSQL "$PGDB"
	ENGINES+=(PostgreSQL)
fi

# The table: figure, then per engine the value and its target (>= or <=).
fig() { sed -n "s/^$2 //p" "$TMP/$1.figures"; }
missed=0
printf '\n%-28s' "HTTP, $PAGES pages"
for e in "${ENGINES[@]}"; do printf '%-26s' "$e"; done
printf '\n'
row() {
	local label=$1 key=$2 op=$3 sq=$4 pg=$5 unit=$6 e v t ok
	printf '%-28s' "$label"
	for e in "${ENGINES[@]}"; do
		v=$(fig "$e" "$key")
		t=$sq
		[[ "$e" == PostgreSQL ]] && t=$pg
		ok=$(awk -v v="$v" -v t="$t" -v op="$op" 'BEGIN { print ((op == ">=" ? v + 0 >= t + 0 : v + 0 <= t + 0) ? "ok" : "MISSED") }')
		[[ "$ok" == ok ]] || missed=$((missed + 1))
		printf '%-26s' "$(printf '%s%s (%s %s) %s' "$v" "$unit" "$op" "$t" "$ok")"
	done
	printf '\n'
}
row "ingest (pages/s)" ingest ">=" 1500 1000 ""
row "merge of 1,000, p50" merge1000_p50 "<=" 100 300 " ms"
row "merge of 10, p50" merge10_p50 "<=" 10 15 " ms"
row "listPages p95 (then)" listpages_p95 "<=" 60 60 " ms"
row "search rare p95" search_rare_p95 "<=" 10 10 " ms"
row "search common p95" search_common_p95 "<=" 10 10 " ms"
row "search two words p95" search_two_p95 "<=" 10 10 " ms"
row "GET vs bare Echo" get_ratio ">=" 0.6 0.45 ""
printf '%-28s' "listPages, first read"
for e in "${ENGINES[@]}"; do printf '%-26s' "$(fig "$e" listpages_first) ms"; done
printf '\n%-28s' "search, first"
for e in "${ENGINES[@]}"; do printf '%-26s' "$(fig "$e" search_first) ms"; done
printf '\n%-28s' "batch of 50, p50"
for e in "${ENGINES[@]}"; do printf '%-26s' "$(fig "$e" batch50_p50) ms"; done
printf '\n%-28s' "database size"
for e in "${ENGINES[@]}"; do printf '%-26s' "$(fig "$e" size) MB"; done
printf '\n'
if [[ "${STRICT:-0}" == 1 && $missed -gt 0 ]]; then
	echo "targets.sh: $missed target(s) missed" >&2
	exit 1
fi
