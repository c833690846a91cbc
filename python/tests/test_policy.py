"""`rulesc.Policy` and `rulesc.Session`, held to what the `rulesc` command prints."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

import rulesc
from conftest import GUARD, RULES


EVENTS = [
    {"event": "execution_start"},
    {"event": "pre_tool_use", "tool": "send_mail", "arg": {"to": "a@example.com"}},
    {"event": "post_tool_use", "tool": "web_fetch", "arg": {"url": "https://example.com"}, "result": "x"},
    {"event": "pre_tool_use", "tool": "send_mail", "arg": {"to": "evil@example.net"}},
    {"event": "pre_tool_use", "tool": "rm", "arg": {"path": "/"}, "metadata": {"tainted": False}},
    {"event": "pre_tool_use", "tool": "ls"},
    {"event": "stop", "stop_requests": 2},
    {"event": "stop", "stop_requests": 5},
    {"event": "on_error", "error": {"kind": "tool", "message": "boom"}},
]


@pytest.fixture
def guard_path(write_policy) -> Path:
    return write_policy(GUARD, "guard.rules")


def test_evaluate_gives_what_eval_prints_for_each_event(cli, guard_path: Path) -> None:
    policy = rulesc.Policy.from_paths([guard_path])
    for event in EVENTS:
        assert policy.evaluate(event) == cli.eval(guard_path, [event])[0], event


def test_from_source_names_the_file_as_given(cli, guard_path: Path) -> None:
    policy = rulesc.Policy.from_source(GUARD, filename="guard.rules")
    outcome = policy.evaluate(EVENTS[4])
    assert outcome == cli.eval(guard_path, [EVENTS[4]])[0]
    assert outcome["decision"] == "block"
    assert outcome["resolved_by"] == "no-rm"
    assert outcome["evaluations"][0]["file"] == "guard.rules"


def test_from_source_defaults_to_policy_rules() -> None:
    policy = rulesc.Policy.from_source('on pre_tool_use when tool == "rm" block "no"')
    outcome = policy.evaluate({"event": "pre_tool_use", "tool": "rm"})
    assert outcome["resolved_by"] == "policy.rules:1"


def test_a_session_gives_what_eval_prints_for_a_stream(cli, guard_path: Path) -> None:
    session = rulesc.Policy.from_paths([guard_path]).session()
    observed = [session.observe(event) for event in EVENTS]
    assert observed == cli.eval(guard_path, EVENTS)
    # The stream carried the taint: the same send was allowed before the fetch, blocked after.
    assert [observed[1]["decision"], observed[3]["decision"]] == ["allow", "block"]
    assert session.metadata == observed[-1]["metadata"]


def test_sessions_are_independent(guard_path: Path) -> None:
    policy = rulesc.Policy.from_paths([guard_path])
    tainted = policy.session()
    tainted.observe(EVENTS[2])
    fresh = policy.session()
    assert fresh.observe(EVENTS[3])["decision"] == "allow"
    assert tainted.observe(EVENTS[3])["decision"] == "block"
    assert policy.evaluate(EVENTS[3])["decision"] == "allow"


def test_policy_errors_carry_the_diagnostics_of_check(cli, write_policy) -> None:
    text = 'on before_step when tool ~ "rm*" forbid\non pre_tool_use when tool == "a" blok "x"\n'
    path = write_policy(text)
    with pytest.raises(rulesc.PolicyError) as raised:
        rulesc.Policy.from_paths([path])
    expected = cli.json("check", str(path), "--format", "json", code=1)["diagnostics"]
    diagnostics = raised.value.diagnostics
    assert diagnostics == expected
    for diagnostic in diagnostics:
        assert {"code", "severity", "message", "file", "line", "column"} <= diagnostic.keys()
    first = expected[0]
    assert str(raised.value) == (
        f"{path}:{first['line']}:{first['column']}: {first['code']} {first['message']}"
        f" (and {len(expected) - 1} more error{'s' if len(expected) > 2 else ''})"
    )
    with pytest.raises(rulesc.PolicyError) as from_source:
        rulesc.Policy.from_source(text)
    assert from_source.value.diagnostics == [{**d, "file": "policy.rules"} for d in expected]


def test_warnings_of_a_policy_that_compiles(cli, write_policy) -> None:
    path = write_policy('on pre_tool_use when tool ~ "{a,b}" block "x"\n')
    policy = rulesc.Policy.from_paths([path])
    expected = cli.json("check", str(path), "--format", "json")["diagnostics"]
    assert expected and all(d["severity"] == "warning" for d in expected)
    assert policy.warnings == expected


def test_unreadable_paths_are_policy_errors_without_diagnostics(cli, tmp_path: Path) -> None:
    missing = tmp_path / "missing.rules"
    with pytest.raises(rulesc.PolicyError) as raised:
        rulesc.Policy.from_paths([missing])
    assert str(raised.value) == cli.error("check", str(missing))
    assert raised.value.diagnostics == []


def test_a_compiled_policy_loads_like_its_source(cli, guard_path: Path, tmp_path: Path) -> None:
    compiled = tmp_path / "guard.json"
    done = cli.run("compile", str(guard_path), "-o", str(compiled))
    assert done.returncode == 0, done.stderr
    from_json = rulesc.Policy.from_paths([str(compiled)])
    from_rules = rulesc.Policy.from_paths([guard_path])
    for event in EVENTS:
        assert from_json.evaluate(event) == from_rules.evaluate(event)
    assert from_json.test() == {"tests": [], "passed": 0, "failed": 0, "failures": []}


def test_inline_tests_report_what_test_prints(cli) -> None:
    report = rulesc.Policy.from_paths([RULES]).test()
    expected = cli.json("test", str(RULES), "--format", "json")
    inline = [test for test in expected["tests"] if test["line"] is not None]
    assert report["tests"] == inline
    assert report["passed"] == len(inline) > 0
    assert report["failed"] == 0
    assert report["failures"] == []


def test_failed_inline_tests_are_listed(cli, write_policy) -> None:
    path = write_policy(
        GUARD
        + 'test "wrong on purpose" {\n  event pre_tool_use { tool: "rm" }\n  expect allow\n}\n'
    )
    report = rulesc.Policy.from_paths([path]).test()
    expected = cli.json("test", str(path), "--format", "json", code=1)
    assert {k: report[k] for k in ("tests", "passed", "failed")} == expected
    assert (report["passed"], report["failed"]) == (1, 1)
    [failure] = report["failures"]
    assert failure["name"] == "wrong on purpose"
    assert failure["failures"] == [
        {
            "step": 1,
            "event": "pre_tool_use",
            "expected": {"decision": "allow"},
            "actual": {"decision": "block", "stop_reason": None, "resolved_by": "no-rm"},
        }
    ]


@pytest.mark.parametrize(
    "event",
    [
        {"event": "before_step", "steps": "3"},
        {"event": "nope"},
        {"tool": "bash"},
        {"event": 3},
        {"event": "on_error", "error": {"kind": 3}},
        {"event": "stop", "stop_reason": "bored"},
    ],
)
def test_bad_events_raise_the_reason_eval_gives(cli, guard_path: Path, event) -> None:
    policy = rulesc.Policy.from_paths([guard_path])
    with pytest.raises(rulesc.EventError) as raised:
        policy.evaluate(event)
    assert isinstance(raised.value, ValueError)
    reason = cli.error("eval", str(guard_path), "--event", "-", stdin=json.dumps(event))
    assert reason == f"line 1: {raised.value}"


@pytest.mark.parametrize(
    ("event", "reason"),
    [
        ([1, 2], "an event must be a JSON object"),
        ("pre_tool_use", "an event must be a JSON object"),
        ({"event": "stop", "metadata": {"x": float("nan")}}, "the event is not JSON: out of range float values are not JSON compliant"),
        ({"event": "stop", "metadata": {"x": object()}}, "the event is not JSON: object of type object is not JSON serializable"),
    ],
)
def test_values_that_are_no_event_raise_event_errors(event, reason: str) -> None:
    policy = rulesc.Policy.from_source(GUARD)
    with pytest.raises(rulesc.EventError, match="^" + reason.replace("(", r"\(") + "$"):
        policy.evaluate(event)


def test_a_bad_event_leaves_the_session_unchanged(guard_path: Path) -> None:
    session = rulesc.Policy.from_paths([guard_path]).session()
    session.observe(EVENTS[2])
    with pytest.raises(rulesc.EventError):
        session.observe({"event": "pre_tool_use", "tool": 3})
    assert session.metadata == {"tainted": True}
    assert session.observe(EVENTS[3])["decision"] == "block"


def test_unknown_keys_warn_as_eval_does(cli, guard_path: Path) -> None:
    event = {"event": "pre_tool_use", "tool": "ls", "elapsd_ms": 3}
    policy = rulesc.Policy.from_paths([guard_path])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        outcome = policy.evaluate(event)
    assert outcome == cli.eval(guard_path, [event])[0]
    done = cli.run("eval", str(guard_path), "--event", "-", stdin=json.dumps(event))
    assert [str(w.message) for w in caught] == [
        line.split(": ", 2)[2] for line in done.stderr.splitlines()
    ]
    assert [w.category for w in caught] == [rulesc.UnknownKeyWarning]
    assert caught[0].filename == __file__


def test_unknown_keys_as_errors_evaluate_nothing(guard_path: Path) -> None:
    session = rulesc.Policy.from_paths([guard_path]).session()
    with warnings.catch_warnings():
        warnings.simplefilter("error", rulesc.UnknownKeyWarning)
        with pytest.raises(rulesc.UnknownKeyWarning, match="did you mean `metadata`"):
            session.observe({**EVENTS[2], "metdata": {}})
    assert session.metadata == {}


def test_host_limits_apply_as_eval_flags_do(cli, guard_path: Path) -> None:
    policy = rulesc.Policy.from_paths([guard_path])
    assert policy.limits == {"max_steps": 100, "max_retries": 3, "max_stop_requests": 8}
    strict = policy.with_limits(max_stop_requests=1)
    assert strict.limits == {"max_steps": 100, "max_retries": 3, "max_stop_requests": 1}
    event = {"event": "stop", "stop_requests": 1}
    outcome = strict.evaluate(event)
    assert outcome == cli.eval(guard_path, [event], "--max-stop-requests", "1")[0]
    assert outcome["resolved_by"] == "host:max_stop_requests"
    assert policy.evaluate(event)["decision"] == "request"


def test_paths_must_be_a_list() -> None:
    with pytest.raises(TypeError):
        rulesc.Policy.from_paths(str(RULES))  # type: ignore[arg-type]
