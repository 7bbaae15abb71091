// The one mapping every adapter shares (pkg/lib/adapters/steps.js: steps -> ADK events), the
// frameworks' result shapes it is fed from (AI SDK v6/v5/v4 usage and steps, LangChain messages,
// Mastra steps), what a fromFunction reply can report (steps, usage, model, timings), the
// conversations the adapters keep, and what the core derives from all of it: the invocation,
// token usage, model calls, the model / tool split, and why a figure is missing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EvalError, evaluate } from '../../pkg/index.js';
import { runHealth } from '../../pkg/lib/health.js';
import { fromFunction } from '../../pkg/lib/adapters/index.js';
import { aiSdkStep, aiSdkUsage } from '../../pkg/lib/adapters/ai_sdk.js';
import { conversations } from '../../pkg/lib/adapters/conversations.js';
import { langGraphSteps } from '../../pkg/lib/adapters/langgraph.js';
import { mastraStep } from '../../pkg/lib/adapters/mastra.js';
import { stepsToEvents, timeline, usageAt, usageMetadata } from '../../pkg/lib/adapters/steps.js';
import { MINIMAL_SET } from './helpers.mjs';

const turn = (extra = {}) => ({ evalSetId: 's', evalId: 'c', run: 0, turnIndex: 0, sessionId: 'x', text: 'Weather?', ...extra });

test('stepsToEvents: a step is one model event (text, then its calls) and one tool event (its results, in call order)', () => {
  const events = stepsToEvents([
    {
      text: 'Checking both.', model: 'm-1', usage: { inputTokens: 100, outputTokens: 30, reasoningTokens: 10, cachedInputTokens: 40, totalTokens: 130 },
      toolCalls: [{ id: 'a', name: 'get_weather', args: { city: 'Paris' }, response: { sky: 'sunny' } }, { name: 'get_weather', args: { city: 'Oslo' }, error: new Error('no station') }],
    },
    { author: 'helper', text: 'Done.', toolResults: [{ id: 'late', name: 'slow_tool', response: 3 }] },
  ], { author: 'weather_agent' });
  assert.deepEqual(events, [
    {
      author: 'weather_agent',
      content: { role: 'model', parts: [{ text: 'Checking both.' }, { function_call: { id: 'a', name: 'get_weather', args: { city: 'Paris' } } }, { function_call: { id: 'call_0_1', name: 'get_weather', args: { city: 'Oslo' } } }] },
      model_version: 'm-1',
      usage_metadata: { prompt_token_count: 100, candidates_token_count: 20, total_token_count: 130, cached_content_token_count: 40, thoughts_token_count: 10 },
    },
    { author: 'weather_agent', content: { role: 'user', parts: [{ function_response: { id: 'a', name: 'get_weather', response: { sky: 'sunny' } } }, { function_response: { id: 'call_0_1', name: 'get_weather', response: { error: 'no station' } } }] } },
    { author: 'helper', content: { role: 'model', parts: [{ text: 'Done.' }] } },
    { author: 'helper', content: { role: 'user', parts: [{ function_response: { id: 'late', name: 'slow_tool', response: { result: 3 } } }] } },
  ]);
});

test('stepsToEvents: a handoff is transfer_to_agent(agent_name), answered {result: null} with actions.transfer_to_agent', () => {
  const events = stepsToEvents([{ toolCalls: [{ id: 'h', name: 'transfer_to_refunds', transferTo: 'refunds', args: { ignored: true } }] }, { author: 'refunds', text: 'Refunded.' }], { author: 'triage' });
  assert.deepEqual(events, [
    { author: 'triage', content: { role: 'model', parts: [{ function_call: { id: 'h', name: 'transfer_to_agent', args: { agent_name: 'refunds' } } }] } },
    { author: 'triage', content: { role: 'user', parts: [{ function_response: { id: 'h', name: 'transfer_to_agent', response: { result: null } } }] }, actions: { transfer_to_agent: 'refunds' } },
    { author: 'refunds', content: { role: 'model', parts: [{ text: 'Refunded.' }] } },
  ]);
  // A step with usage and nothing said is still a model call (ADK counts events with usage).
  assert.deepEqual(stepsToEvents([{ usage: { inputTokens: 5 } }]), [{ author: 'agent', usage_metadata: { prompt_token_count: 5 } }]);
});

