#!/usr/bin/env bash
# The AgentDojo benchmark (bench/agentdojo/run.py): records the traces, replays them with
# rules/agentdojo/, and writes the table into BENCHMARKS.md. Needs Python 3.10+ and the
# agentdojo package; stays out of .ci/run.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 -c "import agentdojo" 2>/dev/null || pip install --quiet agentdojo
cargo build --release --locked --quiet
python3 bench/agentdojo/run.py "$@"
