"""calls.jsonl: injection-only configs, a sequence of tool calls each, and what one ADK 2.13
engine (made by EnvironmentSimulationFactory.create_plugin, called through ADK's PluginManager)
returned for every call in order, with the latency it asked for and the draws it made."""

from __future__ import annotations

import json
import math
import random
from typing import Any, Iterator

import adk_env

# Seeds of every size and sign; the sweep crosses the Mersenne Twister's 624-word refill.
SWEEP_SEEDS = [0, 1, -1, 2, 42, -42, 2**31 - 1, 2**32 - 1, 2**32, -(2**32), 2**53 + 1, 2**63,
               2**64, 2**64 + 1, -(2**70), 2**100, -(2**100), int("7" * 300)]

# Values for the match_args equality matrix (Python == as dict_items containment applies it).
EQ_VALUES: list[tuple[str, Any]] = [
    ("int_1", 1), ("float_1", 1.0), ("true", True), ("int_0", 0), ("float_0", 0.0),
    ("float_neg0", -0.0), ("false", False), ("str_1", "1"), ("str_1.0", "1.0"),
    ("str_true", "true"), ("null", None), ("str_empty", ""), ("list_empty", []),
    ("dict_empty", {}), ("list_1", [1]), ("list_1.0", [1.0]), ("list_true", [True]),
    ("list_12", [1, 2]), ("list_21", [2, 1]), ("list_list_empty", [[]]),
    ("list_dict_empty", [{}]), ("dict_a1", {"a": 1}), ("dict_a1.0", {"a": 1.0}),
    ("dict_atrue", {"a": True}), ("dict_ab", {"a": 1, "b": 2}), ("dict_ba", {"b": 2, "a": 1}),
    ("deep", {"a": [1, {"b": None, "c": [0.5, "x"]}]}),
    ("deep_eq", {"a": [1.0, {"c": [0.5, "x"], "b": None}]}),
    ("deep_ne", {"a": [1, {"b": False, "c": [0.5, "x"]}]}),
    ("str_e_nfc", "\u00e9"), ("str_e_nfd", "e\u0301"), ("str_space", " 1"),
    ("float_0.3", 0.3), ("float_0.1+0.2", 0.1 + 0.2), ("int_neg1", -1), ("float_neg1", -1.0),
    ("int_1e16", 10**16), ("float_1e16", 1e16), ("int_2p53", 2**53), ("float_2p53", 2.0**53),
    ("int_2p64", 2**64), ("float_2p64", 2.0**64), ("float_big", 1e300),
]
# Values that only an exact (arbitrary-precision) number model tells apart from the above.
EQ_EXACT: list[tuple[str, Any]] = [("int_2p53+1", 2**53 + 1), ("int_2p64+1", 2**64 + 1),
                                   ("int_neg2p70", -(2**70)), ("float_neg2p70", -(2.0**70))]


def cfg(tools: list[dict[str, Any]]) -> dict[str, Any]:
  return {"tool_simulation_configs": tools}


def one_tool(name: str, *injections: dict[str, Any]) -> dict[str, Any]:
  return {"tool_name": name, "injection_configs": list(injections)}


def seq(case_id: str, note: str, config: dict[str, Any] | str, calls: list[dict[str, Any]],
        shared_seed: int | None = None) -> dict[str, Any]:
  text = config if isinstance(config, str) else json.dumps(config)
  return {"id": case_id, "note": note, "config_text": text, "shared_seed": shared_seed,
          "calls": calls}


def calls_of(tool: str, count: int, args: dict[str, Any] | None = None) -> list[dict[str, Any]]:
  return [{"tool": tool, "args": dict(args or {})} for _ in range(count)]


