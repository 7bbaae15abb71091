"""mock_strategy.jsonl: what ADK 2.13's LLM-backed parts of the environment simulation (the
tool-connection analysis and MOCK_STRATEGY_TOOL_SPEC) send to their model and what they make of
the answer, captured from a real ADK run: an LlmAgent with FunctionTools, driven by a scripted
agent model, under the plugin EnvironmentSimulationFactory.create_plugin makes, in an
InMemoryRunner. The simulation model is ADK's real Gemini class; only google-genai's
AsyncModels.generate_content is replaced, so nothing leaves the machine and every answer is
scripted. Reference for evalcore's own prompts, not a byte-for-byte target."""

from __future__ import annotations

import asyncio
import copy
import json
import os
from typing import Any, AsyncGenerator, Iterator

import logging

import adk_env  # noqa: F401 - silences ADK's warnings first

from google.adk.agents.llm_agent import LlmAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.google_llm import Gemini
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.tools.environment_simulation.environment_simulation_config import EnvironmentSimulationConfig
from google.adk.tools.environment_simulation.environment_simulation_factory import EnvironmentSimulationFactory
from google.genai import models as genai_models
from google.genai import types

logging.getLogger("google_adk").setLevel(logging.CRITICAL)  # the failing scenarios log tracebacks
logging.getLogger().setLevel(logging.CRITICAL)  # the analyzer warns through the root logger
os.environ.setdefault("GOOGLE_API_KEY", "offline-placeholder")  # genai's client needs one to build
os.environ["GOOGLE_GENAI_USE_VERTEXAI"] = "0"


def create_ticket(title: str, priority: int) -> dict:
  """Opens a support ticket and returns its id."""
  return {"real": "create_ticket"}


def get_ticket(ticket_id: str) -> dict:
  """Looks a ticket up by id."""
  return {"real": "get_ticket"}


def cancel_ticket(ticket_id: str, reason: str = "") -> dict:
  """Cancels a ticket."""
  return {"real": "cancel_ticket"}


def get_weather(city: str) -> dict:
  """Current weather for a city."""
  return {"real": "get_weather", "city": city}


TOOLS = [create_ticket, get_ticket, cancel_ticket, get_weather]
CONNECTIONS = json.dumps({"stateful_parameters": [{
    "parameter_name": "ticket_id", "creating_tools": ["create_ticket", "cancel_ticket"],
    "consuming_tools": ["get_ticket"]}]})


class ScriptedAgentModel(BaseLlm):
  """The agent under test: asks for the next scripted tool call each turn, then stops."""

  model: str = "scripted-agent"
  script: list = []

  async def generate_content_async(self, llm_request: Any, stream: bool = False
                                   ) -> AsyncGenerator[LlmResponse, None]:
    done = sum(1 for c in llm_request.contents for p in (c.parts or []) if p.function_response)
    if done < len(self.script):
      name, args = self.script[done]
      part = types.Part(function_call=types.FunctionCall(name=name, args=args, id=f"call-{done}"))
    else:
      part = types.Part(text="done")
    yield LlmResponse(content=types.Content(role="model", parts=[part]))


class Capture:
  """Replaces genai's AsyncModels.generate_content with scripted answers and records what
  ADK's Gemini class sent (and the LlmRequest ADK handed to Gemini)."""

  def __init__(self, answers: list[str]):
    self.answers = list(answers)
    self.exchanges: list[dict[str, Any]] = []
    self._pending_request: dict[str, Any] | None = None

  def patched_generate_content(self) -> Any:
    capture = self

    async def generate_content(_models: Any, *, model: str, contents: Any, config: Any = None):
      return capture.answer(model, contents, config)

    return generate_content

  def answer(self, model: str, contents: Any, config: Any) -> Any:
    answer = self.answers.pop(0) if self.answers else "{}"
    self.exchanges.append({
        "adk_llm_request": self._pending_request,
        "genai_call": {"model": model,
                       "contents": [c.model_dump(mode="json", exclude_none=True) for c in contents],
                       "config": _config_dump(config)},
        "answer": answer})
    if answer.startswith(THOUGHT):  # a thought part, then the answer part
      thought, _, text = answer[len(THOUGHT):].partition("\n")
      parts = [types.Part(text=thought, thought=True), types.Part(text=text)]
    else:
      parts = [types.Part(text=answer)]
    return types.GenerateContentResponse(candidates=[types.Candidate(
        content=types.Content(role="model", parts=parts), finish_reason=types.FinishReason.STOP)])

  def wrap_gemini(self, original: Any) -> Any:
    capture = self

    async def generate_content_async(gemini: Any, llm_request: Any, stream: bool = False):
      capture._pending_request = {
          "model": llm_request.model,
          "contents": [c.model_dump(mode="json", exclude_none=True) for c in llm_request.contents],
          "config": _config_dump(llm_request.config),
          "fields_set": sorted(llm_request.model_fields_set),
          "has_generation_config": "generation_config" in llm_request.model_dump()}
      async for response in original(gemini, llm_request, stream):
        yield response

    return generate_content_async


