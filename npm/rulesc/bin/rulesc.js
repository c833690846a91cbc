#!/usr/bin/env node
// `rulesc` from npm: runs the prebuilt executable of the platform package that npm
// installed beside this one (`@rulesc/linux-x64`, ...: an optional dependency each, of
// which npm installs only the one whose `os` and `cpu` match), with this process's
// arguments, stdin, stdout and stderr, and exits with its status.
"use strict";

const { spawnSync } = require("child_process");

// `process.platform process.arch` => the package that carries its executable.
const PACKAGES = {
  "darwin arm64": "@rulesc/darwin-arm64",
  "darwin x64": "@rulesc/darwin-x64",
  "linux arm64": "@rulesc/linux-arm64",
  "linux x64": "@rulesc/linux-x64",
  "win32 x64": "@rulesc/win32-x64",
};

function fail(reason) {
  process.stderr.write(`error: ${reason}\n`);
  process.exit(2);
}

// The executable to run: `RULESC_BINARY` when set (a `rulesc` built for a platform with
// no package), else the platform package's.
function executable() {
  if (process.env.RULESC_BINARY) {
    return process.env.RULESC_BINARY;
  }
  const platform = `${process.platform} ${process.arch}`;
  const name = PACKAGES[platform];
  if (!name) {
    fail(
      `rulesc has no prebuilt executable for ${platform}; build it with cargo ` +
        "(README.md, Install) and set RULESC_BINARY to its path",
    );
  }
  const file = process.platform === "win32" ? "rulesc.exe" : "rulesc";
  try {
    return require.resolve(`${name}/bin/${file}`);
  } catch {
    return fail(
      `the package \`${name}\`, which holds rulesc's executable for ${platform}, is not ` +
        "installed: install `rulesc` again without `--omit=optional` or `--no-optional`",
    );
  }
}

const binary = executable();
const run = spawnSync(binary, process.argv.slice(2), { stdio: "inherit" });
if (run.error) {
  fail(`cannot run \`${binary}\`: ${run.error.message}`);
}
if (run.signal) {
  // Die of the same signal, as a shell reports the command's own end.
  process.kill(process.pid, run.signal);
}
process.exit(run.status === null ? 1 : run.status);
