#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests.
#   cluster.sh start DIR   initdb into DIR (created, must be empty or missing), start the server on a
#                          unix socket in DIR, print the URL of database "postgres" on stdout
#                          (QUIRE_PG_DURABLE=off: without fsync, see below)
#   cluster.sh createdb URL NAME   create an empty database NAME on the cluster of URL and print
#                          its URL
#   cluster.sh stop DIR    stop the server and remove DIR
# initdb refuses to run as root: as root the cluster belongs to the "postgres" user (created with
# useradd when missing). Only the unix socket listens (listen_addresses=''), so nothing else on the
# machine can reach it and no port can collide.
set -euo pipefail

cmd=${1:-}
dir=${2:-}
if [[ -z "$cmd" || -z "$dir" ]]; then
	echo "usage: $0 start|stop DIR" >&2
	exit 2
fi

bindir=""
if ! command -v initdb >/dev/null 2>&1; then
	for d in /usr/lib/postgresql/*/bin; do
		[[ -x "$d/initdb" ]] && bindir="$d/"
	done
	if [[ -z "$bindir" ]]; then
		echo "cluster.sh: initdb not found (apt-get install postgresql)" >&2
		exit 1
	fi
fi

as_owner() {
	if [[ $(id -u) -eq 0 ]]; then
		su postgres -s /bin/bash -c "$*"
	else
		bash -c "$*"
	fi
}

case "$cmd" in
start)
	if [[ $(id -u) -eq 0 ]] && ! id postgres >/dev/null 2>&1; then
		useradd --system --no-create-home --shell /usr/sbin/nologin postgres
	fi
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	if [[ $(id -u) -eq 0 ]]; then
		chown postgres "$dir"
		chmod 700 "$dir"
		# The owner must reach the folder through its parents.
		chmod o+x "$(dirname "$dir")" 2>/dev/null || true
	fi
	user=$(if [[ $(id -u) -eq 0 ]]; then echo postgres; else id -un; fi)
	# Locale C: text sorts by bytes, as in SQLite (ids and keyset cursors rely on it).
	as_owner "'${bindir}initdb' -D '$dir/data' -U '$user' --auth=trust --locale=C --encoding=UTF8 >'$dir/initdb.log' 2>&1" || {
		cat "$dir/initdb.log" >&2
		exit 1
	}
	# Durable as production (fsync on), sized for the parallel tests. QUIRE_PG_DURABLE=off (make
	# test) turns off what only guards against the machine itself crashing (fsync, full-page
	# writes): a crash of PostgreSQL or of quire loses nothing more, and the tests, which copy and
	# drop a database apiece, no longer wait on the disk for it.
	durability=
	if [[ ${QUIRE_PG_DURABLE:-on} == off ]]; then
		durability="-c fsync=off -c full_page_writes=off"
	fi
	as_owner "'${bindir}pg_ctl' -D '$dir/data' -l '$dir/server.log' -w -t 60 \
		-o \"-c listen_addresses='' -c unix_socket_directories='$dir' -c max_connections=300 -c shared_buffers=64MB $durability\" start >/dev/null" || {
		cat "$dir/server.log" >&2
		exit 1
	}
	echo "postgres://$user@/postgres?host=$dir"
	;;
createdb)
	name=${3:?database name}
	psql "$dir" -v ON_ERROR_STOP=1 -q -c "CREATE DATABASE \"$name\"" >&2
	echo "$dir" | sed -E "s#^(postgres(ql)?://[^/]*)/[^?]*#\1/$name#"
	;;
stop)
	if [[ -d "$dir/data" ]]; then
		as_owner "'${bindir}pg_ctl' -D '$dir/data' -m immediate -w stop >/dev/null 2>&1" || true
	fi
	rm -rf "$dir"
	;;
*)
	echo "usage: $0 start|stop DIR" >&2
	exit 2
	;;
esac
