#!/usr/bin/env bash
# bench.sh — runs the Go benchmarks behind the figures in docs/PERFORMANCE.md
# (-count 5; read the medians with benchstat or by eye). Output goes to
# stdout; nothing is asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "# $(nproc) cores, $(go version | cut -d' ' -f3), $(date -u +%Y-%m-%dT%H:%MZ)"
run() { echo "## $1"; shift; CGO_ENABLED=${CGO:-0} go test -run='^$' -count="${COUNT:-5}" -benchmem "$@" 2>&1 | grep -E '^(Benchmark|ok|FAIL)'; }
run "providers: render 1,000 tools, parse throughput, allocs/event" -bench='Render1000Tools|Parse' ./backend/providers/gemini/ ./backend/providers/anthropic/ ./backend/providers/openai/
run "tools: registry rebuild and overlay of 1,000 tools" -bench='RegistryRebuild1000|Overlay1000|Search1000' ./backend/tools/
run "store: read a 10,000-message session; append to it (fsync / nosync)" -bench='OpenSession10k|AppendMessage' ./backend/store/
run "agent: overhead per step" -bench='Step' ./backend/agent/
CGO=1 run "app: open a 10,000-message session (OpenSession, EarlierMessages)" -bench='OpenSession10k' ./app/
CGO=1 COUNT=${COUNT:-3} run "app: UI events per second at 5,000 tokens/s" -bench='BridgeStream' -benchtime=1x ./app/
