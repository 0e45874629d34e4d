#!/usr/bin/env bash
# A private PostgreSQL server for one test run.
#
#   postgres-test-server.sh start DIR OWNER_PID   prints the server's URL
#   postgres-test-server.sh stop DIR
#   postgres-test-server.sh createdb DIR NAME     a new database on it
#   postgres-test-server.sh psql DIR NAME SQL     runs SQL in that database (bulk test data)
#
# `start` creates a cluster in DIR/data (initdb: trust authentication, UTF-8,
# ICU en-US as the default collation, so that anything compared without
# COLLATE "C" would show,
# superuser "docstore"), listening on no TCP address and on a Unix socket in
# DIR only, and starts it. As root it runs the server as the unprivileged user
# "nobody" (PostgreSQL refuses root), owning DIR. A watchdog stops the server
# and removes DIR as soon as OWNER_PID is gone, so a test process that crashes
# leaves nothing running. `stop` stops the server, ends the watchdog and
# removes DIR.
#
# The binaries: $DOCSTORE_POSTGRES_BIN, else the newest /usr/lib/postgresql/*/bin.
set -eu

# Close every descriptor the caller left open beyond stdin/out/err: the server
# and the watchdog outlive this script, and Foundation's Process learns that a
# child ended when the last holder of one of them closes it.
for fd in /dev/fd/*; do
    fd=${fd##*/}
    if [ "$fd" -gt 2 ] 2>/dev/null; then eval "exec $fd>&-" 2>/dev/null || true; fi
done

command=$1
dir=$2

bin=${DOCSTORE_POSTGRES_BIN:-}
if [ -z "$bin" ]; then
    bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
fi
if [ -z "$bin" ] || [ ! -x "$bin/pg_ctl" ]; then
    echo "PostgreSQL's server binaries (initdb, pg_ctl) were not found in /usr/lib/postgresql/*/bin." >&2
    echo "Install them with .ci/install-deps (Debian's postgresql package), or set DOCSTORE_POSTGRES_BIN to their directory," >&2
    echo "or point DOCSTORE_POSTGRES_URL at a server whose database the tests may fill." >&2
    exit 3
fi

as_owner() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u nobody -- "$@"; else "$@"; fi
}

case "$command" in
start)
    owner=$3
    if [ "$(id -u)" -eq 0 ]; then chown nobody "$dir"; fi
    chmod 700 "$dir"
    if ! as_owner "$bin/initdb" -D "$dir/data" -U docstore --auth=trust --encoding=UTF8 --locale=C.UTF-8 --locale-provider=icu --icu-locale=en-US >"$dir/initdb.log" 2>&1; then
        cat "$dir/initdb.log" >&2
        exit 1
    fi
    if ! as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-k $dir -c listen_addresses= -c fsync=off -c max_connections=40" start >/dev/null; then
        cat "$dir/server.log" >&2
        exit 1
    fi
    # The watchdog: polls the owner, then stops the server and cleans up.
    (
        trap '' HUP INT
        while kill -0 "$owner" 2>/dev/null && [ -d "$dir/data" ]; do sleep 0.5; done
        if [ -d "$dir/data" ]; then
            as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
            rm -rf "$dir"
        fi
    ) </dev/null >/dev/null 2>&1 &
    echo $! >"$dir/watchdog.pid"
    echo "postgres://docstore@/postgres?host=$dir"
    ;;
stop)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    if [ -f "$dir/watchdog.pid" ]; then kill "$(cat "$dir/watchdog.pid")" 2>/dev/null || true; fi
    rm -rf "$dir"
    ;;
createdb)
    "$bin/createdb" -h "$dir" -U docstore "$3"
    ;;
psql)
    "$bin/psql" -X -q -h "$dir" -U docstore -d "$3" -v ON_ERROR_STOP=1 -c "$4"
    ;;
*)
    echo "usage: $0 start DIR OWNER_PID | stop DIR | createdb DIR NAME | psql DIR NAME SQL" >&2
    exit 2
    ;;
esac
