// The Mastra weather agent evaluated as ADK evaluates: AgentEvaluator over the eval set, then
// what the core recorded — two calls of one step with the text beside them, the sub-agent as a
// tool call, a failing tool's error, the usage of every model call — what Mastra does not report
// (the model / tool split, said in the duration's details), and a turn that runs out of time.
import { describe, expect, it } from 'vitest';
import { evaluate } from 'evalcore';
import { AgentEvaluator } from 'evalcore/testing';
import { events, exampleData, metric, parts } from '../../weather/results.mjs';
import { TRAVEL_TOOL, agent, makeAgent } from '../agent.mjs';

const { path: EVAL_SET, evalSet, config } = exampleData(new URL('../', import.meta.url), 'mastra');

describe('weather agent (Mastra)', () => {
  it('passes its eval set', async () => {
    const [result] = await AgentEvaluator.evaluate(agent, EVAL_SET);
    expect(result.eval_case_results).toHaveLength(14); // 7 cases x 2 runs (AgentEvaluator's default)
  });

  it('records two calls of one step in one event, with its text; usage per model call', async () => {
    const { eval_case_results: [r] } = await evaluate({ evalSet, agent, config, evalIds: ['compare_two_cities'] });
    expect(parts(events(r)[0])).toEqual(['Let me look up both cities.', 'get_weather', 'get_weather']);
    expect(events(r)[0].model_version).toBe('scripted-weather-1');
    expect(metric(r, 'token_usage_v1').details.token_usage_details).toMatchObject({ input_tokens: 240, cached_tokens: 40, candidates_tokens: 40, reasoning_tokens: 20 });
  });

  it('records the sub-agent as the tool call Mastra makes of it, its answer the response', async () => {
    const { eval_case_results: [r] } = await evaluate({ evalSet, agent, config, evalIds: ['pack_for_oslo'] });
    expect(events(r).map(parts)).toEqual([[TRAVEL_TOOL], [`${TRAVEL_TOOL} ->`], []]);
    expect(events(r)[1].content.parts[0].function_response.response.text).toBe('Pack a warm coat and boots for Oslo: it is snowy and -3 °C.');
  });

  it('a tool that throws: recorded as the tool response { error }', async () => {
    const { eval_case_results: [r] } = await evaluate({ evalSet, agent, config, evalIds: ['unknown_city'] });
    expect(events(r)[1].content.parts[0].function_response.response).toEqual({ error: 'no weather station in Atlantis' });
  });

  it('says why the duration has no model / tool split: Mastra does not report it', async () => {
    const { eval_case_results: [r] } = await evaluate({ evalSet, agent, config, evalIds: ['weather_paris'] });
    const duration = metric(r, 'invocation_duration_v1');
    expect(duration.score).toBeGreaterThan(0);
    expect(duration.details.duration_details.model_seconds).toBeNull();
    expect(duration.details.reason).toBe('model_tool_time_not_reported');
  });

  it('the turn signal reaches Mastra: a turn past agentTimeoutMs is aborted', async () => {
    const started = Date.now();
    const { eval_case_results: [r] } = await evaluate({ evalSet, agent: makeAgent({ toolDelayMs: 5_000 }), config, evalIds: ['weather_paris'], agentTimeoutMs: 200 });
    expect(r.error.code).toBe('agent_timeout');
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});
