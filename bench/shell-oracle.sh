#!/usr/bin/env bash
# The shell oracle's full run (tests/shell_oracle.rs, docs/shell.md): every corpus line of
# tests/shell/, every rewrite of every dangerous base by one family and by two, each run by
# bash in the bubblewrap sandbox and read by rulesc_shell::read, and decided by
# rules/safe-shell.rules. Prints the figures: lines, agreement, misses and flips by family,
# and the pairs of families that flip the decision where neither does alone.
# Needs bubblewrap (`apt-get install bubblewrap`) and a C compiler; takes minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --locked --test integration shell_oracle::full_run_figures -- --ignored --nocapture --test-threads 1
