// evalcore/adapters (fromFunction, fromOpenAIMessages) and the parts of evalcore/adk that need
// no @google/adk: the events they write, their errors, and that `import "evalcore"` never loads
// an adapter.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { EvalError, evaluate } from '../../pkg/index.js';
import * as adapters from '../../pkg/lib/adapters/generic.js';
import { fromAdkAgent } from '../../pkg/lib/adapters/adk.js';
import { MINIMAL_SET, PKG, clone } from './helpers.mjs';

const { fromFunction, fromOpenAIMessages, convertOpenAIMessages } = adapters;

function turn(text, extra = {}) {
  return {
    evalSetId: 'set', evalId: 'case', run: 0, turnIndex: 0, sessionId: 's-1', userId: 'u', appName: 'app',
    state: {}, userContent: { role: 'user', parts: [{ text }] }, text, history: [], ...extra,
  };
}

const model = (parts, extra = {}) => ({ author: 'agent', content: { role: 'model', parts }, ...extra });
const tool = (parts) => ({ author: 'agent', content: { role: 'user', parts } });

async function rejection(promise) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  assert.fail('expected a rejection');
}

// ------------------------------------------------------------------------------------------
// fromFunction

test('fromFunction: a string answer is one model event with the text', async () => {
  const seen = [];
  const agent = fromFunction((text, t) => {
    seen.push([text, t.sessionId]);
    return 'Hello there.';
  });
  assert.deepEqual(await agent(turn('Hi')), { events: [model([{ text: 'Hello there.' }])] });
  assert.deepEqual(seen, [['Hi', 's-1']]);
});

test('fromFunction: tool calls become call events, responses tool events, then the text', async () => {
  const agent = fromFunction(async () => ({
    text: 'It is sunny; 7 is prime.',
    toolCalls: [
      { name: 'get_weather', args: { city: 'Paris' }, response: { sky: 'sunny' } },
      { name: 'check_prime', args: { nums: [7] }, response: '7 are prime numbers.' },
      { name: 'log', id: 'my-id' },
      { name: 'noop', args: null, response: null },
    ],
  }), { author: 'weather_agent' });
  const { events } = await agent(turn('Weather?', { turnIndex: 3 }));
  const a = (parts) => ({ ...model(parts), author: 'weather_agent' });
  const r = (parts) => ({ ...tool(parts), author: 'weather_agent' });
  assert.deepEqual(events, [
    a([{ function_call: { id: 'call_3_0', name: 'get_weather', args: { city: 'Paris' } } }]),
    r([{ function_response: { id: 'call_3_0', name: 'get_weather', response: { sky: 'sunny' } } }]),
    a([{ function_call: { id: 'call_3_1', name: 'check_prime', args: { nums: [7] } } }]),
    r([{ function_response: { id: 'call_3_1', name: 'check_prime', response: { result: '7 are prime numbers.' } } }]),
    a([{ function_call: { id: 'my-id', name: 'log', args: {} } }]),
    a([{ function_call: { id: 'call_3_3', name: 'noop', args: {} } }]),
    r([{ function_response: { id: 'call_3_3', name: 'noop', response: { result: null } } }]),
    a([{ text: 'It is sunny; 7 is prime.' }]),
  ]);
});

test('fromFunction: no text means no final event; the text comes from userContent when turn.text is absent', async () => {
  const agent = fromFunction((text) => ({ toolCalls: [{ name: 'echo', args: { text } }] }));
  const t = turn('unused');
  delete t.text;
  t.userContent = { role: 'user', parts: [{ text: 'line one' }, { text: '' }, { text: 'line two' }] };
  const { events } = await agent(t);
  assert.deepEqual(events, [model([{ function_call: { id: 'call_0_0', name: 'echo', args: { text: 'line one\nline two' } } }])]);
});

