"""Shared helpers for the environment-simulation vectors: loading google-adk 2.13's real
classes, turning Python values into JSON that any parser reads, and driving one engine through
ADK's plugin manager the way ADK's tool-call flow does.

Everything here calls ADK's own code; the only things replaced are the engine module's view of
`asyncio` (so an injected latency is recorded instead of slept) and, when a vector asks for it,
the engine's shared unseeded generator (a test hook, see NOTES.md).
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import math
import random
import warnings
from typing import Any

warnings.simplefilter("ignore")  # ADK's @experimental warns on every construction
logging.getLogger("environment_simulation_logger").setLevel(logging.ERROR)  # one warning per miss

from google.adk.plugins.plugin_manager import PluginManager  # noqa: E402
from google.adk.tools.base_tool import BaseTool  # noqa: E402
from google.adk.tools.environment_simulation import environment_simulation_engine as engine_mod  # noqa: E402
from google.adk.tools.environment_simulation.environment_simulation_config import EnvironmentSimulationConfig  # noqa: E402
from google.adk.tools.environment_simulation.environment_simulation_factory import EnvironmentSimulationFactory  # noqa: E402
from pydantic import ValidationError  # noqa: E402

ADK_VERSION = "2.13.0"


def jsonable(value: Any) -> Any:
  """Python value -> plain JSON value. Non-finite floats become {"$float": "NaN"} (and
  "Infinity" / "-Infinity") so that every line stays standard JSON; ints stay ints of any size
  and floats stay floats (json.dumps writes 1.0 as 1.0)."""
  if isinstance(value, float) and not math.isfinite(value):
    return {"$float": "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")}
  if isinstance(value, dict):
    return {str(k): jsonable(v) for k, v in value.items()}
  if isinstance(value, (list, tuple)):
    return [jsonable(v) for v in value]
  return value


def from_jsonable(value: Any) -> Any:
  """The inverse of jsonable for inputs read back from a vector file: {"$float": "NaN"} (and
  "Infinity" / "-Infinity") becomes the float again, each time a new float object."""
  if isinstance(value, dict):
    if len(value) == 1 and value.get("$float") in ("NaN", "Infinity", "-Infinity"):
      return float(value["$float"])
    return {k: from_jsonable(v) for k, v in value.items()}
  if isinstance(value, list):
    return [from_jsonable(v) for v in value]
  return value


def line(record: dict[str, Any]) -> str:
  return json.dumps(jsonable(record), ensure_ascii=True, allow_nan=False, separators=(",", ":"))


def dump_config(config: EnvironmentSimulationConfig) -> dict[str, Any]:
  """The normalised config: ADK's model_dump(mode="json"), with genai's GenerateContentConfig
  dumped with exclude_none (it has ~50 optional fields, all None unless set)."""
  dumped = config.model_dump(mode="json")
  dumped["simulation_model_configuration"] = (
      config.simulation_model_configuration.model_dump(mode="json", exclude_none=True)
  )
  return dumped


def errors_of(error: ValidationError) -> list[dict[str, Any]]:
  return [{"type": e["type"], "loc": list(e["loc"]), "msg": e["msg"]} for e in error.errors()]


def validate(text: str, mode: str) -> tuple[EnvironmentSimulationConfig | None, dict[str, Any]]:
  """Reads a config as ADK's pydantic model does. mode "json": model_validate_json(text)
  (pydantic's own JSON parser); mode "python": model_validate(json.loads(text))."""
  try:
    if mode == "json":
      config = EnvironmentSimulationConfig.model_validate_json(text)
    else:
      config = EnvironmentSimulationConfig.model_validate(json.loads(text))
  except ValidationError as error:
    return None, {"errors": errors_of(error)}
  except ValueError as error:  # json.loads in python mode: not JSON at all
    return None, {"not_json": type(error).__name__}
  return config, {"config": dump_config(config)}


def build_engine_outcome(config: EnvironmentSimulationConfig) -> dict[str, Any]:
  """What happens when ADK builds the engine (the factory does this): the simulation model is
  resolved here, whether or not any tool uses a mock strategy."""
  try:
    engine = engine_mod.EnvironmentSimulationEngine(config)
  except Exception as error:  # noqa: BLE001 - the outcome is the vector
    return {"ok": False, "error_type": type(error).__name__, "message": str(error)}
  return {"ok": True, "llm_class": type(engine._analyzer._llm).__name__}


class _AsyncioView:
  """Stands in for the engine module's `asyncio`: sleep records its delay and yields once,
  everything else is the real module."""

  def __init__(self) -> None:
    self.slept: list[float] = []

  async def sleep(self, delay: float, result: Any = None) -> Any:
    self.slept.append(delay)
    await asyncio.sleep(0)
    return result

  def __getattr__(self, name: str) -> Any:
    return getattr(asyncio, name)


class _Tagged:
  """Delegates random() to a generator and logs (injection index, value) per draw."""

  def __init__(self, generator: random.Random, index: int, log: list, record_value: bool):
    self._generator = generator
    self._index = index
    self._log = log
    self._record_value = record_value

  def random(self) -> float:
    value = self._generator.random()
    self._log.append([self._index, repr(value) if self._record_value else None])
    return value


def _instrument(engine: Any, shared_seed: int | None, log: list) -> None:
  """Tags every injection's generator so each call's draws are logged. Seeded injections keep
  their own generator; unseeded ones all delegate to the engine's one shared generator (reseeded
  from shared_seed when a vector sets that hook), exactly as the engine's dict.get fallback does."""
  if shared_seed is not None:
    engine._random_generator = random.Random(shared_seed)
  shared = engine._random_generator
  for tool_config in engine._config.tool_simulation_configs:
    for index, _ in enumerate(tool_config.injection_configs):
      key = (tool_config.tool_name, index)
      own = engine._seeded_generators.get(key)
      engine._seeded_generators[key] = _Tagged(
          own if own is not None else shared, index, log,
          record_value=own is not None or shared_seed is not None)


async def drive_async(config: EnvironmentSimulationConfig, calls: list[dict[str, Any]],
                      shared_seed: int | None = None, instrument: bool = True) -> list[dict[str, Any]]:
  """Runs a call sequence through one plugin made by ADK's factory, via ADK's PluginManager,
  with a deep copy of the args (as ADK's tool flow hands them to before-tool callbacks).
  Injection-only configs never touch the tool context, so none is given."""
  plugin = EnvironmentSimulationFactory.create_plugin(config)
  engine = plugin._simulator_engine
  log: list = []
  if instrument:
    _instrument(engine, shared_seed, log)
  elif shared_seed is not None:
    engine._random_generator = random.Random(shared_seed)
  manager = PluginManager(plugins=[plugin])
  view = _AsyncioView()
  real = engine_mod.asyncio
  engine_mod.asyncio = view
  results = []
  try:
    for call in calls:
      del log[:]
      del view.slept[:]
      tool = BaseTool(name=call["tool"], description="")
      response = await manager.run_before_tool_callback(
          tool=tool, tool_args=copy.deepcopy(call["args"]), tool_context=None)
      result = {"response": copy.deepcopy(response),
                "latency": view.slept[0] if view.slept else None}
      if instrument:
        result["draws"] = [list(d) for d in log]
      results.append(result)
  finally:
    engine_mod.asyncio = real
  return results


def drive(config: EnvironmentSimulationConfig, calls: list[dict[str, Any]],
          shared_seed: int | None = None, instrument: bool = True) -> list[dict[str, Any]]:
  return asyncio.run(drive_async(config, calls, shared_seed, instrument))