test('usageMetadata: output counts reasoning (candidates = output - reasoning); bad counts are agent_reply errors with a path', () => {
  assert.deepEqual(usageMetadata({ inputTokens: 10, outputTokens: 5 }, '$.u', 'w'), { prompt_token_count: 10, candidates_token_count: 5 });
  for (const [usage, path] of [
    [{ inputTokens: -1 }, '$.u.inputTokens'], [{ outputTokens: '5' }, '$.u.outputTokens'], [{ totalTokens: Infinity }, '$.u.totalTokens'],
    [{ outputTokens: 5, reasoningTokens: 9 }, '$.u.reasoningTokens'], ['lots', '$.u'],
  ]) {
    assert.throws(() => usageMetadata(usage, '$.u', 'w'), (e) => e instanceof EvalError && e.code === 'agent_reply' && e.path === path, path);
  }
});

test('usageAt: counts by path, the first path with a number, arrays summed over, nothing is undefined', () => {
  const u = { a: 1, d: [{ c: 2 }, { c: 3 }, { x: 1 }], bad: -1, s: '4' };
  assert.deepEqual(usageAt(u, { inputTokens: ['missing', 'a'], cachedInputTokens: ['d.c'], outputTokens: ['bad'], totalTokens: ['s'] }), { inputTokens: 1, cachedInputTokens: 5 });
  assert.equal(usageAt({ z: 'none' }, { inputTokens: ['z'] }), undefined);
  assert.equal(usageAt(null, { inputTokens: ['a'] }), undefined);
});

test('aiSdkUsage: v6 details, v5 flat fields (output with or without reasoning), v4 prompt/completion', () => {
  const v6 = { inputTokens: 100, inputTokenDetails: { noCacheTokens: 60, cacheReadTokens: 40 }, outputTokens: 30, outputTokenDetails: { textTokens: 20, reasoningTokens: 10 }, totalTokens: 130 };
  assert.deepEqual(aiSdkUsage(v6), { inputTokens: 100, outputTokens: 30, reasoningTokens: 10, cachedInputTokens: 40, totalTokens: 130 });
  // v5, OpenAI: output_tokens counts reasoning (total = input + output).
  assert.equal(aiSdkUsage({ inputTokens: 100, outputTokens: 30, reasoningTokens: 10, totalTokens: 130 }).outputTokens, 30);
  // v5, Google: candidates without thoughts (total = input + output + reasoning); and reasoning above output.
  assert.equal(aiSdkUsage({ inputTokens: 100, outputTokens: 20, reasoningTokens: 10, totalTokens: 130 }).outputTokens, 30);
  assert.equal(aiSdkUsage({ inputTokens: 100, outputTokens: 5, reasoningTokens: 50 }).outputTokens, 55);
  assert.deepEqual(aiSdkUsage({ promptTokens: 7, completionTokens: 3, totalTokens: 10 }), { inputTokens: 7, outputTokens: 3, totalTokens: 10 });
  assert.equal(aiSdkUsage({ inputTokens: undefined, outputTokens: undefined }), undefined);
  assert.equal(aiSdkUsage(undefined), undefined);
});

test('aiSdkStep: v6 content parts, v4 toolCalls/toolResults, errors, preliminary results, results of earlier calls', () => {
  const v6 = aiSdkStep({
    content: [
      { type: 'reasoning', text: 'thinking' }, { type: 'text', text: 'A' }, { type: 'text', text: 'B' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'f', input: { x: 1 } },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'g', input: '{"broken' },
      { type: 'tool-result', toolCallId: 'c1', toolName: 'f', output: 'partial', preliminary: true },
      { type: 'tool-result', toolCallId: 'c1', toolName: 'f', output: 'done' },
      { type: 'tool-error', toolCallId: 'c2', toolName: 'g', error: new Error('bad input') },
      { type: 'tool-result', toolCallId: 'old', toolName: 'h', output: 1 },
    ],
    usage: { inputTokens: 1, outputTokens: 2 }, response: { modelId: 'gpt-x' },
  }, 0, 'me');
  assert.deepEqual(v6, {
    author: 'me', text: 'AB', model: 'gpt-x', usage: { inputTokens: 1, outputTokens: 2 },
    toolCalls: [{ id: 'c1', name: 'f', args: { x: 1 }, response: 'done' }, { id: 'c2', name: 'g', args: { _raw: '{"broken' }, error: new Error('bad input') }],
    toolResults: [{ id: 'old', name: 'h', response: 1 }],
  });
  const v4 = aiSdkStep({ text: 'Hi', toolCalls: [{ toolCallId: 'c', toolName: 'f', args: { a: 1 } }], toolResults: [{ toolCallId: 'c', toolName: 'f', result: 42 }], usage: { promptTokens: 3, completionTokens: 4 } }, 0, 'me');
  assert.deepEqual(v4.toolCalls, [{ id: 'c', name: 'f', args: { a: 1 }, response: 42 }]);
  assert.equal(v4.text, 'Hi');
  assert.throws(() => aiSdkStep(null, 2, 'me'), (e) => e.code === 'agent_reply' && e.path === '$.steps[2]');
});