test('fromFunction: args and responses are copied as JSON (keys as they are, the caller keeps its objects)', async () => {
  const args = { camelCase: 1, nested: { someKey: [1, { deepKey: true }] }, when: new Date(0), skip: undefined };
  const agent = fromFunction(() => ({ text: 'ok', toolCalls: [{ name: 'f', args, response: { outKey: 'v' } }] }));
  const { events } = await agent(turn('x'));
  assert.deepEqual(events[0].content.parts[0].function_call.args,
    { camelCase: 1, nested: { someKey: [1, { deepKey: true }] }, when: '1970-01-01T00:00:00.000Z' });
  assert.notEqual(events[0].content.parts[0].function_call.args, args);
  assert.deepEqual(events[1].content.parts[0].function_response.response, { outKey: 'v' });
});

test("fromFunction: bytes are base64, Node's Buffer too (not its toJSON `{type, data}`)", async () => {
  const agent = fromFunction(() => ({
    text: 'ok',
    toolCalls: [{ name: 'f', args: { u8: new Uint8Array([104, 105]) }, response: { buf: Buffer.from('hi'), ab: new Uint8Array([104, 105]).buffer } }],
  }));
  const { events } = await agent(turn('x'));
  assert.deepEqual(events[0].content.parts[0].function_call.args, { u8: 'aGk=' });
  assert.deepEqual(events[1].content.parts[0].function_response.response, { buf: 'aGk=', ab: 'aGk=' });
});

test('fromFunction: a throw or a rejection of the function is an agent_error with the original as cause', async () => {
  const boom = new Error('boom');
  for (const fn of [() => { throw boom; }, async () => { throw boom; }, () => Promise.reject(boom)]) {
    const err = await rejection(fromFunction(fn)(turn('x', { evalId: 'c7', turnIndex: 1 })));
    assert.ok(err instanceof EvalError);
    assert.equal(err.code, 'agent_error');
    assert.equal(err.cause, boom);
    assert.match(err.message, /eval case "c7", turn 2\): boom/);
  }
  const odd = await rejection(fromFunction(() => { throw 'a string'; })(turn('x')));
  assert.equal(odd.code, 'agent_error');
  assert.equal(odd.cause, 'a string');
});

test('fromFunction: a throw after the turn was aborted passes the abort reason on', async () => {
  const ctl = new AbortController();
  const reason = new Error('cancelled by the run');
  const agent = fromFunction((text, t) => {
    ctl.abort(reason);
    if (t.signal.aborted) throw new Error('saw the abort');
    return 'unreachable';
  });
  assert.equal(await rejection(agent(turn('x', { signal: ctl.signal }))), reason);
});

test('fromFunction: malformed answers are agent_reply errors with the path of the field', async () => {
  const cyclic = {};
  cyclic.self = cyclic;
  const cases = [
    [42, '$'],
    [null, '$'],
    [['a'], '$'],
    [{ text: 5 }, '$.text'],
    [{ toolCalls: {} }, '$.toolCalls'],
    [{ toolCalls: ['x'] }, '$.toolCalls[0]'],
    [{ toolCalls: [{ args: {} }] }, '$.toolCalls[0].name'],
    [{ toolCalls: [{ name: 'f', args: [1] }] }, '$.toolCalls[0].args'],
    [{ toolCalls: [{ name: 'f', id: 3 }] }, '$.toolCalls[0].id'],
    [{ toolCalls: [{ name: 'f', args: cyclic }] }, '$.toolCalls[0].args.self'],
    [{ toolCalls: [{ name: 'f', args: { n: 10n } }] }, '$.toolCalls[0].args.n'],
    [{ toolCalls: [{ name: 'f', response: { x: NaN } }] }, '$.toolCalls[0].response.x'],
  ];
  for (const [reply, path] of cases) {
    const err = await rejection(fromFunction(() => reply)(turn('x')));
    assert.ok(err instanceof EvalError, `${path}: ${err}`);
    assert.equal(err.code, 'agent_reply', path);
    assert.equal(err.path, path);
  }
});

