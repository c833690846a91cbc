#!/usr/bin/env python3
"""rulesc against another Claude Code command guard, on the same lines.

Usage: python3 bench/compare-guards.py DCG [--rulesc BIN] [--dcg-corpus DIR]
                                           [--dcg-packs P,Q] [--details FILE]

DCG is the path of a built destructive_command_guard binary (`dcg`); this script never
downloads or builds anything. Every line is sent to each guard as one Claude Code
`PreToolUse` call of the `Bash` tool, one session per line:

- rulesc: `rulesc hook rules/ --host claude`, each line a session of its own in one state
  folder (BIN defaults to target/release/rulesc);
- DCG: the binary run as the hook its README installs (`"command": "dcg"` under
  `PreToolUse`), with HOME and the XDG folders pointed at an empty temporary folder, so it
  reads no user configuration and writes nothing outside it. It runs twice: with its
  defaults (the core packs), and with `--dcg-packs` enabled in that home's
  `~/.config/dcg/config.toml` (by default the packs that match rulesc's shipped packs).

A line is stopped when the answer denies or asks, and passes when it does neither.
The lines: tests/shell/evasions.txt, undecidable.txt, root.txt and packs-stopped.txt (each
line must be stopped), tests/shell/benign.txt and packs-everyday.txt (each must pass), and every `[[case]]` of the other
guard's corpus (DCG-CORPUS, default: tests/corpus beside the binary's repository), which
says per line whether it must be denied or allowed. The Markdown table goes to stdout;
--details writes every line whose outcome differs from what its corpus expects, per guard.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CWD = "/home/user/project"

# DCG packs that cover what rulesc's shipped policies cover (safe-shell and docs/packs.md)
MATCHING_PACKS = [
    "database.postgresql",
    "database.mysql",
    "database.sqlite",
    "database.redis",
    "database.mongodb",
    "containers.docker",
    "containers.compose",
    "containers.podman",
    "kubernetes",
    "cloud.aws",
    "cloud.gcp",
    "cloud.azure",
    "infrastructure.terraform",
    "infrastructure.pulumi",
    "storage.gcs",
    "storage.azure_blob",
    "platform.github",
    "package_managers",
    "system.disk",
    "system.permissions",
]


def corpus_lines(name):
    """The lines of a file of tests/shell/: one per line, `\\n` standing for a newline"""
    text = (ROOT / "tests" / "shell" / name).read_text()
    lines = []
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        cwd = CWD
        if name == "root.txt":
            cwd, line = line.split("\t", 1)
        lines.append((cwd, line.replace("\\n", "\n")))
    return lines


def dcg_cases(folder):
    """(file, description, command, expected) of every case of the other guard's corpus"""
    cases = []
    for path in sorted(folder.rglob("*.toml")):
        data = tomllib.loads(path.read_text())
        for case in data.get("case", []):
            if case.get("input_kind", "command") != "command":
                continue
            expected = case.get("expected", case.get("expected_decision"))
            if expected not in ("deny", "allow") or "command" not in case:
                continue
            name = case.get("description", case.get("id", ""))
            cases.append((str(path.relative_to(folder)), name, case["command"], expected))
    return cases


def payload(command, cwd, session="compare"):
    return json.dumps(
        {
            "session_id": session,
            "transcript_path": "/tmp/transcript.jsonl",
            "cwd": cwd,
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "tool_use_id": "t1",
        }
    )


def decision(stdout):
    """`deny`, `ask` or `pass`, from a Claude Code hook's answer"""
    text = stdout.strip()
    if not text:
        return "pass"
    try:
        answer = json.loads(text)
    except json.JSONDecodeError:
        try:
            answer = json.loads(text.splitlines()[-1])
        except json.JSONDecodeError:
            return "error"
    found = (answer.get("hookSpecificOutput") or {}).get("permissionDecision")
    if found in ("deny", "ask"):
        return found
    if answer.get("decision") == "block":
        return "deny"
    return "pass"


class Rulesc:
    name = "rulesc"

    def __init__(self, binary):
        self.binary = binary
        # One state folder, so the compiled policy is cached once; a session per line.
        self.folder = tempfile.TemporaryDirectory(prefix="rulesc-state-")
        self.state = self.folder.name
        self.sessions = 0

    def decide(self, command, cwd):
        self.sessions += 1
        args = [self.binary, "hook", str(ROOT / "rules"), "--host", "claude", "--state-dir", self.state]
        session = f"compare-{self.sessions}"
        run = subprocess.run(args, input=payload(command, cwd, session), capture_output=True, text=True, timeout=60)
        if run.returncode != 0:
            return "error"
        return decision(run.stdout)