test('langGraphSteps: AIMessages (plain or LangChain) are steps; ToolMessages their results; a transfer_to_X tool is a handoff only when X speaks next', () => {
  const ai = (name, content, tool_calls = [], extra = {}) => ({ type: 'ai', name, content, tool_calls, ...extra });
  const toolMsg = (id, content, status = 'success') => ({ type: 'tool', tool_call_id: id, content, status });
  const steps = langGraphSteps([
    ai('router', [{ type: 'text', text: 'Routing.' }, { type: 'tool_use', id: 'x' }], [{ id: 't1', name: 'transfer_to_sales', args: {} }, { id: 't2', name: 'transfer_to_nobody', args: {} }],
      { usage_metadata: { input_tokens: 9, output_tokens: 4, total_tokens: 13, output_token_details: { reasoning: 1 } }, response_metadata: { model: 'claude-x' } }),
    toolMsg('t1', 'Transferred'), toolMsg('t2', 'Error: nobody\n Please fix your mistakes.', 'error'),
    ai('sales', 'Hello from sales.', [], { invalid_tool_calls: [{ id: 'bad', name: 'lookup', args: '{oops', error: 'not JSON' }] }),
    toolMsg('unmatched', '{"a":1}'),
  ], 'agent');
  assert.deepEqual(steps, [
    {
      author: 'router', text: 'Routing.', model: 'claude-x',
      usage: { inputTokens: 9, outputTokens: 4, reasoningTokens: 1, totalTokens: 13 },
      toolCalls: [{ id: 't1', name: 'transfer_to_sales', args: {}, transferTo: 'sales' }, { id: 't2', name: 'transfer_to_nobody', args: {}, error: 'Error: nobody\n Please fix your mistakes.' }],
      toolResults: [],
    },
    { author: 'sales', text: 'Hello from sales.', toolCalls: [{ id: 'bad', name: 'lookup', args: { _raw: '{oops' } }], toolResults: [{ id: 'unmatched', name: undefined, response: { a: 1 } }] },
  ]);
});

test('mastraStep: Mastra chunks ({ payload }) and AI SDK parts; a failed tool is an error', () => {
  const chunk = (type, payload) => ({ type, runId: 'r', from: 'AGENT', payload });
  const step = mastraStep({
    text: 'Both.', usage: { inputTokens: 10, outputTokens: 5, reasoningTokens: 1, cachedInputTokens: 2, totalTokens: 15 }, response: { modelId: 'mock' },
    toolCalls: [chunk('tool-call', { toolCallId: 'a', toolName: 'f', args: { x: 1 } }), { type: 'tool-call', toolCallId: 'b', toolName: 'g', input: { y: 2 } }],
    toolResults: [chunk('tool-result', { toolCallId: 'a', toolName: 'f', result: { ok: true } }), chunk('tool-result', { toolCallId: 'b', toolName: 'g', result: new Error('boom') }),
      chunk('tool-result', { toolCallId: 'z', toolName: 'h', result: 'x', isError: true })],
  }, 0, 'weather');
  assert.deepEqual(step.toolCalls, [{ id: 'a', name: 'f', args: { x: 1 }, response: { ok: true } }, { id: 'b', name: 'g', args: { y: 2 }, error: 'boom' }]);
  assert.deepEqual(step.toolResults, [{ id: 'z', name: 'h', error: 'x' }]);
  assert.equal(step.model, 'mock');
});

