"""Eval config and data variants scored by google-adk 2.13 and by evalcore (one JSON line each).

Left out on purpose: non-finite thresholds (ADK writes Infinity, JSON has none: evalcore writes
null), evalcore's own extra metrics, and integers beyond 2^53 (the JS harness reads JSON with
JSON.parse). See README.md beside this file.
"""
import json, itertools
case = {"eval_id": "c", "conversation": [
  {"user_content": {"parts": [{"text": "roll"}]}, "final_response": {"parts": [{"text": "I rolled a 4."}]},
   "intermediate_data": {"tool_uses": [{"name": "roll_die", "args": {"sides": 6}}, {"name": "check_prime", "args": {"nums": [4]}}]}}]}
actual = [{"user_content": {"parts": [{"text": "roll"}]}, "final_response": {"parts": [{"text": "You rolled a 4!"}]},
   "intermediate_data": {"invocation_events": [{"author": "a", "content": {"parts": [{"function_call": {"name": "check_prime", "args": {"nums": [4.0]}}}, {"function_call": {"name": "roll_die", "args": {"sides": True}}}]}}]}}]
thresholds = ["1_000", "+0.5", ".5", "5.", "0x10", "٣", " 1e-3\n", "1e", "", "0.5 ", "\t0.25", "1,5", "½", 0, -1, 10**20, 1e308, True, False]
mts = [True, False, 1.0, 2.0, 0.0, "IN ORDER", "in order ", "Exact", "exact\n", None, "any order", "ANY__ORDER", "In_Order", "\tIN-ORDER", "any-Order", 1.5, "0", [], {}, "EXACT ", "ＩＮ_ＯＲＤＥＲ"]
ias = ["Yes", "ON", 1.0, "1.0", "", None, "TRUE", " true ", "y", "n", 0.0, "off ", "nope", 2, -0.0, [], "T", "F"]
lines = []
for t in thresholds:
    lines.append({"config": {"criteria": {"response_match_score": t}}, "eval_case": case, "actual": actual})
    lines.append({"config": {"criteria": {"tool_trajectory_avg_score": {"threshold": t}}}, "eval_case": case, "actual": actual})
for mt in mts:
    lines.append({"config": {"criteria": {"tool_trajectory_avg_score": {"threshold": 0.5, "match_type": mt}}}, "eval_case": case, "actual": actual})
    lines.append({"config": {"criteria": {"tool_trajectory_avg_score": {"threshold": 0.5, "matchType": mt, "match_type": "EXACT"}}}, "eval_case": case, "actual": actual})
for ia in ias:
    lines.append({"config": {"criteria": {"tool_trajectory_avg_score": {"threshold": 0.5, "ignore_args": ia, "match_type": "ANY_ORDER"}}}, "eval_case": case, "actual": actual})
    lines.append({"config": {"criteria": {"response_match_score": {"threshold": 0.5, "include_intermediate_responses_in_final": ia}}}, "eval_case": case, "actual": actual})
for extra in [{"criteria": None}, {"criteria": []}, {"criteria": {"x": None}}, {"criteria": {"response_match_score": {"threshold": 0.5}}, "customMetrics": None},
              {"criteria": {"response_match_score": {"threshold": 0.5}}, "custom_metrics": 5}, {"criteria": {"final_response_match_v2": 0.5}},
              {"criteria": {"final_response_match_v2": {"threshold": 0.5, "judge_model_options": {"num_samples": 0}}}},
              {"criteria": {"tool_call_count_v1": {"threshold": 1}}}, {"criteria": {"token_usage_v1": None}}, {"userSimulatorConfig": 3, "criteria": {}},
              {"criteria": {"response_match_score": 0.5}, "live_model_config": "x"}, []]:
    lines.append({"config": extra, "eval_case": case, "actual": actual})
for l in lines: print(json.dumps(l))


# Data shapes, rubric clashes, scenario cases, camelCase.
U = lambda t: {"role": "user", "parts": [{"text": t}]}
def inv(text, calls, shape="legacy", **kw):
    d = {"user_content": U("q"), "final_response": {"role": "model", "parts": [{"text": text}]} if text is not None else None}
    if shape == "legacy": d["intermediate_data"] = {"tool_uses": calls}
    elif shape == "events": d["intermediate_data"] = {"invocation_events": [{"author": "a", "content": {"parts": [{"function_call": c} for c in calls]}}]} if calls else {"invocation_events": []}
    d.update(kw); return d
base_calls = [{"name": "f", "args": {"x": 1}}]
cases = []
def add(ec, actual, cfg=None):
    cases.append({"config": cfg if cfg is not None else {"criteria": {"tool_trajectory_avg_score": {"threshold": 0.5, "match_type": "IN_ORDER"}, "response_match_score": 0.3}}, "eval_case": ec, "actual": actual})
