#!/usr/bin/env bash
# Runs every benchmark of the rulesc-bench member with quick criterion settings (about five
# minutes once built), then writes BENCHMARKS.md from the results.
#
# Usage: bash bench/run.sh [extra criterion arguments]
# Honours CARGO_TARGET_DIR; results go to $CARGO_TARGET_DIR/criterion (default target/).
set -euo pipefail
cd "$(dirname "$0")/.."

target="${CARGO_TARGET_DIR:-target}"
criterion_args="--warm-up-time 1 --measurement-time 2 $*"
mkdir -p "$target/criterion"
started="$(date -u '+%Y-%m-%d %H:%M')"
load_before="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"

# The shell benchmark runs from bench/, so it is given an absolute path for its percentiles.
# shellcheck disable=SC2086 # the criterion arguments are words on purpose
RULESC_SHELL_LATENCY="$(cd "$target/criterion" && pwd)/shell-latency.json" \
  cargo bench -p rulesc-bench --benches -- $criterion_args

# A hook call beside the process start of the same binary: many runs of each, interleaved.
cargo build --release -p rulesc -p rulesc-bench-hook
hook_state="$(mktemp -d)"
payloads=tests/hook/payloads/claude
# A session's calls in the order a host makes them: its start first, which makes the
# session's one file (docs/state.md), then tool calls and a stop.
hook_cases=(
  "Claude SessionStart=claude:$payloads/SessionStart.json"
  "Claude PreToolUse, Bash \`ls\`=claude:$payloads/PreToolUse-ls.json"
  "Claude PreToolUse, Bash \`rm -rf\`=claude:$payloads/PreToolUse-rm-rf.json"
  "Claude PreToolUse, Read=claude:$payloads/PreToolUse-read.json"
  "Claude Stop=claude:$payloads/Stop-done.json"
)
# The same calls with sessions on a local redis-server, when one is installed.
redis_pid=""
if command -v redis-server >/dev/null 2>&1; then
  redis_port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  redis-server --bind 127.0.0.1 --port "$redis_port" --save '' --appendonly no \
    --dir "$hook_state" >/dev/null &
  redis_pid=$!
  trap 'kill "$redis_pid" 2>/dev/null || true' EXIT
  sleep 0.5
  redis_url="redis://127.0.0.1:$redis_port/0"
  hook_cases+=(
    "Claude PreToolUse, Bash \`ls\`, Redis store=claude:$payloads/PreToolUse-ls.json|$redis_url"
    "Claude Stop, Redis store=claude:$payloads/Stop-done.json|$redis_url"
  )
fi
"$target/release/rulesc-bench-hook" "$target/release/rulesc" 500 "$hook_state" rules/ \
  "${hook_cases[@]}" >"$target/criterion/hook-latency.jsonl"
if [ -n "$redis_pid" ]; then
  kill "$redis_pid"
  wait "$redis_pid" 2>/dev/null || true
fi
rm -rf "$hook_state"

python3 - "$target/criterion/rulesc-run.json" "$started" "$load_before" "$criterion_args" <<'PY'
import json, subprocess, sys
from datetime import datetime, timezone
path, started, load_before, criterion_args = sys.argv[1:]
commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
load_after = open("/proc/loadavg").read().split()[:3]
json.dump({
    "started": started,
    "finished": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M"),
    "commit": commit or "unknown",
    "load_before": load_before,
    "load_after": " ".join(load_after),
    "criterion_args": criterion_args.strip(),
}, open(path, "w"), indent=2)
PY

python3 bench/report.py "$target/criterion" --out BENCHMARKS.md