def hand_picked() -> Iterator[dict[str, Any]]:
  for seed in SWEEP_SEEDS:
    config = cfg([one_tool("t", {"injection_probability": 0.5, "random_seed": seed,
                                 "injected_response": {"hit": True}})])
    yield seq(f"sweep-{seed if abs(seed) < 2**128 else 'big'}",
              "700 draws of one seeded injection", config, calls_of("t", 700))
  for label, value in [("string", '"42"'), ("whole-float", "42.0"), ("true", "true"),
                       ("negative", "-42"), ("string-padded", '" +42 "')]:
    text = ('{"tool_simulation_configs": [{"tool_name": "t", "injection_configs": [{'
            '"injection_probability": 0.5, "random_seed": %s, "injected_response": {"hit": true}'
            '}]}]}' % value)
    yield seq(f"seed-form-{label}", f"random_seed written as {value}", text, calls_of("t", 100))
  yield seq("negative-equals-positive", "seeds 5 and -5 give one sequence",
            cfg([one_tool("pos", {"injection_probability": 0.5, "random_seed": 5,
                                  "injected_response": {"side": "pos"}}),
                 one_tool("neg", {"injection_probability": 0.5, "random_seed": -5,
                                  "injected_response": {"side": "neg"}})]),
            [c for i in range(120) for c in calls_of("pos" if i % 2 else "neg", 1)])
  for i, p in enumerate(["0", "1", "0.999999", "1e-9", "1.5", "-0.5", '"inf"', '"-inf"',
                         '"0.5"', "0.0", "-0.0", "5e-324", "NaN", "Infinity"]):
    text = ('{"tool_simulation_configs": [{"tool_name": "t", "injection_configs": [{'
            '"injection_probability": %s, "random_seed": 7, "injected_error": '
            '{"injected_http_error_code": 429, "error_message": "slow down"}}]}]}' % p)
    yield seq(f"probability-{i}", f"injection_probability {p}", text, calls_of("t", 100))
  yield seq("unseeded-certain", "unseeded p=1 always hits, p=0 never; both draw",
            cfg([one_tool("always", {"injected_response": {"a": 1}}),
                 one_tool("never", {"injection_probability": 0, "injected_response": {"a": 0}})]),
            [c for i in range(60) for c in calls_of("always" if i % 3 else "never", 1)])
  yield seq("shared-generator", "unseeded injections of all tools share one generator "
            "(seeded here through the test hook)",
            cfg([one_tool("a", {"injection_probability": 0.5, "injected_response": {"a": 0}},
                          {"injection_probability": 0.5, "random_seed": 9,
                           "injected_response": {"a": 1}}),
                 one_tool("b", {"injection_probability": 0.5, "injected_response": {"b": 0}})]),
            [{"tool": "ab"[i % 3 == 0], "args": {}} for i in range(300)], shared_seed=123)
  yield from _overlapping()
  yield from _equality()
  yield from _latency()
  yield seq("error-beats-empty-response", "injected_error with injected_response {}",
            cfg([one_tool("t", {"injected_error": {"injected_http_error_code": 500,
                                                   "error_message": "boom"},
                                "injected_response": {}})]), calls_of("t", 3))
  yield seq("empty-config", "{}: no tool is simulated", "{}",
            calls_of("t", 3) + calls_of("", 2, {"a": 1}))
  yield seq("unknown-and-near-names", "names compare exactly",
            cfg([one_tool("get", {"injected_response": {"ok": 1}})]),
            [{"tool": n, "args": {}} for n in ["get", "Get", "get ", " get", "ge", "get", "GET"]])
  yield seq("long-mixed", "1000 calls over three seeded injections",
            cfg([one_tool("t", {"injection_probability": 0.2, "random_seed": 2**64 + 1,
                                "match_args": {"k": 1}, "injected_response": {"i": 0}},
                          {"injection_probability": 0.37, "random_seed": -(2**70),
                           "injected_error": {"injected_http_error_code": 404,
                                              "error_message": "nf"}},
                          {"injection_probability": 0.9, "random_seed": 0,
                           "match_args": {"k": 2}, "injected_response": {"i": 2}})]),
            [{"tool": "t", "args": {"k": (i * 7919) % 3}} for i in range(1000)])


