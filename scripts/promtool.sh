#!/usr/bin/env bash
# Runs promtool with the given arguments (make lint: check the alert rules).
# promtool comes with Debian's prometheus package: installed here when
# missing and running as root, otherwise the missing package is named.
set -euo pipefail
if ! command -v promtool >/dev/null; then
  if [ "$(id -u)" != 0 ]; then
    echo "promtool is not installed and this is not root; install Debian's prometheus package" >&2
    exit 1
  fi
  echo "promtool: installing Debian's prometheus package"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null
fi
exec promtool "$@"
