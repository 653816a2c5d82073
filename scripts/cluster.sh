#!/usr/bin/env bash
# A kj cluster on loopback, for trying cluster mode by hand: N kj nodes
# (default 3) on PostgreSQL, Redis and NATS, HAProxy in front of them
# (websockets included) and Prometheus scraping every node with the alert
# rules of deploy/prometheus/alerts.yml. Prints the URLs, then runs until
# Ctrl-C or SIGTERM, when it stops everything it started (the nodes drain).
#
#   make cluster            # builds bin/kj, makes sure the services run, starts 3 nodes
#   N=5 make cluster        # five nodes
#   ./scripts/cluster.sh    # the same, with an existing bin/kj
#   ./scripts/cluster.sh --check
#                           # a fresh cluster (database kj_cluster_check), the browser flow of
#                           # webapp/e2e/cluster through the load balancer, then stop; exits 1
#                           # when the flow fails
#
# Settings (environment):
#   N                 nodes (3)
#   PORT              load balancer port (8080): the web app, /api, /ws
#   NODE_PORT         first node's port (8081); node i listens on NODE_PORT+i-1
#   METRICS_PORT      first node's metrics port (9181), used only when kj serves
#                     /metrics on its own address (KJ_METRICS_ADDR)
#   PROM_PORT         Prometheus (9090)
#   STATS_PORT        HAProxy's status page and its own metrics (8404)
#   CLUSTER_DIR       logs, generated configs, uploaded files (./.cluster)
#   CLUSTER_DB        PostgreSQL database of the cluster, created if missing (kj_cluster)
#   PG_URL            PostgreSQL server (postgres://postgres@127.0.0.1:5432)
#   KJ_REDIS_URL      (redis://127.0.0.1:6379/2)  KJ_NATS_URL (nats://127.0.0.1:4222)
#   KJ_BIN            the kj binary (bin/kj)
# Any other KJ_ variable in the environment (KJ_WINDOW_BETTING=10s, ...)
# reaches every node unchanged.
set -uo pipefail

