#!/bin/sh
# The AOT cache's training run (Dockerfile.jvm's "training" stage): starts a throwaway PostgreSQL, runs Engram
# through engram-jvm.sh against it with -XX:AOTCacheOutput, sends the requests a client sends first
# (train-aot.sh: entries, a listing, a search, a render, the journal, memories, a context, MCP's handshake, refused
# requests, health and metrics), then stops Engram with SIGTERM so that the JVM writes the cache as it exits. Classes first loaded at run time (the
# JDBC driver, Agroal, Flyway, Vert.x's server, Jackson's serializers) are in the cache then; a run that stops after
# Quarkus's static init (quarkus.package.jar.aot.phase=build) never loads them.
#
# Runs as root (PostgreSQL runs as the postgres user). Outside the image: ENGRAM_HOME (the quarkus-app directory,
# default /deployments), TRAINING_PG_PORT (54329), TRAINING_HTTP_PORT (8080), TRAINING_DIR (a new temporary directory).
set -eu

home="${ENGRAM_HOME:-/deployments}"
port="${TRAINING_PG_PORT:-54329}"
work="${TRAINING_DIR:-$(mktemp -d)}"
pgbin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
key="aot-training-key-0123456789abcdef-thrown-away"
http_port="${TRAINING_HTTP_PORT:-8080}"
base="http://127.0.0.1:$http_port"
log="$work/engram.log"
pid=""

as_postgres() {
    su postgres -s /bin/sh -c "$1"
}

stop() {
    if [ -n "$pid" ]; then
        kill -TERM "$pid" 2>/dev/null || true
    fi
    as_postgres "'$pgbin/pg_ctl' -D '$work/pg' -m fast stop >/dev/null 2>&1" || true
}
trap stop EXIT

mkdir -p "$work/pg"
chmod 755 "$work"
chown postgres "$work/pg"
chmod 700 "$work/pg"
as_postgres "'$pgbin/initdb' -D '$work/pg' -U engram -A trust -E UTF8 --no-sync >/dev/null"
as_postgres "'$pgbin/pg_ctl' -D '$work/pg' -w -l '$work/pg/log' \
    -o \"-p $port -k '$work/pg' -c listen_addresses=127.0.0.1 -c fsync=off\" start >/dev/null"

rm -f "$home/app.aot"
QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://127.0.0.1:$port/postgres" \
    QUARKUS_DATASOURCE_USERNAME=engram QUARKUS_DATASOURCE_PASSWORD=unused \
    ENGRAM_ADMIN_KEY="$key" ENGRAM_DATA_DIR="$work/data" QUARKUS_HTTP_HOST=127.0.0.1 QUARKUS_HTTP_PORT="$http_port" \
    JAVA_OPTS_APPEND="${JAVA_OPTS_APPEND:-} -XX:AOTCacheOutput=$home/app.aot" \
    "$home/engram-jvm.sh" >"$log" 2>&1 &
pid=$!

tries=0
until curl -fs "$base/q/health/ready" >/dev/null 2>&1; do
    tries=$((tries + 1))
    if [ "$tries" -gt 240 ] || ! kill -0 "$pid" 2>/dev/null; then
        echo "Engram did not get ready for the training run:" >&2
        cat "$log" >&2
        exit 1
    fi
    sleep 0.5
done

# The requests, the same that bench/run's training sends (train-aot.sh, beside this script).
"$(dirname "$0")/train-aot.sh" "$base" "$key"

kill -TERM "$pid"
wait "$pid" || true
pid=""
if [ ! -s "$home/app.aot" ]; then
    echo "The training run wrote no AOT cache:" >&2
    cat "$log" >&2
    exit 1
fi
chmod 644 "$home/app.aot"
echo "AOT cache: $(du -h "$home/app.aot" | cut -f1) in $home/app.aot"
