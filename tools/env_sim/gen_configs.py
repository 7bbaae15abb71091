"""configs.jsonl: configs as JSON text, and what ADK 2.13's EnvironmentSimulationConfig makes of
each (the normalised dump, or pydantic's errors), read both as pydantic's JSON mode and as
model_validate over json.loads; for a valid config, what building the engine does."""

from __future__ import annotations

import json
import random
from typing import Any, Iterator

import adk_env

RESP = {"status": "ok"}
ERR = {"injected_http_error_code": 503, "error_message": "unavailable"}


def inj(**fields: Any) -> dict[str, Any]:
  """An injection with a response unless the caller says otherwise."""
  if "injected_error" not in fields and "injected_response" not in fields:
    fields["injected_response"] = RESP
  return {k: v for k, v in fields.items() if v is not _DROP}


_DROP = object()


def tool(name: Any = "get_weather", injections: Any = _DROP, **extra: Any) -> dict[str, Any]:
  out: dict[str, Any] = {"tool_name": name}
  out["injection_configs"] = [inj()] if injections is _DROP else injections
  out.update(extra)
  return {k: v for k, v in out.items() if v is not _DROP}


def cfg(*tools: dict[str, Any], **top: Any) -> str:
  out: dict[str, Any] = {"tool_simulation_configs": list(tools)}
  out.update(top)
  return json.dumps(out)


def one(**injection: Any) -> str:
  return cfg(tool(injections=[inj(**injection)]))


def literal(field: str, text: str) -> str:
  """One injection whose field is written as raw JSON text (NaN, 1e400: no Python float
  json.dumps would write so)."""
  return cfg(tool()).replace('"injection_configs": [{',
                             '"injection_configs": [{"%s": %s, ' % (field, text))