test('fromFunction: bad arguments and bad turns are EvalErrors, not TypeErrors', async () => {
  assert.throws(() => fromFunction('nope'), (e) => e instanceof EvalError && e.code === 'schema');
  assert.throws(() => fromFunction(() => 'x', { author: 'user' }), (e) => e instanceof EvalError && e.path === '$.options.author');
  assert.throws(() => fromFunction(() => 'x', 'opts'), (e) => e instanceof EvalError && e.path === '$.options');
  const agent = fromFunction(() => 'x');
  for (const bad of [undefined, 'turn', [turn('x')]]) {
    const err = await rejection(agent(bad));
    assert.ok(err instanceof EvalError && err.code === 'schema' && err.path === '$');
  }
  const err = await rejection(agent(turn('x', { signal: 'not a signal' })));
  assert.equal(err.path, '$.signal');
});

// ------------------------------------------------------------------------------------------
// fromOpenAIMessages

const LOG = [
  { role: 'system', content: 'You roll dice.' },
  { role: 'user', content: 'Roll a d6 and check 7.' },
  {
    role: 'assistant', content: null,
    tool_calls: [
      { id: 'call_a', type: 'function', function: { name: 'roll_die', arguments: '{"sides": 6}' } },
      { id: 'call_b', type: 'function', function: { name: 'check_prime', arguments: '{"nums":[7]}' } },
    ],
  },
  { role: 'tool', tool_call_id: 'call_a', content: '4' },
  { role: 'tool', tool_call_id: 'call_b', content: '{"primes": [7]}' },
  { role: 'assistant', content: 'I rolled a 4, and 7 is prime.' },
];

test('fromOpenAIMessages.convert: calls, parallel results and the final text as ADK events', () => {
  assert.deepEqual(fromOpenAIMessages.convert(LOG), {
    events: [
      model([
        { function_call: { id: 'call_a', name: 'roll_die', args: { sides: 6 } } },
        { function_call: { id: 'call_b', name: 'check_prime', args: { nums: [7] } } },
      ]),
      tool([
        { function_response: { id: 'call_a', name: 'roll_die', response: { result: 4 } } },
        { function_response: { id: 'call_b', name: 'check_prime', response: { primes: [7] } } },
      ]),
      model([{ text: 'I rolled a 4, and 7 is prime.' }]),
    ],
  });
  assert.equal(convertOpenAIMessages, fromOpenAIMessages.convert);
});

test('fromOpenAIMessages.convert: only the messages after the last user message count', () => {
  const transcript = [
    { role: 'user', content: 'first' },
    { role: 'assistant', content: 'first answer' },
    { role: 'user', content: [{ type: 'text', text: 'second' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'second ' }, { type: 'text', text: 'answer' }] },
  ];
  assert.deepEqual(convertOpenAIMessages(transcript).events, [model([{ text: 'second answer' }])]);
  assert.deepEqual(convertOpenAIMessages([{ role: 'user', content: 'only a question' }]).events, []);
  assert.deepEqual(convertOpenAIMessages([]).events, []);
});

test('fromOpenAIMessages.convert: arguments that are not a JSON object are kept as {_raw}', () => {
  const call = (args) => convertOpenAIMessages([{
    role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: args } }],
  }]).events[0].content.parts[0].function_call.args;
  assert.deepEqual(call('{"a": 1, "camelKey": {"x": null}}'), { a: 1, camelKey: { x: null } });
  assert.deepEqual(call('{"a": 1'), { _raw: '{"a": 1' });
  assert.deepEqual(call('[1, 2]'), { _raw: '[1, 2]' });
  assert.deepEqual(call('"text"'), { _raw: '"text"' });
  assert.deepEqual(call(''), {});
  assert.deepEqual(call(undefined), {});
  assert.deepEqual(call({ already: 'parsed' }), { already: 'parsed' });
});

test('fromOpenAIMessages.convert: tool results are JSON objects, else {result}', () => {
  const result = (content) => convertOpenAIMessages([
    { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: 'c', content },
  ]).events[1].content.parts[0].function_response.response;
  assert.deepEqual(result('{"ok": true}'), { ok: true });
  assert.deepEqual(result('[1,2]'), { result: [1, 2] });
  assert.deepEqual(result('42'), { result: 42 });
  assert.deepEqual(result('"quoted"'), { result: 'quoted' });
  assert.deepEqual(result('plain text'), { result: 'plain text' });
  assert.deepEqual(result(''), { result: '' });
  assert.deepEqual(result(null), { result: null });
  assert.deepEqual(result([{ type: 'text', text: '{"a":' }, { type: 'text', text: '1}' }]), { a: 1 });
});

