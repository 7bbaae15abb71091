"""Raw HTTP exchanges recorded as fixtures (stdlib http.client, nothing in between).

A fixture file is {"recorded_with", "server", "notes", "exchanges": [...]};
each exchange is what went over the wire: the request (method, path, headers
we sent, JSON body) and the response (status, reason, headers but `date`, and
the body exactly as received, as text). A streamed body (SSE) is kept whole,
framing included, so a test can replay it byte for byte.
"""

from __future__ import annotations

import http.client
import json
import platform
from importlib import metadata
from pathlib import Path
from typing import Any

SKIP_HEADERS = {"date"}


def versions() -> dict[str, str]:
  out = {"python": platform.python_version()}
  for dist in ("google-adk", "a2a-sdk", "fastapi", "starlette", "sse-starlette", "uvicorn"):
    try:
      out[dist] = metadata.version(dist)
    except metadata.PackageNotFoundError:
      pass
  return out


class Recorder:
  """Sends requests to one server and keeps every exchange in order."""

  def __init__(self, port: int, timeout: float = 60.0):
    self.port = port
    self.timeout = timeout
    self.exchanges: list[dict[str, Any]] = []

  def send(self, name: str, method: str, path: str, body: Any = None,
           headers: dict[str, str] | None = None, raw_body: bytes | None = None) -> dict[str, Any]:
    sent = dict(headers or {})
    data = raw_body
    if body is not None:
      data = json.dumps(body, ensure_ascii=False).encode()
      sent.setdefault("Content-Type", "application/json")
    conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
    conn.request(method, path, body=data, headers=sent)
    resp = conn.getresponse()
    text = resp.read().decode("utf-8")
    conn.close()
    request: dict[str, Any] = {"method": method, "path": path, "headers": sent}
    if body is not None:
      request["body"] = body
    elif raw_body is not None:
      request["raw_body"] = raw_body.decode("utf-8", "replace")
    ex = {
        "name": name,
        "request": request,
        "response": {
            "status": resp.status,
            "reason": resp.reason,
            "headers": {k.lower(): v for k, v in resp.getheaders() if k.lower() not in SKIP_HEADERS},
            "body": text,
        },
    }
    self.exchanges.append(ex)
    return ex

  def mark(self, name: str, note: str) -> None:
    """A step that is not an HTTP exchange (e.g. the server was restarted)."""
    self.exchanges.append({"name": name, "note": note})


def body_json(ex: dict[str, Any]) -> Any:
  return json.loads(ex["response"]["body"])


def sse_data(ex: dict[str, Any]) -> list[Any]:
  """The JSON payloads of an SSE body's events (data lines joined), any line ending."""
  out = []
  text = ex["response"]["body"].replace("\r\n", "\n").replace("\r", "\n")
  for block in text.split("\n\n"):
    lines = [line[5:].removeprefix(" ") for line in block.split("\n") if line.startswith("data:")]
    if lines:
      out.append(json.loads("\n".join(lines)))
  return out


def write(path: Path, server: str, notes: list[str], exchanges: list[dict[str, Any]]) -> None:
  path.parent.mkdir(parents=True, exist_ok=True)
  doc = {"recorded_with": versions(), "server": server, "notes": notes, "exchanges": exchanges}
  path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