def hand_picked() -> Iterator[tuple[str, str, str]]:
  """(id, JSON text, what it probes)."""
  yield "empty-object", "{}", "no tool_simulation_configs key: the default [] is not validated"
  yield "empty-list", cfg(), "an explicit [] is rejected by the field validator"
  yield "tools-null", json.dumps({"tool_simulation_configs": None}), "null list"
  yield "tools-object", json.dumps({"tool_simulation_configs": {}}), "object for list"
  yield "tools-string", json.dumps({"tool_simulation_configs": "get_weather"}), "string for list"
  yield "tools-nested-list", json.dumps({"tool_simulation_configs": [[tool()]]}), "list of lists"
  yield "camel-top-key-only", json.dumps({"toolSimulationConfigs": [tool()]}), \
      "camelCase key ignored: an empty config"
  yield "camel-top-keys-mixed", cfg(tool(), simulationModel="gpt-4o", environmentData=5), \
      "unknown camelCase keys ignored"
  yield "duplicate-tools", cfg(tool("a"), tool("a")), "duplicate tool_name"
  yield "duplicate-tools-three", cfg(tool("a"), tool("b"), tool("a"), tool("b")), "first duplicate"
  yield "duplicate-with-invalid-item", cfg(tool("a"), tool("a"), tool("b", injections=[])), \
      "item errors hide the duplicate check"
  yield "tool-name-missing", cfg({"injection_configs": [inj()]}), "missing tool_name"
  yield "tool-name-null", cfg(tool(None)), "null tool_name"
  yield "tool-name-int", cfg(tool(7)), "int tool_name is not coerced"
  yield "tool-name-empty", cfg(tool("")), "empty tool_name is allowed"
  yield "tool-name-unicode", cfg(tool("t\u00e9l\u00e9phone")), "non-ASCII tool_name"
  yield "no-injections-no-strategy", cfg(tool(injections=[])), "model validator of the tool"
  yield "injections-missing-no-strategy", cfg({"tool_name": "a"}), "default [] and UNSPECIFIED"
  yield "injections-null", cfg(tool(injections=None, mock_strategy_type=1)), "null list"
  yield "injections-object", cfg(tool(injections={"injected_response": RESP})), "object for list"
  yield "strategy-only", cfg(tool(injections=[], mock_strategy_type=1)), "TOOL_SPEC, no injections"
  yield "strategy-tracing", cfg(tool(injections=[], mock_strategy_type=2)), "deprecated TRACING"
  for value in [0, 1, 2, 3, -1, "1", "MOCK_STRATEGY_TOOL_SPEC", "mock_strategy_tool_spec",
                1.0, 1.5, True, False, None, [1], {"value": 1}]:
    yield f"strategy-{json.dumps(value)}", cfg(tool(injections=[], mock_strategy_type=value)), \
        "mock_strategy_type is an int enum: values only"
  yield "strategy-camel", cfg(tool(injections=[], mockStrategyType=1)), "camelCase ignored"
  yield "tool-unknown-keys", cfg(tool(injections=[inj()], injections_list=[], extra=1)), "ignored"
  # injected_error / injected_response
  yield "neither", one(injected_response=None), "neither set"
  yield "neither-absent", cfg(tool(injections=[{}])), "an empty injection"
  yield "both", one(injected_error=ERR, injected_response=RESP), "both set"
  yield "only-error", one(injected_error=ERR), "error only"
  yield "response-empty", one(injected_response={}), "{} counts as unset"
  yield "response-empty-with-error", one(injected_error=ERR, injected_response={}), \
      "error plus {}: valid, error wins"
  yield "error-null-response-set", one(injected_error=None, injected_response=RESP), "null error"
  yield "response-list", one(injected_response=[1]), "list for dict"
  yield "response-string", one(injected_response="ok"), "string for dict"
  yield "response-number", one(injected_response=5), "number for dict"
  yield "response-nested", one(injected_response={"a": {"b": [1, {"c": None}], "d": 1.0}}), "kept"
  yield "response-camel-only", cfg(tool(injections=[{"injectedResponse": RESP}])), \
      "camelCase ignored: neither set"
  yield "error-empty", one(injected_error={}), "missing both fields"
  yield "error-code-string", one(injected_error={"injected_http_error_code": "404",
                                                 "error_message": "x"}), "lax int"
  yield "error-code-float-whole", one(injected_error={"injected_http_error_code": 404.0,
                                                      "error_message": "x"}), "whole float"
  yield "error-code-float-frac", one(injected_error={"injected_http_error_code": 404.5,
                                                     "error_message": "x"}), "fraction"
  yield "error-code-bool", one(injected_error={"injected_http_error_code": True,
                                               "error_message": "x"}), "true as 1"
  yield "error-code-negative", one(injected_error={"injected_http_error_code": -1,
                                                   "error_message": ""}), "no range"
  yield "error-code-huge", one(injected_error={"injected_http_error_code": 2**80,
                                               "error_message": "x"}), "big int"
  yield "error-output-names", one(injected_error={"error_code": 404, "error_message": "x"}), \
      "the output name error_code is not the input name"
  yield "error-message-int", one(injected_error={"injected_http_error_code": 404,
                                                 "error_message": 5}), "int is not a str"
  yield "error-string", one(injected_error="boom"), "string for model"
  yield "error-extra-keys", one(injected_error=dict(ERR, detail="x")), "extra ignored"
  for i, value in enumerate([0, 1, 0.5, -0.5, 1.5, "0.25", "1e-1", " 0.5 ", True, False, None,
                             "nan", "inf", "-inf", "abc", 1e308, 2**70, 10**400, [0.5]]):
    yield f"probability-{i}", one(injection_probability=value), f"probability {value!r:.40}"
  yield "probability-NaN-literal", literal("injection_probability", "NaN"), \
      "NaN literal (pydantic's JSON parser accepts it)"
  yield "probability-Infinity-literal", literal("injection_probability", "Infinity"), \
      "Infinity literal"
  for i, value in enumerate([0, 120, 120.0, 120.00000000000001, 120.0000001, 121, -1, -1e9,
                             "5", "-inf", "inf", "nan", True, None, "120", 1e-320]):
    yield f"latency-{i}", one(injected_latency_seconds=value), f"latency {value!r:.40}"
  yield "latency-NaN-literal", literal("injected_latency_seconds", "NaN"), "NaN against le=120"
  yield "latency-huge-literal", literal("injected_latency_seconds", "1e400"), \
      "1e400 overflows to inf"
  for i, value in enumerate([0, 1, -1, 12, "12", " 12 ", "+12", "-12", "1_000", "0x10", "12.0",
                             "12.5", "1e3", 12.0, 12.5, -12.0, 1e15, 1e20, 2**63 - 1, 2**63,
                             2**64, 2**64 + 1, -(2**70), 2**100, str(10**30), str(-(2**70)),
                             True, False, None, "", "abc", [], {}, 4294967296.0, 9.007199254740993e15,
                             "٣", 9.223372036854775e18, 9.223372036854776e18,
                             -9.223372036854776e18, -1e19, "9223372036854775808", 2.5e-8]):
    yield f"seed-{i}", one(random_seed=value), f"random_seed {value!r:.40}"
  yield "seed-1000-digits", one(random_seed=int("7" * 1000)), "a 1000-digit int"
  yield "seed-5000-digit-string", one(random_seed="9" * 5000), "past Python's int-str limit"
  for i, value in enumerate([None, {}, {"a": 1}, [], "a", 5, {"a": {"b": [1, 2]}}, {"1": 1},
                             {"": None}]):
    yield f"match-args-{i}", one(match_args=value), f"match_args {value!r:.40}"
  yield "injection-unknown-keys", one(probability=0.5, match_arguments={"a": 1}, latency=5), \
      "ignored"
  yield "model-gpt", cfg(tool(), simulation_model="gpt-4o"), "resolves only with extras"
  for model in ["claude-3-5-sonnet", "openai/gpt-4o", "gemma-3-27b-it", "gemini-2.0-flash",
                "Gemini-2.5-flash", "models/gemini-2.5-flash", "", "gemini-",
                "projects/p/locations/l/endpoints/e", "gemma-4-e2b", "vertex_ai/gemini-2.5-pro",
                "gemini:gemini-2.5-flash", "my-model"]:
    yield f"model-{model or 'empty'}", cfg(tool(), simulation_model=model), \
        "engine build resolves the model"
  yield "model-int", cfg(tool(), simulation_model=5), "int is not a str"
  yield "model-null", cfg(tool(), simulation_model=None), "null"
  yield "llm-config-empty", cfg(tool(), simulation_model_configuration={}), \
      "{} replaces the default thinking config"
  yield "llm-config-null", cfg(tool(), simulation_model_configuration=None), "null"
  yield "llm-config-camel", cfg(tool(), simulation_model_configuration={
      "maxOutputTokens": 100, "thinkingConfig": {"thinkingBudget": 0, "includeThoughts": True}}), \
      "genai's own camelCase aliases"
  yield "llm-config-both-names", cfg(tool(), simulation_model_configuration={
      "max_output_tokens": 5, "maxOutputTokens": 6}), "alias and name together"
  yield "llm-config-lax", cfg(tool(), simulation_model_configuration={
      "temperature": "0.5", "candidate_count": 1.0, "seed": "7"}), "lax conversions"
  yield "llm-config-bad-type", cfg(tool(), simulation_model_configuration={"temperature": "hot"}), \
      "bad float"
  yield "llm-config-unknown", cfg(tool(), simulation_model_configuration={"bogus": 1}), \
      "genai forbids extra keys"
  yield "llm-config-nested-unknown", cfg(tool(), simulation_model_configuration={
      "thinking_config": {"bogus": 1}}), "forbidden at depth"
  yield "llm-config-mime", cfg(tool(), simulation_model_configuration={
      "response_mime_type": "application/json", "system_instruction": "be terse"}), "kept"
  for field in ["tracing", "environment_data"]:
    for i, value in enumerate(["[{\"tool\": \"a\"}]", "", 5, None, {"a": 1}, ["x"]]):
      yield f"{field}-{i}", cfg(tool(), **{field: value}), f"{field} must be a string"
  yield "many-errors", cfg(tool(None), tool("b", injections=[{}]), tool("c", injections=[
      inj(injected_latency_seconds=500, random_seed="x")]), {"tool_name": "d"}), "error order"
  yield "field-error-hides-model-check", cfg(tool(injections=[{"injected_latency_seconds": 500}])), \
      "after-validators run only on valid fields"
  yield "large", cfg(*[tool(f"tool_{t}", injections=[
      inj(random_seed=t * 10 + i, injection_probability=i / 10) for i in range(10)])
      for t in range(50)]), "50 tools x 10 injections"
  for i, text in enumerate(["", "{", "[]", "null", "5", '"x"',
                            '{"tool_simulation_configs": [],}', '// c\n{}',
                            '{"simulation_model": "a", "simulation_model": "b"}',
                            '\ufeff{}', '{"tool_simulation_configs": [{"tool_name": "a", '
                            '"injection_configs": [{"injected_response": {"k": 1, "k": 2}}]}]}']):
    yield f"text-{i}", text, "not a config object / JSON edge"


