#!/usr/bin/env bash
# Checks the Neovim plugin headless: which `.rules` files get the `rules` filetype (rulesc's,
# by folder or first line) and which keep Neovim's own (udev, Firebase), and that a rulesc
# file starts `rulesc lsp`, which reports a diagnostic of `rulesc check`.
#
#   editors/nvim/test.sh [RULESC]     RULESC: the executable to run (target/debug/rulesc)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
rulesc="$(cd "$(dirname "${1:-$root/target/debug/rulesc}")" && pwd)/$(basename "${1:-rulesc}")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/project/.rulesc" "$work/project/policies"
ln -s "$rulesc" "$work/bin/rulesc"

: >"$work/project/.rulesc/empty.rules"
printf '# guards\n\non pre_tool_use when tool ~ "rm*" block "no"\n' >"$work/project/policies/guard.rules"
printf '@id("x")\non before_step when tool == "x" forbid\n' >"$work/project/policies/broken.rules"
printf "rules_version = '2';\nservice cloud.firestore {\n}\n" >"$work/project/firestore.rules"
printf '# udev\nACTION=="add", SUBSYSTEM=="usb", MODE="0666"\n' >"$work/project/99-usb.rules"

# The filetype Neovim gives FILE, with the plugin loaded as a user's init.lua would load it.
filetype() {
  HOME="$work" PATH="$work/bin:$PATH" nvim --headless --clean \
    --cmd "set runtimepath^=$here" --cmd "runtime plugin/rulesc.lua" \
    -c 'lua io.stdout:write(vim.bo.filetype)' -c 'qa!' "$1" 2>/dev/null
}

# The filetype Neovim gives FILE on its own (udev, hog, javascript: it depends on the version
# and the folder).
own_filetype() {
  HOME="$work" nvim --headless --clean -c 'lua io.stdout:write(vim.bo.filetype)' -c 'qa!' "$1" 2>/dev/null
}

failed=0
expect() {
  local got
  got="$(filetype "$work/project/$1")"
  if [ "$got" = "$2" ]; then
    echo "ok: $1 is \`$got\`"
  else
    echo "FAILED: $1 is \`$got\`, expected \`$2\`"
    failed=1
  fi
}
expect .rulesc/empty.rules rules
expect policies/guard.rules rules
# Other tools' files keep what Neovim says of them without the plugin.
for other in firestore.rules 99-usb.rules; do
  own="$(own_filetype "$work/project/$other")"
  if [ "$own" = "rules" ]; then
    echo "FAILED: Neovim itself calls $other \`rules\`"
    failed=1
  fi
  expect "$other" "$own"
done

# The server: the E012 of broken.rules comes back as a diagnostic (waiting up to 20 s, for a
# loaded machine).
got="$(cd "$work/project" && HOME="$work" PATH="$work/bin:$PATH" nvim --headless --clean \
  --cmd "set runtimepath^=$here" --cmd "runtime plugin/rulesc.lua" \
  -c 'lua vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 50)' \
  -c 'lua for _, d in ipairs(vim.diagnostic.get(0)) do io.stdout:write(tostring(d.code or d.message), "\n") end' \
  -c 'qa!' policies/broken.rules 2>/dev/null)"
if printf '%s\n' "$got" | grep -q "E012"; then
  echo "ok: rulesc lsp reports E012"
else
  echo "FAILED: no E012 from rulesc lsp, got: $got"
  failed=1
fi
exit "$failed"
