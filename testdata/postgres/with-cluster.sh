#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL cluster: QUIRE_TEST_POSTGRES_URL names it (a
# database the command may create others from), and the cluster is stopped and removed when the
# command ends, whatever its outcome.
#   bash testdata/postgres/with-cluster.sh make test-go
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/quire-pg.XXXXXX")
cleanup() {
	local rc=$?
	bash "$here/cluster.sh" stop "$dir/cluster" || true
	rm -rf "$dir"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
QUIRE_TEST_POSTGRES_URL=$(bash "$here/cluster.sh" start "$dir/cluster")
export QUIRE_TEST_POSTGRES_URL
echo "postgres: throwaway cluster at $QUIRE_TEST_POSTGRES_URL" >&2
"$@"
