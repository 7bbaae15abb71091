"""Confirms that calls.jsonl's way of driving the engine (ADK's PluginManager, args deep-copied,
no tool context) is what a real ADK run does: the same call sequences go through an
InMemoryRunner, an LlmAgent whose scripted model asks for one tool call per turn, and the plugin
EnvironmentSimulationFactory.create_plugin makes. A call the engine does not answer reaches the
agent's real tool, which answers {"real": <tool name>}."""

from __future__ import annotations

import asyncio
import copy
import random
from typing import Any

import adk_env

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.run_config import RunConfig
from google.adk.runners import InMemoryRunner
from google.adk.tools.base_tool import BaseTool
from google.adk.tools.environment_simulation.environment_simulation_factory import EnvironmentSimulationFactory
from google.genai import types

from gen_mock import ScriptedAgentModel


class RealTool(BaseTool):
  """A tool of the agent under test: says that it ran."""

  def _get_declaration(self) -> types.FunctionDeclaration:
    return types.FunctionDeclaration(name=self.name, description=self.description)

  async def run_async(self, *, args: dict[str, Any], tool_context: Any) -> Any:
    return {"real": self.name}


async def _run(case: dict[str, Any]) -> list[dict[str, Any]]:
  config, _ = adk_env.validate(case["config_text"], "json")
  plugin = EnvironmentSimulationFactory.create_plugin(config)
  if case["shared_seed"] is not None:  # the test hook, as adk_env.drive applies it
    plugin._simulator_engine._random_generator = random.Random(case["shared_seed"])
  names = sorted({c["tool"] for c in case["calls"]})
  script = [(c["tool"], copy.deepcopy(c["args"])) for c in case["calls"]]
  agent = LlmAgent(name="agent", model=ScriptedAgentModel(script=script),
                   tools=[RealTool(name=n, description="real") for n in names])
  runner = InMemoryRunner(agent=agent, app_name="env_sim_e2e", plugins=[plugin])
  session = await runner.session_service.create_session(app_name="env_sim_e2e", user_id="u")
  view = adk_env._AsyncioView()
  real = adk_env.engine_mod.asyncio
  adk_env.engine_mod.asyncio = view
  out = []
  try:
    async for event in runner.run_async(
        user_id="u", session_id=session.id,
        new_message=types.Content(role="user", parts=[types.Part(text="go")]),
        run_config=RunConfig(max_llm_calls=len(script) + 5)):
      for part in (event.content.parts if event.content else None) or []:
        if part.function_response:
          out.append({"tool": part.function_response.name,
                      "response": part.function_response.response})
  finally:
    adk_env.engine_mod.asyncio = real
  return out


def check(case: dict[str, Any]) -> str | None:
  """None when the runner's function responses agree with the vector, else the first
  difference."""
  got = asyncio.run(_run(case))
  if len(got) != len(case["calls"]):
    return f"{case['id']}: {len(got)} function responses for {len(case['calls'])} calls"
  for index, (call, result, seen) in enumerate(zip(case["calls"], case["results"], got)):
    want = result["response"] if result["response"] is not None else {"real": call["tool"]}
    if adk_env.line(seen["response"]) != adk_env.line(want):
      return f"{case['id']} call {index}: runner gave {seen['response']!r}, vector {want!r}"
  return None
