#!/usr/bin/env bash
# Packs rulesc's npm packages around a built `rulesc`: the platform package that carries it
# (`@rulesc/linux-x64`, ...) and the wrapper `rulesc` that runs it (npm/README.md).
#
#   npm/pack.sh [--binary PATH] [--platform PLATFORM] [OUT_DIR]
#
# PATH is target/release/rulesc by default; PLATFORM is `<os>-<cpu>` in Node's names
# (`linux-x64`, `linux-arm64`, `darwin-arm64`, `darwin-x64`, `win32-x64`), this machine's by
# default, and must be the one PATH was built for. OUT_DIR is target/npm by default. Both
# packages take their version from `PATH --version`. Nothing in npm/ is changed: the
# packages are put together in a temporary folder.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
binary="$root/target/release/rulesc"
platform="$(node -p 'process.platform + "-" + process.arch')"
out="$root/target/npm"
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary="$2"; shift 2 ;;
    --platform) platform="$2"; shift 2 ;;
    -*) echo "error: unknown option \`$1\`; see the top of $0" >&2; exit 2 ;;
    *) out="$1"; shift ;;
  esac
done

os="${platform%-*}"
cpu="${platform#*-}"
exe=""
[ "$os" = "win32" ] && exe=".exe"
if ! node -e 'const p = require(process.argv[1]).optionalDependencies; process.exit(p[process.argv[2]] ? 0 : 1)' \
  "$root/npm/rulesc/package.json" "@rulesc/$platform"; then
  echo "error: \`$platform\` is not a platform of npm/rulesc/package.json's optionalDependencies" >&2
  exit 2
fi
if [ ! -x "$binary" ]; then
  echo "error: \`$binary\` is not an executable; build it with \`cargo build --release --locked\`" >&2
  exit 2
fi
version="$("$binary" --version | awk '{print $2}')"

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$out" "$stage/platform/bin"
out="$(cd "$out" && pwd)"

# The wrapper, at the binary's version, and so are the platform packages it names.
cp -r "$root/npm/rulesc" "$stage/wrapper"
node - "$stage/wrapper/package.json" "$version" <<'JS'
const fs = require("fs");
const [file, version] = process.argv.slice(2);
const manifest = JSON.parse(fs.readFileSync(file, "utf8"));
manifest.version = version;
for (const name of Object.keys(manifest.optionalDependencies)) {
  manifest.optionalDependencies[name] = version;
}
fs.writeFileSync(file, JSON.stringify(manifest, null, 2) + "\n");
JS

# The platform package: the executable, and `os` and `cpu` so that npm installs it only there.
cp "$binary" "$stage/platform/bin/rulesc$exe"
chmod 755 "$stage/platform/bin/rulesc$exe"
node - "$stage/platform/package.json" "$platform" "$os" "$cpu" "$version" "$exe" <<'JS'
const fs = require("fs");
const [file, platform, os, cpu, version, exe] = process.argv.slice(2);
const manifest = {
  name: `@rulesc/${platform}`,
  version,
  description: `The rulesc executable for ${platform}, run by the \`rulesc\` package`,
  license: "Apache-2.0",
  repository: { type: "git", url: "https://example.invalid/rulesc" },
  os: [os],
  cpu: [cpu],
  files: [`bin/rulesc${exe}`],
  preferUnplugged: true,
};
fs.writeFileSync(file, JSON.stringify(manifest, null, 2) + "\n");
JS
printf '# @rulesc/%s\n\nThe `rulesc` executable for %s. Install the `rulesc` package, which runs it.\n' \
  "$platform" "$platform" >"$stage/platform/README.md"

(cd "$stage/platform" && npm pack --silent --pack-destination "$out")
(cd "$stage/wrapper" && npm pack --silent --pack-destination "$out")