def _overlapping() -> Iterator[dict[str, Any]]:
  config = cfg([one_tool(
      "book",
      {"match_args": {"city": "Paris"}, "injection_probability": 0.3, "random_seed": 1,
       "injected_error": {"injected_http_error_code": 503, "error_message": "busy"}},
      {"match_args": {"city": "Paris", "nights": 2}, "injection_probability": 0.6,
       "random_seed": 2, "injected_response": {"price": 100}},
      {"match_args": None, "injection_probability": 0.5, "random_seed": 3,
       "injected_response": {"price": 50}},
      {"match_args": {}, "injected_response": {"fallback": True}})])
  pool = [{"city": "Paris"}, {"city": "Paris", "nights": 2}, {"city": "Paris", "nights": 2.0},
          {"nights": 2, "city": "Paris", "x": [1]}, {"city": "Rome", "nights": 2}, {},
          {"city": "paris"}, {"nights": True, "city": "Paris"}]
  rng = random.Random(340)
  yield seq("overlapping", "four injections, overlapping match_args, first hit wins", config,
            [{"tool": "book", "args": pool[rng.randrange(len(pool))]} for _ in range(400)])


def _matrix(values: list[tuple[str, Any]], probes: list[tuple[str, Any]]) -> tuple[dict, list]:
  tools = [one_tool(f"eq:{name}", {"match_args": {"v": value},
                                   "injected_response": {"matched": name}})
           for name, value in values]
  calls = [{"tool": f"eq:{name}", "args": {"v": probe}} for name, _ in values for _, probe in probes]
  return cfg(tools), calls


def _equality() -> Iterator[dict[str, Any]]:
  config, calls = _matrix(EQ_VALUES, EQ_VALUES)
  yield seq("equality-matrix", "match_args {v: X} against args {v: Y}: Python ==", config, calls)
  both = EQ_VALUES + EQ_EXACT
  config, calls = _matrix(both, EQ_EXACT)
  calls += [{"tool": f"eq:{name}", "args": {"v": probe}} for name, _ in EQ_EXACT
            for _, probe in EQ_VALUES]
  yield seq("equality-matrix-exact", "ints past 2**53 against floats", config, calls)
  keyed = cfg([
      one_tool("multi", {"match_args": {"a": 1, "b": "x"}, "injected_response": {"m": 1}}),
      one_tool("nullkey", {"match_args": {"a": None}, "injected_response": {"m": 2}}),
      one_tool("all", {"match_args": {}, "injected_response": {"m": 3}}),
      one_tool("unicode-key", {"match_args": {"cl\u00e9": 1}, "injected_response": {"m": 4}}),
  ])
  probes = [("multi", {"a": 1, "b": "x"}), ("multi", {"b": "x", "a": 1.0}), ("multi", {"a": 1}),
            ("multi", {"a": 1, "b": "x", "c": 3}), ("multi", {}), ("multi", {"a": 1, "b": "X"}),
            ("multi", {"a": True, "b": "x", "extra": None}), ("multi", {"A": 1, "b": "x"}),
            ("nullkey", {}), ("nullkey", {"a": None}), ("nullkey", {"a": 0}),
            ("nullkey", {"a": "null"}), ("nullkey", {"a": [None]}), ("nullkey", {"b": None}),
            ("all", {}), ("all", {"anything": [1, {"x": 2}]}),
            ("unicode-key", {"cl\u00e9": 1}), ("unicode-key", {"cle\u0301": 1})]
  yield seq("match-keys", "missing, extra and null keys", keyed,
            [{"tool": t, "args": a} for t, a in probes])
  # Non-finite numbers: the config's NaN is never the call's NaN object, so it matches nothing
  # (not even a NaN); infinities equal themselves. The config text carries NaN/Infinity literals.
  nonfinite = [("nan", math.nan), ("inf", math.inf), ("neg_inf", -math.inf), ("big", 1e308)]
  probes_nf = nonfinite + [("str_nan", "NaN"), ("null", None), ("list_nan", [math.nan])]
  config, calls = _matrix(nonfinite + [("list_nan", [math.nan])], probes_nf)
  yield seq("equality-nonfinite", "NaN matches nothing, not even NaN; inf equals inf",
            json.dumps(config), calls)


def _latency() -> Iterator[dict[str, Any]]:
  values = [0, 0.25, 120, -1, "-inf", 1e-320, 119.99999999999999, 3]
  injections = [{"match_args": {"i": i}, "injected_latency_seconds": v,
                 "injected_response": {"i": i}} for i, v in enumerate(values)]
  injections.append({"match_args": {"i": "err"}, "injected_latency_seconds": 7.5,
                     "injected_error": {"injected_http_error_code": 504, "error_message": "t"}})
  injections.append({"match_args": {"i": "miss"}, "injection_probability": 0,
                     "injected_latency_seconds": 9, "injected_response": {"never": True}})
  calls = [{"tool": "slow", "args": {"i": i}} for i in range(len(values))]
  calls += [{"tool": "slow", "args": {"i": k}} for k in ["err", "miss", "none"]]
  yield seq("latency", "latency asked for on a hit only, error or response",
            cfg([one_tool("slow", *injections)]), calls)


