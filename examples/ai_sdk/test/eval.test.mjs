// The AI SDK weather agent evaluated as ADK evaluates: AgentEvaluator over the eval set (with
// generateText and with streamText), then what the core recorded for a few cases — the tool
// calls of one step and of sequential steps, the text beside them, the usage of every model
// call, the model / tool split of the duration — and a turn that runs out of time.
import { describe, expect, it } from 'vitest';
import { evaluate } from 'evalcore';
import { AgentEvaluator } from 'evalcore/testing';
import { actual, exampleData, metric } from '../../weather/results.mjs';
import { agent, makeAgent, streamingAgent } from '../agent.mjs';

const { path: EVAL_SET, evalSet, config } = exampleData(new URL('../', import.meta.url), 'ai_sdk');

const calls = (inv) => inv.intermediate_data.invocation_events.flatMap((e) => (e.content?.parts ?? []).filter((p) => p.function_call).map((p) => p.function_call));

describe('weather agent (AI SDK)', () => {
  it('passes its eval set with generateText', async () => {
    const [result] = await AgentEvaluator.evaluate(agent, EVAL_SET);
    expect(result.eval_case_results).toHaveLength(14); // 7 cases x 2 runs (AgentEvaluator's default)
  });

  it('passes its eval set with streamText', async () => {
    const [result] = await AgentEvaluator.evaluate(streamingAgent, EVAL_SET);
    expect(result.eval_case_results.every((r) => r.final_eval_status === 'PASSED')).toBe(true);
  });

  it('records two calls of one step in one event, with the text said beside them', async () => {
    const { eval_case_results: [r] } = await evaluate({ evalSet, agent, config, evalIds: ['compare_two_cities'] });
    const events = actual(r).intermediate_data.invocation_events;
    expect(events[0].content.parts.map((p) => p.text ?? p.function_call.name)).toEqual(['Let me look up both cities.', 'get_weather', 'get_weather']);
    expect(events[1].content.parts.map((p) => p.function_response.response)).toEqual([
      { city: 'Paris', sky: 'sunny', celsius: 18 }, { city: 'Oslo', sky: 'snowy', celsius: -3 }]);
    expect(metric(r, 'inference_call_count_v1').score).toBe(2);
  });

  it('counts the tokens of every model call, reasoning apart', async () => {
    const { eval_case_results: [r] } = await evaluate({ evalSet, agent, config, evalIds: ['oslo_in_fahrenheit'] });
    expect(calls(actual(r)).map((c) => c.name)).toEqual(['get_weather', 'convert_temperature']);
    const usage = metric(r, 'token_usage_v1');
    expect(usage.score).toBe(450); // three model calls of 120 + 30
    expect(usage.details.token_usage_details).toMatchObject({ input_tokens: 360, cached_tokens: 60, output_tokens: 90, candidates_tokens: 60, reasoning_tokens: 30 });
  });

  it('splits the duration into model and tool time (the telemetry tracer)', async () => {
    const slow = makeAgent({ toolDelayMs: 50 });
    const { eval_case_results: [r] } = await evaluate({ evalSet, agent: slow, config, evalIds: ['weather_paris'] });
    const d = metric(r, 'invocation_duration_v1').details.duration_details;
    expect(d.tool_seconds).toBeGreaterThanOrEqual(0.04);
    expect(d.model_seconds).not.toBeNull();
    expect(d.framework_seconds).not.toBeNull();
  });

  it('a tool that throws: its error is the tool response, and the model answers from it', async () => {
    const { eval_case_results: [r] } = await evaluate({ evalSet, agent, config, evalIds: ['unknown_city'] });
    const events = actual(r).intermediate_data.invocation_events;
    expect(events[1].content.parts[0].function_response.response).toEqual({ error: 'no weather station in Atlantis' });
    expect(r.final_eval_status).toBe('PASSED');
  });

  it('the turn signal reaches the AI SDK: a turn past agentTimeoutMs is aborted', async () => {
    const slow = makeAgent({ toolDelayMs: 5_000 });
    const started = Date.now();
    const { eval_case_results: [r] } = await evaluate({ evalSet, agent: slow, config, evalIds: ['weather_paris'], agentTimeoutMs: 200 });
    expect(r.error.code).toBe('agent_timeout');
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});
