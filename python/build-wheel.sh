#!/usr/bin/env bash
# Builds the `rulesc` wheel: the Python module `rulesc` and the `rulesc` command in one file,
# installed by pip with no Rust toolchain (docs/python.md, "The wheel").
#
#   python/build-wheel.sh [OUT_DIR]
#       the release wheel: `cargo build --release --locked`, then `maturin build --release`
#   python/build-wheel.sh --binary target/debug/rulesc --profile dev [OUT_DIR]
#       a wheel around a `rulesc` already built, the module built with that cargo profile
#       (CI's smoke test reuses the debug build of `cargo test`)
#
# maturin must be on the PATH (`pip install maturin==1.16.0`). OUT_DIR is target/wheels by
# default. The executable goes in python/rulesc._rulesc.data/scripts/ for the build only: maturin
# puts the files of `<module-name>.data/scripts/` in the wheel's scripts, and the folder is
# removed afterwards.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
binary=""
profile="release"
out="$root/target/wheels"
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary="$2"; shift 2 ;;
    --profile) profile="$2"; shift 2 ;;
    -*) echo "error: unknown option \`$1\`; see the top of $0" >&2; exit 2 ;;
    *) out="$1"; shift ;;
  esac
done

if ! command -v maturin >/dev/null 2>&1; then
  echo "error: \`maturin\` is not on the PATH; install it with \`pip install maturin==1.16.0\`" >&2
  exit 2
fi

exe=""
case "$(uname -s)" in MINGW* | MSYS* | CYGWIN*) exe=".exe" ;; esac
if [ -z "$binary" ]; then
  cargo build --release --locked --bin rulesc --manifest-path "$root/Cargo.toml"
  binary="${CARGO_TARGET_DIR:-$root/target}/release/rulesc$exe"
fi
if [ ! -x "$binary" ]; then
  echo "error: \`$binary\` is not an executable; build it with \`cargo build --release --locked\`" >&2
  exit 2
fi

scripts="$root/python/rulesc._rulesc.data/scripts"
trap 'rm -rf "$root/python/rulesc._rulesc.data"' EXIT
mkdir -p "$scripts"
cp "$binary" "$scripts/rulesc$exe"
chmod 755 "$scripts/rulesc$exe"

if [ "$profile" = "release" ]; then
  maturin build --release --locked --manifest-path "$root/python/Cargo.toml" --out "$out"
else
  maturin build --profile "$profile" --locked --manifest-path "$root/python/Cargo.toml" --out "$out"
fi