def _pick(rng: random.Random, pool: list[Any]) -> Any:
  return pool[rng.randrange(len(pool))]


# (values ADK accepts, values it rejects); dropping a key is always allowed.
_PROB = ([0, 1, 0.5, 0.25, 1.5, -1, "0.5", True], [None, "x"])
_LAT = ([0, 1.5, 120, -3, "2"], [120.5, None])
_SEED = ([0, 7, -7, 2**64 + 3, "42", 42.0, True, None], [42.5, "s"])
_MATCH = ([None, {}, {"city": "Paris"}, {"n": 1}], [[], "x"])
_STRAT = ([0, 1, 2], [5, "1", None])
_NAMES = (["a", "b", "c", "d"], [None, 3])
_RESP = [RESP, {"v": [1, 2]}, {"nested": {"x": None}}]
_ERR = [ERR, {"injected_http_error_code": "500", "error_message": "m"}]
_BAD_BODY = [{}, {"injected_response": {}}, {"injected_response": []},
             {"injected_response": RESP, "injected_error": ERR}, {"injected_error": {}},
             {"injected_error": {"injected_http_error_code": 1.5, "error_message": "m"}}]


def _field(rng: random.Random, pool: tuple[list[Any], list[Any]], bad: float) -> Any:
  if rng.random() < 0.35:
    return _DROP
  if rng.random() < bad:
    return _pick(rng, pool[1])
  return _pick(rng, pool[0])


