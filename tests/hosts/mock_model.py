"""A scripted model on 127.0.0.1 speaking the three hosts' model APIs.

Each scenario gives the mock a list of steps: shell commands, or `{"patch": ...}` for Codex's
`apply_patch`. Every request that offers the host's
shell tool is answered, statelessly, from how many tool results the conversation already
holds: the next command as a tool call, or the final text once all have been called. Every
request body is kept, so a scenario can read what the host sent back to the model (a tool's
output, or the hook's reason for refusing it).

APIs: Anthropic Messages (`POST /v1/messages`, SSE when `stream` is true) for Claude Code,
OpenAI Responses (`POST /v1/responses`, SSE) for Codex, and Gemini's `generateContent` /
`streamGenerateContent` (`POST /v1beta/models/M:...`) for Gemini CLI.
"""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

FINAL_TEXT = "all done"
# Claude Code's tool that loads the schemas of deferred tools (MCP tools, in newer releases).
TOOL_SEARCH = "ToolSearch"


class Mock:
    """One scripted model server; `requests` lists every (path, body) it received."""

    def __init__(self, commands: list[str | dict[str, str]]):
        self.commands = commands
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        handler = type("Handler", (_Handler,), {"mock": self})
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "Mock":
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def record(self, path: str, body: Any) -> None:
        with self.lock:
            self.requests.append({"path": path, "body": body})

    def next_command(self, done: int) -> str | dict[str, str] | None:
        return self.commands[done] if done < len(self.commands) else None

    def tool_results(self) -> list[str]:
        """The text of every tool result the host sent back, in order, without repeats
        (each request repeats the conversation so far)."""
        seen: list[str] = []
        for req in self.requests:
            for text in results_in(req["path"], req["body"]):
                if text not in seen:
                    seen.append(text)
        return seen


def mcp_tool(names: list[str], step: Any) -> str | None:
    """The name under which the host offers the MCP tool a `{"mcp": NAME}` step calls."""
    if not isinstance(step, dict) or "mcp" not in step:
        return None
    return next((n for n in names if isinstance(n, str) and n.endswith(step["mcp"])), None)


def _deferred_name(body: dict[str, Any], step: Any) -> str | None:
    """The full name of a deferred MCP tool that Claude Code lists by name only."""
    if not isinstance(step, dict) or "mcp" not in step:
        return None
    found = re.search(r"mcp__[A-Za-z0-9_-]+?__" + re.escape(step["mcp"]), json.dumps(body))
    return found.group(0) if found else None


def _searched(body: dict[str, Any]) -> bool:
    return TOOL_SEARCH in json.dumps([m.get("content") for m in body.get("messages", []) if m.get("role") == "assistant"])


def _deferred_tool(outputs: list[dict[str, Any]], wanted: str) -> dict[str, str]:
    """The name (and namespace) of the tool `wanted` in Codex's `tool_search_output` items."""
    for out in outputs:
        for tool in out.get("tools") or []:
            if not isinstance(tool, dict):
                continue
            if str(tool.get("name", "")).endswith(wanted):
                return {"name": tool["name"]}
            for inner in tool.get("tools") or []:
                if isinstance(inner, dict) and str(inner.get("name", "")).endswith(wanted):
                    return {"name": inner["name"], "namespace": tool.get("name", "")}
    return {}


