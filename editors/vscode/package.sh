#!/usr/bin/env bash
# Packages the extension as a .vsix: extension.js bundled with vscode-languageclient into
# one file (esbuild), so the package holds a handful of files instead of node_modules/.
#
#   editors/vscode/package.sh [OUT.vsix]
#
# Needs Node.js 20 or newer and npm; fetches the locked dependencies (`npm ci`) and vsce,
# kept in NPM_CACHE (target/npm-cache by default). Fails on any warning of vsce's. The
# folder itself is left as it is: the package is built in a temporary copy.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
version="$(node -p 'require(process.argv[1]).version' "$here/package.json")"
out="${1:-$root/target/rulesc-$version.vsix}"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
cache="${NPM_CACHE:-$root/target/npm-cache}"
mkdir -p "$cache" "$(dirname "$out")"

stage="$(mktemp -d)"
log="$(mktemp)"
trap 'rm -rf "$stage" "$log"' EXIT
tar -C "$here" --exclude=node_modules --exclude='*.vsix' -cf - . | tar -C "$stage" -xf -
cd "$stage"
npm ci --silent --no-audit --no-fund --cache "$cache"
npx --no-install esbuild extension.js --bundle --platform=node --format=cjs --target=node18 \
  --minify --external:vscode --outfile=extension.js --allow-overwrite --log-level=warning
# No dependencies to list: the bundle holds them.
npx --yes --cache "$cache" @vscode/vsce@3.9.2 package --no-dependencies --out "$out" \
  2>&1 | tee "$log"
if grep -q "WARNING" "$log"; then
  echo "error: vsce warned while packaging the extension (above)" >&2
  exit 1
fi
