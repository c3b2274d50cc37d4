#!/usr/bin/env bash
# Installs what Parlor needs on a Debian machine that has only the Swift toolchain.
#
#   scripts/setup.sh          what building and running parlor-server needs
#   scripts/setup.sh --test   that, plus what the test suite needs
#
# Each package is installed only when it is missing, so running this again is fast and changes nothing.
set -euo pipefail

want_test=0
for arg in "$@"; do
  case "$arg" in
    --test) want_test=1 ;;
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

# Build and run: OpenSSL (TLS, SHA-1, HMAC, CSPRNG), zlib (permessage-deflate), SQLite (the room store),
# and an English word list for the word games.
apt_packages=(libssl-dev zlib1g-dev libsqlite3-dev wamerican)
# Tests: the openssl CLI (test certificates, s_client), tmux (drives the terminal client), curl, pip for websockets.
if [ "$want_test" = 1 ]; then
  apt_packages+=(openssl tmux procps curl)
fi

missing=()
for pkg in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done

if [ "${#missing[@]}" -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "setup.sh: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  echo "setup.sh: installing ${missing[*]}"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ "$want_test" = 1 ]; then
  # A WebSocket implementation we did not write, for the interoperability tests.
  if ! python3 -c 'import websockets' 2>/dev/null; then
    echo "setup.sh: installing Python websockets"
    python3 -m pip install --quiet --disable-pip-version-check 'websockets>=12' \
      || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages 'websockets>=12'
  fi
fi
echo "setup.sh: ready"
