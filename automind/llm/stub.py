"""A loopback OpenAI-compatible server for tests: the real `openai` client path runs, offline.

Script answers in order with `push(...)` (errors, delays, garbage bodies, tool calls), or set
`handler(body) -> response` to answer from the request. Every request body is kept in `requests`.
Stdlib only, so any test (or `automind llm check` demo) can start one on a random local port.
`SilentServer` accepts connections and never answers: the hung endpoint the call deadlines guard against.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Response = dict[str, Any]


def reply(
    text: str = "ok",
    *,
    tool_args: dict[str, Any] | str | None = None,
    tool_name: str = "answer",
    prompt_tokens: int = 10,
    completion_tokens: int = 5,
    model: str | None = None,
) -> Response:
    """A 200 chat completion; `tool_args` as a dict (or a raw, possibly broken, string) makes a tool call."""
    message: dict[str, Any] = {"role": "assistant", "content": text if tool_args is None else None}
    if tool_args is not None:
        raw = tool_args if isinstance(tool_args, str) else json.dumps(tool_args)
        call = {"id": "call_1", "type": "function", "function": {"name": tool_name, "arguments": raw}}
        message["tool_calls"] = [call]
    body = {
        "id": "chatcmpl-stub",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if tool_args else "stop"}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }
    return {"status": 200, "json": body}


def error(status: int, message: str = "stub error", headers: dict[str, str] | None = None) -> Response:
    return {
        "status": status,
        "json": {"error": {"message": message, "type": "stub", "code": status}},
        "headers": headers or {},
    }


def garbage(body: str = "<html>not json", status: int = 200) -> Response:
    return {"status": status, "raw": body}


def delayed(seconds: float, then: Response | None = None) -> Response:
    return {**(then or reply()), "delay": seconds}


class StubServer:
    """Start with `with StubServer() as stub:`; point clients at `stub.url` (ends in /v1)."""

    def __init__(self, handler: Callable[[dict[str, Any]], Response] | None = None):
        self.queue: deque[Response] = deque()
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.handler = handler or (lambda body: reply("ok"))
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def push(self, *responses: Response) -> StubServer:
        self.queue.extend(responses)
        return self

    @property
    def url(self) -> str:
        assert self._server is not None, "server not started"
        host, port = self._server.server_address[:2]
        assert isinstance(host, str), "bound to a str host in start()"
        return f"http://{host}:{port}/v1"

    def _respond(self, body: dict[str, Any]) -> Response:
        resp = self.queue.popleft() if self.queue else self.handler(body)
        if (
            isinstance(resp.get("json"), dict)
            and "choices" in resp["json"]
            and resp["json"].get("model") is None
        ):
            resp["json"]["model"] = body.get("model", "stub")
        return resp

    def start(self) -> StubServer:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

            def _send(self, resp: Response) -> None:
                if resp.get("delay"):
                    time.sleep(resp["delay"])
                payload = resp.get("raw")
                if payload is None:
                    data = resp.get("json", {})
                    if isinstance(data, dict) and data.get("model", "") is None:
                        data["model"] = "stub"
                    payload = json.dumps(data)
                raw = payload.encode("utf-8")
                try:
                    self.send_response(resp.get("status", 200))
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(raw)))
                    for k, v in resp.get("headers", {}).items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(raw)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except json.JSONDecodeError:
                    body = {}
                stub.requests.append(body)
                stub.headers.append({k.lower(): v for k, v in self.headers.items()})
                self._send(stub._respond(body))

            def do_GET(self) -> None:
                self._send(
                    {"status": 200, "json": {"object": "list", "data": [{"id": "stub", "object": "model"}]}}
                )

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> StubServer:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


class SilentServer:
    """A loopback endpoint that accepts every connection and never sends a byte (until stopped)."""

    def __init__(self) -> None:
        self._sock = socket.create_server(("127.0.0.1", 0))
        self._sock.settimeout(0.05)
        self._conns: list[socket.socket] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        host, port = self._sock.getsockname()[:2]
        self.url = f"http://{host}:{port}/v1"

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except (TimeoutError, OSError):
                continue
            self._conns.append(conn)  # held open, never read, never answered

    def __enter__(self) -> SilentServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        for conn in [*self._conns, self._sock]:
            conn.close()