test('fromOpenAIMessages.convert: text with tool calls, refusals, legacy function calls, usage and model', () => {
  const { events } = convertOpenAIMessages([
    {
      role: 'assistant', content: 'Let me check.', model: 'gpt-4o-2024-08-06',
      usage: { prompt_tokens: 100, completion_tokens: 30, total_tokens: 130, prompt_tokens_details: { cached_tokens: 20 }, completion_tokens_details: { reasoning_tokens: 10 } },
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }],
    },
    { role: 'tool', tool_call_id: 'c1', name: 'ignored_when_the_call_is_known', content: '{"hit": 1}' },
    { role: 'tool', tool_call_id: 'unknown', name: 'named_by_message', content: 'x' },
    { role: 'assistant', content: null, function_call: { name: 'legacy', arguments: '{"v": 2}' } },
    { role: 'function', name: 'legacy', content: '{"done": true}' },
    { role: 'assistant', content: null, refusal: 'I cannot help with that.' },
  ], { author: 'helper' });
  const h = (e) => ({ ...e, author: 'helper' });
  assert.deepEqual(events, [
    h(model([{ text: 'Let me check.' }, { function_call: { id: 'c1', name: 'lookup', args: { q: 'x' } } }], {
      usage_metadata: { prompt_token_count: 100, candidates_token_count: 20, total_token_count: 130, thoughts_token_count: 10, cached_content_token_count: 20 },
      model_version: 'gpt-4o-2024-08-06',
    })),
    h(tool([
      { function_response: { id: 'c1', name: 'lookup', response: { hit: 1 } } },
      { function_response: { id: 'unknown', name: 'named_by_message', response: { result: 'x' } } },
    ])),
    h(model([{ function_call: { name: 'legacy', args: { v: 2 } } }])),
    h(tool([{ function_response: { name: 'legacy', response: { done: true } } }])),
    h(model([{ text: 'I cannot help with that.' }])),
  ]);
});

test('fromOpenAIMessages.convert: pure (same output twice, input untouched)', () => {
  const before = JSON.stringify(LOG);
  assert.deepEqual(convertOpenAIMessages(LOG), convertOpenAIMessages(LOG));
  assert.equal(JSON.stringify(LOG), before);
});

test('fromOpenAIMessages.convert: malformed logs are agent_reply errors with a path', () => {
  const cases = [
    [{ role: 'assistant' }, '$'],
    [[null], '$[0]'],
    [[{ role: 'robot', content: 'x' }], '$[0].role'],
    [[{ role: 'tool', content: 'x' }], '$[0].tool_call_id'],
    [[{ role: 'function', content: 'x' }], '$[0].name'],
    [[{ role: 'assistant', tool_calls: 'x' }], '$[0].tool_calls'],
    [[{ role: 'assistant', tool_calls: [{ id: 'c', type: 'custom', custom: { name: 'f', input: 'x' } }] }], '$[0].tool_calls[0]'],
    [[{ role: 'assistant', tool_calls: [{ id: 'c', type: 'mystery', function: { name: 'f' } }] }], '$[0].tool_calls[0].type'],
    [[{ role: 'assistant', tool_calls: [{ id: 'c', function: { arguments: '{}' } }] }], '$[0].tool_calls[0].function.name'],
    [[{ role: 'assistant', tool_calls: [{ id: 'c', function: { name: 'f', arguments: 7 } }] }], '$[0].tool_calls[0].function.arguments'],
    [[{ role: 'assistant', content: 5 }], '$[0].content'],
    [[{ role: 'assistant', content: [7] }], '$[0].content[0]'],
    [[{ role: 'assistant', content: 'x', usage: 'lots' }], '$[0].usage'],
  ];
  for (const [messages, path] of cases) {
    assert.throws(() => convertOpenAIMessages(messages), (e) => e instanceof EvalError && e.code === 'agent_reply' && e.path === path,
      `expected agent_reply at ${path}`);
  }
});

