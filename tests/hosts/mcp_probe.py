"""A stdio MCP server with one tool, `send_note`, for the hosts suite's MCP scenario.

Usage: mcp_probe.py LOG. Every `tools/call` it receives is appended to LOG as a JSON line, so
a scenario can tell a call the hook refused (never reaches the server) from one that ran.
"""

from __future__ import annotations

import json
import sys

TOOLS = [
    {
        "name": "send_note",
        "description": "Send a short note to the team.",
        "inputSchema": {
            "type": "object",
            "properties": {"text": {"type": "string", "description": "the note"}},
            "required": ["text"],
        },
    }
]


def answer(msg: dict, log: str) -> dict | None:
    method = msg.get("method")
    if "id" not in msg:
        return None  # a notification
    if method == "initialize":
        version = (msg.get("params") or {}).get("protocolVersion", "2025-06-18")
        result: dict = {
            "protocolVersion": version,
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "probe", "version": "1.0.0"},
        }
    elif method == "tools/list":
        result = {"tools": TOOLS}
    elif method == "tools/call":
        with open(log, "a") as f:
            f.write(json.dumps(msg.get("params")) + "\n")
        result = {"content": [{"type": "text", "text": "note sent"}]}
    elif method == "ping":
        result = {}
    else:
        return {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": f"no method {method}"}}
    return {"jsonrpc": "2.0", "id": msg["id"], "result": result}


def main() -> None:
    log = sys.argv[1]
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        reply = answer(msg, log)
        if reply is not None:
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