_GEN_SEEDS = [None, None, 0, 3, -3, 2**32 + 5, -(2**40), 2**64 + 9, 2**99 - 1]
_GEN_PROBS = [0.1, 0.5, 0.9, 1, 0, 0.33, 1e-3]
_GEN_VALUES = [1, 1.0, True, "1", 0, None, [1], {"x": 1}, "a"]


def generated(count: int, seed: int) -> Iterator[dict[str, Any]]:
  rng = random.Random(seed)
  for n in range(count):
    hook = rng.randrange(1000) if rng.random() < 0.3 else None
    tools = []
    names = rng.sample(["a", "b", "c"], rng.randrange(1, 4))
    for name in names:
      injections = []
      for i in range(rng.randrange(1, 5)):
        seed_value = rng.choice(_GEN_SEEDS)
        prob = rng.choice(_GEN_PROBS)
        if seed_value is None and hook is None:
          prob = rng.choice([0, 1])  # an unseeded fraction would not be reproducible
        match = {k: rng.choice(_GEN_VALUES) for k in rng.sample(["k", "m"], rng.randrange(0, 3))}
        body = ({"injected_response": {"tool": name, "i": i}} if rng.random() < 0.7 else
                {"injected_error": {"injected_http_error_code": rng.choice([400, 500, 503]),
                                    "error_message": f"{name}{i}"}})
        injections.append({"injection_probability": prob, "random_seed": seed_value,
                           "match_args": match or rng.choice([None, {}]),
                           "injected_latency_seconds": rng.choice([0, 0, 0.5, 2]), **body})
      tools.append(one_tool(name, *injections))
    calls = []
    for _ in range(rng.randrange(20, 301)):
      args = {k: rng.choice(_GEN_VALUES) for k in rng.sample(["k", "m", "z"], rng.randrange(0, 4))}
      calls.append({"tool": rng.choice(["a", "b", "c", "d"]), "args": args})
    yield seq(f"gen-{n:03d}", "generated", cfg(tools), calls, shared_seed=hook)


def run(case: dict[str, Any], instrument: bool = True) -> list[dict[str, Any]]:
  config, outcome = adk_env.validate(case["config_text"], "json")
  if config is None:
    raise SystemExit(f"{case['id']}: config is invalid: {outcome}")
  calls = adk_env.from_jsonable(case["calls"])  # args read back from the file: $float -> float
  return adk_env.drive(config, calls, case["shared_seed"], instrument)


def records(count: int = 120, seed: int = 3434) -> Iterator[dict[str, Any]]:
  seen: set[str] = set()
  for case in list(hand_picked()) + list(generated(count, seed)):
    if case["id"] in seen:
      raise SystemExit(f"duplicate sequence id {case['id']}")
    seen.add(case["id"])
    case["standard_json"] = _standard(case["config_text"])
    case["needs_exact_numbers"] = _past_double(json.loads(case["config_text"])) or \
        _past_double([c["args"] for c in case["calls"]])
    case["results"] = run(case)
    yield case


def _past_double(value: Any, seeds: bool = False) -> bool:
  """True when the config's match_args or responses, or the calls' args, hold an int that an
  IEEE double cannot carry exactly (random_seed aside: a config can be handed over as text)."""
  if isinstance(value, bool):
    return False
  if isinstance(value, int):
    try:
      return float(value) != value
    except OverflowError:
      return True
  if isinstance(value, dict):
    return any(_past_double(v) for k, v in value.items() if k != "random_seed")
  if isinstance(value, list):
    return any(_past_double(v) for v in value)
  return False


def _standard(text: str) -> bool:
  try:
    json.loads(text, parse_constant=lambda name: (_ for _ in ()).throw(ValueError(name)))
  except ValueError:
    return False
  return True