test('fromOpenAIMessages: wraps a function returning the log (array or {messages}); failures as agent_error', async () => {
  const seen = [];
  const agent = fromOpenAIMessages(async (text, t) => {
    seen.push(text);
    return t.turnIndex === 0 ? LOG : { messages: [{ role: 'assistant', content: `echo ${text}` }] };
  });
  assert.equal((await agent(turn('first'))).events.length, 3);
  assert.deepEqual(await agent(turn('second', { turnIndex: 1 })), { events: [model([{ text: 'echo second' }])] });
  assert.deepEqual(seen, ['first', 'second']);

  const boom = new TypeError('client exploded');
  const err = await rejection(fromOpenAIMessages(() => { throw boom; })(turn('x')));
  assert.equal(err.code, 'agent_error');
  assert.equal(err.cause, boom);
  const bad = await rejection(fromOpenAIMessages(() => 'not messages')(turn('x')));
  assert.equal(bad.code, 'agent_reply');
  assert.throws(() => fromOpenAIMessages(null), (e) => e instanceof EvalError && e.code === 'schema');
});

// ------------------------------------------------------------------------------------------
// Through evaluate: the core turns the adapters' events into ADK invocations

const CONFIG = { criteria: { tool_trajectory_avg_score: 1.0, response_match_score: 0.8 } };
const score = (r, name) => r.overall_eval_metric_results.find((m) => m.metric_name === name).score;

/** A weather agent: the city from the question, a tool call with its result, then the answer. */
const weather = (text) => {
  const city = /in (\w+)/.exec(text)?.[1] ?? 'nowhere';
  return { city, sky: 'sunny', answer: `It is sunny in ${city}.` };
};

test('evaluate + fromFunction: tool calls and the answer are scored as ADK scores them', async () => {
  const agent = fromFunction((text) => {
    const w = weather(text);
    return { text: w.answer, toolCalls: [{ name: 'get_weather', args: { city: w.city }, response: { sky: w.sky } }] };
  }, { author: 'weather_agent' });
  const [r] = (await evaluate({ evalSet: MINIMAL_SET, agent, config: CONFIG })).eval_case_results;
  assert.equal(r.final_eval_status, 'PASSED');
  assert.equal(score(r, 'tool_trajectory_avg_score'), 1);
  assert.equal(score(r, 'response_match_score'), 1);
  const actual = r.eval_metric_result_per_invocation[0].actual_invocation;
  assert.deepEqual(actual.final_response, { role: 'model', parts: [{ text: 'It is sunny in Paris.' }] });
  const events = actual.intermediate_data.invocation_events;
  // ADK 2.x keeps the final-response event with its content nulled.
  assert.deepEqual(events.map((e) => e.author), ['weather_agent', 'weather_agent', 'weather_agent']);
  assert.equal(events[2].content, null);
  assert.deepEqual(events[1].content.parts[0].function_response, { id: 'call_0_0', name: 'get_weather', response: { sky: 'sunny' } });

  const wrongCity = fromFunction(() => ({ text: 'It is sunny in Paris.', toolCalls: [{ name: 'get_weather', args: { city: 'Lyon' } }] }));
  const [w] = (await evaluate({ evalSet: MINIMAL_SET, agent: wrongCity, config: CONFIG })).eval_case_results;
  assert.equal(w.final_eval_status, 'FAILED');
  assert.equal(score(w, 'tool_trajectory_avg_score'), 0);
});