test('conversations: one state per conversation, started by its first turn; a bounded number kept; a dropped one says so', () => {
  const store = conversations('who', 2);
  const a0 = store.begin(turn({ evalId: 'a' }), () => ({ n: 0 }));
  a0.n = 1;
  assert.equal(store.begin(turn({ evalId: 'a', turnIndex: 1 }), () => ({ n: 0 })).n, 1);
  assert.equal(store.begin(turn({ evalId: 'a', turnIndex: 0 }), () => ({ n: 0 })).n, 0, 'a new conversation of the same case');
  store.begin(turn({ evalId: 'b' }), () => ({}));
  store.begin(turn({ evalId: 'c' }), () => ({})); // drops a, the least recently used
  assert.equal(store.size, 2);
  assert.throws(() => store.begin(turn({ evalId: 'a', turnIndex: 1 }), () => ({})), (e) => e.code === 'agent_error' && /maxConversations/.test(e.message));
  assert.throws(() => conversations('who', 0), (e) => e.code === 'schema' && e.path === '$.options.maxConversations');
});

test('timeline: observed kinds report [] when unused; forget drops one; nothing observed is undefined', () => {
  const t = timeline();
  assert.equal(t.toJSON(), undefined);
  t.observe('tool');
  const end = t.start('model');
  end();
  end();
  assert.deepEqual(Object.keys(t.toJSON()), ['tool', 'model']);
  assert.equal(t.toJSON().model.length, 1);
  t.forget('model');
  assert.deepEqual(t.toJSON(), { tool: [] });
});

test('fromFunction: steps, usage, model and timings reach the invocation: tokens, model calls, the model / tool split', async () => {
  const agent = fromFunction(() => ({
    steps: [
      { text: 'Looking it up.', toolCalls: [{ name: 'get_weather', args: { city: 'Paris' }, response: { sky: 'sunny' } }], usage: { inputTokens: 100, outputTokens: 20, reasoningTokens: 5 } },
    ],
    text: 'It is sunny in Paris.',
    model: 'my-model',
    timings: { modelMs: 1200, toolMs: 300 },
  }), { author: 'weather_agent' });
  const { eval_case_results: [r] } = await evaluate({ evalSet: MINIMAL_SET, agent, config: { criteria: { tool_trajectory_avg_score: 1 } } });
  const m = (name) => r.overall_eval_metric_results.find((x) => x.metric_name === name);
  assert.equal(r.final_eval_status, 'PASSED');
  assert.equal(m('inference_call_count_v1').score, 2, 'two model events: the step and the answer (model_version on both)');
  assert.equal(m('token_usage_v1').score, 120);
  assert.deepEqual(m('token_usage_v1').details.token_usage_details, { total_tokens: 120, input_tokens: 100, prompt_tokens: 100, cached_tokens: null, tool_use_tokens: null, output_tokens: 20, candidates_tokens: 15, reasoning_tokens: 5 });
  const d = m('invocation_duration_v1').details.duration_details;
  assert.deepEqual([d.model_seconds, d.tool_seconds], [1.2, 0.3]);
  const inv = r.eval_metric_result_per_invocation[0].actual_invocation;
  assert.deepEqual([inv.model_duration, inv.tool_duration], [1.2, 0.3]);
  assert.deepEqual(inv.intermediate_data.invocation_events[0].content.parts.map((p) => p.text ?? p.function_call.name), ['Looking it up.', 'get_weather']);

  // The whole turn's usage goes on the last event; intervals count overlap once.
  const whole = fromFunction(() => ({ text: 'It is sunny in Paris.', toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }], usage: { inputTokens: 50, outputTokens: 10 }, timings: { model: [[0, 400], [300, 600]], tool: [[600, 700]] } }));
  const { eval_case_results: [w] } = await evaluate({ evalSet: MINIMAL_SET, agent: whole, config: { criteria: {} } });
  const wi = w.eval_metric_result_per_invocation[0].actual_invocation;
  assert.deepEqual(wi.intermediate_data.invocation_events.at(-1).usage_metadata, { prompt_token_count: 50, candidates_token_count: 10 });
  assert.deepEqual([wi.model_duration, wi.tool_duration], [0.6, 0.1]);
});

