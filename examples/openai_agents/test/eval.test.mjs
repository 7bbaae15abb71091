// The OpenAI Agents SDK weather agent evaluated as ADK evaluates: AgentEvaluator over the eval
// set (run and streamed run), then what the core recorded — the handoff as ADK's
// transfer_to_agent with the travel agent the author of what follows, two calls of one
// response, the usage of every model response, the model / tool split — and a turn that runs
// out of time.
import { describe, expect, it } from 'vitest';
import { evaluate } from 'evalcore';
import { AgentEvaluator } from 'evalcore/testing';
import { events, exampleData, metric, parts } from '../../weather/results.mjs';
import { agent, makeAgent } from '../agent.mjs';

const { path: EVAL_SET, evalSet, config } = exampleData(new URL('../', import.meta.url), 'openai_agents');

describe('weather agent (OpenAI Agents SDK)', () => {
  it('passes its eval set', async () => {
    const [result] = await AgentEvaluator.evaluate(agent, EVAL_SET);
    expect(result.eval_case_results).toHaveLength(14); // 7 cases x 2 runs (AgentEvaluator's default)
  });

  it('passes its eval set with streamed runs', async () => {
    const [result] = await AgentEvaluator.evaluate(makeAgent({ stream: true }), EVAL_SET, { numRuns: 1 });
    expect(result.eval_case_results.every((r) => r.final_eval_status === 'PASSED')).toBe(true);
  });

  it('records a handoff as transfer_to_agent, the receiving agent the author of what follows', async () => {
    const { eval_case_results: [r] } = await evaluate({ evalSet, agent, config, evalIds: ['pack_for_oslo'] });
    const ev = events(r);
    expect(ev.map((e) => [e.author, ...parts(e)])).toEqual([
      ['weather_agent', 'transfer_to_agent'],
      ['weather_agent', 'transfer_to_agent ->'],
      ['travel_agent', 'get_weather'],
      ['travel_agent', 'get_weather ->'],
      ['travel_agent'], // the final response's event, its content nulled as ADK records it
    ]);
    expect(ev[0].content.parts[0].function_call.args).toEqual({ agent_name: 'travel_agent' });
    expect(r.eval_metric_result_per_invocation[0].actual_invocation.final_response.parts[0].text)
      .toBe('Pack a warm coat and boots for Oslo: it is snowy and -3 °C.');
  });

  it('records two calls of one response in one event, with the message beside them; usage per response', async () => {
    const { eval_case_results: [r] } = await evaluate({ evalSet, agent, config, evalIds: ['compare_two_cities'] });
    expect(parts(events(r)[0])).toEqual(['Let me look up both cities.', 'get_weather', 'get_weather']);
    expect(metric(r, 'inference_call_count_v1').score).toBe(2);
    expect(metric(r, 'token_usage_v1').details.token_usage_details).toMatchObject({ input_tokens: 240, cached_tokens: 40, candidates_tokens: 40, reasoning_tokens: 20 });
  });

  it('splits the duration: tool time from the runner, model time through its model provider', async () => {
    const { eval_case_results: [r] } = await evaluate({ evalSet, agent: makeAgent({ toolDelayMs: 50 }), config, evalIds: ['weather_paris'] });
    const d = metric(r, 'invocation_duration_v1').details.duration_details;
    expect(d.tool_seconds).toBeGreaterThanOrEqual(0.04);
    expect(d.model_seconds).not.toBeNull();
  });

  it('the turn signal reaches the runner: a turn past agentTimeoutMs is aborted', async () => {
    const started = Date.now();
    const { eval_case_results: [r] } = await evaluate({ evalSet, agent: makeAgent({ toolDelayMs: 5_000 }), config, evalIds: ['weather_paris'], agentTimeoutMs: 200 });
    expect(r.error.code).toBe('agent_timeout');
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});
