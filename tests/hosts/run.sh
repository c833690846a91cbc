#!/usr/bin/env bash
# The conformance suite against the real coding-agent hosts: installs Claude Code, Codex and
# Gemini CLI from npm (versions.txt, cached across runs) and runs `rulesc hook` inside each,
# with a scripted model on 127.0.0.1 (docs/hosts.md).
#
#   bash tests/hosts/run.sh [--host claude|codex|gemini]... [--scenario NAME]... [--docs]
#
# Environment:
#   RULESC                 the binary under test (default: `cargo build`, then target/debug/rulesc)
#   RULESC_HOSTS_VERSIONS  `pinned` (default: versions.txt) or `latest` (the registry's newest)
#   RULESC_HOSTS_CACHE     where the hosts are installed (default: ~/.cache/rulesc-hosts)
#   RULESC_HOSTS_OUT       where the runs and the matrix go (default: target/hosts)
#   RULESC_HOSTS_TIMEOUT   seconds one scenario may take (default: 240)
#   RULESC_HOSTS_JOBS      scenarios run at once (default: 3)
# --docs writes the matrix into docs/hosts.md and the hook's cost into BENCHMARKS.md.
# An unreachable registry with nothing cached fails the suite: it never passes without hosts.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cache="${RULESC_HOSTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rulesc-hosts}"
out="${RULESC_HOSTS_OUT:-$root/target/hosts}"
mode="${RULESC_HOSTS_VERSIONS:-pinned}"

die() { echo "tests/hosts: $*" >&2; exit 1; }
command -v node >/dev/null || die "node is not on PATH: install Node.js 20 or newer"
command -v npm >/dev/null || die "npm is not on PATH: install Node.js 20 or newer"
command -v python3 >/dev/null || die "python3 is not on PATH"

if [ -z "${RULESC:-}" ]; then
  (cd "$root" && cargo build --locked --quiet --bin rulesc)
  RULESC="$root/target/debug/rulesc"
fi
[ -x "$RULESC" ] || die "\`$RULESC\` is not an executable: set RULESC to the rulesc binary"

# Only the hosts asked for with --host are installed (all of them without one).
wanted=" "
prev=""
for a in "$@"; do
  [ "$prev" = --host ] && wanted="$wanted$a "
  case "$a" in --host=*) wanted="$wanted${a#--host=} " ;; esac
  prev="$a"
done

mkdir -p "$cache" "$out"
rm -rf "$out/hosts"
mkdir -p "$out/hosts"
versions="{"
while read -r host package version; do
  case "$host" in ''|'#'*) continue ;; esac
  if [ "$wanted" != " " ] && [[ "$wanted" != *" $host "* ]]; then continue; fi
  if [ "$mode" = latest ]; then
    version="$(timeout 120 npm view "$package" version 2>/dev/null)" \
      || die "cannot ask the npm registry for the newest \`$package\`: is the registry reachable?"
  elif [ "$mode" != pinned ]; then
    die "RULESC_HOSTS_VERSIONS is \`$mode\`: use \`pinned\` or \`latest\`"
  fi
  dir="$cache/$host-$version"
  if [ ! -x "$dir/node_modules/.bin/$host" ]; then
    echo "== installing $package@$version into $dir"
    rm -rf "$dir.partial"
    mkdir -p "$dir.partial"
    # A partial folder is renamed into place only once npm finished, so an interrupted
    # install is never taken for a cached one.
    if ! timeout 900 npm install --prefix "$dir.partial" --no-audit --no-fund --loglevel=error \
        "$package@$version" >"$out/npm-$host.log" 2>&1; then
      tail -20 "$out/npm-$host.log" >&2
      rm -rf "$dir.partial"
      die "npm could not install \`$package@$version\` (log: $out/npm-$host.log): is the registry reachable?"
    fi
    rm -rf "$dir"
    mv "$dir.partial" "$dir"
  fi
  got="$(cd "$out" && timeout 60 "$dir/node_modules/.bin/$host" --version 2>/dev/null | head -1 || true)"
  case "$got" in
    *"$version"*) echo "== $host $version ($dir)" ;;
    *) die "\`$dir/node_modules/.bin/$host --version\` says \`$got\`, not $version: remove $dir and run again" ;;
  esac
  ln -s "$dir" "$out/hosts/$host"
  versions="$versions\"$host\": \"$version\","
done <"$here/versions.txt"
versions="${versions%,}}"

args=()
for a in "$@"; do
  if [ "$a" = --docs ]; then
    args+=(--docs "$root/docs/hosts.md" --benchmarks "$root/BENCHMARKS.md")
  else
    args+=("$a")
  fi
done

exec python3 "$here/driver.py" --hosts-dir "$out/hosts" --rulesc "$RULESC" --out "$out" \
  --versions "$versions" --timeout "${RULESC_HOSTS_TIMEOUT:-240}" --jobs "${RULESC_HOSTS_JOBS:-3}" \
  ${args[@]+"${args[@]}"}
