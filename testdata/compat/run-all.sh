#!/usr/bin/env bash
# The compat suite on SQLite and, when QUIRE_TEST_POSTGRES_URL names a cluster, on a fresh
# PostgreSQL database of it as well: the two runs go in parallel (each has its own server), and
# their output follows, one after the other.
#   QUIRE_BIN=bin/quire bash testdata/compat/run-all.sh
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$(dirname "$here")")
: "${QUIRE_BIN:?QUIRE_BIN names the quire binary to test}"
logs=$(mktemp -d "${TMPDIR:-/tmp}/quire-compat-all.XXXXXX")
trap 'rm -rf "$logs"' EXIT

bash "$here/run.sh" >"$logs/sqlite.log" 2>&1 &
sqlite_pid=$!
pg_pid=
if [[ -n "${QUIRE_TEST_POSTGRES_URL:-}" ]]; then
	db=$(bash "$root/testdata/postgres/cluster.sh" createdb "$QUIRE_TEST_POSTGRES_URL" "quire_compat_$$") || exit 1
	QUIRE_DB=$db bash "$here/run.sh" >"$logs/postgres.log" 2>&1 &
	pg_pid=$!
fi
rc=0
wait "$sqlite_pid" || rc=1
echo "=== compat suite on SQLite ($([[ $rc -eq 0 ]] && echo passed || echo FAILED))"
cat "$logs/sqlite.log"
if [[ -n "$pg_pid" ]]; then
	pg_rc=0
	wait "$pg_pid" || pg_rc=1
	echo "=== compat suite on PostgreSQL ($([[ $pg_rc -eq 0 ]] && echo passed || echo FAILED))"
	cat "$logs/postgres.log"
	[[ $pg_rc -eq 0 ]] || rc=1
else
	echo "=== compat suite on PostgreSQL skipped: QUIRE_TEST_POSTGRES_URL is not set (make test starts a cluster)"
fi
exit "$rc"
