#!/usr/bin/env bash
# deps.sh run|test — install what `make run` or `make test` needs, idempotently.
# Debian/Ubuntu only. Anything already present is left alone, so a second run
# costs a few dpkg queries.
set -euo pipefail
cd "$(dirname "$0")/.."

WAILS_VERSION=v2.15.0
RUN_PKGS=(gcc pkg-config libgtk-3-dev libwebkit2gtk-4.1-dev)
# dbus-x11 is deliberately absent: with it, libdbus starts a stray session bus
# (and keyring daemon) for any process that has no DBUS_SESSION_BUS_ADDRESS.
TEST_PKGS=(xvfb xauth xdotool x11-utils imagemagick chromium gnome-keyring dbus libsecret-tools procps fonts-noto-color-emoji desktop-file-utils openbox wmctrl)

want=("${RUN_PKGS[@]}")
[ "${1:-run}" = test ] && want+=("${TEST_PKGS[@]}")
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || want+=(nodejs npm)

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  SUDO=; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

command -v go >/dev/null 2>&1 || { echo "deps: Go ≥ 1.25 is required (https://go.dev/dl/)"; exit 1; }
GOBIN=$(go env GOPATH)/bin
if ! "$GOBIN/wails" version 2>/dev/null | grep -q "$WAILS_VERSION"; then
  echo "deps: installing the Wails CLI $WAILS_VERSION"
  go install "github.com/wailsapp/wails/v2/cmd/wails@$WAILS_VERSION"
fi

# Frontend packages: reinstall only when the lock file changed. npm ci installs
# exactly the lock file and never rewrites it (npm install did, which made a
# clean checkout's version read "-dirty").
stamp=frontend/node_modules/.maestro-lock
if ! cmp -s frontend/package-lock.json "$stamp" 2>/dev/null; then
  echo "deps: installing frontend packages"
  (cd frontend && npm ci --no-audit --no-fund --loglevel=error)
  cp frontend/package-lock.json "$stamp"
fi

# MCP test servers, the conformance suite and Node 22 for it (make test only):
# reinstall only when the lock file changed.
if [ "${1:-run}" = test ]; then
  stamp=.ci/mcp/node_modules/.maestro-lock
  if ! cmp -s .ci/mcp/package-lock.json "$stamp" 2>/dev/null; then
    echo "deps: installing the MCP test servers"
    (cd .ci/mcp && npm ci --no-audit --no-fund --loglevel=error)
    cp .ci/mcp/package-lock.json "$stamp"
  fi
fi