test('evaluate + fromOpenAIMessages: a chat-completions log per turn is scored as ADK scores it', async () => {
  const agent = fromOpenAIMessages((text, t) => {
    const w = weather(text);
    return [
      { role: 'system', content: 'You report the weather.' },
      ...t.history.map((inv) => ({ role: 'user', content: inv.user_content.parts[0].text })),
      { role: 'user', content: text },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: JSON.stringify({ city: w.city }) } }], usage: { prompt_tokens: 50, completion_tokens: 8, total_tokens: 58 } },
      { role: 'tool', tool_call_id: 'call_w', content: JSON.stringify({ sky: w.sky }) },
      { role: 'assistant', content: w.answer, usage: { prompt_tokens: 70, completion_tokens: 9, total_tokens: 79 } },
    ];
  });
  const [r] = (await evaluate({ evalSet: MINIMAL_SET, agent, config: CONFIG })).eval_case_results;
  assert.equal(r.final_eval_status, 'PASSED');
  assert.equal(score(r, 'tool_trajectory_avg_score'), 1);
  assert.equal(score(r, 'response_match_score'), 1);
  assert.equal(score(r, 'inference_call_count_v1'), 2);
  assert.equal(score(r, 'token_usage_v1'), 137);

  // Unparsable arguments still show as a call: the trajectory fails on the args, the run does not.
  const garbled = fromOpenAIMessages(() => [
    { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'get_weather', arguments: '{city: Paris}' } }] },
    { role: 'tool', tool_call_id: 'c', content: 'sunny' },
    { role: 'assistant', content: 'It is sunny in Paris.' },
  ]);
  const [g] = (await evaluate({ evalSet: MINIMAL_SET, agent: garbled, config: CONFIG })).eval_case_results;
  assert.equal(g.final_eval_status, 'FAILED');
  assert.equal(score(g, 'tool_trajectory_avg_score'), 0);
  const call = g.eval_metric_result_per_invocation[0].actual_invocation.intermediate_data.invocation_events[0].content.parts[0].function_call;
  assert.deepEqual(call.args, { _raw: '{city: Paris}' });
});

test('evaluate: an adapter failure fails the case with the agent\'s message, a multi-turn case keeps going per turn', async () => {
  const failing = fromFunction(() => { throw new Error('kaboom'); });
  const [f] = (await evaluate({ evalSet: MINIMAL_SET, agent: failing, config: CONFIG })).eval_case_results;
  assert.equal(f.final_eval_status, 'FAILED');
  assert.match(JSON.stringify(f), /kaboom/);

  const set = clone(MINIMAL_SET);
  const [first] = set.eval_cases[0].conversation;
  set.eval_cases[0].conversation = [first, { ...clone(first), invocation_id: 'e-2', user_content: { role: 'user', parts: [{ text: 'And in Rome?' }] },
    final_response: { role: 'model', parts: [{ text: 'It is sunny in Rome.' }] }, intermediate_data: { tool_uses: [{ name: 'get_weather', args: { city: 'Rome' } }] } }];
  const seen = [];
  const agent = fromFunction((text, t) => {
    seen.push([t.turnIndex, t.history.length, t.sessionId]);
    const w = weather(text);
    return { text: w.answer, toolCalls: [{ name: 'get_weather', args: { city: w.city } }] };
  });
  const [r] = (await evaluate({ evalSet: set, agent, config: CONFIG })).eval_case_results;
  assert.equal(r.final_eval_status, 'PASSED');
  assert.deepEqual(seen.map(([i, h]) => [i, h]), [[0, 0], [1, 1]]);
  assert.equal(seen[0][2], seen[1][2]);
});

// ------------------------------------------------------------------------------------------
// evalcore/adk without @google/adk, and the package wiring

test('evalcore/adk: without @google/adk installed, a turn rejects with `unsupported` saying what to do', async () => {
  const agentLike = { name: 'some_agent' };
  const agent = fromAdkAgent(agentLike);
  const err = await rejection(agent(turn('x')));
  assert.ok(err instanceof EvalError);
  assert.equal(err.code, 'unsupported');
  assert.match(err.message, /npm install @google\/adk/);
  assert.match(err.message, /adk: await import\('@google\/adk'\)/);
  // A later turn tries again (and fails the same way here) instead of caching the failure.
  assert.equal((await rejection(agent(turn('x')))).code, 'unsupported');
});

