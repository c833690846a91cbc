"""Tool guardrails for the OpenAI Agents SDK (the ``openai-agents`` package) from a rulesc policy.

Each guarded function tool call is one ``pre_tool_use`` event before the tool runs and one
``post_tool_use`` event after it, observed in one :class:`rulesc.Session`, so ``set`` effects
carry from call to call (a fetch that taints the run blocks a later send)::

    from agents import Agent, Runner
    import rulesc
    from rulesc.openai_agents import PolicyGuardrails

    guardrails = PolicyGuardrails(rulesc.Policy.from_paths(["rules/"]))
    agent = Agent(name="assistant", tools=guardrails.guard(web_fetch, send_email))

What each decision does:

- ``block`` on ``pre_tool_use``: the tool does not run; the model gets the rule's message as
  the tool's output (``reject_content``). The session then sees the blocked call's
  ``post_tool_use`` (``blocked: true``) and its ``on_error`` (kind ``tool_blocked``), as the
  agent loop and ``rulesc hook`` fire them.
- ``ask``: ``approve(event, outcome)`` decides; without it the call is refused as a block
  (fail closed), the message saying that approval is needed.
- ``forbid`` anywhere: the run ends; the SDK raises ``ToolInputGuardrailTripwireTriggered`` or
  ``ToolOutputGuardrailTripwireTriggered`` (``raise_exception``), whose ``output`` holds the
  outcome as ``output_info``.
- anything else (``allow``, ``none``, the stop verbs a tool guardrail cannot express): the
  call goes on.

Counters move by the runtime's model of a run (:class:`rulesc.RunCounters`), as ``rulesc hook``
moves them: tool guardrails see no model call, so each tool call ends the model step that made
it, uncounted. A blocked call grows ``errors`` and ``failures`` before its ``post_tool_use``, a
call that ran resets ``failures``, and ``elapsed_ms`` runs from the guardrails' creation;
``steps`` and tokens are not seen and stay 0. So ``rules/error-policy.rules`` ends a run whose
model tries five refused calls in a row.

Arguments that are not a JSON object are refused before the policy is asked: a guard that
cannot read a call does not let it through.
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from typing import Any, Callable, Optional

from agents import FunctionTool, Tool
from agents.tool_guardrails import (
    ToolGuardrailFunctionOutput,
    ToolInputGuardrail,
    ToolInputGuardrailData,
    ToolOutputGuardrail,
    ToolOutputGuardrailData,
)

from rulesc import Policy, RunCounters, Session

Approver = Callable[[dict[str, Any], dict[str, Any]], bool]
"""Answers an ``ask``: given the ``pre_tool_use`` event and its outcome, whether the call may run."""

__all__ = ["Approver", "PolicyGuardrails"]


class PolicyGuardrails:
    """A rulesc policy as the tool guardrails of one run (one execution, one session).

    Use a new instance for each run: the session's state (the metadata ``set`` effects wrote)
    and ``counters`` belong to one execution. ``outcomes`` lists every event observed with its
    outcome, in order, for logging and tests.
    """

    def __init__(
        self,
        policy: Policy,
        *,
        approve: Optional[Approver] = None,
        session: Optional[Session] = None,
        name: str = "rulesc",
    ) -> None:
        self.policy = policy
        self.session = session if session is not None else policy.session()
        self.approve = approve
        self.outcomes: list[tuple[dict[str, Any], dict[str, Any]]] = []
        self.counters = RunCounters()
        """The run's counters, which each event observed states."""
        self._start = time.monotonic()
        self._lock = threading.Lock()
        self.input_guardrail: ToolInputGuardrail[Any] = ToolInputGuardrail(
            guardrail_function=self._before_call, name=f"{name}:pre_tool_use"
        )
        self.output_guardrail: ToolOutputGuardrail[Any] = ToolOutputGuardrail(
            guardrail_function=self._after_call, name=f"{name}:post_tool_use"
        )

    @property
    def errors(self) -> int:
        """Calls that failed or were refused in this run."""
        return self.counters.errors

    @property
    def failures(self) -> int:
        """Calls refused in a row."""
        return self.counters.failures

    def guard(self, *tools: FunctionTool) -> list[Tool]:
        """Copies of ``tools`` with both guardrails added after their own ones."""
        return [
            dataclasses.replace(
                tool,
                tool_input_guardrails=[*(tool.tool_input_guardrails or []), self.input_guardrail],
                tool_output_guardrails=[*(tool.tool_output_guardrails or []), self.output_guardrail],
            )
            for tool in tools
        ]

    def observe(self, event: dict[str, Any]) -> dict[str, Any]:
        """Observes one event in the run's session, with the run's counters, and records it
        in ``outcomes``."""
        with self._lock:
            event = {
                **event,
                "errors": self.counters.errors,
                "failures": self.counters.failures,
                "elapsed_ms": int((time.monotonic() - self._start) * 1000),
            }
            outcome = self.session.observe(event)
            self.outcomes.append((event, outcome))
        return outcome

    def _before_call(self, data: ToolInputGuardrailData) -> ToolGuardrailFunctionOutput:
        tool = data.context.tool_name
        arg = _arguments(data.context.tool_arguments)
        if arg is None:
            return ToolGuardrailFunctionOutput.reject_content(
                f"the arguments of `{tool}` are not a JSON object, so the call was not checked"
            )
        event = {"event": "pre_tool_use", "tool": tool, "arg": arg}
        outcome = self.observe(event)
        decision = outcome["decision"]
        if decision == "forbid":
            return ToolGuardrailFunctionOutput.raise_exception(output_info=outcome)
        if decision == "ask" and self.approve is not None and self.approve(event, outcome):
            return ToolGuardrailFunctionOutput.allow(output_info=outcome)
        if decision in ("block", "ask"):
            message = _message(outcome)
            if decision == "ask":
                message = f"this call needs approval: {message}"
            ended = self._blocked(tool, arg, message)
            if ended is not None:
                return ToolGuardrailFunctionOutput.raise_exception(output_info=ended)
            return ToolGuardrailFunctionOutput.reject_content(message, output_info=outcome)
        return ToolGuardrailFunctionOutput.allow(output_info=outcome)

    def _after_call(self, data: ToolOutputGuardrailData) -> ToolGuardrailFunctionOutput:
        arg = _arguments(data.context.tool_arguments)
        # The call ran: the model step that made it ended without a failed call.
        with self._lock:
            self.counters.step_ended(counted=False)
        event = {
            "event": "post_tool_use",
            "tool": data.context.tool_name,
            "arg": arg if arg is not None else {},
            "result": _result(data.output),
            "tool_error": False,
            "blocked": False,
        }
        outcome = self.observe(event)
        if outcome["decision"] == "forbid":
            return ToolGuardrailFunctionOutput.raise_exception(output_info=outcome)
        return ToolGuardrailFunctionOutput.allow(output_info=outcome)

    def _blocked(self, tool: str, arg: dict[str, Any], message: str) -> Optional[dict[str, Any]]:
        """Fires what follows a blocked call; the outcome that forbade, if one did."""
        # The refused call failed, and ended the model step that made it.
        with self._lock:
            self.counters.call_failed()
            self.counters.step_ended(counted=False)
        after = self.observe(
            {"event": "post_tool_use", "tool": tool, "arg": arg, "tool_error": False, "blocked": True}
        )
        if after["decision"] == "forbid":
            return after
        error = self.observe(
            {
                "event": "on_error",
                "tool": tool,
                "arg": arg,
                "error": {"kind": "tool_blocked", "message": message},
            }
        )
        return error if error["decision"] == "forbid" else None


def _arguments(text: str) -> Optional[dict[str, Any]]:
    """The call's arguments, or ``None`` when they are not a JSON object."""
    try:
        value = json.loads(text) if text else {}
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _result(output: Any) -> Any:
    """A tool's output as event JSON's ``result``: text, or JSON when it is JSON."""
    if isinstance(output, str):
        return output
    try:
        json.dumps(output, allow_nan=False)
    except (TypeError, ValueError):
        return str(output)
    return output


def _message(outcome: dict[str, Any]) -> str:
    """What the model is told about a refused call."""
    if outcome.get("message"):
        return str(outcome["message"])
    return f"refused by the rule `{outcome.get('resolved_by')}`"