class Dcg:
    def __init__(self, binary, packs, name):
        self.binary = binary
        self.name = name
        # Removed with the object, at the end of the run.
        self.folders = [tempfile.TemporaryDirectory(prefix="dcg-home-"), tempfile.TemporaryDirectory(prefix="dcg-cwd-")]
        self.home = self.folders[0].name
        config = Path(self.home) / ".config" / "dcg"
        config.mkdir(parents=True)
        if packs:
            listed = ", ".join(json.dumps(pack) for pack in packs)
            (config / "config.toml").write_text(f"[packs]\nenabled = [{listed}]\n")
        self.cwd = self.folders[1].name

    def decide(self, command, cwd):
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": self.home,
            "XDG_CONFIG_HOME": str(Path(self.home) / ".config"),
            "XDG_DATA_HOME": str(Path(self.home) / ".local" / "share"),
            "XDG_CACHE_HOME": str(Path(self.home) / ".cache"),
            "XDG_STATE_HOME": str(Path(self.home) / ".local" / "state"),
        }
        run = subprocess.run(
            [self.binary], input=payload(command, cwd), capture_output=True, text=True,
            timeout=60, env=env, cwd=self.cwd,
        )
        return decision(run.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dcg", help="path of the built dcg binary")
    parser.add_argument("--rulesc", default=str(ROOT / "target" / "release" / "rulesc"))
    parser.add_argument("--dcg-corpus", help="the other guard's tests/corpus folder")
    parser.add_argument("--dcg-packs", default=",".join(MATCHING_PACKS))
    parser.add_argument("--details", help="write the lines each guard gets wrong here")
    args = parser.parse_args()

    dcg = Path(args.dcg).resolve()
    corpus = Path(args.dcg_corpus) if args.dcg_corpus else None
    if corpus is None:
        for parent in dcg.parents:
            if (parent / "tests" / "corpus").is_dir():
                corpus = parent / "tests" / "corpus"
                break
    if corpus is None:
        sys.exit("no DCG corpus found: pass --dcg-corpus")
    packs = [pack for pack in args.dcg_packs.split(",") if pack]

    guards = [Rulesc(args.rulesc), Dcg(str(dcg), [], "DCG (defaults)"), Dcg(str(dcg), packs, "DCG (matching packs)")]

    sets = []
    ours = (
        ("evasions.txt", "stop"),
        ("undecidable.txt", "stop"),
        ("root.txt", "stop"),
        ("packs-stopped.txt", "stop"),
        ("benign.txt", "pass"),
        ("packs-everyday.txt", "pass"),
    )
    for name, expected in ours:
        sets.append((f"rulesc `tests/shell/{name}`", [(name, "", cwd, line, expected) for cwd, line in corpus_lines(name)]))
    cases = dcg_cases(corpus)
    sets.append(("DCG `tests/corpus`, expected deny", [(f, d, CWD, c, "stop") for f, d, c, e in cases if e == "deny"]))
    sets.append(("DCG `tests/corpus`, expected allow", [(f, d, CWD, c, "pass") for f, d, c, e in cases if e == "allow"]))

    wrong = {guard.name: [] for guard in guards}
    rows = []
    for title, lines in sets:
        counts = []
        for guard in guards:
            right = 0
            for source, description, cwd, line, expected in lines:
                got = guard.decide(line, cwd)
                ok = (got in ("deny", "ask")) if expected == "stop" else (got == "pass")
                right += ok
                if not ok:
                    wrong[guard.name].append((title, source, description, line, expected, got))
            counts.append(right)
        rows.append((title, len(lines), counts))

    verb = lambda title: "passing with no ask" if any(word in title for word in ("allow", "benign", "everyday")) else "stopped (deny or ask)"
    print("| lines | count | what counts | " + " | ".join(guard.name for guard in guards) + " |")
    print("| --- | ---: | --- |" + " ---: |" * len(guards))
    for title, total, counts in rows:
        cells = " | ".join(f"{c}/{total} ({100 * c / total:.1f}%)" if total else "—" for c in counts)
        print(f"| {title} | {total} | {verb(title)} | {cells} |")

    if args.details:
        with open(args.details, "w") as out:
            for guard, misses in wrong.items():
                out.write(f"## {guard}: {len(misses)} lines\n")
                for title, source, description, line, expected, got in misses:
                    out.write(json.dumps({"set": title, "file": source, "case": description, "line": line, "expected": expected, "got": got}) + "\n")


if __name__ == "__main__":
    main()
