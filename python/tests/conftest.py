"""Shared fixtures: the checkout's `rulesc` command, the reference the bindings are held to.

The bindings promise the JSON the command prints, so most tests run both on the same input
and compare. The command is built from the same checkout (a no-op when it is up to date).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

REPO = Path(__file__).resolve().parents[2]
RULES = REPO / "rules"

# A small policy with a block, a taint that carries over, a request and a default.
GUARD = """\
@id("no-rm")
on pre_tool_use when tool ~ "rm*" block "destructive command"

@id("taint")
on post_tool_use when tool == "web_fetch" set metadata.tainted = true

@id("no-send")
on pre_tool_use when metadata.tainted and tool ~ "send_*" block "possible exfiltration"

@id("stay")
on stop when stop_requests < 3 request "keep going"

default pre_tool_use allow

test "a fetch taints the run" {
  event post_tool_use { tool: "web_fetch", result: "page" }
  expect none
  event pre_tool_use { tool: "send_mail" }
  expect block by "no-send"
}
"""


@pytest.fixture(scope="session")
def rulesc_bin() -> Path:
    """The `rulesc` binary of this checkout, built if needed."""
    subprocess.run(
        ["cargo", "build", "--quiet", "--locked", "--bin", "rulesc"],
        cwd=REPO,
        check=True,
    )
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    binary = target / "debug" / "rulesc"
    assert binary.is_file(), f"no rulesc binary at {binary}"
    return binary


class Cli:
    """Runs `rulesc` and reads what it prints."""

    def __init__(self, binary: Path) -> None:
        self.binary = binary

    def run(self, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.binary), *args],
            input=stdin,
            capture_output=True,
            text=True,
            check=False,
        )

    def eval(self, policy: Path, events: list[dict[str, Any]], *flags: str) -> list[dict[str, Any]]:
        """The outcomes `rulesc eval` prints for `events`, given as one JSON Lines stream."""
        stdin = "".join(json.dumps(event) + "\n" for event in events)
        done = self.run("eval", str(policy), "--event", "-", *flags, stdin=stdin)
        assert done.returncode == 0, done.stderr
        return [json.loads(line) for line in done.stdout.splitlines()]

    def json(self, *args: str, code: int = 0) -> Any:
        """The JSON document a command prints, exiting with `code`."""
        done = self.run(*args)
        assert done.returncode == code, done.stderr
        return json.loads(done.stdout)

    def error(self, *args: str, stdin: str = "") -> str:
        """The one-line reason of a command that exits 2."""
        done = self.run(*args, stdin=stdin)
        assert done.returncode == 2, (done.stdout, done.stderr)
        line = done.stderr.strip()
        assert line.startswith("error: "), line
        return line[len("error: ") :]


@pytest.fixture(scope="session")
def cli(rulesc_bin: Path) -> Cli:
    return Cli(rulesc_bin)


@pytest.fixture
def write_policy(tmp_path: Path) -> Callable[[str, str], Path]:
    """Writes a `.rules` file in a fresh folder and gives its path."""

    def write(text: str, name: str = "policy.rules") -> Path:
        path = tmp_path / name
        path.write_text(text)
        return path

    return write
