#!/usr/bin/env bash
# perf.sh — measures the figures recorded in docs/PERFORMANCE.md:
#   cold `make build` time, release binary size, launch-to-window-mapped time
#   (median of 5 under Xvfb) and idle RSS/PSS of the app plus its WebKit
#   processes 5 s after launch, each next to an empty Wails v2 window built
#   in the same run as the baseline; then the same memory with a
#   1,000-message session open (seeded by maestro-seed, reopened at launch),
#   and with that session scrolled up to its first message, so that all of
#   it is loaded and drawn.
# SESSION_ONLY=1 measures only the idle app and the session scrolled to its
# first message, for build/bin/maestro and, when BEFORE names another build
# (e.g. of main), for that one first, in the same run: no cold build, no
# empty-window baseline.
# Prints Markdown tables; screenshots of the session runs go to
# test-results/perf. It changes nothing in the repository except build/bin
# (rebuilt by `make build`).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

ms() { echo $(( $(date +%s%N) / 1000000 )); }
median() { sort -n | awk '{a[NR]=$1} END {if (NR) print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

echo "# machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(. /etc/os-release; echo "$PRETTY_NAME"), $(go version | cut -d' ' -f3)" >&2

# 1. Cold build: empty Go build cache and no frontend output. COLD=0 skips
# the two build timings (and keeps build/bin) to rerun only the rest.
if [ "${COLD:-1}" = 0 ] || [ "${SESSION_ONLY:-0}" = 1 ]; then
  cold=0 warm=0
  make -s build >/dev/null
else
  rm -rf frontend/dist/assets frontend/dist/index.html build/bin
  t0=$(ms)
  GOCACHE="$work/gocache" make -s build >/dev/null
  cold=$(( $(ms) - t0 ))
  t0=$(ms); make -s build >/dev/null; warm=$(( $(ms) - t0 ))
fi
size=$(stat -c %s build/bin/maestro)

# 2. Baseline: an empty Wails window from the CLI's own vanilla template.
wails=$(go env GOPATH)/bin/wails
[ "${SESSION_ONLY:-0}" = 1 ] || {
  "$wails" init -n baseline -t vanilla -d "$work/baseline" >/dev/null 2>&1
  ( cd "$work/baseline/frontend" && npm install --no-audit --no-fund --loglevel=error >/dev/null && npm run build >/dev/null )
  ( cd "$work/baseline" && go mod edit -require=github.com/wailsapp/wails/v2@v2.15.0 && go mod tidy >/dev/null 2>&1 &&
    go build -tags desktop,production,webkit2_41 -ldflags "-w -s" -o "$work/baseline.bin" . )
  base_size=$(stat -c %s "$work/baseline.bin")
}
go build -o "$work/maestro-seed" ./backend/store/cmd/maestro-seed
shots=test-results/perf
mkdir -p "$shots"

# 3. Xvfb for the launch measurements.
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -noreset 3>"$work/display" 2>/dev/null &
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.05; done
export DISPLAY=":$(head -1 "$work/display")"

# cputicks PIDS: user+system clock ticks used so far by PIDS together.
cputicks() { local t=0 p; for p in "$@"; do [ -r /proc/$p/stat ] && t=$(( t + $(awk '{print $14 + $15}' /proc/$p/stat) )); done; echo $t; }

# settle PIDS: waits (up to 30 s) until PIDS have used no CPU for a second,
# i.e. the page has finished rendering.
settle() {
  local prev now
  prev=$(cputicks "$@")
  for _ in $(seq 30); do
    sleep 1
    now=$(cputicks "$@")
    [ "$now" -le $(( prev + 1 )) ] && return 0
    prev=$now
  done
  echo "perf: still busy after 30 s; measuring anyway" >&2
}

# shot NAME: a screenshot of the display; prints a hash of its pixels.
shot() { import -window root "$shots/$1.png"; convert "$shots/$1.png" rgb:- | md5sum | cut -c1-16; }

# totop WINDOW PIDS: scrolls the chat to its first message. Home jumps to the
# top, which loads the page before and keeps the view where it was; this
# repeats until Home changes nothing on screen: the first message is there
# and nothing is left to load.
totop() {
  local win=$1 prev="" now
  shift
  # Keys go to the window under the pointer (Xvfb has no window manager).
  xdotool mousemove --window "$win" 1140 400 click 1 # the message pane, outside any text
  for i in $(seq 60); do
    xdotool key Home # XTEST: GTK ignores the synthetic events of key --window
    sleep 0.3
    settle "$@"
    now=$(shot session-top)
    if [ "$now" = "$prev" ]; then
      # A session this long takes a dozen presses; one means Home did nothing.
      [ "$i" -gt 2 ] || { echo "perf: Home did not scroll the chat" >&2; return 1; }
      echo "    at the first message after $(( i - 1 )) presses of Home" >&2
      return 0
    fi
    prev=$now
  done
  echo "perf: the chat did not reach its first message" >&2
  return 1
}

# launch BINARY NAME [MODE]: prints "map_ms rss_kib pss_kib" for one run.
# MODE idle (the default): a new data dir, measured 5 s after launch.
# MODE open: a data dir holding a 1,000-message session, which the app opens
# at launch; measured 5 s after launch once rendering has settled.
# MODE top: as open, then scrolled to the session's first message.
launch() {
  local bin=$1 name=$2 mode=${3:-idle} data="$work/data-$RANDOM"
  [ "$mode" = idle ] || "$work/maestro-seed" -dir "$data" 1000 >/dev/null
  local start; start=$(ms)
  MAESTRO_DATA_DIR="$data" "$bin" >/dev/null 2>&1 &
  local pid=$!
  local win
  until win=$(xdotool search --onlyvisible --name "^$name\$" 2>/dev/null | head -1) && [ -n "$win" ]; do
    if [ $(( $(ms) - start )) -gt 30000 ]; then
      echo "perf: $name did not map within 30 s; this run is left out" >&2
      kill $pid 2>/dev/null; wait $pid 2>/dev/null; return 1
    fi
  done
  local mapped=$(( $(ms) - start ))
  sleep 5
  local pids="$pid $(pgrep -d' ' -P $pid || true)"
  for p in $(pgrep -d' ' -P $pid || true); do pids="$pids $(pgrep -d' ' -P "$p" || true)"; done
  # shellcheck disable=SC2086
  case $mode in
    open) settle $pids; shot session-open >/dev/null ;;
    top) settle $pids; totop "$win" $pids || { kill $pid; wait $pid 2>/dev/null; return 1; } ;;
  esac
  local rss=0 pss=0
  for p in $pids; do
    [ -r /proc/$p/smaps_rollup ] || continue
    local r s
    r=$(awk '/^Rss:/ {print $2}' /proc/$p/smaps_rollup); s=$(awk '/^Pss:/ {print $2}' /proc/$p/smaps_rollup)
    rss=$(( rss + r )); pss=$(( pss + s ))
    echo "    $name $mode $(tr -d '\0' </proc/$p/comm): rss ${r} KiB, pss ${s} KiB" >&2
  done
  kill $pid; wait $pid 2>/dev/null || true
  echo "$mapped $rss $pss"
}