E = lambda convs, **kw: dict({"eval_id": "c", "conversation": convs}, **kw)
# parts variants
for parts in [[], [{"text": ""}], [{"text": None}], [{"thought": True, "text": "secret"}, {"text": "answer"}], [{"text": "a"}, {"text": "b"}], [{"inline_data": {"data": "AAE=", "mime_type": "x"}}, {"text": "img"}]]:
    add(E([inv("answer", base_calls)]), [dict(inv(None, base_calls, "events"), final_response={"parts": parts})])
add(E([inv("answer", base_calls)]), [dict(inv(None, base_calls, "events"), final_response={"role": "model"})])
# args variants
for a, b in [({"name": "f"}, {"name": "f", "args": {}}), ({"name": "f", "args": None}, {"name": "f"}), ({"args": {"x": 1}}, {"args": {"x": 1}}), ({"name": None, "args": {}}, {"args": {}}),
             ({"name": "f", "args": {"x": [1, {"y": True}]}}, {"name": "f", "args": {"x": [1.0, {"y": 1}]}}), ({"name": "f", "args": {"x": 1e300}}, {"name": "f", "args": {"x": 1e300}}),
             ({"name": "f", "args": {"x": ""}}, {"name": "f", "args": {"x": None}})]:
    add(E([inv("ok", [a])]), [inv("ok", [b], "events")])
# events variants
add(E([inv("ok", base_calls)]), [{"user_content": U("q"), "intermediate_data": {"invocation_events": [{"author": "a"}, {"author": "b", "content": None, "model_version": "m"}, {"author": "c", "content": {"parts": [{"function_call": base_calls[0]}]}, "usage_metadata": {"thoughts_token_count": 5, "tool_use_prompt_token_count": 3}}]}}])
add(E([inv("ok", base_calls)]), [{"user_content": U("q"), "intermediate_data": {"invocation_events": [{"author": "a", "content": {"parts": [{"function_call": base_calls[0]}]}, "invocationIndex": 2, "randomUiKey": {}}]}}])
add(E([inv("ok", base_calls)]), [{"user_content": U("q"), "intermediate_data": {"invocation_events": [{"content": {"parts": []}}]}}])  # author missing
add(E([inv("ok", base_calls)]), [{"user_content": U("q"), "intermediate_data": {}, "extra_key": 1}])
add(E([inv("ok", base_calls)]), [{"user_content": U("q"), "duration": 1.2345, "model_duration": 2.0, "tool_duration": 0.1}])
add(E([inv("ok", base_calls)]), [{"user_content": U("q"), "duration": 1.0005, "model_duration": 0.5, "tool_duration": 0.5}])
# rubric clashes
r = lambda i, t=None: dict({"rubric_id": i, "rubric_content": {"text_property": "p"}}, **({"type": t} if t else {}))
add(E([inv("ok", base_calls, rubrics=[r("r1")])], rubrics=[r("r1")]), [inv("ok", base_calls, "events")])
add(E([inv("ok", base_calls)], rubrics=[r("r1"), r("r1")]), [inv("ok", base_calls, "events")])
add(E([inv("ok", base_calls, rubrics=[r("r1"), r("r1")])]), [inv("ok", base_calls, "events")])
add(E([inv("ok", base_calls)], rubrics=[r("r1")]), [inv("ok", base_calls, "events", rubrics=[r("r1")])])
add(E([inv("ok", base_calls), inv("ok", base_calls, rubrics=[r("r2")])], rubrics=[r("r2")]), [inv("ok", base_calls, "events"), inv("ok", base_calls, "events")])
# scenario case
sc = {"eval_id": "s", "conversation_scenario": {"starting_prompt": "hi", "conversation_plan": "p"}}
add(sc, [inv("ok", base_calls, "events"), inv("ok", [], "events")])
# camel case everywhere
add({"evalId": "c", "conversation": [{"userContent": U("q"), "finalResponse": {"parts": [{"text": "ok"}]}, "intermediateData": {"toolUses": [{"name": "f", "args": {"x": 1}}]}, "invocationId": "i", "creationTimestamp": 5}], "sessionInput": {"appName": "a", "userId": "u"}}, [inv("ok", base_calls, "events")])
# empty conversation + empty actual
add(E([]), [])
add(E([]), [], {"criteria": {}})
# expected intermediate_data null / missing
add(E([{"user_content": U("q"), "final_response": {"parts": [{"text": "ok"}]}}]), [inv("ok", [], "events")], {"criteria": {"tool_trajectory_avg_score": 1.0}})
add(E([{"user_content": U("q"), "final_response": {"parts": [{"text": "ok"}]}, "intermediate_data": None}]), [inv("ok", base_calls, "events")], {"criteria": {"tool_trajectory_avg_score": {"threshold": 1, "match_type": 2}}})
for c in cases: print(json.dumps(c))
