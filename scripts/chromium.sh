#!/usr/bin/env bash
# Makes sure Debian's chromium and the CJK fonts (without them Chinese
# renders as boxes in screenshots) are installed for the browser tests.
set -euo pipefail
missing=()
command -v chromium >/dev/null || [ -x /usr/bin/chromium ] || missing+=(chromium)
fc-list 2>/dev/null | grep -qi 'Noto Sans CJK' || missing+=(fonts-noto-cjk)
[ ${#missing[@]} = 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "browser tests need Debian packages: ${missing[*]} (apt-get install ${missing[*]})" >&2
  exit 1
fi
echo "installing ${missing[*]}"
apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
