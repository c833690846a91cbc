"""Types of the native module, re-exported by ``rulesc``."""

from __future__ import annotations

import os
from typing import Any, Mapping, Optional, Sequence, Union, final

__all__ = [
    "EventError",
    "Policy",
    "PolicyError",
    "RunCounters",
    "Session",
    "UnknownKeyWarning",
    "__version__",
]

__version__: str

class PolicyError(Exception):
    """A policy that does not compile, or a path that cannot be read.

    ``str(err)`` names the first error; ``diagnostics`` lists every error and warning as
    ``rulesc check --format json`` does (``code``, ``severity``, ``message``, ``file``,
    ``line``, ``column``, ``end_line``, ``end_column``, ``help``), and is empty when a path
    could not be read.
    """

    diagnostics: list[dict[str, Any]]

class EventError(ValueError):
    """An event that cannot be evaluated: not a JSON object, an unknown event name, or a
    field of the wrong type. Nothing was evaluated, and a session is unchanged."""

class UnknownKeyWarning(UserWarning):
    """A key of an event that nothing reads, such as ``elapsd_ms`` for ``elapsed_ms``."""

@final
class Policy:
    """A compiled policy set. Immutable, and safe to share between threads."""

    @staticmethod
    def from_source(text: str, filename: str = "policy.rules") -> Policy:
        """Compile one ``.rules`` source; ``filename`` names it in rule ids and diagnostics.

        Raises :class:`PolicyError` when the policy has errors.
        """

    @staticmethod
    def from_paths(paths: Sequence[Union[str, os.PathLike[str]]]) -> Policy:
        """Compile ``.rules`` files and folders together, or load one compiled JSON policy.

        Raises :class:`PolicyError` when a path cannot be read or the policy has errors.
        """

    def with_limits(
        self,
        *,
        max_steps: Optional[int] = None,
        max_retries: Optional[int] = None,
        max_stop_requests: Optional[int] = None,
    ) -> Policy:
        """The same policy under other host limits; a limit not given keeps its value."""

    def evaluate(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """Evaluate one event; the outcome ``rulesc eval`` prints for it.

        Raises :class:`EventError` for an event that cannot be read, and warns with
        :class:`UnknownKeyWarning` about each key nothing reads.
        """

    def session(self) -> Session:
        """A new execution, whose events carry state from one to the next."""

    def test(self) -> dict[str, Any]:
        """Run the inline tests.

        ``rulesc test --format json``'s document (``tests``, ``passed``, ``failed``), with
        ``failures``: the failed tests among ``tests``.
        """

    @property
    def warnings(self) -> list[dict[str, Any]]:
        """The warnings of the compilation, as ``PolicyError.diagnostics`` lists them."""

    @property
    def limits(self) -> dict[str, int]:
        """The host limits: ``max_steps``, ``max_retries``, ``max_stop_requests``."""

@final
class Session:
    """One execution of a policy, as ``rulesc eval`` reads a JSON Lines stream.

    Each event starts from the metadata the previous outcome left. A session is locked
    while it evaluates: threads that share one take turns.
    """

    def observe(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """Evaluate the execution's next event; the outcome ``rulesc eval`` prints for it."""

    @property
    def metadata(self) -> dict[str, Any]:
        """The metadata the next event starts from."""

@final
class RunCounters:
    """The counters of one run, as its events see them: ``steps``, ``errors``, ``failures``
    and ``stop_requests``, moved only by the runtime's transitions, so each means what it
    means in the agent loop and under ``rulesc hook`` (docs/state.md, "What the counters
    mean"). Threads that share one take turns.
    """

    def __new__(cls, *, steps: int = 0, errors: int = 0, failures: int = 0, stop_requests: int = 0) -> RunCounters:
        """A new run, or one resumed with the counts a host kept."""

    def call_failed(self) -> None:
        """A model call or a tool call failed, or a tool call was blocked: one more error, one
        more failure in a row, and the step under way is one that failed."""

    def step_ended(self, counted: bool) -> None:
        """The step under way ended: it counts in ``steps`` when ``counted``, and when none of
        its calls failed the failures in a row are over."""

    @property
    def steps(self) -> int:
        """Steps completed so far."""

    @property
    def errors(self) -> int:
        """Failed calls, and blocked tool calls, in the whole run."""

    @property
    def failures(self) -> int:
        """Failed and blocked calls since a step last ended without one."""

    @property
    def stop_requests(self) -> int:
        """The stops prevented in a row."""
