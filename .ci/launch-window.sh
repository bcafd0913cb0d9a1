#!/usr/bin/env bash
# Time from exec to the Maestro window mapped: a first run vs a run with a saved, placed window.
export DISPLAY=:81
Xvfb :81 -screen 0 1600x1000x24 -nolisten tcp -noreset & XP=$!
sleep 1
measure() { # $1 = data dir
  local t0=$(date +%s%N)
  MAESTRO_DATA_DIR=$1 NO_AT_BRIDGE=1 "${MAESTRO_BIN:-build/bin/maestro}" >/dev/null 2>&1 & local P=$!
  until xdotool search --onlyvisible --name '^Maestro$' >/dev/null 2>&1; do sleep 0.005; done
  local t1=$(date +%s%N)
  echo $(( (t1-t0)/1000000 ))
  kill $P; wait $P 2>/dev/null
}
for i in $(seq 9); do
  A=$(mktemp -d); B=$(mktemp -d)
  echo '{"width":900,"height":600,"x":123,"y":77,"placed":true,"maximised":false,"dark":false}' > $B/window.json
  echo "first $(measure $A) saved $(measure $B)"
  rm -rf $A $B
done
kill $XP