def _config_dump(config: Any) -> Any:
  if config is None:
    return None
  dumped = config.model_dump(mode="json", exclude_none=True)
  headers = (dumped.get("http_options") or {}).get("headers")
  if headers:  # ADK's tracking headers name the installed versions: keep the keys only
    dumped["http_options"]["headers"] = {k: "<version string>" for k in headers}
  return dumped


async def _run(config_text: str, script: list, answers: list[str]) -> dict[str, Any]:
  config = EnvironmentSimulationConfig.model_validate_json(config_text)
  plugin = EnvironmentSimulationFactory.create_plugin(config)
  engine = plugin._simulator_engine
  capture = Capture(answers)
  steps: list[dict[str, Any]] = []
  original_simulate = engine.simulate

  async def simulate(tool: Any, args: dict, tool_context: Any):
    start = len(capture.exchanges)
    step: dict[str, Any] = {"tool": tool.name, "args": copy.deepcopy(args)}
    steps.append(step)
    try:
      result = await original_simulate(tool, args, tool_context)
      step["simulate_returned"] = copy.deepcopy(result)
      return result
    except Exception as exc:
      step["simulate_raised"] = {"type": type(exc).__name__, "message": str(exc).splitlines()[0]}
      raise
    finally:
      step["llm_exchanges"] = capture.exchanges[start:]
      step["state_store_after"] = copy.deepcopy(engine._state_store)

  engine.simulate = simulate
  agent = LlmAgent(name="support", model=ScriptedAgentModel(script=script), tools=TOOLS,
                   instruction="Help with tickets.")
  runner = InMemoryRunner(agent=agent, app_name="env_sim", plugins=[plugin])
  session = await runner.session_service.create_session(app_name="env_sim", user_id="u")
  saved = (genai_models.AsyncModels.generate_content, Gemini.generate_content_async)
  genai_models.AsyncModels.generate_content = capture.patched_generate_content()
  Gemini.generate_content_async = capture.wrap_gemini(saved[1])
  error = None
  responses = []
  try:
    async for event in runner.run_async(user_id="u", session_id=session.id, new_message=types.Content(
        role="user", parts=[types.Part(text="go")])):
      for part in (event.content.parts if event.content else None) or []:
        if part.function_response:
          responses.append({"tool": part.function_response.name,
                            "response": part.function_response.response})
  except Exception as exc:  # noqa: BLE001 - the failure is what the vector records
    error = {"type": type(exc).__name__, "message": str(exc).splitlines()[0]}
  finally:
    genai_models.AsyncModels.generate_content, Gemini.generate_content_async = saved
  return {"steps": steps, "function_responses": responses, "error": error,
          "connection_map": (engine._tool_connection_map.model_dump(mode="json")
                             if engine._tool_connection_map is not None else None),
          "unused_answers": capture.answers}


def _config(tools: list[dict[str, Any]], **top: Any) -> str:
  return json.dumps({"tool_simulation_configs": tools, **top})


SPEC = 1
THOUGHT = "THOUGHT:"  # an answer starting so is sent as a thought part and a text part
TRACING = 2
ENV = json.dumps({"tickets": [{"ticket_id": "T-7", "title": "VPN down", "status": "open"}]})
TRACE = json.dumps([{"tool": "get_ticket", "args": {"ticket_id": "T-7"},
                     "response": {"ticket_id": "T-7", "status": "open"}}])

