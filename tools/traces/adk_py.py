#!/usr/bin/env python3
"""Runs a real google-adk 2.13 agent with a scripted model and writes what its OpenTelemetry
export holds, beside ADK's own derivation of the same session (the oracle for the trace import).

    tools/traces/.venv/bin/python tools/traces/adk_py.py VARIANT OUT_DIR [errors]

VARIANT picks ADK's telemetry switches (each run is its own process: ADK reads them at start):
  v1          ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN=1: legacy `gcp.vertex.agent.*` spans (content on)
  v1-nocontent  the same with ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS=false
  v2-span     schema 2 (the default) with OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=SPAN_ONLY
  v2-event    schema 2 with content on log records only (EVENT_ONLY)
  v2-nocontent  schema 2 as it ships: no content captured

With `errors`, the agent's tools raise instead (files adk-py-errors-VARIANT.*): one raise an
on_tool_error_callback answers (its dict is the tool's response), one nothing handles (the run
stops with the exception; ADK's session has the call and no response). Its oracle has no scores.

With EVALCORE_OTLP_ENDPOINT=http://host:port (and EVALCORE_OTLP_TOKEN), the spans and log records
are also sent there by OpenTelemetry's own OTLP/HTTP exporters (protobuf, gzip, batches), as a
deployed ADK app sends them: tests/server/traces-adk.test.mjs points them at `evalcore serve`.

Writes OUT_DIR/adk-py-VARIANT.otlp.jsonl (OTLP/JSON: ExportTraceServiceRequest and, when there
are log records, ExportLogsServiceRequest, one per line as the collector's file exporter writes),
OUT_DIR/adk-py-VARIANT.otlp.pb (the trace request as OTLP/HTTP's protobuf body; .logs.pb the
log request) and
OUT_DIR/adk-py-VARIANT.oracle.json: `{session_id, app_name, user_id, invocations}`, the
invocations from ADK's `convert_session_to_eval_invocations(session)` with the durations ADK's
eval inference measures (`collect_busy_intervals`, as EvaluationGenerator does).
"""

import asyncio
import base64
import json
import os
import sys
import time

VARIANTS = {
    "v1": {"ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN": "1"},
    "v1-nocontent": {"ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN": "1", "ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS": "false"},
    "v2-span": {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "SPAN_ONLY"},
    "v2-event": {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "EVENT_ONLY"},
    "v2-nocontent": {},
}