measure() { # measure BINARY NAME [MODE] -> "map_median rss_median pss_median"
  local runs="$work/runs-$2-${3:-idle}"
  : >"$runs"
  # A run whose window does not map in time is reported and left out.
  for _ in $(seq "$RUNS"); do launch "$1" "$2" "${3:-idle}" >>"$runs" || true; done
  echo "  $2 ${3:-idle} runs (map ms, rss KiB, pss KiB): $(tr '\n' ';' <"$runs")" >&2
  echo "$(cut -d' ' -f1 "$runs" | median) $(cut -d' ' -f2 "$runs" | median) $(cut -d' ' -f3 "$runs" | median)"
}
secs() { if [ "$1" = 0 ]; then echo "(COLD=0: not measured)"; else awk -v m="$1" 'BEGIN {printf "%.1f s", m/1000}'; fi; }
mib() { if [ -z "$1" ]; then echo "n/a"; else awk -v k="$1" 'BEGIN {printf "%.0f MiB", k/1024}'; fi; }
ratio() { if [ -z "$1" ] || [ -z "$2" ]; then echo "n/a"; else awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f×", a/b}'; fi; }

if [ "${SESSION_ONLY:-0}" = 1 ]; then
  echo "| build (median of $RUNS) | idle RSS | idle PSS | scrolled to the first message: RSS | PSS | PSS ratio to idle |"
  echo "| --- | --- | --- | --- | --- | --- |"
  for bin in ${BEFORE:+"$BEFORE"} "$PWD/build/bin/maestro"; do
    read -r _ i_rss i_pss < <(measure "$bin" Maestro)
    read -r _ t_rss t_pss < <(measure "$bin" Maestro top)
    echo "| $bin | $(mib "$i_rss") | $(mib "$i_pss") | $(mib "$t_rss") | $(mib "$t_pss") | $(ratio "$t_pss" "$i_pss") |"
  done
  exit 0
fi

# Interleave nothing: each binary's runs are consecutive, baseline first.
read -r b_map b_rss b_pss < <(measure "$work/baseline.bin" baseline)
read -r m_map m_rss m_pss < <(measure "$PWD/build/bin/maestro" Maestro)
read -r _ o_rss o_pss < <(measure "$PWD/build/bin/maestro" Maestro open)
read -r _ t_rss t_pss < <(measure "$PWD/build/bin/maestro" Maestro top)

cat <<TABLE
| figure | Maestro | empty Wails v2.15 window | ratio |
| --- | --- | --- | --- |
| cold \`make build\` (empty Go cache, no frontend output) | $(secs $cold) | | |
| warm \`make build\` | $(secs $warm) | | |
| release binary size | $(awk -v b=$size 'BEGIN {printf "%.1f MB", b/1e6}') | $(awk -v b=$base_size 'BEGIN {printf "%.1f MB", b/1e6}') | $(ratio $size $base_size) |
| launch → window mapped (median of $RUNS) | $m_map ms | $b_map ms | $(ratio $m_map $b_map) |
| idle RSS, app + WebKit, 5 s after launch (median) | $(mib $m_rss) | $(mib $b_rss) | $(ratio $m_rss $b_rss) |
| idle PSS, app + WebKit, 5 s after launch (median) | $(mib $m_pss) | $(mib $b_pss) | $(ratio $m_pss $b_pss) |

| memory, app + WebKit (median of $RUNS) | RSS | PSS | PSS ratio to the empty window |
| --- | --- | --- | --- |
| empty Wails v2.15 window, idle | $(mib $b_rss) | $(mib $b_pss) | 1.00× |
| Maestro, idle (no session) | $(mib $m_rss) | $(mib $m_pss) | $(ratio $m_pss $b_pss) |
| Maestro, 1,000-message session open (its last 80 messages loaded) | $(mib $o_rss) | $(mib $o_pss) | $(ratio $o_pss $b_pss) |
| Maestro, same session scrolled to its first message (all 1,000 loaded and drawn) | $(mib $t_rss) | $(mib $t_pss) | $(ratio $t_pss $b_pss) |
TABLE