cd "$(dirname "$0")/.."
check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac
if [ $check = 1 ]; then
  # Its own store, Redis database and directory, so a check never sees a
  # hand-run cluster's users (and starts from an empty store).
  CLUSTER_DB=${CLUSTER_DB:-kj_cluster_check}
  KJ_REDIS_URL=${KJ_REDIS_URL:-redis://127.0.0.1:6379/3}
  CLUSTER_DIR=${CLUSTER_DIR:-$PWD/.cluster-check}
fi
N=${N:-3}
PORT=${PORT:-8080}
NODE_PORT=${NODE_PORT:-8081}
METRICS_PORT=${METRICS_PORT:-9181}
PROM_PORT=${PROM_PORT:-9090}
STATS_PORT=${STATS_PORT:-8404}
CLUSTER_DIR=${CLUSTER_DIR:-$PWD/.cluster}
CLUSTER_DB=${CLUSTER_DB:-kj_cluster}
PG_URL=${PG_URL:-postgres://postgres@127.0.0.1:5432}
KJ_BIN=${KJ_BIN:-$PWD/bin/kj}
export KJ_REDIS_URL=${KJ_REDIS_URL:-redis://127.0.0.1:6379/2}
export KJ_NATS_URL=${KJ_NATS_URL:-nats://127.0.0.1:4222}
export KJ_DATABASE_URL="$PG_URL/$CLUSTER_DB?sslmode=disable"
export KJ_DATA_DIR="$CLUSTER_DIR/data"
# Behind HAProxy the client's address is the last X-Forwarded-For entry.
export KJ_TRUST_PROXY=true

say() { echo "cluster: $*"; }
die() { echo "cluster: $*" >&2; exit 1; }

[[ "$N" =~ ^[1-9][0-9]?$ ]] || die "N=$N: want a number of nodes from 1 to 99"
[ -x "$KJ_BIN" ] || die "$KJ_BIN is missing: run \`make build\` (or \`make cluster\`, which builds it)"

# --- tools -----------------------------------------------------------------

apt_updated=0
need() { # need COMMAND DEBIAN-PACKAGE
  command -v "$1" >/dev/null && return 0
  [ "$(id -u)" = 0 ] || die "$1 is not installed and this is not root; install Debian's $2 package"
  say "installing $2"
  if [ $apt_updated = 0 ]; then apt-get update -qq >/dev/null && apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$2" >/dev/null ||
    die "apt-get install $2 failed"
  command -v "$1" >/dev/null || die "$2 is installed but $1 is not on PATH"
}
need haproxy haproxy
need prometheus prometheus
need psql postgresql-client

# --- helpers ---------------------------------------------------------------

# port_free PORT: nothing listens on 127.0.0.1:PORT.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# http_status HOST:PORT PATH: the status code of a GET (bash only: a clean
# machine may have no curl).
http_status() {
  local host=${1%:*} port=${1##*:} line
  { exec 3<>"/dev/tcp/$host/$port"; } 2>/dev/null || { echo 000; return; }
  printf 'GET %s HTTP/1.0\r\nHost: %s\r\n\r\n' "$2" "$1" >&3
  IFS=' ' read -r -t 5 _ line _ <&3 || line=000
  exec 3<&- 3>&-
  echo "${line:-000}"
}

# wait_status HOST:PORT PATH PID SECONDS: polls until the GET answers 200;
# fails early when PID has exited.
wait_status() {
  local i
  for ((i = 0; i < $4 * 10; i++)); do
    [ "$(http_status "$1" "$2")" = 200 ] && return 0
    kill -0 "$3" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

for p in "$PORT" "$PROM_PORT" "$STATS_PORT" $(seq "$NODE_PORT" $((NODE_PORT + N - 1))); do
  port_free "$p" || die "port $p on 127.0.0.1 is in use (set PORT, NODE_PORT, PROM_PORT or STATS_PORT)"
done

# Whether this kj can serve /metrics on an address of its own
# (KJ_METRICS_ADDR) or only on its HTTP address: the binary knows the
# names of its settings.
separate_metrics=0
if grep -q -a KJ_METRICS_ADDR "$KJ_BIN"; then
  separate_metrics=1
  for p in $(seq "$METRICS_PORT" $((METRICS_PORT + N - 1))); do
    port_free "$p" || die "port $p on 127.0.0.1 is in use (set METRICS_PORT)"
  done
fi

# --- stop everything we started, however we leave ---------------------------

pids=() # kj nodes
others=() # haproxy, prometheus
stopping=0
stop_all() {
  [ $stopping = 1 ] && return
  stopping=1
  trap '' INT TERM
  say "stopping"
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null; done
  # The nodes drain (KJ_SHUTDOWN_TIMEOUT, 15 s by default); kill what is
  # still up after 30 s.
  for ((i = 0; i < 300; i++)); do
    alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.1
  done
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null; done
  for pid in "${others[@]}"; do kill -TERM "$pid" 2>/dev/null; done
  wait 2>/dev/null
  say "stopped; logs are in $CLUSTER_DIR/logs"
}
trap stop_all EXIT
# Ctrl-C or SIGTERM is how a running cluster is meant to end: success,
# except in the middle of a check.
trap '[ $check = 1 ] && exit 130; exit 0' INT
trap '[ $check = 1 ] && exit 143; exit 0' TERM

# --- database ----------------------------------------------------------------

mkdir -p "$CLUSTER_DIR/logs" "$KJ_DATA_DIR" "$CLUSTER_DIR/prometheus"
psql "$PG_URL/postgres?sslmode=disable" -tAc "SELECT 1" >/dev/null 2>&1 ||
  die "PostgreSQL does not answer at $PG_URL (run \`make services\`, or set PG_URL)"
if [ $check = 1 ]; then
  PGOPTIONS=--client-min-messages=warning psql "$PG_URL/postgres?sslmode=disable" -qc "DROP DATABASE IF EXISTS \"$CLUSTER_DB\" WITH (FORCE)" >/dev/null ||
    die "could not drop database $CLUSTER_DB"
  rm -rf "$KJ_DATA_DIR" && mkdir -p "$KJ_DATA_DIR"
fi
if ! psql "$PG_URL/postgres?sslmode=disable" -tAc "SELECT 1 FROM pg_database WHERE datname='$CLUSTER_DB'" | grep -q 1; then
  say "creating database $CLUSTER_DB"
  psql "$PG_URL/postgres?sslmode=disable" -qc "CREATE DATABASE \"$CLUSTER_DB\"" >/dev/null ||
    die "could not create database $CLUSTER_DB"
fi
# One node migrates before any serves, so the nodes never race for it.
"$KJ_BIN" migrate >"$CLUSTER_DIR/logs/migrate.log" 2>&1 ||
  die "kj migrate failed: $(tail -5 "$CLUSTER_DIR/logs/migrate.log")"

# --- nodes -------------------------------------------------------------------

scrape_targets=""
for i in $(seq 1 "$N"); do
  addr="127.0.0.1:$((NODE_PORT + i - 1))"
  metrics="$addr"
  node_env=(KJ_ADDR="$addr" KJ_NODE_ID="node-$i" KJ_AUTO_MIGRATE=false)
  if [ $separate_metrics = 1 ]; then
    metrics="127.0.0.1:$((METRICS_PORT + i - 1))"
    node_env+=(KJ_METRICS_ADDR="$metrics")
  fi
  env "${node_env[@]}" "$KJ_BIN" serve >"$CLUSTER_DIR/logs/node-$i.log" 2>&1 &
  pids+=($!)
  scrape_targets+="      - targets: ['$metrics']
        labels: {node: node-$i}
"
done
for i in $(seq 1 "$N"); do
  addr="127.0.0.1:$((NODE_PORT + i - 1))"
  wait_status "$addr" /readyz "${pids[$((i - 1))]}" 60 ||
    die "node-$i did not become ready on $addr:
$(tail -20 "$CLUSTER_DIR/logs/node-$i.log")"
done
first_metrics=$(printf '%s' "$scrape_targets" | sed -n "1s/.*\['\(.*\)'\].*/\1/p")
[ "$(http_status "$first_metrics" /metrics)" = 200 ] ||
  die "node-1 does not serve /metrics on $first_metrics"

# --- load balancer -----------------------------------------------------------

servers=""
for i in $(seq 1 "$N"); do
  servers+="    server node-$i 127.0.0.1:$((NODE_PORT + i - 1))
"
done
# Each proxied connection holds two descriptors; stay inside our limit.
maxconn=$(( $(ulimit -n) / 2 - 100 ))
# One template for this and the load runs' cluster workloads.
cfg=$(<deploy/haproxy/loopback.cfg)
cfg=${cfg//@MAXCONN@/$maxconn}
cfg=${cfg//@LOG_OPTION@/httplog}
cfg=${cfg//@BIND@/127.0.0.1:$PORT}
cfg=${cfg//@SERVERS@/${servers%$'\n'}}
cfg=${cfg//@STATS_BIND@/127.0.0.1:$STATS_PORT}
printf '%s\n' "$cfg" >"$CLUSTER_DIR/haproxy.cfg"
haproxy -c -q -f "$CLUSTER_DIR/haproxy.cfg" || die "haproxy rejected $CLUSTER_DIR/haproxy.cfg"
haproxy -db -f "$CLUSTER_DIR/haproxy.cfg" >"$CLUSTER_DIR/logs/haproxy.log" 2>&1 &
others+=($!)
wait_status "127.0.0.1:$PORT" /readyz "${others[-1]}" 20 ||
  die "HAProxy does not answer on 127.0.0.1:$PORT:
$(tail -20 "$CLUSTER_DIR/logs/haproxy.log")"

# --- Prometheus ----------------------------------------------------------------

cat >"$CLUSTER_DIR/prometheus.yml" <<EOF
# Written by scripts/cluster.sh.
global:
  scrape_interval: 5s
  evaluation_interval: 5s
rule_files:
  - $PWD/deploy/prometheus/alerts.yml
scrape_configs:
  - job_name: kj
    static_configs:
$scrape_targets  - job_name: haproxy
    static_configs:
      - targets: ['127.0.0.1:$STATS_PORT']
EOF
prometheus --config.file="$CLUSTER_DIR/prometheus.yml" --storage.tsdb.path="$CLUSTER_DIR/prometheus" \
  --web.listen-address="127.0.0.1:$PROM_PORT" >"$CLUSTER_DIR/logs/prometheus.log" 2>&1 &
others+=($!)
wait_status "127.0.0.1:$PROM_PORT" /-/ready "${others[-1]}" 30 ||
  die "Prometheus did not start:
$(tail -20 "$CLUSTER_DIR/logs/prometheus.log")"

# --- the browser check -----------------------------------------------------------

if [ $check = 1 ]; then
  nodes_json=""
  for i in $(seq 1 "$N"); do
    addr="127.0.0.1:$((NODE_PORT + i - 1))"
    metrics=$addr
    [ $separate_metrics = 1 ] && metrics="127.0.0.1:$((METRICS_PORT + i - 1))"
    nodes_json+="${nodes_json:+,}{\"name\":\"node-$i\",\"url\":\"http://$addr\",\"metrics\":\"http://$metrics\",\"pid\":${pids[$((i - 1))]}}"
  done
  ./scripts/chromium.sh || die "Chromium is needed for the browser check"
  say "browser flow through http://127.0.0.1:$PORT/"
  E2E_BASE_URL="http://127.0.0.1:$PORT" E2E_FLOW_DIR=cluster E2E_LANGUAGES="${E2E_LANGUAGES:-en-US}" \
    E2E_CLUSTER_NODES="[$nodes_json]" KJ_BIN="$KJ_BIN" node webapp/e2e/run.mjs
  exit $?
fi

# --- running -------------------------------------------------------------------

echo
say "$N nodes up"
echo "  web app, /api, /ws   http://127.0.0.1:$PORT/   (through HAProxy)"
for i in $(seq 1 "$N"); do
  line="  node-$i               http://127.0.0.1:$((NODE_PORT + i - 1))/  pid ${pids[$((i - 1))]}"
  [ $separate_metrics = 1 ] && line+="  metrics http://127.0.0.1:$((METRICS_PORT + i - 1))/metrics"
  echo "$line"
done
echo "  HAProxy status       http://127.0.0.1:$STATS_PORT/"
echo "  Prometheus           http://127.0.0.1:$PROM_PORT/  (alerts: /alerts)"
echo "  Grafana dashboard    deploy/grafana/kj.json (import it, data source: this Prometheus)"
echo "  store                $KJ_DATABASE_URL"
echo "  logs                 $CLUSTER_DIR/logs"
echo
say "Ctrl-C stops everything"

# Report a process that ends on its own (a node killed by hand, say);
# keep the rest running so failover can be watched.
declare -A reported=()
while sleep 1; do
  for i in $(seq 1 "$N"); do
    pid=${pids[$((i - 1))]}
    if [ -z "${reported[$pid]:-}" ] && ! kill -0 "$pid" 2>/dev/null; then
      reported[$pid]=1
      say "node-$i (pid $pid) exited; the other nodes carry on"
    fi
  done
  for pid in "${others[@]}"; do
    kill -0 "$pid" 2>/dev/null || die "a helper process (pid $pid) exited; see $CLUSTER_DIR/logs"
  done
done
