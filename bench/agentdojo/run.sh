#!/usr/bin/env bash
# The AgentDojo benchmark (bench/agentdojo/run.py): records the traces, replays them with
# rules/agentdojo/ (after checking that no policy holds a value of the suites), and writes the
# table into BENCHMARKS.md. Needs Python 3.10+ and the agentdojo package (0.1.35, whose
# suites v1.2.2 run.py reads); stays out of .ci/run.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 -c "import agentdojo" 2>/dev/null || pip install --quiet agentdojo==0.1.35
cargo build --release --locked --quiet
# A fixed hash seed keeps the order of the sets some tools return, so the traces are the
# same on every run.
PYTHONHASHSEED=0 python3 bench/agentdojo/run.py "$@"
