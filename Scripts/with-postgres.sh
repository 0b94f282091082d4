#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL server: a new cluster in a temporary directory, owned by
# the `postgres` user (initdb refuses root), listening on 127.0.0.1 at a free port, with a database
# `opencoredata`. The command sees its URL in OPENCOREDATA_POSTGRES_URL
# (and in its short alias OCD_POSTGRES_URL); the server is stopped and its directory
# removed when the command ends, whatever its exit status, which the script returns.
#
#   Scripts/with-postgres.sh swift test --filter OpenCoreDataPostgreSQLTests
#
# The command also sees the server's data directory (OPENCOREDATA_POSTGRES_DATA), its pg_ctl
# (OPENCOREDATA_POSTGRES_PGCTL, next to initdb) and the user that runs them (OPENCOREDATA_POSTGRES_RUN_AS,
# empty when it is the caller): tests that restart a server or need one with TLS start a cluster of their
# own with them, so that the shared server never stops under other tests.
#
# Needs Debian's `postgresql` package (initdb and pg_ctl under /usr/lib/postgresql/<version>/bin).
set -euo pipefail

if [ $# -eq 0 ]; then
    echo "usage: $0 command [arguments...]" >&2
    exit 2
fi

bin=""
for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$candidate/initdb" ]; then bin=$candidate; break; fi
done
if [ -z "$bin" ]; then
    if command -v initdb >/dev/null 2>&1; then bin=$(dirname "$(command -v initdb)"); fi
fi
if [ -z "$bin" ]; then
    echo "with-postgres: no PostgreSQL server found; install Debian's postgresql package" >&2
    exit 1
fi

# Runs a command as the cluster's owner, from the cluster's directory (the caller's may be closed to it).
as_postgres() {
    if [ "$(id -u)" -eq 0 ]; then
        (cd "$dir" && runuser -u postgres -- "$@")
    else
        (cd "$dir" && "$@")
    fi
}

# A free port on the loopback interface.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
dir=$(mktemp -d /tmp/ocd-postgres.XXXXXX)
chmod 755 "$dir"
if [ "$(id -u)" -eq 0 ]; then chown postgres "$dir"; fi
password=$(python3 -c 'import secrets; print(secrets.token_hex(12))')
printf '%s\n' "$password" >"$dir/password"
if [ "$(id -u)" -eq 0 ]; then chown postgres "$dir/password"; fi

stop() {
    as_postgres "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap stop EXIT

as_postgres "$bin/initdb" -D "$dir/data" -U ocd --pwfile="$dir/password" -A scram-sha-256 --no-sync >"$dir/initdb.log" 2>&1 || {
    cat "$dir/initdb.log" >&2
    exit 1
}
as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
    -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir -c fsync=off -c max_connections=50" start >/dev/null || {
    cat "$dir/server.log" >&2
    exit 1
}
PGPASSWORD=$password "$bin/createdb" -h 127.0.0.1 -p "$port" -U ocd opencoredata

export OPENCOREDATA_POSTGRES_URL="postgres://ocd:$password@127.0.0.1:$port/opencoredata"
export OCD_POSTGRES_URL="$OPENCOREDATA_POSTGRES_URL"
export OPENCOREDATA_POSTGRES_DATA="$dir/data"
export OPENCOREDATA_POSTGRES_PGCTL="$bin/pg_ctl"
if [ "$(id -u)" -eq 0 ]; then export OPENCOREDATA_POSTGRES_RUN_AS=postgres; else export OPENCOREDATA_POSTGRES_RUN_AS=""; fi
echo "with-postgres: PostgreSQL $("$bin/postgres" --version | awk "{print \$3}") on 127.0.0.1:$port" >&2
set +e
"$@"
status=$?
set -e
exit $status
