#!/usr/bin/env bash
# Installs what the benchmark peers and Loadtest/compare-peers.sh need on a Debian machine: Debian's
# `ws` for Node (node-ws, in /usr/share/nodejs) and jq. Not a test dependency, so not in scripts/setup.sh.
#
# node-ws depends on `nodejs:any`, so an existing Node (Debian's or NodeSource's, which ships
# /usr/bin/node too) is kept as it is; Debian's nodejs is installed only when there is no node at all.
# Each package is installed only when it is missing.
set -euo pipefail
packages=(node-ws jq)
command -v node > /dev/null || packages+=(nodejs)
missing=()
for pkg in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
    sudo=""
    if [ "$(id -u)" != 0 ]; then
        command -v sudo > /dev/null || { echo "peers/setup.sh: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
        sudo="sudo"
    fi
    echo "peers/setup.sh: installing ${missing[*]}"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
fi
NODE_PATH=/usr/share/nodejs node -e 'require("ws")' \
    || { echo "peers/setup.sh: node cannot load ws from /usr/share/nodejs" >&2; exit 1; }
echo "peers/setup.sh: ready ($(node --version), ws $(NODE_PATH=/usr/share/nodejs node -p 'require("ws/package.json").version'))"