SCENARIOS: list[tuple[str, str, str, list, list[str]]] = [
    ("ticket-flow", "analysis once, then mocks; the state store grows on creating tools",
     _config([{"tool_name": "create_ticket", "mock_strategy_type": SPEC},
              {"tool_name": "get_ticket", "mock_strategy_type": SPEC},
              {"tool_name": "cancel_ticket", "mock_strategy_type": SPEC, "injection_configs": [
                  {"match_args": {"reason": "test"}, "injected_response": {"cancelled": "by test"}}]},
              {"tool_name": "lookup_order", "mock_strategy_type": SPEC}],
             environment_data=ENV, tracing=TRACE),
     [("create_ticket", {"title": "Printer jam", "priority": 2}), ("get_ticket", {"ticket_id": "T-1"}),
      ("cancel_ticket", {"ticket_id": "T-1", "reason": "test"}),
      ("cancel_ticket", {"ticket_id": "T-1", "reason": "done"}), ("get_weather", {"city": "Paris"}),
      ("lookup_order", {"order_id": "O-9"}), ("get_ticket", {"ticket_id": "T-404"}),
      ("get_ticket", {"ticket_id": "T-1"}), ("create_ticket", {"title": "é", "priority": 1})],
     [CONNECTIONS, '{"ticket_id": "T-1", "status": "open"}',
      '```json\n{"ticket_id": "T-1", "status": "open", "title": "Printer jam"}\n```',
      '{"result": {"ticket_id": "T-1", "status": "cancelled"}}', "not json at all", "[1, 2]",
      '{"ticket_id": null, "ticket": {"ticket_id": "T-2"}}']),
    ("analysis-unparseable", "an unparseable analysis leaves an empty map, and mocks go on",
     _config([{"tool_name": "get_ticket", "mock_strategy_type": SPEC}]),
     [("get_ticket", {"ticket_id": "T-1"})], ["I cannot do that.", '{"ticket_id": "T-1"}']),
    ("analysis-wrong-shape", "a JSON analysis of the wrong shape raises out of the run",
     _config([{"tool_name": "get_ticket", "mock_strategy_type": SPEC}]),
     [("get_ticket", {"ticket_id": "T-1"})], ['{"params": []}']),
    ("tracing-strategy", "MOCK_STRATEGY_TRACING: analysis, then a fixed error dict",
     _config([{"tool_name": "get_ticket", "mock_strategy_type": TRACING}]),
     [("get_ticket", {"ticket_id": "T-1"})], [CONNECTIONS]),
    ("injection-triggers-analysis", "an injected call still pays for the analysis first",
     _config([{"tool_name": "get_weather", "injection_configs": [{"injected_response": {"sun": 1}}]},
              {"tool_name": "get_ticket", "mock_strategy_type": SPEC}]),
     [("get_weather", {"city": "Oslo"}), ("get_weather", {"city": "Rome"})], [CONNECTIONS]),
    ("unhashable-state-key", "a creating tool whose id comes back as a list raises",
     _config([{"tool_name": "create_ticket", "mock_strategy_type": SPEC}]),
     [("create_ticket", {"title": "x", "priority": 1})],
     [CONNECTIONS, '{"ticket_id": ["T", 1]}']),
    ("custom-llm-config", "simulation_model_configuration goes out as the request config",
     _config([{"tool_name": "get_ticket", "mock_strategy_type": SPEC}],
             simulation_model="gemini-2.0-flash",
             simulation_model_configuration={"temperature": 0.1, "responseMimeType": "text/plain"}),
     [("get_ticket", {"ticket_id": "T-1"}), ("get_ticket", {"ticket_id": "T-2"})],
     [CONNECTIONS, '{"ticket_id": "T-1"}', '{"ticket_id": "T-2"}']),
    ("thought-parts", "with include_thoughts the thought text joins the answer before parsing",
     _config([{"tool_name": "get_ticket", "mock_strategy_type": SPEC}],
             simulation_model_configuration={"thinking_config": {"include_thoughts": True}}),
     [("get_ticket", {"ticket_id": "T-1"})],
     [THOUGHT + "Looking at the tools.\n" + CONNECTIONS,
      THOUGHT + "The id exists.\n" + '{"ticket_id": "T-1"}']),
]


def records() -> Iterator[dict[str, Any]]:
  for case_id, note, config_text, script, answers in SCENARIOS:
    outcome = asyncio.run(_run(config_text, script, answers))
    yield {"id": case_id, "note": note, "config_text": config_text,
           "agent_calls": [{"tool": n, "args": a} for n, a in script], "answers": answers,
           **outcome}
