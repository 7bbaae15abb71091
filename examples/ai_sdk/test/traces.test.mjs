// The same AI SDK agent run seen two ways must give the same ADK invocations (STYLE.md §16):
// what `fromAiSdk` records from generateText's result objects, and what `loadTraces` rebuilds
// from the OpenTelemetry spans the AI SDK emitted in the same run, exported by OpenTelemetry's
// OTLP/JSON encoder. On `ai` 7 the spans come from `@ai-sdk/otel`'s `OpenTelemetry` integration,
// registered as its README says (`registerTelemetry`: fromAiSdk passes it every event), in the
// GenAI conventions; on `ai` 6 from the app's own tracer, in the AI SDK's `ai.*` spans. Every
// case of the eval set: tool calls and arguments, tool responses (a tool's error too),
// intermediate and final responses, authors, each model call's usage, and the sub-agent's calls
// left inside its tool.
import { describe, expect, it } from 'vitest';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import * as ai from 'ai';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { evaluate, loadTraces } from 'evalcore';
import { fromAiSdk } from 'evalcore/adapters';
import { exampleData } from '../../weather/results.mjs';
import { INSTRUCTIONS } from '../../weather/weather.mjs';
import { weatherModel, weatherTools } from '../agent.mjs';

// As an app's OpenTelemetry setup does (NodeSDK registers it): without a context manager every
// span the AI SDK starts is a root of its own trace, and a turn's spans are not one invocation.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

const { evalSet, config } = exampleData(new URL('../', import.meta.url), 'ai_sdk');
const { generateText, stepCountIs } = ai;
// `ai` 7 registers telemetry integrations; `ai` 6 takes a tracer.
const V7 = typeof ai.registerTelemetry === 'function';

/**
 * The agent of agent.mjs, its spans going to `tracer` too, each turn naming its session: `ai` 7
 * through @ai-sdk/otel's integration (the session from the runtime context, as the conversation
 * id of the GenAI conventions); `ai` 6 through its telemetry metadata.
 */
async function tracedAgent(tracer) {
  if (V7) {
    const { OpenTelemetry } = await import('@ai-sdk/otel');
    ai.registerTelemetry(new OpenTelemetry({
      tracer, agentSpanName: 'functionId', usage: true,
      enrichSpan: ({ runtimeContext }) => (runtimeContext?.sessionId ? { 'gen_ai.conversation.id': runtimeContext.sessionId } : undefined),
    }));
    return fromAiSdk(({ messages, signal, telemetry, turn }) => generateText({
      model: weatherModel, system: INSTRUCTIONS, messages, tools: weatherTools({ telemetry }), stopWhen: stepCountIs(5), abortSignal: signal,
      runtimeContext: { sessionId: turn.sessionId }, telemetry: { ...telemetry, includeRuntimeContext: { sessionId: true } },
    }), { author: 'weather_agent' });
  }
  return fromAiSdk(({ messages, signal, telemetry, turn }) => generateText({
    model: weatherModel, system: INSTRUCTIONS, messages, tools: weatherTools({ telemetry }), stopWhen: stepCountIs(5), abortSignal: signal,
    experimental_telemetry: { ...telemetry, metadata: { sessionId: turn.sessionId } },
  }), { author: 'weather_agent', tracer });
}

/** Usage both sides record: the GenAI conventions have no total (the AI SDK's `ai.*` spans have it). */
const comparable = (usage) => {
  if (!usage || !V7) return usage ?? null;
  const { total_token_count: _total, ...rest } = usage;
  return rest;
};

/** What both sides must agree on, per invocation (ids, timestamps and timings are each side's own). */
function behaviour(inv) {
  const events = inv.intermediate_data?.invocation_events ?? [];
  return {
    user: inv.user_content.parts.map((p) => p.text).join(''),
    final: (inv.final_response?.parts ?? []).map((p) => p.text ?? '').join(''),
    events: events.map((e) => ({
      author: e.author,
      parts: (e.content?.parts ?? []).map((p) => (p.function_call ? { call: p.function_call }
        : p.function_response ? { response: p.function_response } : { text: p.text })),
      usage: comparable(e.usage_metadata),
    })),
  };
}

describe('fromAiSdk and the AI SDK\'s spans give the same invocations', () => {
  it('every case of the eval set, event for event', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'weather_app' }),
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const result = await evaluate({ evalSet, agent: await tracedAgent(provider.getTracer('weather')), config, concurrency: 1 });
    await provider.forceFlush();
    const body = JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans());
    const { sessions, warnings } = loadTraces(body);
    expect(warnings).toEqual([]);

    const recorded = new Map(result.eval_case_results.map((r) => [r.session_id, r.eval_metric_result_per_invocation.map((p) => p.actual_invocation)]));
    expect(sessions.map((s) => s.session_id).sort()).toEqual([...recorded.keys()].sort());
    for (const s of sessions) {
      expect(s.source).toBe(V7 ? 'genai' : 'ai-sdk');
      expect(s.invocations.map(behaviour)).toEqual(recorded.get(s.session_id).map(behaviour));
      // Durations come from the same spans on both sides: the split agrees to the rounding.
      s.invocations.forEach((inv, k) => {
        const mine = recorded.get(s.session_id)[k];
        expect(Math.abs(inv.model_duration - mine.model_duration), `model ${s.session_id} ${k}: ${inv.model_duration} vs ${mine.model_duration}`).toBeLessThanOrEqual(0.002);
        expect(Math.abs(inv.tool_duration - mine.tool_duration), `tool ${s.session_id} ${k}: ${inv.tool_duration} vs ${mine.tool_duration}`).toBeLessThanOrEqual(0.002);
      });
    }
    // The cases that exercise the mapping are all there: two calls in one step, a tool's error, the sub-agent.
    const byCase = Object.fromEntries(result.eval_case_results.map((r) => [r.eval_id, sessions.find((s) => s.session_id === r.session_id)]));
    expect(byCase.compare_two_cities.invocations[0].intermediate_data.invocation_events[0].content.parts.filter((p) => p.function_call)).toHaveLength(2);
    expect(byCase.unknown_city.invocations[0].intermediate_data.invocation_events[1].content.parts[0].function_response.response).toEqual({ error: 'no weather station in Atlantis' });
    expect(byCase.follow_up_in_fahrenheit.invocations).toHaveLength(2);
    await provider.shutdown();
  });
});
