#!/usr/bin/env bash
# perf.sh — measures the figures recorded in docs/PERFORMANCE.md:
#   cold `make build` time, release binary size, launch-to-window-mapped time
#   (median of 5 under Xvfb) and idle RSS/PSS of the app plus its WebKit
#   processes 5 s after launch, each next to an empty Wails v2 window built
#   in the same run as the baseline.
# Prints a Markdown table. It changes nothing in the repository except
# build/bin (rebuilt by `make build`).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

ms() { echo $(( $(date +%s%N) / 1000000 )); }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

echo "# machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(. /etc/os-release; echo "$PRETTY_NAME"), $(go version | cut -d' ' -f3)" >&2

# 1. Cold build: empty Go build cache and no frontend output.
rm -rf frontend/dist/assets frontend/dist/index.html build/bin
t0=$(ms)
GOCACHE="$work/gocache" make -s build >/dev/null
cold=$(( $(ms) - t0 ))
t0=$(ms); make -s build >/dev/null; warm=$(( $(ms) - t0 ))
size=$(stat -c %s build/bin/maestro)

# 2. Baseline: an empty Wails window from the CLI's own vanilla template.
wails=$(go env GOPATH)/bin/wails
"$wails" init -n baseline -t vanilla -d "$work/baseline" >/dev/null 2>&1
( cd "$work/baseline/frontend" && npm install --no-audit --no-fund --loglevel=error >/dev/null && npm run build >/dev/null )
( cd "$work/baseline" && go mod edit -require=github.com/wailsapp/wails/v2@v2.15.0 && go mod tidy >/dev/null 2>&1 &&
  go build -tags desktop,production,webkit2_41 -ldflags "-w -s" -o "$work/baseline.bin" . )
base_size=$(stat -c %s "$work/baseline.bin")

# 3. Xvfb for the launch measurements.
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$work/display" 2>/dev/null &
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.05; done
export DISPLAY=":$(head -1 "$work/display")"

# launch BINARY NAME: prints "map_ms rss_kib pss_kib" for one run.
launch() {
  local bin=$1 name=$2 data="$work/data-$RANDOM"
  local start; start=$(ms)
  MAESTRO_DATA_DIR="$data" "$bin" >/dev/null 2>&1 &
  local pid=$!
  until xdotool search --onlyvisible --name "^$name\$" >/dev/null 2>&1; do
    if [ $(( $(ms) - start )) -gt 30000 ]; then
      echo "perf: $name did not map within 30 s; this run is left out" >&2
      kill $pid 2>/dev/null; wait $pid 2>/dev/null; return 1
    fi
  done
  local mapped=$(( $(ms) - start ))
  sleep 5
  local pids="$pid $(pgrep -d' ' -P $pid || true)"
  for p in $(pgrep -d' ' -P $pid || true); do pids="$pids $(pgrep -d' ' -P "$p" || true)"; done
  local rss=0 pss=0
  for p in $pids; do
    [ -r /proc/$p/smaps_rollup ] || continue
    local r s
    r=$(awk '/^Rss:/ {print $2}' /proc/$p/smaps_rollup); s=$(awk '/^Pss:/ {print $2}' /proc/$p/smaps_rollup)
    rss=$(( rss + r )); pss=$(( pss + s ))
    echo "    $name $(tr -d '\0' </proc/$p/comm): rss ${r} KiB, pss ${s} KiB" >&2
  done
  kill $pid; wait $pid 2>/dev/null || true
  echo "$mapped $rss $pss"
}

measure() { # measure BINARY NAME -> "map_median rss_median pss_median"
  local runs="$work/runs-$2"
  : >"$runs"
  # A run whose window does not map in time is reported and left out.
  for _ in $(seq "$RUNS"); do launch "$1" "$2" >>"$runs" || true; done
  echo "  $2 runs (map ms, rss KiB, pss KiB): $(tr '\n' ';' <"$runs")" >&2
  echo "$(cut -d' ' -f1 "$runs" | median) $(cut -d' ' -f2 "$runs" | median) $(cut -d' ' -f3 "$runs" | median)"
}
# Interleave nothing: each binary's runs are consecutive, baseline first.
read -r b_map b_rss b_pss < <(measure "$work/baseline.bin" baseline)
read -r m_map m_rss m_pss < <(measure "$PWD/build/bin/maestro" Maestro)

mib() { awk -v k="$1" 'BEGIN {printf "%.0f MiB", k/1024}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f×", a/b}'; }
cat <<TABLE
| figure | Maestro | empty Wails v2.15 window | ratio |
| --- | --- | --- | --- |
| cold \`make build\` (empty Go cache, no frontend output) | $(awk -v m=$cold 'BEGIN {printf "%.1f s", m/1000}') | | |
| warm \`make build\` | $(awk -v m=$warm 'BEGIN {printf "%.1f s", m/1000}') | | |
| release binary size | $(awk -v b=$size 'BEGIN {printf "%.1f MB", b/1e6}') | $(awk -v b=$base_size 'BEGIN {printf "%.1f MB", b/1e6}') | $(ratio $size $base_size) |
| launch → window mapped (median of $RUNS) | $m_map ms | $b_map ms | $(ratio $m_map $b_map) |
| idle RSS, app + WebKit, 5 s after launch (median) | $(mib $m_rss) | $(mib $b_rss) | $(ratio $m_rss $b_rss) |
| idle PSS, app + WebKit, 5 s after launch (median) | $(mib $m_pss) | $(mib $b_pss) | $(ratio $m_pss $b_pss) |
TABLE
