"""A model that answers from a script instead of the network.

Each agent gets its own ScriptedLlm (its `model` string names the agent's part
of the script). The script is keyed by the user's message of the current turn;
the step within the turn is the number of model contents the agent has already
produced since that message, so a tool round trip moves to the next step. A
step is text, function calls, or both; text may be a function of the function
responses the model just received, which is how session state read by a tool
shows in the answer. Usage metadata is computed from the request and the
answer, so it is deterministic.

With stream=True (only `/run_sse` with "streaming": true asks for it; `adk
eval`, `/run` and the A2A server do not) the model yields partial text chunks
first and then the whole response, as ADK's BaseLlm contract describes.
"""

from __future__ import annotations

import json
from typing import Any, AsyncGenerator, Callable, Union

from google.adk.models._capabilities import LlmCapabilities
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.genai import types

Text = Union[str, Callable[[list[dict[str, Any]]], str]]


def step(text: Text | None = None, calls: list[tuple[str, dict]] | None = None):
  """One model response: optional text, then function calls in order."""
  return {"text": text, "calls": calls or []}


def _is_turn_start(content: types.Content) -> bool:
  """A user message the person typed (not a tool result, not another agent's relayed transcript)."""
  if content.role != "user" or not content.parts:
    return False
  if any(p.function_response for p in content.parts):
    return False
  texts = [p.text for p in content.parts if p.text]
  return bool(texts) and not texts[0].startswith("For context:")


def _turn(request: LlmRequest) -> tuple[str, int, list[dict[str, Any]]]:
  """The current user message, the step index and the latest function responses."""
  contents = request.contents or []
  start = None
  for i in range(len(contents) - 1, -1, -1):
    if _is_turn_start(contents[i]):
      start = i
      break
  if start is None:
    return "", 0, []
  message = "".join(p.text or "" for p in contents[start].parts or [])
  later = contents[start + 1:]
  step_index = sum(1 for c in later if c.role == "model")
  responses: list[dict[str, Any]] = []
  if later and later[-1].role == "user":
    for p in later[-1].parts or []:
      if p.function_response:
        responses.append({
            "name": p.function_response.name,
            "response": p.function_response.response,
        })
  return message, step_index, responses


def _words(text: str) -> int:
  return len(text.split())


class ScriptedLlm(BaseLlm):
  """BaseLlm whose answers come from `script[user message][step]`."""

  script: dict[str, list[dict[str, Any]]]

  @property
  def capabilities(self) -> LlmCapabilities:
    return LlmCapabilities(output_schema_and_tools=False)

  def _answer(self, request: LlmRequest) -> tuple[list[types.Part], str]:
    message, index, responses = _turn(request)
    steps = self.script.get(message)
    if steps is None:
      return [types.Part(text=f"[{self.model}] no script for: {message}")], ""
    if index >= len(steps):
      return [types.Part(text=f"[{self.model}] script ended at step {index}")], ""
    spec = steps[index]
    parts: list[types.Part] = []
    text = spec["text"]
    if callable(text):
      text = text(responses)
    if text:
      parts.append(types.Part(text=text))
    for name, args in spec["calls"]:
      parts.append(
          types.Part(function_call=types.FunctionCall(name=name, args=args))
      )
    return parts, text or ""

  def _usage(self, request: LlmRequest, parts: list[types.Part], text: str):
    prompt = sum(
        len(json.dumps(c.model_dump(mode="json", exclude_none=True)))
        for c in request.contents or []
    ) // 16 + 40
    calls = sum(1 for p in parts if p.function_call)
    candidates = _words(text) + 6 * calls
    return types.GenerateContentResponseUsageMetadata(
        prompt_token_count=prompt,
        candidates_token_count=candidates,
        total_token_count=prompt + candidates,
    )

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    parts, text = self._answer(llm_request)
    if stream and text:
      words = text.split(" ")
      half = max(1, len(words) // 2)
      for chunk in (" ".join(words[:half]) + " ", " ".join(words[half:])):
        if chunk.strip():
          yield LlmResponse(
              content=types.Content(role="model", parts=[types.Part(text=chunk)]),
              partial=True,
              model_version=self.model,
          )
    yield LlmResponse(
        content=types.Content(role="model", parts=parts),
        partial=False if stream else None,
        usage_metadata=self._usage(llm_request, parts, text),
        model_version=self.model,
    )