test('evalcore/adk: bad arguments are EvalErrors', async () => {
  assert.throws(() => fromAdkAgent(undefined), (e) => e instanceof EvalError && e.code === 'schema');
  assert.throws(() => fromAdkAgent({ name: 'a' }, 'x'), (e) => e instanceof EvalError && e.path === '$.options');
  const agent = fromAdkAgent({ name: 'a' });
  assert.equal((await rejection(agent(turn('x', { appName: '' })))).path, '$.appName');
  const aborted = AbortSignal.abort(new Error('stop'));
  assert.match((await rejection(agent(turn('x', { signal: aborted })))).message, /stop/);
});

/** Every module reachable through static and dynamic imports of relative paths or packages. */
function importGraph(entry) {
  const seen = new Set();
  const packages = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    // Comments out (block comments and whole-line ones): they quote imports as examples.
    const source = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    for (const m of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g)) {
      const spec = m[1];
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec));
      else packages.add(spec);
    }
  };
  visit(entry);
  return { files: [...seen], packages: [...packages] };
}

test('import "evalcore" never reaches an adapter or @google/adk', () => {
  for (const entry of ['index.js', 'web.js']) {
    const { files, packages } = importGraph(join(PKG, entry));
    assert.deepEqual(files.filter((f) => f.includes(join('lib', 'adapters'))), [], entry);
    assert.deepEqual(packages.filter((p) => !p.startsWith('node:')), [], entry);
  }
  // Only evalcore/adk mentions @google/adk, and only through a dynamic import.
  const adk = importGraph(join(PKG, 'lib', 'adapters', 'adk.js'));
  assert.deepEqual(adk.packages, ['@google/adk']);
  assert.doesNotMatch(readFileSync(join(PKG, 'lib', 'adapters', 'adk.js'), 'utf8'), /^import\s[^;]*@google\/adk/m);
  assert.deepEqual(importGraph(join(PKG, 'lib', 'adapters', 'generic.js')).packages, []);
  // evalcore/adapters names one framework, @openai/agents (its Runner runs the agent), and only
  // through a dynamic import; the AI SDK, LangGraph and Mastra are read by their shapes alone.
  assert.deepEqual(importGraph(join(PKG, 'lib', 'adapters', 'index.js')).packages, ['@openai/agents']);
  assert.doesNotMatch(readFileSync(join(PKG, 'lib', 'adapters', 'openai_agents.js'), 'utf8'), /^import\s[^;]*@openai\/agents/m);
});

test('package.json: the adapter subpaths, their files and the optional peer', async () => {
  const pkg = JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8'));
  // An entry of "files" ships a file, or a folder with everything under it.
  const ships = (file) => pkg.files.some((e) => (e.endsWith('/') ? file.startsWith(e) : file === e));
  assert.deepEqual(pkg.exports['./adk'], { types: './adk.d.ts', default: './lib/adapters/adk.js' });
  assert.deepEqual(pkg.exports['./adapters'], { types: './adapters.d.ts', default: './lib/adapters/index.js' });
  for (const target of ['./adk', './adapters']) {
    for (const file of Object.values(pkg.exports[target])) {
      assert.ok(existsSync(join(PKG, file)), file);
      assert.ok(ships(file.slice(2)), `${file} is in "files"`);
    }
  }
  // Every module the adapters import ships too.
  for (const entry of ['adk.js', 'index.js']) {
    for (const file of importGraph(join(PKG, 'lib', 'adapters', entry)).files) {
      assert.ok(ships(file.slice(PKG.length + 1).split('\\').join('/')), `${file} is in "files"`);
    }
  }
  for (const peer of ['@google/adk', '@openai/agents']) {
    assert.ok(pkg.peerDependencies[peer]);
    assert.deepEqual(pkg.peerDependenciesMeta[peer], { optional: true });
    assert.equal(pkg.dependencies?.[peer], undefined);
  }
  const viaExports = await import(join(PKG, pkg.exports['./adapters'].default));
  assert.equal(viaExports.fromFunction, fromFunction);
});
