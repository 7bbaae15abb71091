"""Reading the recorded fixtures: the helpers every verify_*.py check shares (a leaf: it
imports none of them)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from exchange import body_json, sse_data


def load(path: Path) -> Any:
  return json.loads(path.read_text(encoding="utf-8"))


def exchange(path: Path, name: str) -> dict[str, Any]:
  for ex in load(path)["exchanges"]:
    if ex["name"] == name:
      return ex
  raise KeyError(f"{path.name}: no exchange {name}")


def payloads(ex: dict[str, Any]) -> list[Any]:
  if "event-stream" in ex["response"]["headers"].get("content-type", ""):
    return sse_data(ex)
  return body_json(ex)


def turns(path: Path) -> list[dict[str, Any]]:
  return [ex for ex in load(path)["exchanges"] if ex["name"].startswith("turn_")]


def status(ok: bool, partly: bool = False) -> str:
  return "confirmed" if ok else ("partly" if partly else "not confirmed")