def _text_of(value: Any) -> str:
    """Flattens a tool result's content (string, list of blocks, dict) into text."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(_text_of(v) for v in value)
    if isinstance(value, dict):
        for key in ("text", "content", "output", "llmContent", "error"):
            if key in value:
                return _text_of(value[key])
        return json.dumps(value, sort_keys=True)
    return "" if value is None else str(value)


def results_in(path: str, body: Any) -> list[str]:
    out: list[str] = []
    if not isinstance(body, dict):
        return out
    if path.startswith("/v1/messages"):
        # Claude Code's ToolSearch only loads deferred tools: its results are not a step.
        searches = set()
        for msg in body.get("messages", []):
            content = msg.get("content")
            if isinstance(content, list):
                for block in content:
                    if not isinstance(block, dict):
                        continue
                    if block.get("type") == "tool_use" and block.get("name") == TOOL_SEARCH:
                        searches.add(block.get("id"))
                    elif block.get("type") == "tool_result" and block.get("tool_use_id") not in searches:
                        out.append(_text_of(block.get("content")))
    elif path.startswith("/v1/responses"):
        for item in body.get("input", []):
            if isinstance(item, dict) and item.get("type") in (
                "function_call_output",
                "custom_tool_call_output",
            ):
                out.append(_text_of(item.get("output")))
    elif "/models/" in path:
        for content in body.get("contents", []):
            for part in content.get("parts", []):
                if isinstance(part, dict) and "functionResponse" in part:
                    out.append(_text_of(part["functionResponse"].get("response")))
    return out


class _Handler(BaseHTTPRequestHandler):
    mock: Mock
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass

    def do_GET(self) -> None:  # noqa: N802
        self.mock.record(self.path, None)
        self._json(404, {"error": {"message": "not found"}})

    def do_HEAD(self) -> None:  # noqa: N802
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"null")
        except ValueError:
            body = raw.decode("utf-8", "replace")
        self.mock.record(self.path, body)
        path = self.path.split("?", 1)[0]
        if path.endswith("/count_tokens") or path.endswith(":countTokens"):
            self._json(200, {"input_tokens": 10, "totalTokens": 10})
        elif path.startswith("/v1/messages"):
            self._anthropic(body)
        elif path.startswith("/v1/responses"):
            self._responses(body)
        elif "/models/" in path:
            self._gemini(path, body)
        else:
            self._json(404, {"error": {"message": f"no mock for {path}"}})

    # -- plumbing

    def _json(self, status: int, obj: Any) -> None:
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _sse(self, events: list[tuple[str | None, Any]]) -> None:
        chunks = []
        for name, data in events:
            head = f"event: {name}\n" if name else ""
            chunks.append(f"{head}data: {json.dumps(data)}\n\n")
        payload = "".join(chunks).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    # -- Anthropic Messages (Claude Code)

    def _anthropic(self, body: dict[str, Any]) -> None:
        tools = [t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)]
        done = len(results_in("/v1/messages", body))
        step = self.mock.next_command(done)
        command = step if isinstance(step, str) and "Bash" in tools else None
        mcp = mcp_tool(tools, step)
        n = len(self.mock.requests)
        deferred = _deferred_name(body, step) if mcp is None else None
        if deferred is not None and TOOL_SEARCH in tools and not _searched(body):
            # The MCP tool is deferred: load its schema first, call it in the next turn.
            args_json = {"query": f"select:{deferred}"}
            block = {"type": "tool_use", "id": f"toolu_{n:04d}", "name": TOOL_SEARCH, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(args_json)}
            full = dict(block, input=args_json)
            stop = "tool_use"
        elif mcp is not None or deferred is not None:
            mcp = mcp or deferred
            args = step.get("args", {})
            block = {"type": "tool_use", "id": f"toolu_{n:04d}", "name": mcp, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(args)}
            full = dict(block, input=args)
            stop = "tool_use"
        elif command is not None:
            block = {"type": "tool_use", "id": f"toolu_{n:04d}", "name": "Bash", "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps({"command": command})}
            full = dict(block, input={"command": command})
            stop = "tool_use"
        else:
            block = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": FINAL_TEXT}
            full = {"type": "text", "text": FINAL_TEXT}
            stop = "end_turn"
        model = body.get("model", "claude-mock")
        usage = {"input_tokens": 10, "output_tokens": 5}
        message = {
            "id": f"msg_{n:04d}",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": usage,
        }
        if not body.get("stream"):
            self._json(200, dict(message, content=[full], stop_reason=stop))
            return
        self._sse(
            [
                ("message_start", {"type": "message_start", "message": message}),
                ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}),
                ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
                ("content_block_stop", {"type": "content_block_stop", "index": 0}),
                (
                    "message_delta",
                    {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}, "usage": usage},
                ),
                ("message_stop", {"type": "message_stop"}),
            ]
        )

    # -- OpenAI Responses (Codex)

    def _responses(self, body: dict[str, Any]) -> None:
        tools = {}
        for t in body.get("tools") or []:
            if isinstance(t, dict):
                tools[t.get("name") or t.get("type")] = t
        done = len(results_in("/v1/responses", body))
        n = len(self.mock.requests)
        command = self.mock.next_command(done)
        mcp = mcp_tool(list(tools), command)
        searched = [i for i in body.get("input", []) if isinstance(i, dict) and i.get("type") == "tool_search_output"]
        if isinstance(command, dict) and "mcp" in command and mcp is None and "tool_search" in tools and not searched:
            # Codex offers MCP tools behind `tool_search`: search first, call in the next turn.
            item = {
                "type": "tool_search_call",
                "call_id": f"search_{n:04d}",
                "execution": "client",
                "arguments": {"query": command["mcp"], "limit": 8},
            }
        elif isinstance(command, dict) and "mcp" in command and mcp is None and searched:
            found = _deferred_tool(searched, command["mcp"])
            item = {
                "type": "function_call",
                "id": f"fc_{n:04d}",
                "call_id": f"call_{n:04d}",
                "name": found.get("name", command["mcp"]),
                "arguments": json.dumps(command.get("args", {})),
            }
            if found.get("namespace"):
                item["namespace"] = found["namespace"]
        elif mcp is not None:
            item = {
                "type": "function_call",
                "id": f"fc_{n:04d}",
                "call_id": f"call_{n:04d}",
                "name": mcp,
                "arguments": json.dumps(command.get("args", {})),
            }
        elif isinstance(command, dict) and "patch" in command and "apply_patch" in tools:
            # Codex's freeform apply_patch: a custom tool whose input is the raw patch.
            item = {
                "type": "custom_tool_call",
                "id": f"ctc_{n:04d}",
                "call_id": f"call_{n:04d}",
                "name": "apply_patch",
                "input": command["patch"],
            }
        elif isinstance(command, str) and "exec_command" in tools:
            item = {
                "type": "function_call",
                "id": f"fc_{n:04d}",
                "call_id": f"call_{n:04d}",
                "name": "exec_command",
                "arguments": json.dumps({"cmd": command}),
            }
        elif isinstance(command, str) and "shell" in tools:
            item = {
                "type": "function_call",
                "id": f"fc_{n:04d}",
                "call_id": f"call_{n:04d}",
                "name": "shell",
                "arguments": json.dumps({"command": ["bash", "-lc", command]}),
            }
        else:
            item = {
                "type": "message",
                "id": f"msg_{n:04d}",
                "role": "assistant",
                "content": [{"type": "output_text", "text": FINAL_TEXT}],
            }
        rid = f"resp_{n:04d}"
        usage = {
            "input_tokens": 10,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 5,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 15,
        }
        self._sse(
            [
                ("response.created", {"type": "response.created", "response": {"id": rid}}),
                ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
                (
                    "response.completed",
                    {"type": "response.completed", "response": {"id": rid, "usage": usage, "output": []}},
                ),
            ]
        )

    # -- Gemini (Gemini CLI)

    def _gemini(self, path: str, body: dict[str, Any]) -> None:
        names: list[str] = []
        for group in body.get("tools") or []:
            for decl in group.get("functionDeclarations") or []:
                names.append(decl.get("name"))
        done = len(results_in(path, body))
        step = self.mock.next_command(done)
        command = step if isinstance(step, str) and "run_shell_command" in names else None
        mcp = mcp_tool(names, step)
        if mcp is not None:
            part: dict[str, Any] = {"functionCall": {"name": mcp, "args": step.get("args", {})}}
        elif command is not None:
            part = {"functionCall": {"name": "run_shell_command", "args": {"command": command}}}
        elif names:
            part = {"text": FINAL_TEXT}
        else:
            # A side request without tools (routing, a next-speaker check, a summary): answer
            # with JSON that each of those reads as "nothing to do".
            part = {"text": json.dumps({"reasoning": "mock", "next_speaker": "user", "model_choice": "flash"})}
        response = {
            "candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
            "modelVersion": "gemini-mock",
        }
        if ":streamGenerateContent" in path:
            self._sse([(None, response)])
        else:
            self._json(200, response)
