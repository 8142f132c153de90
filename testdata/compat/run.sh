#!/usr/bin/env bash
# Compatibility suite: builds quire, starts it on a free loopback port with a throw-away
# database, creates two users, and drives it through GitBook's JS client (@gitbook/api).
#
#   bash testdata/compat/run.sh                      # from anywhere
#   QUIRE_BIN=/path/to/quire bash testdata/compat/run.sh   # use a prebuilt binary, skip the build
#   QUIRE_DB=postgres://… bash testdata/compat/run.sh       # serve an (empty) PostgreSQL database
#
# Exits non-zero when anything fails: install, build, start-up, or a test; or when the server's
# log reports a data race (QUIRE_BIN built with -race, as make test does) or a recovered panic.
set -euo pipefail

compat_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$(dirname "$compat_dir")")

# Dependencies: (re)install when node_modules is missing or older than the lockfile.
if [[ ! -f "$compat_dir/node_modules/.package-lock.json" ||
      "$compat_dir/package-lock.json" -nt "$compat_dir/node_modules/.package-lock.json" ]]; then
    echo "compat: npm ci" >&2
    (cd "$compat_dir" && npm ci --no-audit --no-fund)
fi

if [[ -n "${QUIRE_BIN:-}" ]]; then
    bin=$QUIRE_BIN
else
    bin=$root/bin/quire
    echo "compat: building $bin" >&2
    (cd "$root" && go build -tags sqlite_fts5 -o bin/quire ./cmd/quire)
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/quire-compat.XXXXXX")
server_pid=
translator_pid=

# stop_server stops quire serve: a graceful shutdown first, then insist.
stop_server() {
    if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        for _ in $(seq 1 100); do
            kill -0 "$server_pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -KILL "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    server_pid=
}

cleanup() {
    local rc=$?
    stop_server
    if [[ -n "$translator_pid" ]]; then
        kill -TERM "$translator_pid" 2>/dev/null || true
        wait "$translator_pid" 2>/dev/null || true
    fi
    if [[ $rc -ne 0 && -f "$tmp/server.log" ]]; then
        echo "compat: last lines of the server log:" >&2
        tail -n 40 "$tmp/server.log" >&2 || true
    fi
    rm -rf "$tmp"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

db=${QUIRE_DB:-$tmp/quire.db}

# The stand-in machine translator (translator.mjs, LibreTranslate's protocol) translation runs use.
translator_key=compat-translator-key
TRANSLATOR_KEY=$translator_key node "$compat_dir/translator.mjs" >"$tmp/translator.port" 2>"$tmp/translator.log" &
translator_pid=$!
for _ in $(seq 1 50); do
    [[ -s "$tmp/translator.port" ]] && break
    sleep 0.1
done
translator_port=$(cat "$tmp/translator.port")
if [[ -z "$translator_port" ]]; then
    echo "compat: the stand-in translator did not start" >&2
    exit 1
fi

# Port 0: quire binds a free port itself and names it in its "quire serving" line (a port picked
# here and released could be taken by another listener first); the base URL follows it.
"$bin" serve --addr 127.0.0.1:0 --db "$db" --rate-limit 0 \
    --translator-url "http://127.0.0.1:$translator_port" --translator-key "$translator_key" \
    >"$tmp/server.log" 2>&1 &
server_pid=$!

# Wait (at most ~60 s: make test serves a race build, slower to start on a loaded machine) for
# /healthz.
ready=
url=
for _ in $(seq 1 600); do
    if ! kill -0 "$server_pid" 2>/dev/null; then
        echo "compat: quire serve exited before it was ready" >&2
        exit 1
    fi
    if [[ -z "$url" ]]; then
        addr=$(grep -F '"msg":"quire serving"' "$tmp/server.log" | grep -o '"addr":"[^"]*"' | head -n 1 | cut -d'"' -f4 || true)
        [[ -n "$addr" ]] && url=http://$addr
    fi
    if [[ -n "$url" ]] && curl -fsS --max-time 1 -o /dev/null "$url/healthz" 2>/dev/null; then
        ready=1
        break
    fi
    sleep 0.1
done
if [[ -z "$ready" ]]; then
    echo "compat: quire did not answer /healthz within 60 s (${url:-no serving line yet})" >&2
    exit 1
fi

# field JSON NAME: one string field of a JSON object read on stdin.
field() {
    node -e '
let s = "";
process.stdin.on("data", (d) => (s += d)).on("end", () => {
  const v = JSON.parse(s)[process.argv[1]];
  if (typeof v !== "string" || !v) { console.error("compat: no " + process.argv[1] + " in " + s); process.exit(1); }
  console.log(v);
});' "$1"
}

alice_json=$("$bin" users create --db "$db" --email alice@example.com --name Alice)
bob_json=$("$bin" users create --db "$db" --email bob@example.com --name Bob)

export QUIRE_URL=$url
ALICE_TOKEN=$(field token <<<"$alice_json")
ALICE_ID=$(field id <<<"$alice_json")
BOB_TOKEN=$(field token <<<"$bob_json")
BOB_ID=$(field id <<<"$bob_json")
export ALICE_TOKEN ALICE_ID BOB_TOKEN BOB_ID

echo "compat: quire at $url, running the suite" >&2
cd "$compat_dir"
rc=0
export COMPAT_COVERAGE_DIR=$tmp/coverage
mkdir -p "$COMPAT_COVERAGE_DIR"
node --test --test-reporter=spec ${COMPAT_FILES:-*.test.mjs} || rc=$?
# Coverage per client, summed over the files (checked only when every file ran).
if [[ -z "${COMPAT_FILES:-}" ]]; then
    node coverage.mjs "$COMPAT_COVERAGE_DIR" || rc=1
fi

# Whatever the suite asserted, it fails when the server reported a data race (make test serves a
# -race build) or recovered from a panic (logged with message "panic" and its stack): both are
# bugs a request of the suite ran into (issue 24).
stop_server
for mark in 'WARNING: DATA RACE' '"msg":"panic"'; do
    if grep -qF "$mark" "$tmp/server.log"; then
        echo "compat: the server's log reports $mark:" >&2
        grep -F -A 40 "$mark" "$tmp/server.log" | head -n 120 >&2
        rc=1
    fi
done
exit "$rc"
