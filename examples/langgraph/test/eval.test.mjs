// The LangGraph.js weather graph evaluated as ADK evaluates: AgentEvaluator over the eval set
// (on the checkpointer's threads, and carrying the messages itself), then what the core
// recorded — the handoff between the two agents as ADK's transfer_to_agent, the authors from
// the AIMessages' names, two tool_calls of one message, usage_metadata per model call, the
// model / tool split from LangChain's callbacks — and a turn that runs out of time.
import { describe, expect, it } from 'vitest';
import { evaluate } from 'evalcore';
import { fromLangGraph } from 'evalcore/adapters';
import { AgentEvaluator } from 'evalcore/testing';
import { events, exampleData, metric, parts } from '../../weather/results.mjs';
import { agent, makeGraph } from '../agent.mjs';

const { path: EVAL_SET, evalSet, config } = exampleData(new URL('../', import.meta.url), 'langgraph');

describe('weather graph (LangGraph.js)', () => {
  it('passes its eval set, each conversation on a thread of the checkpointer', async () => {
    const [result] = await AgentEvaluator.evaluate(agent, EVAL_SET);
    expect(result.eval_case_results).toHaveLength(14); // 7 cases x 2 runs (AgentEvaluator's default)
  });

  it('passes its eval set without a checkpointer, the adapter carrying the messages', async () => {
    const [result] = await AgentEvaluator.evaluate(fromLangGraph(makeGraph({ checkpointer: null })), EVAL_SET, { numRuns: 1 });
    expect(result.eval_case_results.every((r) => r.final_eval_status === 'PASSED')).toBe(true);
  });

  it('records the handoff tool as transfer_to_agent, the travel agent the author of what follows', async () => {
    const { eval_case_results: [r] } = await evaluate({ evalSet, agent, config, evalIds: ['pack_for_oslo'] });
    expect(events(r).map((e) => [e.author, ...parts(e)])).toEqual([
      ['weather_agent', 'transfer_to_agent'],
      ['weather_agent', 'transfer_to_agent ->'],
      ['travel_agent', 'get_weather'],
      ['travel_agent', 'get_weather ->'],
      ['travel_agent'],
    ]);
  });

  it('records two tool_calls of one AIMessage in one event, with its text; usage per model call', async () => {
    const { eval_case_results: [r] } = await evaluate({ evalSet, agent, config, evalIds: ['compare_two_cities'] });
    expect(parts(events(r)[0])).toEqual(['Let me look up both cities.', 'get_weather', 'get_weather']);
    expect(events(r)[0].model_version).toBe('scripted-weather-1');
    expect(metric(r, 'token_usage_v1').details.token_usage_details).toMatchObject({ input_tokens: 240, cached_tokens: 40, candidates_tokens: 40, reasoning_tokens: 20 });
  });

  it('a tool that throws: ToolNode reports it, recorded as the tool response { error }', async () => {
    const { eval_case_results: [r] } = await evaluate({ evalSet, agent, config, evalIds: ['unknown_city'] });
    expect(events(r)[1].content.parts[0].function_response.response.error).toMatch(/no weather station in Atlantis/);
  });

  it('splits the duration into model and tool time (LangChain callbacks)', async () => {
    const { eval_case_results: [r] } = await evaluate({ evalSet, agent: fromLangGraph(makeGraph({ toolDelayMs: 50 })), config, evalIds: ['weather_paris'] });
    const d = metric(r, 'invocation_duration_v1').details.duration_details;
    expect(d.tool_seconds).toBeGreaterThanOrEqual(0.04);
    expect(d.model_seconds).not.toBeNull();
  });

  it('the turn signal reaches the graph: a turn past agentTimeoutMs is aborted', async () => {
    const started = Date.now();
    const slow = fromLangGraph(makeGraph({ toolDelayMs: 5_000 }));
    const { eval_case_results: [r] } = await evaluate({ evalSet, agent: slow, config, evalIds: ['weather_paris'], agentTimeoutMs: 200 });
    expect(r.error.code).toBe('agent_timeout');
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});
