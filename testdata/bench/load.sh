#!/usr/bin/env bash
# Load comparison: GET /v1/spaces/{id} on quire against a bare Echo server answering a constant
# JSON body of the same size, same duration, same concurrency, keep-alive, loopback only.
#
#   bash testdata/bench/load.sh        # defaults: 2 rounds of (quire, bare echo), each run 1 s warm-up + 4 s
#                             # measured, so 8 s measured per server; 32 connections
#   ROUNDS=1 DURATION=8s WARM=1s CONC=16 PIN=0 bash testdata/bench/load.sh
#
# PIN=1 (default when taskset exists and there are at least 2 CPUs) runs each server on CPU 0 and
# loadgen on CPU 1, so the generator does not steal the server's CPU; PIN=0 lets the scheduler
# place everything. QUIRE_LOG (default: a file in the temp dir) is where quire's per-request log
# goes. The ratio target (TARGET, default 0.4) is reported, not enforced, unless STRICT=1.
# Everything started here is killed on exit.
set -euo pipefail

DURATION=${DURATION:-4s}
ROUNDS=${ROUNDS:-2}
WARM=${WARM:-1s}
CONC=${CONC:-32}
TARGET=${TARGET:-0.4}

cd "$(dirname "$0")/../.."
command -v curl >/dev/null || { echo "load.sh: curl is required" >&2; exit 1; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/quire-load.XXXXXX")
QUIRE_LOG=${QUIRE_LOG:-$TMP/quire.log}
PIDS=()
cleanup() {
	local pid
	for pid in "${PIDS[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for pid in "${PIDS[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# CPU pinning.
NCPU=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
if [[ -z "${PIN:-}" ]]; then
	if command -v taskset >/dev/null && (( NCPU >= 2 )); then PIN=1; else PIN=0; fi
fi
SERVER_CPU=()
LOAD_CPU=()
if [[ "$PIN" == 1 ]]; then
	SERVER_CPU=(taskset -c 0)
	LOAD_CPU=(taskset -c 1)
	PINNING="pinned with taskset: server on CPU 0, loadgen on CPU 1 (of $NCPU)"
	PINNED=pinned
else
	PINNING="not pinned: server and loadgen share all $NCPU CPUs"
	PINNED=unpinned
fi

echo "== building bin/quire, loadgen, bareecho"
go build -tags sqlite_fts5 -o bin/quire ./cmd/quire
go build -tags sqlite_fts5 -o "$TMP/loadgen" ./cmd/loadgen
go build -tags sqlite_fts5 -o "$TMP/bareecho" ./cmd/bareecho

source testdata/bench/ports.sh

# wait_up URL PID waits (at most 10 s) until URL answers 200, failing early if PID died.
wait_up() {
	local url=$1 pid=$2 i
	for i in $(seq 1 100); do
		if curl -fsS -o /dev/null --max-time 1 "$url" 2>/dev/null; then
			return 0
		fi
		if ! kill -0 "$pid" 2>/dev/null; then
			echo "load.sh: server exited before answering $url" >&2
			return 1
		fi
		sleep 0.1
	done
	echo "load.sh: $url did not answer within 10 s" >&2
	return 1
}

# json_id prints the top-level "id" of a JSON object on stdin.
json_id() {
	if command -v jq >/dev/null; then
		jq -r '.id'
	else
		grep -o '"id" *: *"[^"]*"' | head -n 1 | sed 's/.*"\([^"]*\)"$/\1/'
	fi
}

# BENCH_DB: serve this database instead of a fresh SQLite file (an empty postgres:// database,
# for the PostgreSQL figure; make bench passes one).
DB=${BENCH_DB:-$TMP/quire.db}
BACKEND=SQLite
[[ "$DB" == postgres://* || "$DB" == postgresql://* ]] && BACKEND=PostgreSQL
echo "== setting up quire on $BACKEND"
TOKEN=$(bin/quire users create --db "$DB" --email "load-$$@example.com" --name Bench | sed -n 's/.*"token":"\([^"]*\)".*/\1/p')
[[ -n "$TOKEN" ]] || { echo "load.sh: users create printed no token" >&2; exit 1; }

QPORT=$(free_port)
QURL="http://127.0.0.1:$QPORT"
"${SERVER_CPU[@]}" bin/quire serve --addr "127.0.0.1:$QPORT" --db "$DB" --rate-limit 0 2>"$QUIRE_LOG" &
QPID=$!
PIDS+=("$QPID")
wait_up "$QURL/healthz" "$QPID" || { tail -n 20 "$QUIRE_LOG" >&2; exit 1; }

AUTH="Authorization: Bearer $TOKEN"
ORG=$(curl -fsS --max-time 5 -H "$AUTH" -H 'Content-Type: application/json' -d '{"title":"Acme"}' "$QURL/v1/orgs" | json_id)
SPACE=$(curl -fsS --max-time 5 -H "$AUTH" -H 'Content-Type: application/json' -d '{"title":"Docs"}' "$QURL/v1/orgs/$ORG/spaces" | json_id)
[[ -n "$ORG" && -n "$SPACE" ]] || { echo "load.sh: unable to create the org and space" >&2; exit 1; }
SIZE=$(curl -fsS --max-time 5 -H "$AUTH" -o /dev/null -w '%{size_download}' "$QURL/v1/spaces/$SPACE")
echo "org $ORG, space $SPACE; GET /v1/spaces/$SPACE answers $SIZE bytes"

BPORT=$(free_port)
BURL="http://127.0.0.1:$BPORT"
"${SERVER_CPU[@]}" "$TMP/bareecho" --addr "127.0.0.1:$BPORT" --size "$SIZE" 2>"$TMP/bare.log" &
BPID=$!
PIDS+=("$BPID")
wait_up "$BURL/healthz" "$BPID" || { cat "$TMP/bare.log" >&2; exit 1; }
BSIZE=$(curl -fsS --max-time 5 -o /dev/null -w '%{size_download}' "$BURL/v1/spaces/$SPACE")
[[ "$BSIZE" == "$SIZE" ]] || { echo "load.sh: bareecho answers $BSIZE bytes, want $SIZE" >&2; exit 1; }

echo "== load: $CONC connections, keep-alive, $ROUNDS round(s) of $WARM warm-up + $DURATION measured per server; $PINNING"
echo "   quire logs one JSON line per request to $QUIRE_LOG; bare echo logs nothing"

# run_load OUTFILE LABEL URL [loadgen flags...] prints loadgen's result line; OUTFILE keeps its RPS line.
run_load() {
	local out=$1 label=$2 url=$3
	shift 3
	if ! "${LOAD_CPU[@]}" "$TMP/loadgen" -label "$label" -url "$url" -c "$CONC" -d "$DURATION" -warm "$WARM" "$@" >"$out" 2>&1; then
		cat "$out"
		echo "load.sh: loadgen against $label failed" >&2
		exit 1
	fi
	grep -v '^RPS ' "$out"
}
# Rounds alternate quire and bare echo, so a burst of other work on the machine hits both alike.
Q_ALL=()
B_ALL=()
for (( r = 1; r <= ROUNDS; r++ )); do
	run_load "$TMP/quire.out" "round $r/$ROUNDS quire    GET /v1/spaces/{id}" "$QURL/v1/spaces/$SPACE" -header "$AUTH"
	run_load "$TMP/bare.out" "round $r/$ROUNDS bareecho GET /v1/spaces/{id}" "$BURL/v1/spaces/$SPACE"
	Q_ALL+=("$(sed -n 's/^RPS //p' "$TMP/quire.out")")
	B_ALL+=("$(sed -n 's/^RPS //p' "$TMP/bare.out")")
done
mean() { printf '%s\n' "$@" | awk '{ s += $1; n++ } END { printf "%.1f", (n ? s / n : 0) }'; }
Q_RPS=$(mean "${Q_ALL[@]}")
B_RPS=$(mean "${B_ALL[@]}")

RATIO=$(awk -v q="$Q_RPS" -v b="$B_RPS" 'BEGIN { printf "%.2f", (b > 0 ? q / b : 0) }')
VERDICT=$(awk -v r="$RATIO" -v t="$TARGET" 'BEGIN { print (r + 0 >= t + 0 ? "meets" : "BELOW") }')
printf '%s GET /v1/spaces/{id}: quire %.0f req/s, bare echo %.0f req/s, ratio %s (%s target %s; %s bytes, c=%s, %sx%s, %s)\n' \
	"$BACKEND" "$Q_RPS" "$B_RPS" "$RATIO" "$VERDICT" "$TARGET" "$SIZE" "$CONC" "$ROUNDS" "$DURATION" "$PINNED"
if [[ "${STRICT:-0}" == 1 && "$VERDICT" != meets ]]; then
	exit 1
fi