test('fromFunction: a reply without usage or timings makes the efficiency metrics say why, and runHealth lists it', async () => {
  const agent = fromFunction(() => ({ text: 'It is sunny in Paris.', toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] }));
  const result = await evaluate({ evalSet: MINIMAL_SET, agent, config: { criteria: {} } });
  const [r] = result.eval_case_results;
  const m = (name) => r.overall_eval_metric_results.find((x) => x.metric_name === name);
  assert.equal(m('token_usage_v1').score, null);
  assert.equal(m('token_usage_v1').eval_status, 'INFORMATIONAL');
  assert.equal(m('token_usage_v1').details.reason, 'usage_not_reported');
  assert.match(m('token_usage_v1').details.error, /usage_metadata/);
  assert.equal(m('inference_call_count_v1').details.reason, 'model_calls_not_reported');
  assert.equal(m('invocation_duration_v1').details.reason, 'model_tool_time_not_reported');
  const health = runHealth(result);
  assert.equal(health.count, 0, 'informational: nothing is NOT_EVALUATED');
  assert.deepEqual(health.unreported.map((u) => `${u.metric}:${u.reason}`).sort(),
    ['inference_call_count_v1:model_calls_not_reported', 'invocation_duration_v1:model_tool_time_not_reported', 'token_usage_v1:usage_not_reported']);
  assert.ok(health.unreportedLines.some((l) => /token_usage_v1 in 1 case run: usage_not_reported/.test(l)), health.unreportedLines.join('\n'));
  assert.ok(!health.unreportedLines.some((l) => /model_tool_time/.test(l)), 'the split is listed, not said');
  assert.ok(!health.lines.some((l) => /usage_not_reported/.test(l)), 'informational: not among the lines a plain run prints');
});

test('fromFunction: malformed steps, usage and timings are agent_reply errors with the path', async () => {
  for (const [reply, path] of [
    [{ steps: 'x' }, '$.steps'],
    [{ steps: [], toolCalls: [] }, '$.steps'],
    [{ steps: [7] }, '$.steps[0]'],
    [{ steps: [7], usage: { inputTokens: 1 } }, '$.steps[0]'],
    [{ steps: [{ toolCalls: [{ args: {} }] }] }, '$.steps[0].toolCalls[0].name'],
    [{ steps: [{ text: 3 }] }, '$.steps[0].text'],
    [{ steps: [{ author: 'user' }] }, '$.steps[0].author'],
    [{ steps: [{ usage: { outputTokens: 1, reasoningTokens: 2 } }] }, '$.steps[0].usage.reasoningTokens'],
    [{ steps: [{ usage: {} }], usage: { inputTokens: 1 } }, '$.usage'],
    [{ text: 'x', usage: { inputTokens: -3 } }, '$.usage.inputTokens'],
    [{ text: 'x', model: 4 }, '$.model'],
    [{ text: 'x', timings: { model: [[0, 1n]] } }, '$.timings.model[0][1]'],
  ]) {
    await assert.rejects(fromFunction(() => reply)(turn()), (e) => e instanceof EvalError && e.code === 'agent_reply' && e.path === path, path);
  }
  // Timings the core cannot read fail the case with the core's message.
  const agent = fromFunction(() => ({ text: 'x', timings: { tool: [[5, 1]] } }));
  const { eval_case_results: [r] } = await evaluate({ evalSet: MINIMAL_SET, agent, config: { criteria: {} } });
  assert.equal(r.error.code, 'agent_error');
  assert.match(r.error.message, /timings\.tool\[0\]/);
});

test('a turn aborted by its own agentTimeoutMs is agent_timeout, even when the agent rejects at once; each turn has its own signal', async () => {
  const signals = [];
  const agent = fromFunction(async (_text, t) => {
    signals.push(t.signal);
    await new Promise((resolve, reject) => t.signal.addEventListener('abort', () => reject(t.signal.reason), { once: true }));
  });
  const set = { ...MINIMAL_SET, eval_cases: [MINIMAL_SET.eval_cases[0], { ...MINIMAL_SET.eval_cases[0], eval_id: 'case_2' }] };
  const result = await evaluate({ evalSet: set, agent, config: { criteria: {} }, agentTimeoutMs: 50 });
  assert.deepEqual(result.eval_case_results.map((r) => r.error.code), ['agent_timeout', 'agent_timeout']);
  assert.equal(signals.length, 2);
  assert.notEqual(signals[0], signals[1]);
  const plain = [];
  await evaluate({ evalSet: set, agent: fromFunction((_text, t) => { plain.push(t.signal); return 'ok'; }), config: { criteria: {} } });
  assert.ok(plain[0] !== plain[1] && plain.every((s) => s instanceof AbortSignal && !s.aborted), 'a signal per turn without a timeout too');
});
