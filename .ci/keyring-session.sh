#!/usr/bin/env bash
# keyring-session.sh CMD [ARGS...]
#
# Runs CMD inside a fresh D-Bus session bus with gnome-keyring's Secret
# Service started and its login keyring unlocked, so tests can use the real
# OS keychain without a desktop:
#
#   .ci/keyring-session.sh env CGO_ENABLED=0 go test -count=1 ./backend/auth/
#
# CMD sees MAESTRO_REQUIRE_KEYRING=1, which turns the keychain tests' "skip
# when no keychain" into a failure. The exit status is CMD's.
#
# Needs: apt install gnome-keyring dbus libsecret-tools. Do NOT install
# dbus-x11: with it, a program that finds no bus starts one with dbus-launch
# and leaves it and a keyring daemon running.
#
# Environment:
#   HOME                       the keyring lives in $HOME/.local/share/keyrings
#                              (override HOME to use a throwaway one; on a
#                              desktop, do, or the login keyring is yours)
#   MAESTRO_KEYRING_PASSWORD   password of that login keyring (default
#                              "ci-password"); fed to the daemon on stdin
#
# Nothing outlives the command: dbus-run-session stops the bus when CMD exits
# and gnome-keyring-daemon exits when its bus goes away.
set -euo pipefail

if [[ $# -eq 0 ]]; then
	echo "usage: $0 CMD [ARGS...]" >&2
	exit 2
fi
for tool in dbus-run-session dbus-send gnome-keyring-daemon; do
	if ! command -v "$tool" >/dev/null; then
		echo "keyring-session: $tool not found; apt install gnome-keyring dbus libsecret-tools" >&2
		exit 1
	fi
done
: "${HOME:?keyring-session: HOME must be set}"
export MAESTRO_KEYRING_PASSWORD="${MAESTRO_KEYRING_PASSWORD:-ci-password}"

# Runs inside the new session, with CMD as "$@". This is the recipe of
# docs/PLATFORM.md §The Secret Service in CI; without the wait for
# org.freedesktop.secrets a fresh HOME sometimes got a second, locked daemon.
# No pipefail here: `grep -q` may close the pipe before dbus-send is done.
inner='
set -eu
mkdir -p ~/.cache ~/.local/share/keyrings
chmod 700 ~/.local ~/.local/share/keyrings
printf %s "$MAESTRO_KEYRING_PASSWORD" | gnome-keyring-daemon --unlock --components=secrets >/dev/null
unset MAESTRO_KEYRING_PASSWORD

ready=
for i in $(seq 50); do
	if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
		org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets | grep -q "boolean true"; then
		ready=1
		break
	fi
	sleep 0.1
done
if [ -z "$ready" ]; then
	echo "keyring-session: org.freedesktop.secrets did not appear on the session bus within 5s;" \
		"gnome-keyring-daemon failed to start" >&2
	exit 1
fi

export MAESTRO_REQUIRE_KEYRING=1
exec "$@"
'
exec dbus-run-session -- bash -c "$inner" keyring-session "$@"