def _body(rng: random.Random, bad: float) -> dict[str, Any]:
  if rng.random() < bad:
    return dict(_pick(rng, _BAD_BODY))
  if rng.random() < 0.6:
    return {"injected_response": _pick(rng, _RESP)}
  return {"injected_error": _pick(rng, _ERR)}


def generated(count: int, seed: int) -> Iterator[tuple[str, str, str]]:
  """Random configs: half from accepted values only, half with a few rejected ones mixed in."""
  rng = random.Random(seed)
  for n in range(count):
    bad = 0.0 if n % 2 == 0 else 0.2
    tools = []
    names = rng.sample(_NAMES[0], 4)
    for t in range(rng.randrange(1, 4)):
      injections = []
      for _ in range(rng.randrange(0, 4)):
        injection = {"injection_probability": _field(rng, _PROB, bad),
                     "injected_latency_seconds": _field(rng, _LAT, bad),
                     "random_seed": _field(rng, _SEED, bad), "match_args": _field(rng, _MATCH, bad),
                     **_body(rng, bad)}
        injections.append({k: v for k, v in injection.items() if v is not _DROP})
      name = names[t] if rng.random() >= bad else _pick(rng, _NAMES[0] + _NAMES[1])
      strategy = _field(rng, _STRAT, bad)
      if not injections and bad == 0.0:
        strategy = rng.choice([1, 2])
      entry = {"tool_name": name, "injection_configs": injections, "mock_strategy_type": strategy}
      tools.append({k: v for k, v in entry.items() if v is not _DROP})
    top: dict[str, Any] = {"tool_simulation_configs": tools}
    if rng.random() < 0.05:
      del top["tool_simulation_configs"]
    if rng.random() < 0.2:
      top["simulation_model"] = _pick(rng, ["gemini-2.5-pro", "gpt-4o", 5][: 3 if bad else 2])
    yield f"gen-{n:03d}", json.dumps(top), "generated (accepted values only)" if not bad else \
        "generated (some rejected values)"


def record(case_id: str, text: str, note: str) -> dict[str, Any]:
  config, json_mode = adk_env.validate(text, "json")
  _, python_mode = adk_env.validate(text, "python")
  out: dict[str, Any] = {"id": case_id, "note": note, "input": text, "json_mode": json_mode}
  try:
    json.loads(text, parse_constant=_reject_constant)
    out["standard_json"] = True
  except ValueError:
    out["standard_json"] = False
  if adk_env.line(python_mode) != adk_env.line(json_mode):
    out["python_mode"] = python_mode
  if config is not None:
    out["engine"] = adk_env.build_engine_outcome(config)
  return out


def _reject_constant(name: str) -> Any:
  raise ValueError(name)


def records(count: int = 300, seed: int = 34) -> Iterator[dict[str, Any]]:
  seen: set[str] = set()
  for case_id, text, note in list(hand_picked()) + list(generated(count, seed)):
    if case_id in seen:
      raise SystemExit(f"duplicate config id {case_id}")
    seen.add(case_id)
    yield record(case_id, text, note)