variant, out_dir = sys.argv[1], sys.argv[2]
scenario = sys.argv[3] if len(sys.argv) > 3 else "dice"
for k in ("ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN", "ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS",
          "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "OTEL_SEMCONV_STABILITY_OPT_IN"):
    os.environ.pop(k, None)
os.environ.update(VARIANTS[variant])

import warnings  # noqa: E402

warnings.filterwarnings("ignore")

from google.protobuf import json_format  # noqa: E402
from opentelemetry import _logs, trace  # noqa: E402
from opentelemetry.exporter.otlp.proto.common._log_encoder import encode_logs  # noqa: E402
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans  # noqa: E402
from opentelemetry.sdk._logs import LoggerProvider  # noqa: E402
from opentelemetry.sdk._logs.export import InMemoryLogRecordExporter, SimpleLogRecordProcessor  # noqa: E402
from opentelemetry.sdk.resources import Resource  # noqa: E402
from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter  # noqa: E402

resource = Resource.create({"service.name": "dice_app"})
spans_out = InMemorySpanExporter()
provider = TracerProvider(resource=resource)
provider.add_span_processor(SimpleSpanProcessor(spans_out))
trace.set_tracer_provider(provider)
logs_out = InMemoryLogRecordExporter()
log_provider = LoggerProvider(resource=resource)
log_provider.add_log_record_processor(SimpleLogRecordProcessor(logs_out))
_logs.set_logger_provider(log_provider)
ENDPOINT = os.environ.get("EVALCORE_OTLP_ENDPOINT")
if ENDPOINT:
    from opentelemetry.exporter.otlp.proto.http import Compression  # noqa: E402
    from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter  # noqa: E402
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter  # noqa: E402
    from opentelemetry.sdk._logs.export import BatchLogRecordProcessor  # noqa: E402
    from opentelemetry.sdk.trace.export import BatchSpanProcessor  # noqa: E402

    headers = {"Authorization": f"Bearer {os.environ['EVALCORE_OTLP_TOKEN']}"} if os.environ.get("EVALCORE_OTLP_TOKEN") else {}
    provider.add_span_processor(BatchSpanProcessor(
        OTLPSpanExporter(endpoint=f"{ENDPOINT}/v1/traces", headers=headers, compression=Compression.Gzip), max_export_batch_size=8))
    log_provider.add_log_record_processor(BatchLogRecordProcessor(
        OTLPLogExporter(endpoint=f"{ENDPOINT}/v1/logs", headers=headers, compression=Compression.Gzip), max_export_batch_size=8))

from google.adk.agents import LlmAgent  # noqa: E402
from google.adk.cli.utils.evals import convert_session_to_eval_invocations  # noqa: E402
from google.adk.models.base_llm import BaseLlm  # noqa: E402
from google.adk.models.llm_response import LlmResponse  # noqa: E402
from google.adk.runners import InMemoryRunner  # noqa: E402
from google.adk.telemetry import _instrumentation  # noqa: E402
from google.genai import types  # noqa: E402

MODEL_VERSION = "scripted-dice-001"
BIG = 9007199254740993  # 2**53 + 1: a double cannot hold it


def call(name, args, id_=None):
    return types.Part(function_call=types.FunctionCall(name=name, args=args, id=id_))


def text(t, thought=None):
    return types.Part(text=t, thought=thought)


# Each user message, and the model's answers to the calls of that turn, in order (across agents).
SCRIPT = {
    "Roll a 6-sided die.": [
        [call("roll_die", {"sides": 6, "scale": 1.0, "seed": BIG})],
        [text("I rolled a 4 for you.")],
    ],
    "Roll a 6-sided and a 20-sided die at once.": [
        [call("roll_die", {"sides": 6}), call("roll_die", {"sides": 20})],
        [text("You got a 4 and a 17.")],
    ],
    "Are 7 and 9 prime? Ask the prime expert.": [
        [text("Let me hand you to the prime expert."), call("transfer_to_agent", {"agent_name": "prime_agent"})],
        [call("check_prime", {"nums": [7, 9]})],
        [text("7 is prime; 9 is not.")],
    ],
    "Think first, then greet me.": [
        [text("The user wants a greeting after some thought.", thought=True), text("Hello! I thought about it.")],
    ],
}


def usage(step):
    return types.GenerateContentResponseUsageMetadata(
        prompt_token_count=100 + step,
        candidates_token_count=10 + step,
        thoughts_token_count=3 if step == 0 else None,
        cached_content_token_count=7,
        total_token_count=120 + 2 * step,
    )


CALLS = {}


class ScriptedLlm(BaseLlm):
    """A stand-in for Gemini: answers from SCRIPT by the turn's user text and the calls so far."""

    @classmethod
    def supported_models(cls):
        return [r"scripted-.*"]

    async def generate_content_async(self, llm_request, stream=False):
        turn = None
        for content in llm_request.contents:
            for part in content.parts or []:
                if content.role == "user" and part.text in SCRIPT:
                    turn = part.text
        step = CALLS[turn] = CALLS.get(turn, -1) + 1
        await asyncio.sleep(0.02)  # model time, so the trace has some
        answers = SCRIPT.get(turn) or [[text("I do not know that one.")]]
        parts = answers[min(step, len(answers) - 1)]
        yield LlmResponse(
            content=types.Content(role="model", parts=parts),
            usage_metadata=usage(step),
            model_version=MODEL_VERSION,
            finish_reason=types.FinishReason.STOP,
        )


async def roll_die(sides: int, scale: float = 1.0, seed: int = 0) -> dict:
    """Rolls a die with the given number of sides."""
    await asyncio.sleep(0.01)
    return {"result": 4 if sides == 6 else 17, "scale": scale, "seed": seed}


async def check_prime(nums: list[int]) -> str:
    """Checks which of the numbers are prime."""
    await asyncio.sleep(0.01)
    primes = [n for n in nums if n > 1 and all(n % d for d in range(2, n))]
    return f"Prime: {', '.join(map(str, primes))}." if primes else "No prime numbers found."


prime_agent = LlmAgent(
    name="prime_agent",
    model=ScriptedLlm(model="scripted-dice"),
    description="Checks whether numbers are prime.",
    instruction="You check primes with check_prime.",
    tools=[check_prime],
)
root = LlmAgent(
    name="dice_agent",
    model=ScriptedLlm(model="scripted-dice"),
    description="Rolls dice.",
    instruction="You roll dice with roll_die and hand prime questions to prime_agent.",
    tools=[roll_die],
    sub_agents=[prime_agent],
)


class OrderServiceDown(RuntimeError):
    pass


async def charge_card(amount: float, currency: str = "EUR") -> dict:
    """Charges the user's card."""
    await asyncio.sleep(0.01)
    raise ValueError(f"card declined for {amount} {currency}")


async def lookup_order(order_id: str) -> dict:
    """Looks an order up."""
    await asyncio.sleep(0.01)
    raise OrderServiceDown(f"order service unavailable for {order_id}")


def handle_card_errors(tool, args, tool_context, error):
    """ADK's on_tool_error_callback: a declined card becomes the tool's response; other raises
    are not handled (None), so they stop the run."""
    if tool.name == "charge_card":
        return {"error": f"{type(error).__name__}: {error}"}
    return None


ERROR_SCRIPT = {
    "Charge 25 EUR to my card.": [
        [call("charge_card", {"amount": 25, "currency": "EUR"})],
        [text("Your card was declined, so nothing was charged.")],
    ],
    "Where is my order ORD-7?": [
        [text("Let me look that up."), call("lookup_order", {"order_id": "ORD-7"})],
        [text("This answer is never given: the tool's raise stops the run.")],
    ],
}
shop = LlmAgent(
    name="shop_agent",
    model=ScriptedLlm(model="scripted-shop"),
    description="Charges cards and finds orders.",
    instruction="You charge cards with charge_card and find orders with lookup_order.",
    tools=[charge_card, lookup_order],
    on_tool_error_callback=handle_card_errors,
)
if scenario == "errors":
    SCRIPT = ERROR_SCRIPT
    root = shop


# What the test expects of the agent (ADK scores its recorded invocations against these).
EXPECTED = [
    ("I rolled a 4.", [("roll_die", {"sides": 6, "scale": 1.0, "seed": BIG})]),
    ("You got a 4 and a 17.", [("roll_die", {"sides": 6}), ("roll_die", {"sides": 20})]),
    ("7 is prime and 9 is not.", [("transfer_to_agent", {"agent_name": "prime_agent"}), ("check_prime", {"nums": [7, 9]})]),
    ("Hello!", []),
]
METRICS = {
    "tool_trajectory_avg_score": 1.0,
    "response_match_score": 0.5,
    "tool_call_count_v1": None,
    "inference_call_count_v1": None,
    "token_usage_v1": None,
    "invocation_duration_v1": None,
}


def expected_invocations():
    from google.adk.evaluation.eval_case import IntermediateData, Invocation

    out = []
    for (message, (answer, calls)) in zip(SCRIPT, EXPECTED):
        out.append(Invocation(
            user_content=types.Content(role="user", parts=[types.Part(text=message)]),
            final_response=types.Content(role="model", parts=[types.Part(text=answer)]),
            intermediate_data=IntermediateData(tool_uses=[types.FunctionCall(name=n, args=a) for n, a in calls]),
        ))
    return out


async def adk_scores(actual):
    """ADK's own evaluators on ADK's own invocations: what the rebuilt ones must score."""
    import inspect

    from google.adk.evaluation import _efficiency_evaluators as eff
    from google.adk.evaluation.eval_case import Invocation
    from google.adk.evaluation.eval_metrics import EvalMetric
    from google.adk.evaluation.final_response_match_v1 import RougeEvaluator
    from google.adk.evaluation.trajectory_evaluator import TrajectoryEvaluator

    # The classes ADK's metric registry maps these names to (the registry itself imports the
    # Vertex AI facade, which needs packages this offline run has not installed).
    classes = {
        "tool_trajectory_avg_score": TrajectoryEvaluator,
        "response_match_score": RougeEvaluator,
        "tool_call_count_v1": eff._ToolCallCountV1Evaluator,
        "inference_call_count_v1": eff._InferenceCallCountV1Evaluator,
        "token_usage_v1": eff._TokenUsageV1Evaluator,
        "invocation_duration_v1": eff._InvocationDurationV1Evaluator,
    }

    actual = [Invocation.model_validate(a) for a in actual]
    expected = expected_invocations()
    scores = {}
    for name, threshold in METRICS.items():
        evaluator = classes[name](eval_metric=EvalMetric(metric_name=name, threshold=threshold))
        r = evaluator.evaluate_invocations(actual, expected)
        if inspect.isawaitable(r):
            r = await r
        scores[name] = {
            "overall_score": r.overall_score,
            "overall_eval_status": r.overall_eval_status.name,
            "per_invocation": [p.score for p in r.per_invocation_results],
        }
    return scores


def pb_json(message):
    """OTLP/JSON as the OTLP spec defines it: protobuf's JSON mapping with lowerCamelCase names,
    64-bit integers as strings, and trace/span ids as hex (not protobuf's base64)."""
    d = json_format.MessageToDict(message, preserving_proto_field_name=False)

    def fix(v):
        if isinstance(v, dict):
            for k, x in list(v.items()):
                if k in ("traceId", "spanId", "parentSpanId") and isinstance(x, str):
                    v[k] = base64.b64decode(x).hex()
                else:
                    fix(x)
        elif isinstance(v, list):
            for x in v:
                fix(x)

    fix(d)
    return d


async def main():
    runner = InMemoryRunner(agent=root, app_name="dice_app")
    name = f"adk-py-{variant}" if scenario == "dice" else f"adk-py-{scenario}-{variant}"
    session = await runner.session_service.create_session(app_name="dice_app", user_id="user-7", session_id=f"session-{name[7:]}")
    durations = {}
    raised = {}
    for message in SCRIPT:
        started = time.monotonic()
        invocation_id = None
        with _instrumentation.collect_busy_intervals() as busy:
            try:
                async for event in runner.run_async(
                    user_id="user-7", session_id=session.id, new_message=types.Content(role="user", parts=[types.Part(text=message)])
                ):
                    invocation_id = invocation_id or event.invocation_id
            except Exception as e:  # noqa: BLE001 - the errors scenario's unhandled raise
                if scenario == "dice":
                    raise
                raised[invocation_id] = f"{type(e).__name__}: {e}"
        durations[invocation_id] = {
            "duration": round(time.monotonic() - started, 3),
            "model_duration": round(busy.model_seconds(), 3),
            "tool_duration": round(busy.tool_seconds(), 3),
        }
    session = await runner.session_service.get_session(app_name="dice_app", user_id="user-7", session_id=session.id)
    invocations = []
    for inv in convert_session_to_eval_invocations(session):
        d = json.loads(inv.model_dump_json(exclude_none=True))
        d.update(durations.get(inv.invocation_id, {}))
        invocations.append(d)
    provider.force_flush()
    log_provider.force_flush()
    spans = spans_out.get_finished_spans()
    logs = logs_out.get_finished_logs()
    base = os.path.join(out_dir, name)
    trace_request = encode_spans(spans)
    lines = [json.dumps(pb_json(trace_request), separators=(",", ":"))]
    if logs:
        lines.append(json.dumps(pb_json(encode_logs(logs)), separators=(",", ":")))
    with open(base + ".otlp.jsonl", "w") as f:
        f.write("\n".join(lines) + "\n")
    if scenario == "dice":  # the protobuf bodies of one scenario are enough for the protobuf reader
        with open(base + ".otlp.pb", "wb") as f:
            f.write(trace_request.SerializeToString())
    if logs and scenario == "dice":
        with open(base + ".logs.pb", "wb") as f:
            f.write(encode_logs(logs).SerializeToString())
    oracle = {"session_id": session.id, "app_name": "dice_app", "user_id": "user-7", "invocations": invocations}
    if scenario == "dice":
        oracle.update({
            "expected": [json.loads(i.model_dump_json(exclude_none=True)) for i in expected_invocations()],
            "metrics": {k: v for k, v in METRICS.items()},
            "adk_scores": await adk_scores(invocations),
        })
    else:
        oracle["raised"] = raised
    with open(base + ".oracle.json", "w") as f:
        json.dump(oracle, f, indent=1)
        f.write("\n")
    print(f"{name}: {len(spans)} spans, {len(logs)} log records, {len(invocations)} invocations")


asyncio.run(main())
