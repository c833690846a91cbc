"""rulesc: a declarative policy language for AI-agent flow control.

Compile policies with :meth:`Policy.from_source` or :meth:`Policy.from_paths`, evaluate
events with :meth:`Policy.evaluate` (one event) or a :class:`Session` (an execution whose
events carry state), and run the inline tests with :meth:`Policy.test`. Every outcome is
the JSON object ``rulesc eval`` prints, as a dict. A front door that counts a run's steps,
errors and failures itself moves them through :class:`RunCounters`, the runtime's model of
a run.

The adapter for the OpenAI Agents SDK is :mod:`rulesc.openai_agents`.
"""

from rulesc._rulesc import (
    EventError,
    Policy,
    PolicyError,
    RunCounters,
    Session,
    UnknownKeyWarning,
    __version__,
)

__all__ = [
    "EventError",
    "Policy",
    "PolicyError",
    "RunCounters",
    "Session",
    "UnknownKeyWarning",
    "__version__",
]
