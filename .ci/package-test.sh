#!/usr/bin/env bash
# package-test.sh DEB — the .deb installs like any app, runs, and removes
# cleanly (make test-package; issue 18):
#   1. its desktop entry passes desktop-file-validate and runs /usr/bin/maestro;
#   2. it carries the binary and the hicolor icons 16–512 and depends on GTK 3
#      and WebKitGTK 4.1;
#   3. apt-get installs it (as root, or through sudo), the installed
#      /usr/bin/maestro opens its window under Xvfb on a fresh data folder;
#   4. apt-get removes it and nothing it installed is left.
# A Maestro package installed before the test is refused rather than touched.
set -euo pipefail
deb=${1:?usage: package-test.sh path/to/maestro.deb}
[ -f "$deb" ] || { echo "package-test: $deb is missing"; exit 1; }
deb=$(readlink -f "$deb")

SUDO=
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null && sudo -n true 2>/dev/null || {
    echo "package-test: needs root or passwordless sudo to install the package"; exit 1; }
  SUDO=sudo
fi

work=$(mktemp -d)
xvfb_pid=
app_pid=
installed=
cleanup() {
  [ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null || true
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
  if [ -n "$installed" ]; then $SUDO apt-get remove -y -qq maestro >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

fail() { echo "package-test: $*"; exit 1; }

# 1–2. What the package holds.
dpkg-deb -x "$deb" "$work/root"
desktop="$work/root/usr/share/applications/maestro.desktop"
desktop-file-validate "$desktop" || fail "the desktop entry does not validate"
grep -qx 'Exec=/usr/bin/maestro' "$desktop" || fail "the desktop entry's Exec is not /usr/bin/maestro"
[ -x "$work/root/usr/bin/maestro" ] || fail "no executable /usr/bin/maestro"
for s in 16 24 32 48 64 128 256 512; do
  [ -s "$work/root/usr/share/icons/hicolor/${s}x${s}/apps/maestro.png" ] || fail "no ${s}x${s} icon"
done
depends=$(dpkg-deb -f "$deb" Depends)
for d in libgtk-3-0 libwebkit2gtk-4.1-0; do
  [[ "$depends" == *"$d"* ]] || fail "Depends ($depends) lacks $d"
done

# 3. Install it and start the installed app.
if dpkg-query -W -f='${Status}' maestro 2>/dev/null | grep -q "install ok installed"; then
  fail "a maestro package is installed already; remove it first (apt-get remove maestro)"
fi
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" >/dev/null
installed=1
[ -x /usr/bin/maestro ] || fail "apt-get install left no /usr/bin/maestro"

exec 3< <(Xvfb -displayfd 1 -screen 0 1280x800x24 -nolisten tcp -noreset 2>/dev/null)
read -r n <&3
xvfb_pid=$(pgrep -n -f "Xvfb -displayfd 1 -screen 0 1280x800x24")
display=":$n"
for _ in $(seq 100); do xdpyinfo -display "$display" >/dev/null 2>&1 && break; sleep 0.1; done
DISPLAY=$display MAESTRO_DATA_DIR="$work/data" NO_AT_BRIDGE=1 /usr/bin/maestro >"$work/app.log" 2>&1 &
app_pid=$!
shown=
for _ in $(seq 300); do
  if DISPLAY=$display xdotool search --onlyvisible --name '^Maestro$' >/dev/null 2>&1; then shown=1; break; fi
  kill -0 "$app_pid" 2>/dev/null || { cat "$work/app.log"; fail "the installed app exited before its window showed"; }
  sleep 0.1
done
[ -n "$shown" ] || { cat "$work/app.log"; fail "the installed app showed no window within 30 s"; }
kill "$app_pid"; wait "$app_pid" 2>/dev/null || true; app_pid=

# 4. Remove it: nothing it installed stays.
files=$(dpkg-query -L maestro | grep -E '^/usr/(bin|share)/.+\.' || true)
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq maestro >/dev/null
installed=
[ ! -e /usr/bin/maestro ] || fail "/usr/bin/maestro is still there after apt-get remove"
for f in $files; do [ ! -e "$f" ] || fail "$f is still there after apt-get remove"; done
echo "package-test: $(basename "$deb") validated, installed, opened its window, removed cleanly"
