#!/usr/bin/env bash
# Makes sure PostgreSQL, Redis and NATS (with JetStream) listen on loopback:
# starts them when installed but stopped, installs them from Debian's
# packages when missing and running as root, and otherwise says exactly
# what is missing. Exits non-zero unless all three answer. Also makes sure
# HAProxy is installed (not started): the cluster tests (loadtest C1)
# start their own in front of the kj processes they run. And makes sure
# the server binaries are installed even when the services run elsewhere:
# the fault suite (loadtest F1) starts and kills servers of its own.
set -uo pipefail

up() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_up() { for _ in $(seq 1 60); do up "$1" && return 0; sleep 0.5; done; return 1; }
need_apt=()
apt_updated=0
apt_install() {
  if [ "$(id -u)" != 0 ]; then
    echo "services: $1 is not installed and this is not root; install Debian package(s): $*" >&2
    return 1
  fi
  if [ $apt_updated = 0 ]; then apt-get update -qq >/dev/null && apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

postgres() {
  up 5432 && return 0
  if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
    echo "services: installing PostgreSQL"
    apt_install postgresql || return 1
  fi
  local v; v=$(ls /etc/postgresql | sort -V | tail -1)
  # Trust auth on loopback, as the test URLs expect (no password).
  local hba="/etc/postgresql/$v/main/pg_hba.conf"
  if [ -w "$hba" ] && ! grep -q '^host all all 127.0.0.1/32 trust' "$hba"; then
    sed -i '1i host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\nlocal all all trust' "$hba"
  fi
  pg_ctlcluster --skip-systemctl-redirect "$v" main start 2>/dev/null || pg_ctlcluster "$v" main start
  wait_up 5432 || return 1
  for db in test root; do
    psql -h 127.0.0.1 -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname='$db'" | grep -q 1 ||
      psql -h 127.0.0.1 -U postgres -c "CREATE DATABASE $db" >/dev/null
  done
}

redis() {
  up 6379 && return 0
  command -v redis-server >/dev/null || { echo "services: installing Redis"; apt_install redis-server || return 1; }
  mkdir -p /var/lib/redis /var/log/redis 2>/dev/null
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_up 6379
}

nats() {
  up 4222 && return 0
  command -v nats-server >/dev/null || { echo "services: installing NATS"; apt_install nats-server || return 1; }
  mkdir -p /var/lib/nats-server 2>/dev/null
  start-stop-daemon --start --oknodo --background --exec "$(command -v nats-server)" -- \
    -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log
  wait_up 4222
}

# The fault suite (loadtest F1, TestF1Faults) runs servers of its own on
# spare ports, so it needs the server binaries even when the shared
# services above run elsewhere: PostgreSQL's initdb and postgres, redis-server
# and nats-server.
server_binaries() {
  local ok=0
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || type -P initdb >/dev/null ||
    { echo "services: installing the PostgreSQL server binaries (the fault suite runs its own)"; apt_install postgresql || ok=1; }
  type -P redis-server >/dev/null || [ -x /usr/bin/redis-server ] ||
    { echo "services: installing redis-server (the fault suite runs its own)"; apt_install redis-server || ok=1; }
  type -P nats-server >/dev/null || [ -x /usr/sbin/nats-server ] ||
    { echo "services: installing nats-server (the fault suite runs its own)"; apt_install nats-server || ok=1; }
  return $ok
}

# Not named haproxy: `command -v` finds functions too, so a function of that
# name made the check below pass on a machine without HAProxy.
ensure_haproxy() {
  type -P haproxy >/dev/null && return 0
  echo "services: installing HAProxy"
  apt_install haproxy
}

fail=0
ensure_haproxy || { echo "services: HAProxy is not installed (Debian package haproxy; the cluster tests need it)" >&2; fail=1; }
server_binaries || { echo "services: the fault suite needs the PostgreSQL server, redis-server and nats-server binaries (Debian packages postgresql, redis-server, nats-server)" >&2; fail=1; }
postgres || { echo "services: PostgreSQL is not reachable on 127.0.0.1:5432" >&2; fail=1; }
redis || { echo "services: Redis is not reachable on 127.0.0.1:6379" >&2; fail=1; }
nats || { echo "services: NATS is not reachable on 127.0.0.1:4222" >&2; fail=1; }
[ $fail = 0 ] && echo "services: PostgreSQL :5432, Redis :6379, NATS :4222 are up"
exit $fail
