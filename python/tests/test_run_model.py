"""One run through the OpenAI Agents SDK adapter, the counters each event saw held to the
table `tests/run_model.rs` holds the agent loop and `rulesc hook` to, written from
docs/state.md ("What the counters mean"), not from the code; and `rulesc.RunCounters`, the
model of a run the adapter counts by, moved as that page says.

The run is that test's: the model calls `ls` (it runs), `cat` (it fails) and `rm` (a rule
blocks it), then answers. The SDK hands a tool's error to output guardrails as the tool's
output, so the one way a call fails that the adapter sees is a refusal: here the user denies
`cat` (an `ask` denied is a blocked call, which docs/state.md counts as a failed one).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, Optional

import pytest

import rulesc

COMPARED = ["before_step", "pre_tool_use", "post_tool_use", "on_error", "stop"]

# `rm` is blocked, `cat` asks, a stop is prevented once, and every compared event writes
# what it saw into `metadata.<event>`.
POLICY = (
    '@id("no-rm")\non pre_tool_use when tool == "rm" block "not here"\n\n'
    '@id("ask-cat")\non pre_tool_use when tool == "cat" ask "may I read it?"\n\n'
    '@id("check-once")\non stop when stop_requests < 1 request "check it once more"\n'
    + "".join(
        f"on {event} set metadata.{event}.{counter} = {counter}\n"
        for event in COMPARED
        for counter in ("steps", "failures", "errors")
    )
    + "on stop set metadata.stop.stop_requests = stop_requests\n"
)

Seen = tuple[str, int, int, int, Optional[int]]
"""What an event saw: its name, `steps`, `failures`, `errors`, and `stop_requests` where the
event sees it."""

# The run as a hook sees it, as docs/state.md says each counter moves: a hook counts a turn
# at its `Stop`; a failed call and a blocked call each add one to `errors` and `failures`
# before `post_tool_use`; a step that ends without a failed call resets `failures` (each
# tool call ends the model step that made it, and the answer ends the turn); `stop_requests`
# are the stops prevented in a row.
UNDER_A_HOOK: list[Seen] = [
    ("before_step", 0, 0, 0, None),
    ("pre_tool_use", 0, 0, 0, None),
    ("post_tool_use", 0, 0, 0, None),
    ("pre_tool_use", 0, 0, 0, None),
    ("post_tool_use", 0, 1, 1, None),
    ("on_error", 0, 1, 1, None),
    ("pre_tool_use", 0, 1, 1, None),
    ("post_tool_use", 0, 2, 2, None),
    ("on_error", 0, 2, 2, None),
    ("stop", 1, 0, 2, 0),
    ("stop", 2, 0, 2, 1),
]

# What tool guardrails see of a run: its tool calls.
TOOL_EVENTS = ("pre_tool_use", "post_tool_use", "on_error")


def seen_in(outcome: dict[str, Any]) -> Seen:
    """What the event of `outcome` saw, from the metadata its `set` rules wrote."""
    event = outcome["event"]
    written = outcome["metadata"][event]
    return (event, written["steps"], written["failures"], written["errors"], written.get("stop_requests"))


def counts(counters: rulesc.RunCounters) -> tuple[int, int, int, int]:
    return (counters.steps, counters.errors, counters.failures, counters.stop_requests)


def test_the_adapter_counts_as_the_table_says() -> None:
    pytest.importorskip("agents")
    from agents import Agent, RunConfig, Runner, function_tool
    from agents.testing import ScriptedModel, assistant_message, function_call

    from rulesc.openai_agents import PolicyGuardrails

    ran: list[str] = []

    @function_tool
    def ls(path: str) -> str:
        """List a folder."""
        ran.append("ls")
        return "a.txt"

    @function_tool
    def cat(path: str) -> str:
        """Read a file."""
        ran.append("cat")
        return "never read"

    @function_tool
    def rm(path: str) -> str:
        """Remove a file."""
        ran.append("rm")
        return "removed"

    # One call per model response: the SDK runs the calls of one response concurrently, and
    # the table has them in order.
    model = ScriptedModel(
        [
            [function_call(tool, {"path": "x"}, call_id=tool)]
            for tool in ("ls", "cat", "rm")
        ]
        + [[assistant_message("Done.")]]
    )
    guardrails = PolicyGuardrails(rulesc.Policy.from_source(POLICY), approve=lambda event, outcome: False)
    agent = Agent(name="tidy", tools=guardrails.guard(ls, cat, rm), model=model)
    Runner.run_sync(agent, "tidy the folder", run_config=RunConfig(tracing_disabled=True))

    assert ran == ["ls"]
    seen = [seen_in(outcome) for _, outcome in guardrails.outcomes]
    assert seen == [row for row in UNDER_A_HOOK if row[0] in TOOL_EVENTS]
    # No answer ends a turn for tool guardrails: the last failures stand.
    assert counts(guardrails.counters) == (0, 2, 2, 0)
    assert (guardrails.errors, guardrails.failures) == (2, 2)


def test_failures_count_in_a_row_until_a_step_ends_without_one() -> None:
    counters = rulesc.RunCounters()
    assert counts(counters) == (0, 0, 0, 0)
    counters.call_failed()
    counters.call_failed()
    counters.step_ended(counted=True)
    assert counts(counters) == (1, 2, 2, 0), "the step failed: its failures stand"
    counters.step_ended(counted=False)
    assert counts(counters) == (1, 2, 0, 0), "a step without a failed call, even uncounted"
    counters.call_failed()
    assert counts(counters) == (1, 3, 1, 0)


def test_a_run_resumes_with_the_counts_a_host_kept() -> None:
    counters = rulesc.RunCounters(steps=4, errors=3, failures=2, stop_requests=1)
    assert counts(counters) == (4, 3, 2, 1)
    counters.step_ended(False)
    assert counts(counters) == (4, 3, 0, 1), "no call failed in the resumed step"
    with pytest.raises(OverflowError):
        rulesc.RunCounters(errors=-1)
    with pytest.raises(TypeError):
        rulesc.RunCounters(4)  # type: ignore[call-arg]


def test_counters_saturate_rather_than_wrap() -> None:
    most = 2**64 - 1
    counters = rulesc.RunCounters(steps=most, errors=most, failures=most)
    counters.call_failed()
    counters.step_ended(True)
    assert counts(counters) == (most, most, most, 0)


def test_threads_that_share_counters_lose_no_transition() -> None:
    counters = rulesc.RunCounters()

    def fail(_: int) -> None:
        for _ in range(1000):
            counters.call_failed()

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(fail, range(8)))
    assert (counters.errors, counters.failures) == (8000, 8000)
