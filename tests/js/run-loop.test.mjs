// evaluate(): the agent run loop of the built package. Static conversations through a plain
// callback agent (what each turn hands the agent, every reply shape becoming an ADK Invocation,
// ADK's result fields), numRuns with run_summary (SPEC §4.6), bounded concurrency over cases,
// evalIds, agent failures, streamed results and progress, cancellation, and judged metrics
// inside the run (samples, call budget, cassettes, judge_stats) against the loopback judge.
//
// Timing: agents sleep a few milliseconds only to make cases overlap; nothing asserts a
// duration except generous upper bounds that only a hang would exceed.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as ec from '../../pkg/index.js';
import { requestText, startJudgeServer } from './support/judge-server.mjs';
import { freePort } from './helpers.mjs';

const U = (text) => ({ role: 'user', parts: [{ text }] });
const M = (text) => ({ role: 'model', parts: [{ text }] });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const textOf = (content) => (content?.parts ?? []).map((p) => p.text).filter((t) => t).join('\n');

/** One expected turn: user text, reference answer, optional expected tool calls. */
const turn = (user, reference, tools) => ({
  user_content: U(user),
  final_response: M(reference),
  ...(tools ? { intermediate_data: { tool_uses: tools } } : {}),
});

const metric = (result, name) => {
  const m = result.overall_eval_metric_results.find((x) => x.metric_name === name);
  assert.ok(m, `${result.eval_id}: no overall result for ${name} (have ${result.overall_eval_metric_results.map((x) => x.metric_name).join(', ')})`);
  return m;
};
const perInv = (result, i, name) => {
  const m = result.eval_metric_result_per_invocation[i].eval_metric_results.find((x) => x.metric_name === name);
  assert.ok(m, `${result.eval_id}: no per-invocation result ${i} for ${name}`);
  return m;
};
const byId = (res) => Object.fromEntries(res.eval_case_results.map((r) => [`${r.eval_id}#${r.run}`, r]));

// ------------------------------------------------------------------------------------------------
// Exactly rounded mean (Python's statistics.mean), to check invocation_mean bit for bit.
function exactRational(x) {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x);
  const bits = dv.getBigUint64(0);
  const neg = bits >> 63n === 1n;
  const exp = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & ((1n << 52n) - 1n);
  let e;
  if (exp === 0) e = -1074;
  else { mant |= 1n << 52n; e = exp - 1075; }
  const n = mant << BigInt(e + 1074); // value * 2^1074
  return neg ? -n : n;
}
function ratioToDouble(num, den) {
  if (num === 0n) return 0;
  if (num < 0n) return -ratioToDouble(-num, den);
  const bl = (v) => v.toString(2).length;
  let s = 54 - (bl(num) - bl(den));
  let q;
  let r;
  const div = () => {
    const n = s >= 0 ? num << BigInt(s) : num;
    const d = s >= 0 ? den : den << BigInt(-s);
    q = n / d;
    r = n % d;
  };
  div();
  while (bl(q) > 54) { s -= 1; div(); }
  while (bl(q) < 54) { s += 1; div(); }
  let mant = q >> 1n;
  if ((q & 1n) === 1n && (r !== 0n || (mant & 1n) === 1n)) mant += 1n;
  return Number(mant) * 2 ** (1 - s);
}
function exactMean(xs) {
  const sum = xs.reduce((a, x) => a + exactRational(x), 0n);
  return ratioToDouble(sum, BigInt(xs.length) * (1n << 1074n));
}
test('helper: exactMean is the exactly rounded mean', () => {
  assert.equal(exactMean([0.1, 0.2, 0.3]), 0.2);
  assert.notEqual((0.1 + 0.2 + 0.3) / 3, 0.2);
  assert.equal(exactMean([1, 0, 0.5]), 0.5);
  assert.equal(exactMean([2 / 3, 1 / 3]), 0.5);
});

// ------------------------------------------------------------------------------------------------
describe('static conversations: what the agent sees', () => {
  const SET = {
    eval_set_id: 'turns',
    eval_cases: [
      {
        eval_id: 'pinned',
        session_input: { app_name: 'weather_app', user_id: 'u-7', session_id: 'sess-42', state: { city: 'Paris', n: 3, nested: { a: [1, 2] } } },
        conversation: [
          turn('What is the weather in Paris?', 'It is sunny in Paris.', [{ name: 'get_weather', args: { city: 'Paris' } }]),
          turn('And tomorrow?', 'Rain tomorrow.'),
          turn('Thanks!', 'You are welcome.'),
        ],
      },
      {
        eval_id: 'bare',
        conversation: [turn('Hello there', 'Hi!')],
      },
    ],
  };
  const REPLY = {
    'What is the weather in Paris?': { finalResponse: 'It is sunny in Paris.', toolCalls: [{ name: 'get_weather', args: { city: 'Paris' }, response: { forecast: 'sunny' } }] },
    'And tomorrow?': 'Rain tomorrow.',
    'Thanks!': { finalResponse: M('You are welcome.') },
    'Hello there': 'Hi!',
  };
  let turns;
  let res;
  let signal;
  before(async () => {
    turns = [];
    signal = new AbortController().signal;
    res = await ec.evaluate({
      evalSet: SET,
      signal,
      agent: async (t) => {
        turns.push(t);
        await sleep(1);
        return REPLY[t.text];
      },
    });
  });

  test('each expected user turn is sent once, in order, with its index', () => {
    const pinned = turns.filter((t) => t.evalId === 'pinned');
    assert.deepEqual(pinned.map((t) => t.text), ['What is the weather in Paris?', 'And tomorrow?', 'Thanks!']);
    assert.deepEqual(pinned.map((t) => t.turnIndex), [0, 1, 2]);
    for (const [i, t] of pinned.entries()) {
      assert.deepEqual(t.userContent, SET.eval_cases[0].conversation[i].user_content);
      assert.equal(t.evalSetId, 'turns');
      assert.equal(t.run, 0);
    }
    assert.equal(turns.length, 4);
  });

  test('history holds the earlier actual invocations of this conversation only', () => {
    const pinned = turns.filter((t) => t.evalId === 'pinned');
    assert.deepEqual(pinned.map((t) => t.history.length), [0, 1, 2]);
    const h = pinned[2].history;
    assert.deepEqual(h.map((inv) => textOf(inv.user_content)), ['What is the weather in Paris?', 'And tomorrow?']);
    assert.deepEqual(h.map((inv) => textOf(inv.final_response)), ['It is sunny in Paris.', 'Rain tomorrow.']);
    // The first turn's tool call is in its invocation events.
    const calls = h[0].intermediate_data.invocation_events.flatMap((e) => (e.content?.parts ?? []).filter((p) => p.function_call).map((p) => p.function_call));
    assert.deepEqual(calls.map((c) => [c.name, c.args]), [['get_weather', { city: 'Paris' }]]);
    assert.deepEqual(turns.find((t) => t.evalId === 'bare').history, []);
  });

  test('session: ids, user, app and state from session_input', () => {
    const pinned = turns.filter((t) => t.evalId === 'pinned');
    for (const t of pinned) {
      assert.equal(t.sessionId, 'sess-42');
      assert.equal(t.userId, 'u-7');
      assert.equal(t.appName, 'weather_app');
      assert.deepEqual(t.state, { city: 'Paris', n: 3, nested: { a: [1, 2] } });
    }
    const bare = turns.find((t) => t.evalId === 'bare');
    assert.equal(bare.userId, 'test_user_id', 'ADK falls back to user test_user_id');
    assert.equal(typeof bare.sessionId, 'string');
    assert.ok(bare.sessionId.length > 0);
    assert.notEqual(bare.sessionId, 'sess-42');
    assert.deepEqual(bare.state, {});
    assert.equal(typeof bare.appName, 'string');
  });

  test('each turn gets an AbortSignal of its own that follows the caller\'s', async () => {
    // Its own, so the listeners a framework adds to it go with the turn (not onto the caller's).
    for (const t of turns) assert.ok(t.signal instanceof AbortSignal && t.signal !== signal && !t.signal.aborted);
    assert.equal(new Set(turns.map((t) => t.signal)).size, turns.length);
    const ctl = new AbortController();
    const reason = new Error('stop');
    let seen;
    const run = ec.evaluate({
      evalSet: { eval_set_id: 's', eval_cases: [SET.eval_cases[1]] }, signal: ctl.signal,
      agent: (t) => new Promise(() => { seen = t.signal; ctl.abort(reason); }),
    });
    await assert.rejects(run, (e) => e.name === 'AbortError');
    assert.equal(seen.aborted, true);
    assert.equal(seen.reason, reason);
  });

  test('without a signal the agent still gets a live AbortSignal', async () => {
    const seen = [];
    await ec.evaluate({ evalSet: { eval_set_id: 's', eval_cases: [SET.eval_cases[1]] }, agent: (t) => { seen.push(t.signal); return 'Hi!'; } });
    assert.equal(seen.length, 1);
    assert.ok(seen[0] instanceof AbortSignal);
    assert.equal(seen[0].aborted, false);
  });

  test('the results carry ADK\'s fields with string statuses', () => {
    assert.equal(res.eval_set_id, 'turns');
    assert.equal(typeof res.eval_set_result_id, 'string');
    assert.equal(typeof res.eval_set_result_name, 'string');
    assert.ok(!res.eval_set_result_name.includes('/'));
    assert.ok(Math.abs(res.creation_timestamp - Date.now() / 1000) < 600, `creation_timestamp ${res.creation_timestamp} is seconds since the epoch`);
    assert.equal(res.eval_case_results.length, 2);
    assert.equal(res.run_summary, undefined, 'one run: no run_summary');
    assert.equal(res.judge_stats, undefined, 'no judge: no judge_stats');
    assert.equal(res.skipped, undefined);
    const r = res.eval_case_results.find((x) => x.eval_id === 'pinned');
    for (const k of ['eval_set_id', 'eval_id', 'final_eval_status', 'overall_eval_metric_results', 'eval_metric_result_per_invocation', 'session_id', 'user_id']) {
      assert.ok(k in r, `missing ${k}`);
    }
    assert.equal(r.eval_set_id, 'turns');
    assert.equal(r.final_eval_status, 'PASSED');
    assert.equal(r.session_id, 'sess-42');
    assert.equal(r.user_id, 'u-7');
    assert.equal(r.error, undefined);
    const names = r.overall_eval_metric_results.map((m) => m.metric_name);
    assert.deepEqual(names, ['tool_trajectory_avg_score', 'response_match_score', 'tool_call_count_v1', 'inference_call_count_v1', 'token_usage_v1', 'invocation_duration_v1']);
    for (const m of r.overall_eval_metric_results) {
      assert.ok(['PASSED', 'FAILED', 'NOT_EVALUATED', 'INFORMATIONAL'].includes(m.eval_status), `${m.metric_name}: ${m.eval_status}`);
      assert.ok('details' in m && 'criterion' in m && 'threshold' in m && 'score' in m);
    }
    assert.equal(metric(r, 'tool_trajectory_avg_score').score, 1);
    assert.equal(metric(r, 'response_match_score').score, 1);
    assert.equal(metric(r, 'tool_call_count_v1').eval_status, 'INFORMATIONAL');
    assert.equal(r.eval_metric_result_per_invocation.length, 3);
    r.eval_metric_result_per_invocation.forEach((p, i) => {
      assert.equal(textOf(p.actual_invocation.user_content), textOf(SET.eval_cases[0].conversation[i].user_content));
      assert.deepEqual(p.expected_invocation.user_content, SET.eval_cases[0].conversation[i].user_content);
      assert.equal(p.eval_metric_results.length, 6);
      assert.ok(typeof p.actual_invocation.invocation_id === 'string' && p.actual_invocation.invocation_id !== '');
    });
    // Invocation ids are the run's own, one per turn.
    const ids = r.eval_metric_result_per_invocation.map((p) => p.actual_invocation.invocation_id);
    assert.equal(new Set(ids).size, 3);
    const bare = res.eval_case_results.find((x) => x.eval_id === 'bare');
    assert.equal(bare.user_id, 'test_user_id');
    assert.equal(bare.session_id, turns.find((t) => t.evalId === 'bare').sessionId, 'the result names the session the agent ran in');
  });

  test('sessions are distinct per case and per run', async () => {
    const seen = [];
    await ec.evaluate({
      evalSet: { eval_set_id: 's', eval_cases: [{ eval_id: 'a', conversation: [turn('x', 'y')] }, { eval_id: 'b', conversation: [turn('x', 'y')] }] },
      numRuns: 2,
      agent: (t) => { seen.push(t.sessionId); return 'y'; },
    });
    assert.equal(seen.length, 4);
    assert.equal(new Set(seen).size, 4, `session ids ${seen.join(', ')}`);
  });
});

// ------------------------------------------------------------------------------------------------
describe('reply shapes become ADK invocations', () => {
  const ask = 'Roll a six-sided die and tell me the result.';
  const expected = (tools) => ({ eval_set_id: 'shapes', eval_cases: [{ eval_id: 'c', conversation: [turn(ask, 'You rolled a 4.', tools)] }] });
  const ROLL = [{ name: 'roll_die', args: { sides: 6 } }];
  async function one(reply, { tools = ROLL, config } = {}) {
    const res = await ec.evaluate({ evalSet: expected(tools), agent: () => reply, config });
    assert.equal(res.eval_case_results.length, 1);
    const r = res.eval_case_results[0];
    assert.equal(r.error, undefined, `unexpected inference failure: ${JSON.stringify(r.error)}`);
    return { r, inv: r.eval_metric_result_per_invocation[0].actual_invocation };
  }

  test('a string is the final response; no tool calls', async () => {
    const { r, inv } = await one('You rolled a 4.', { tools: [] });
    assert.deepEqual(inv.final_response, M('You rolled a 4.'));
    assert.deepEqual(textOf(inv.user_content), ask);
    const calls = inv.intermediate_data.invocation_events.filter((e) => e.content?.parts?.some((p) => p.function_call));
    assert.equal(calls.length, 0);
    assert.equal(metric(r, 'tool_trajectory_avg_score').score, 1);
    assert.equal(metric(r, 'response_match_score').score, 1);
    assert.equal(metric(r, 'tool_call_count_v1').score, 0);
    assert.equal(r.final_eval_status, 'PASSED');
    assert.ok(typeof inv.duration === 'number' && inv.duration >= 0, 'duration is measured');
  });

  test('{finalResponse, toolCalls}: the right calls score trajectory 1.0; ROUGE is ADK\'s', async () => {
    const answer = 'The die shows 4 this time.';
    const { r, inv } = await one({ finalResponse: answer, toolCalls: [{ name: 'roll_die', args: { sides: 6 }, response: 4 }] });
    assert.equal(metric(r, 'tool_trajectory_avg_score').score, 1);
    assert.equal(metric(r, 'tool_trajectory_avg_score').eval_status, 'PASSED');
    const rouge = ec.rouge1(answer, 'You rolled a 4.').fmeasure;
    assert.ok(rouge > 0 && rouge < 0.8);
    assert.equal(metric(r, 'response_match_score').score, rouge);
    assert.equal(metric(r, 'response_match_score').eval_status, 'FAILED');
    assert.equal(perInv(r, 0, 'response_match_score').score, rouge);
    assert.equal(r.final_eval_status, 'FAILED');
    assert.deepEqual(inv.final_response, M(answer));
    const parts = inv.intermediate_data.invocation_events.flatMap((e) => e.content?.parts ?? []);
    const call = parts.find((p) => p.function_call)?.function_call;
    const resp = parts.find((p) => p.function_response)?.function_response;
    assert.equal(call.name, 'roll_die');
    assert.deepEqual(call.args, { sides: 6 });
    assert.equal(resp.name, 'roll_die');
    assert.equal(resp.id, call.id, 'the response pairs with its call');
    assert.equal(metric(r, 'tool_call_count_v1').score, 1);
  });

  test('{finalResponse, toolCalls}: wrong args or a missing call score trajectory 0', async () => {
    let { r } = await one({ finalResponse: 'You rolled a 4.', toolCalls: [{ name: 'roll_die', args: { sides: 20 } }] });
    assert.equal(metric(r, 'tool_trajectory_avg_score').score, 0);
    assert.equal(r.final_eval_status, 'FAILED');
    ({ r } = await one({ finalResponse: 'You rolled a 4.' }));
    assert.equal(metric(r, 'tool_trajectory_avg_score').score, 0);
    ({ r } = await one({ finalResponse: 'You rolled a 4.', toolCalls: [{ name: 'roll_die', args: { sides: 6 } }, { name: 'roll_die', args: { sides: 6 } }] }, {
      config: { criteria: { tool_trajectory_avg_score: { threshold: 1, match_type: 'IN_ORDER' } } },
    }));
    assert.equal(metric(r, 'tool_trajectory_avg_score').score, 1, 'IN_ORDER accepts an extra call');
  });

  test('ADK events: calls, responses, usage metadata; the final event\'s content is nulled; partial events are not final', async () => {
    const events = [
      { author: 'dice_agent', partial: true, content: { role: 'model', parts: [{ text: 'Let me' }] } },
      {
        author: 'dice_agent',
        content: { role: 'model', parts: [{ text: 'Rolling.' }, { functionCall: { id: 'fc-1', name: 'roll_die', args: { sides: 6 } } }] },
        usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 },
        modelVersion: 'gemini-x',
      },
      { author: 'dice_agent', content: { role: 'user', parts: [{ function_response: { id: 'fc-1', name: 'roll_die', response: { result: 4 } } }] } },
      { author: 'user', content: U('this user event is not part of the agent\'s turn') },
      {
        author: 'dice_agent',
        content: { role: 'model', parts: [{ text: 'You rolled a 4.' }] },
        usage_metadata: { prompt_token_count: 130, candidates_token_count: 7, thoughts_token_count: 3, total_token_count: 140 },
      },
      // A streamed chunk after the final answer must not replace it.
      { author: 'dice_agent', partial: true, content: { role: 'model', parts: [{ text: 'You rolled' }] } },
    ];
    const { r, inv } = await one({ events });
    assert.deepEqual(inv.final_response, M('You rolled a 4.'));
    const ev = inv.intermediate_data.invocation_events;
    assert.ok(ev.every((e) => e.author !== 'user'), 'user events are not the agent\'s');
    const callEv = ev.find((e) => e.content?.parts?.some((p) => p.function_call));
    assert.ok(callEv, 'the call event is kept with its content');
    assert.deepEqual(callEv.content.parts.find((p) => p.function_call).function_call, { id: 'fc-1', name: 'roll_die', args: { sides: 6 } });
    assert.equal(callEv.content.parts[0].text, 'Rolling.');
    assert.equal(callEv.usage_metadata.prompt_token_count, 100, 'usage metadata comes out snake_case');
    assert.equal(callEv.model_version, 'gemini-x');
    assert.ok(ev.some((e) => e.content?.parts?.some((p) => p.function_response?.response?.result === 4)));
    const finalEv = ev.filter((e) => e.usage_metadata?.prompt_token_count === 130);
    assert.equal(finalEv.length, 1, 'the final-response event is kept (it was a model call)');
    assert.equal(finalEv[0].content, null, 'its content is nulled so its text is not counted twice');
    assert.ok(!ev.some((e) => textOf(e.content) === 'You rolled a 4.'), 'the final text appears nowhere in invocation_events');
    assert.equal(metric(r, 'tool_trajectory_avg_score').score, 1);
    assert.equal(metric(r, 'response_match_score').score, 1);
    assert.equal(metric(r, 'tool_call_count_v1').score, 1);
    assert.equal(metric(r, 'inference_call_count_v1').score, 2, 'two events carry usage metadata / a model version');
    // token_usage_v1: input = prompt (+tool use), output = candidates + thoughts; total = input + output.
    const tok = metric(r, 'token_usage_v1');
    assert.equal(tok.score, (100 + 10) + (130 + 7 + 3));
    assert.equal(tok.details.token_usage_details.prompt_tokens, 230);
    assert.equal(tok.details.token_usage_details.reasoning_tokens, 3);
    assert.equal(r.final_eval_status, 'PASSED');
  });

  test('ADK events: only partial text → no final response', async () => {
    const { r, inv } = await one({ events: [{ author: 'a', partial: true, content: M('You rolled a 4.') }] }, { tools: [] });
    assert.equal(inv.final_response ?? null, null);
    assert.equal(metric(r, 'response_match_score').score, 0);
  });

  test('ADK events: a later final event without text does not replace an earlier text answer', async () => {
    const { inv } = await one({
      events: [
        { author: 'a', content: M('You rolled a 4.') },
        { author: 'a', content: { role: 'model', parts: [{ inline_data: { mime_type: 'audio/wav', data: 'AAAA' } }] } },
      ],
    }, { tools: [] });
    assert.deepEqual(inv.final_response, M('You rolled a 4.'));
  });

  test('ADK events: sub-agent calls count in the trajectory; the last final event wins', async () => {
    const { r, inv } = await one({
      events: [
        { author: 'root', content: { role: 'model', parts: [{ function_call: { name: 'transfer_to_agent', args: { agent_name: 'dice' } } }] } },
        { author: 'root', content: { role: 'user', parts: [{ function_response: { name: 'transfer_to_agent', response: {} } }] } },
        { author: 'root', content: M('Transferring you.') },
        { author: 'dice', content: { role: 'model', parts: [{ function_call: { name: 'roll_die', args: { sides: 6 } } }] } },
        { author: 'dice', content: { role: 'user', parts: [{ function_response: { name: 'roll_die', response: { result: 4 } } }] } },
        { author: 'dice', content: M('You rolled a 4.') },
      ],
    }, { tools: [{ name: 'transfer_to_agent', args: { agent_name: 'dice' } }, ...ROLL] });
    assert.deepEqual(inv.final_response, M('You rolled a 4.'));
    assert.equal(metric(r, 'tool_trajectory_avg_score').score, 1);
    assert.equal(metric(r, 'tool_call_count_v1').score, 2);
    // The earlier, superseded final event keeps its text as an intermediate response.
    const texts = inv.intermediate_data.invocation_events.map((e) => textOf(e.content)).filter((t) => t);
    assert.deepEqual(texts, ['Transferring you.']);
  });

  test('appDetails is kept on the invocation and names the author of synthesised events', async () => {
    const appDetails = { agent_details: { dice_agent: { name: 'dice_agent', instructions: 'Roll dice.', tool_declarations: [] } } };
    const { inv } = await one({ finalResponse: 'You rolled a 4.', toolCalls: [{ name: 'roll_die', args: { sides: 6 } }], appDetails });
    assert.deepEqual(inv.app_details, appDetails);
    assert.ok(inv.intermediate_data.invocation_events.every((e) => e.author === 'dice_agent'));
  });

  test('camelCase and snake_case replies are equivalent', async () => {
    const a = await one({ finalResponse: 'You rolled a 4.', toolCalls: [{ name: 'roll_die', args: { sides: 6 } }] });
    const b = await one({ final_response: 'You rolled a 4.', tool_calls: [{ name: 'roll_die', args: { sides: 6 } }] });
    assert.deepEqual(a.inv.final_response, b.inv.final_response);
    assert.equal(metric(b.r, 'tool_trajectory_avg_score').score, 1);
    assert.equal(b.r.final_eval_status, 'PASSED');
  });

  test('a malformed event part is an agent_error naming the event', async () => {
    const res = await ec.evaluate({ evalSet: expected([]), agent: () => ({ events: [{ author: 'a', content: { parts: [{ bogus: 1 }] } }] }) });
    const r = res.eval_case_results[0];
    assert.equal(r.final_eval_status, 'FAILED');
    assert.equal(r.error.code, 'agent_error');
    assert.match(r.error.message, /events\[0\]/);
  });
});

// ------------------------------------------------------------------------------------------------
describe('numRuns', () => {
  const SET = {
    eval_set_id: 'runs',
    eval_cases: [
      { eval_id: 'stable', conversation: [turn('q0', 'the quick brown fox')] },
      { eval_id: 'flaky', conversation: [turn('q1', 'alpha beta gamma delta'), turn('q2', 'one two three four')] },
    ],
  };
  // What the agent answers per run (flaky) — the second answer tells the custom metric which run it is.
  const FLAKY = [
    ['alpha beta gamma delta', 'one two three four'],
    ['alpha beta', 'nothing matches here'],
    ['alpha beta gamma delta', 'one two three'],
  ];
  // A custom metric whose per-invocation scores defeat naive float averaging.
  const GRADED = { 'one two three four': [0.1, 0.2], 'nothing matches here': [0.3, 0.1], 'one two three': [0.2, 0.3] };
  const graded = ({ actualInvocations }) => {
    if (actualInvocations.length === 1) return { score: 0.5, per_invocation: [0.5] };
    const per = GRADED[textOf(actualInvocations[1].final_response)];
    return { score: (per[0] + per[1]) / 2, per_invocation: per };
  };
  let res;
  let seenRuns;
  before(async () => {
    seenRuns = [];
    res = await ec.evaluate({
      evalSet: SET,
      numRuns: 3,
      config: { criteria: { response_match_score: 0.6, graded: 0.15 } },
      customMetrics: { graded },
      agent: (t) => {
        seenRuns.push([t.evalId, t.run, t.turnIndex]);
        if (t.evalId === 'stable') return 'the quick brown fox';
        return FLAKY[t.run][t.turnIndex];
      },
    });
  });

  test('every case runs once per run, runs numbered 0..2', () => {
    assert.equal(res.eval_case_results.length, 6);
    const keys = Object.keys(byId(res)).sort();
    assert.deepEqual(keys, ['flaky#0', 'flaky#1', 'flaky#2', 'stable#0', 'stable#1', 'stable#2']);
    assert.equal(seenRuns.filter(([id]) => id === 'flaky').length, 6);
    assert.deepEqual([...new Set(seenRuns.map(([, run]) => run))].sort(), [0, 1, 2]);
  });

  test('run_summary: statuses in run order, flipped', () => {
    const s = res.run_summary;
    assert.ok(s, 'numRuns > 1 gives run_summary');
    assert.equal(s.num_runs, 3);
    const flaky = s.cases.find((c) => c.eval_id === 'flaky');
    const stable = s.cases.find((c) => c.eval_id === 'stable');
    assert.deepEqual(flaky.statuses, ['PASSED', 'FAILED', 'PASSED']);
    assert.equal(flaky.flipped, true);
    assert.deepEqual(stable.statuses, ['PASSED', 'PASSED', 'PASSED']);
    assert.equal(stable.flipped, false);
    assert.equal(flaky.inference_failures, 0);
    const r = byId(res);
    assert.deepEqual(flaky.statuses, [0, 1, 2].map((i) => r[`flaky#${i}`].final_eval_status));
  });

  test('run_summary: per-metric case scores, min/mean/max/stddev', () => {
    const r = byId(res);
    const flaky = res.run_summary.cases.find((c) => c.eval_id === 'flaky');
    const rm = flaky.metrics.find((m) => m.metric_name === 'response_match_score');
    const scores = [0, 1, 2].map((i) => metric(r[`flaky#${i}`], 'response_match_score').score);
    // The case scores are ADK's: the mean of the per-invocation ROUGE F-measures.
    const rouge = (a, b) => ec.rouge1(a, b).fmeasure;
    const want = FLAKY.map(([a, b]) => (rouge(a, 'alpha beta gamma delta') + rouge(b, 'one two three four')) / 2);
    assert.deepEqual(scores, want);
    assert.deepEqual(rm.case_scores, scores);
    assert.equal(rm.threshold, 0.6);
    assert.equal(rm.min, Math.min(...scores));
    assert.equal(rm.max, Math.max(...scores));
    assert.equal(rm.mean, exactMean(scores));
    const m = exactMean(scores);
    const sd = Math.sqrt(scores.reduce((a, x) => a + (x - m) ** 2, 0) / scores.length);
    assert.ok(Math.abs(rm.stddev - sd) < 1e-12, `stddev ${rm.stddev} vs population stddev ${sd}`);
    assert.equal(rm.informational, false);
    const stable = res.run_summary.cases.find((c) => c.eval_id === 'stable').metrics.find((x) => x.metric_name === 'response_match_score');
    assert.deepEqual(stable.case_scores, [1, 1, 1]);
    assert.equal(stable.stddev, 0);
  });

  test('run_summary: invocation_mean is the exact mean of every per-invocation score of every run (SPEC §4.6)', () => {
    const r = byId(res);
    const flaky = res.run_summary.cases.find((c) => c.eval_id === 'flaky');
    const rm = flaky.metrics.find((m) => m.metric_name === 'response_match_score');
    const inv = [0, 1, 2].flatMap((i) => [0, 1].map((k) => perInv(r[`flaky#${i}`], k, 'response_match_score').score));
    assert.equal(inv.length, 6);
    assert.equal(rm.invocation_mean, exactMean(inv));
    assert.equal(rm.passed, rm.invocation_mean >= 0.6);
    const g = flaky.metrics.find((m) => m.metric_name === 'graded');
    assert.equal(g.invocation_mean, 0.2, 'exact mean of 0.1, 0.2, 0.3, 0.1, 0.2, 0.3 (a naive sum gives 0.20000000000000004)');
    assert.deepEqual(g.case_scores, [0.15000000000000002, 0.2, 0.25]);
    assert.equal(g.passed, true);
    assert.equal(g.lower_is_better, false);
  });

  test('run_summary: informational metrics have passed null', () => {
    const flaky = res.run_summary.cases.find((c) => c.eval_id === 'flaky');
    const tc = flaky.metrics.find((m) => m.metric_name === 'tool_call_count_v1');
    assert.ok(tc);
    assert.equal(tc.informational, true);
    assert.equal(tc.passed, null);
  });

  test('run_summary: a lower-is-better custom metric is recognised from its own statuses', async () => {
    const lat = { 'r0': 0.3, 'r1': 0.4, 'r2': 0.9 };
    const out = await ec.evaluate({
      evalSet: { eval_set_id: 'lat', eval_cases: [{ eval_id: 'c', conversation: [turn('q', 'a')] }] },
      numRuns: 3,
      config: { criteria: { latency: 0.5 } },
      customMetrics: {
        latency: ({ actualInvocations, threshold }) => {
          const s = lat[textOf(actualInvocations[0].final_response)];
          const st = s <= threshold ? 'PASSED' : 'FAILED';
          return { score: s, eval_status: st, per_invocation: [{ score: s, eval_status: st }] };
        },
      },
      agent: (t) => `r${t.run}`,
    });
    const c = out.run_summary.cases[0];
    assert.deepEqual(c.statuses, ['PASSED', 'PASSED', 'FAILED']);
    const m = c.metrics.find((x) => x.metric_name === 'latency');
    assert.equal(m.lower_is_better, true);
    assert.equal(m.invocation_mean, exactMean([0.3, 0.4, 0.9]));
    assert.equal(m.passed, false, `mean ${m.invocation_mean} > 0.5 fails a lower-is-better metric`);
  });
});

// ------------------------------------------------------------------------------------------------
describe('concurrency over cases', () => {
  const cases = (n, turns = 2) => ({
    eval_set_id: 'conc',
    eval_cases: Array.from({ length: n }, (_, i) => ({
      eval_id: `c${i}`,
      conversation: Array.from({ length: turns }, (_, k) => turn(`q${k}`, `a${k}`)),
    })),
  });
  /** An agent that counts the cases between their first turn and the end of their last. */
  function tracker(turns) {
    const open = new Set();
    const st = { max: 0, calls: 0 };
    st.agent = async (t) => {
      st.calls += 1;
      if (t.turnIndex === 0) open.add(`${t.evalId}#${t.run}`);
      st.max = Math.max(st.max, open.size);
      await sleep(5);
      if (t.turnIndex === turns - 1) open.delete(`${t.evalId}#${t.run}`);
      return `a${t.turnIndex}`;
    };
    return st;
  }

  test('concurrency 2: never more than two cases in flight, and two do overlap', async () => {
    const st = tracker(2);
    const res = await ec.evaluate({ evalSet: cases(6), agent: st.agent, concurrency: 2 });
    assert.equal(res.eval_case_results.length, 6);
    assert.equal(st.calls, 12);
    assert.equal(st.max, 2);
    assert.ok(res.eval_case_results.every((r) => r.final_eval_status === 'PASSED'));
  });

  test('default concurrency is 4', async () => {
    const st = tracker(1);
    const res = await ec.evaluate({ evalSet: cases(10, 1), agent: st.agent });
    assert.equal(res.eval_case_results.length, 10);
    assert.equal(st.max, 4);
  });

  test('concurrency bounds runs too (numRuns × cases)', async () => {
    const st = tracker(2);
    const res = await ec.evaluate({ evalSet: cases(3), agent: st.agent, concurrency: 2, numRuns: 2 });
    assert.equal(res.eval_case_results.length, 6);
    assert.equal(st.max, 2);
  });

  test('concurrency 1 runs cases one after another, in set order', async () => {
    const st = tracker(2);
    const order = [];
    const res = await ec.evaluate({ evalSet: cases(4), agent: (t) => { order.push(t.evalId); return st.agent(t); }, concurrency: 1 });
    assert.equal(st.max, 1);
    assert.deepEqual(order, ['c0', 'c0', 'c1', 'c1', 'c2', 'c2', 'c3', 'c3']);
    assert.deepEqual(res.eval_case_results.map((r) => r.eval_id), ['c0', 'c1', 'c2', 'c3']);
  });

  test('bad concurrency / numRuns are EvalErrors', async () => {
    for (const [k, v] of [['concurrency', 0], ['concurrency', 1.5], ['numRuns', 0], ['numRuns', -1]]) {
      await assert.rejects(ec.evaluate({ evalSet: cases(1), agent: () => 'a0', [k]: v }), (e) => {
        assert.ok(e instanceof ec.EvalError, `${k}=${v}: ${e}`);
        assert.equal(e.code, 'schema');
        assert.equal(e.path, `$.${k}`);
        return true;
      });
    }
  });
});

// ------------------------------------------------------------------------------------------------
describe('evalIds and argument checks', () => {
  const SET = {
    eval_set_id: 'pick',
    eval_cases: ['c1', 'c2', 'c3'].map((id) => ({ eval_id: id, conversation: [turn(`hello ${id}`, 'hi')] })),
  };

  test('only the listed cases run', async () => {
    const seen = [];
    const res = await ec.evaluate({ evalSet: SET, evalIds: ['c3', 'c1'], agent: (t) => { seen.push(t.evalId); return 'hi'; } });
    assert.deepEqual(seen.sort(), ['c1', 'c3']);
    assert.deepEqual(res.eval_case_results.map((r) => r.eval_id).sort(), ['c1', 'c3']);
  });

  test('an unknown id is an EvalError schema at $.evalIds and nothing runs', async () => {
    let calls = 0;
    await assert.rejects(ec.evaluate({ evalSet: SET, evalIds: ['c1', 'nope'], agent: () => { calls += 1; return 'hi'; } }), (e) => {
      assert.ok(e instanceof ec.EvalError, String(e));
      assert.ok(e instanceof Error);
      assert.equal(e.code, 'schema');
      assert.equal(e.path, '$.evalIds');
      assert.match(e.message, /nope/);
      return true;
    });
    assert.equal(calls, 0);
  });

  test('malformed arguments are EvalErrors with paths', async () => {
    const checks = [
      [{ evalSet: SET, evalIds: 'c1', agent: () => 'hi' }, '$.evalIds'],
      [{ evalSet: SET, evalIds: [1], agent: () => 'hi' }, '$.evalIds'],
      [{ evalSet: SET, agent: 'not a function' }, '$.agent'],
      [{ agent: () => 'hi' }, '$.evalSet'],
      [{ evalSet: SET, agent: () => 'hi', onProgress: 5 }, '$.onProgress'],
      [{ evalSet: SET, agent: () => 'hi', onCaseResult: {} }, '$.onCaseResult'],
      [{ evalSet: SET, agent: () => 'hi', signal: {} }, '$.signal'],
    ];
    for (const [args, path] of checks) {
      await assert.rejects(ec.evaluate(args), (e) => {
        assert.ok(e instanceof ec.EvalError, `${path}: ${e}`);
        assert.equal(e.path, path);
        return true;
      });
    }
    // A broken eval set is reported under $.evalSet.
    await assert.rejects(ec.evaluate({ evalSet: { eval_set_id: 'x', eval_cases: [{ eval_id: 'a' }] }, agent: () => 'hi' }), (e) => {
      assert.ok(e instanceof ec.EvalError);
      assert.ok(e.path.startsWith('$.evalSet'), e.path);
      return true;
    });
  });

  test('the eval set may be JSON text', async () => {
    const res = await ec.evaluate({ evalSet: JSON.stringify(SET), agent: () => 'hi' });
    assert.equal(res.eval_case_results.length, 3);
  });
});

// ------------------------------------------------------------------------------------------------
describe('agent failures', () => {
  const SET = {
    eval_set_id: 'fail',
    eval_cases: ['c1', 'c2', 'c3', 'c4'].map((id) => ({ eval_id: id, conversation: [turn(`${id} first`, 'ok'), turn(`${id} second`, 'ok')] })),
  };

  test('a throwing agent fails that case only, with agent_error naming the error', async () => {
    const calls = [];
    const res = await ec.evaluate({
      evalSet: SET,
      agent: async (t) => {
        calls.push(`${t.evalId}:${t.turnIndex}`);
        await sleep(1);
        if (t.evalId === 'c2' && t.turnIndex === 1) throw new Error('the tool backend is down');
        return 'ok';
      },
    });
    assert.equal(res.eval_case_results.length, 4);
    const r = Object.fromEntries(res.eval_case_results.map((x) => [x.eval_id, x]));
    assert.equal(r.c2.final_eval_status, 'FAILED');
    assert.equal(r.c2.error.code, 'agent_error');
    assert.match(r.c2.error.message, /the tool backend is down/);
    assert.match(r.c2.error.message, /turn 2/);
    assert.deepEqual(r.c2.overall_eval_metric_results, []);
    for (const id of ['c1', 'c3', 'c4']) {
      assert.equal(r[id].final_eval_status, 'PASSED', id);
      assert.equal(r[id].error, undefined);
    }
    assert.ok(!calls.includes('c2:2'));
    assert.equal(calls.length, 8);
  });

  test('a synchronous throw, a rejection with a non-Error, and a thrown string are agent_errors', async () => {
    const agents = {
      sync: (t) => { if (t.evalId === 'c1') throw new TypeError('sync kaboom'); return 'ok'; },
      rejectString: async (t) => { if (t.evalId === 'c1') throw 'plain string failure'; return 'ok'; },
      rejectObject: (t) => (t.evalId === 'c1' ? Promise.reject({ reason: 'object failure' }) : 'ok'),
    };
    const want = { sync: /sync kaboom/, rejectString: /plain string failure/, rejectObject: /object failure/ };
    for (const [name, agent] of Object.entries(agents)) {
      const res = await ec.evaluate({ evalSet: SET, agent });
      const c1 = res.eval_case_results.find((x) => x.eval_id === 'c1');
      assert.equal(c1.final_eval_status, 'FAILED', name);
      assert.equal(c1.error.code, 'agent_error', name);
      assert.match(c1.error.message, want[name], name);
      assert.equal(res.eval_case_results.filter((x) => x.final_eval_status === 'PASSED').length, 3, name);
    }
  });

  test('undefined, null, numbers and unserialisable replies are agent_errors with readable messages', async () => {
    const circular = { finalResponse: 'x' };
    circular.self = circular;
    const bad = [
      [undefined, /undefined/],
      [null, /nothing|null/],
      [42, /string or an object/],
      [{ finalResponse: 'ok', big: 10n }, /JSON|BigInt/i],
      [circular, /JSON|circular/i],
      [{ events: 'not an array' }, /events must be an array/],
    ];
    for (const [reply, re] of bad) {
      const res = await ec.evaluate({ evalSet: SET, agent: (t) => (t.evalId === 'c3' ? reply : 'ok') });
      const c3 = res.eval_case_results.find((x) => x.eval_id === 'c3');
      const what = typeof reply === 'object' && reply !== null ? Object.keys(reply).join(',') : String(reply);
      assert.equal(c3.final_eval_status, 'FAILED', what);
      assert.equal(c3.error?.code, 'agent_error', what);
      assert.match(c3.error.message, re, `${what}: ${c3.error.message}`);
      assert.ok(!/\bat .*\.js:\d+/.test(c3.error.message), 'no stack trace in the message');
      assert.equal(res.eval_case_results.filter((x) => x.final_eval_status === 'PASSED').length, 3, what);
    }
  });

  test('with numRuns, an agent failure is counted in run_summary', async () => {
    const res = await ec.evaluate({ evalSet: SET, numRuns: 2, agent: (t) => { if (t.evalId === 'c4' && t.run === 1) throw new Error('flaky'); return 'ok'; } });
    const c4 = res.run_summary.cases.find((c) => c.eval_id === 'c4');
    assert.deepEqual(c4.statuses, ['PASSED', 'FAILED']);
    assert.equal(c4.inference_failures, 1);
    assert.equal(c4.flipped, true);
  });
});

// ------------------------------------------------------------------------------------------------
describe('streaming: onCaseResult and onProgress', () => {
  const SET = {
    eval_set_id: 'stream',
    eval_cases: ['c1', 'c2', 'c3'].map((id) => ({ eval_id: id, conversation: [turn(`q ${id}`, 'right answer')] })),
  };
  const agent = (t) => (t.evalId === 'c2' ? 'wrong' : 'right answer');

  test('every result is streamed before evaluate resolves, as each case finishes', async () => {
    const log = [];
    const streamed = [];
    let resolved = false;
    const res = await ec.evaluate({
      evalSet: SET,
      concurrency: 1,
      agent: (t) => { log.push(`agent ${t.evalId}`); return agent(t); },
      onCaseResult: (r) => { assert.equal(resolved, false); streamed.push(r); log.push(`result ${r.eval_id}`); },
    }).finally(() => { resolved = true; });
    assert.deepEqual(log, ['agent c1', 'result c1', 'agent c2', 'result c2', 'agent c3', 'result c3']);
    assert.equal(streamed.length, 3);
    for (const r of res.eval_case_results) {
      assert.deepEqual(streamed.find((s) => s.eval_id === r.eval_id && s.run === r.run), r);
    }
  });

  test('onProgress: start, one "case" per result, done; counts consistent', async () => {
    const events = [];
    const res = await ec.evaluate({ evalSet: SET, numRuns: 2, agent, onProgress: (p) => events.push(p) });
    assert.equal(events[0].phase, 'start');
    assert.equal(events[0].casesDone, 0);
    assert.equal(events[0].casesTotal, 6);
    const last = events.at(-1);
    assert.equal(last.phase, 'done');
    assert.equal(last.casesDone, 6);
    const mid = events.slice(1, -1);
    assert.equal(mid.length, 6);
    mid.forEach((p, i) => {
      assert.equal(p.phase, 'case');
      assert.equal(p.casesDone, i + 1);
      assert.equal(p.casesTotal, 6);
      assert.equal(p.passed + p.failed + p.notEvaluated, p.casesDone);
      assert.ok(['c1', 'c2', 'c3'].includes(p.evalId));
      assert.ok(p.run === 0 || p.run === 1);
    });
    assert.equal(last.passed, 4);
    assert.equal(last.failed, 2);
    assert.equal(last.notEvaluated, 0);
    assert.equal(res.eval_case_results.filter((r) => r.final_eval_status === 'FAILED').length, last.failed);
  });

  test('a throwing onCaseResult does not stop the run: every case is still delivered, then AggregateError', async () => {
    const streamed = [];
    const progress = [];
    let calls = 0;
    const err = await ec.evaluate({
      evalSet: SET,
      concurrency: 1,
      agent: (t) => { calls += 1; return agent(t); },
      onCaseResult: (r) => { streamed.push(r.eval_id); throw new Error(`listener broke on ${r.eval_id}`); },
      onProgress: (p) => progress.push(p.phase),
    }).then(() => assert.fail('evaluate should reject'), (e) => e);
    assert.ok(err instanceof AggregateError, String(err));
    assert.equal(err.errors.length, 3);
    assert.deepEqual(err.errors.map((e) => e.message), ['listener broke on c1', 'listener broke on c2', 'listener broke on c3']);
    assert.deepEqual(streamed, ['c1', 'c2', 'c3']);
    assert.equal(calls, 3);
    assert.equal(progress.at(-1), 'done', 'the evaluation completed before rejecting');
  });

  test('a throwing onProgress does not lose the results: the rejection carries the completed EvalSetResult', async () => {
    const err = await ec.evaluate({
      evalSet: SET,
      agent,
      onProgress: () => { throw new Error('progress bar crashed'); },
    }).then(() => assert.fail('evaluate should reject'), (e) => e);
    assert.ok(err instanceof AggregateError, String(err));
    assert.ok(err.errors.every((e) => e.message === 'progress bar crashed'));
    // Nothing else saw the results (no onCaseResult): they must travel with the error.
    const carried = Object.values(err).find((v) => v && typeof v === 'object' && Array.isArray(v.eval_case_results));
    assert.ok(carried, `the AggregateError carries no EvalSetResult (own properties: ${Object.keys(err).join(', ')}); the three completed cases are lost`);
    assert.equal(carried.eval_case_results.length, 3);
  });
});

// ------------------------------------------------------------------------------------------------
describe('cancellation', () => {
  const SET = {
    eval_set_id: 'cancel',
    eval_cases: ['c1', 'c2', 'c3', 'c4'].map((id) => ({ eval_id: id, conversation: [turn(`q ${id}`, 'ok')] })),
  };
  const ids = SET.eval_cases.map((c) => c.eval_id);

  async function abortError(p) {
    const err = await p.then(() => assert.fail('evaluate should reject'), (e) => e);
    assert.ok(err instanceof Error, String(err));
    assert.equal(err.name, 'AbortError', `${err.name}: ${err.message}`);
    assert.ok(err.partialResult && Array.isArray(err.partialResult.eval_case_results), 'partialResult is an EvalSetResult');
    return err;
  }
  function accounted(pr) {
    const done = pr.eval_case_results.map((r) => r.eval_id);
    const skipped = (pr.skipped ?? []).map((s) => s.eval_id);
    assert.deepEqual([...done, ...skipped].sort(), ids, `results ${done} + skipped ${skipped} cover every case once`);
    return { done, skipped };
  }

  test('aborting between cases: completed cases in partialResult, the rest in skipped', async () => {
    const ac = new AbortController();
    const called = [];
    const err = await abortError(ec.evaluate({
      evalSet: SET,
      concurrency: 1,
      signal: ac.signal,
      agent: (t) => { called.push(t.evalId); return 'ok'; },
      onCaseResult: (r) => { if (r.eval_id === 'c2') ac.abort(); },
    }));
    assert.deepEqual(called, ['c1', 'c2']);
    const { done, skipped } = accounted(err.partialResult);
    assert.deepEqual(done, ['c1', 'c2']);
    assert.ok(err.partialResult.eval_case_results.every((r) => r.final_eval_status === 'PASSED'));
    assert.deepEqual(skipped, ['c3', 'c4']);
    assert.ok(err.partialResult.skipped.every((s) => s.reason === 'cancelled' && s.run === 0));
    assert.equal(err.partialResult.cancelled, true);
  });

  test('aborting mid-turn: the agent sees the signal; in-flight cases are reported cancelled, never as agent errors', async () => {
    const ac = new AbortController();
    let c1Done;
    const c1Finished = new Promise((r) => { c1Done = r; });
    const called = [];
    const agent = async (t) => {
      called.push(t.evalId);
      if (t.evalId === 'c1') return 'ok';
      if (t.evalId === 'c2') {
        await c1Finished;
        setTimeout(() => ac.abort(new Error('user pressed stop')), 5);
      }
      // Wait for the abort like a real agent would, then fail because of it.
      await new Promise((resolve) => (t.signal.aborted ? resolve() : t.signal.addEventListener('abort', resolve, { once: true })));
      throw t.signal.reason;
    };
    const err = await abortError(ec.evaluate({ evalSet: SET, concurrency: 2, signal: ac.signal, agent, onCaseResult: (r) => { if (r.eval_id === 'c1') c1Done(); } }));
    const { done, skipped } = accounted(err.partialResult);
    assert.ok(done.includes('c1'));
    assert.equal(err.partialResult.eval_case_results.find((r) => r.eval_id === 'c1').final_eval_status, 'PASSED');
    for (const r of err.partialResult.eval_case_results.filter((x) => x.eval_id !== 'c1')) {
      assert.equal(r.error?.code, 'cancelled', `${r.eval_id}: ${JSON.stringify(r.error)}`);
    }
    assert.ok(skipped.includes('c4'), 'c4 never started');
    assert.ok(!called.includes('c4'));
    assert.equal(err.cause?.message, 'user pressed stop', 'the abort reason is the cause');
  });

  test('aborting does not wait for an agent that ignores the signal', async () => {
    const ac = new AbortController();
    let release;
    const released = new Promise((r) => { release = r; });
    const agent = async (t) => {
      if (t.evalId === 'c1') {
        setTimeout(() => ac.abort(), 10);
        await released; // a slow agent call that does not listen to turn.signal
      }
      return 'ok';
    };
    const run = ec.evaluate({ evalSet: SET, concurrency: 1, signal: ac.signal, agent });
    run.catch(() => {});
    const DEADLINE = Symbol('deadline');
    let timer;
    const first = await Promise.race([run.then(() => 'resolved', (e) => e), new Promise((r) => { timer = setTimeout(() => r(DEADLINE), 5_000); })]);
    clearTimeout(timer);
    release(); // let the stuck agent finish either way, so nothing is left pending
    assert.notEqual(first, DEADLINE, 'evaluate was still waiting for the agent 5 s after the abort');
    assert.equal(first.name, 'AbortError');
    const { done, skipped } = accounted(first.partialResult);
    assert.ok(skipped.includes('c4'));
    assert.ok(!done.includes('c2') && !done.includes('c3'), 'nothing started after the abort');
    for (const r of first.partialResult.eval_case_results) assert.equal(r.error?.code, 'cancelled', `${r.eval_id}`);
  });

  test('an already aborted signal runs nothing', async () => {
    const ac = new AbortController();
    ac.abort();
    let calls = 0;
    const err = await abortError(ec.evaluate({ evalSet: SET, signal: ac.signal, agent: () => { calls += 1; return 'ok'; } }));
    assert.equal(calls, 0);
    assert.deepEqual(err.partialResult.eval_case_results, []);
    assert.deepEqual(err.partialResult.skipped.map((s) => s.eval_id).sort(), ids);
  });

  test('aborting cancels a judge call in flight (no wait for its timeout)', async () => {
    const server = await startJudgeServer();
    try {
      server.script({ openai: { fault: 'hang' } }, { fallback: { fault: 'hang' } });
      const ac = new AbortController();
      const t0 = Date.now();
      const timer = setInterval(() => { if (server.requests.length > 0) { clearInterval(timer); ac.abort(); } }, 5);
      const err = await abortError(ec.evaluate({
        evalSet: { eval_set_id: 'j', eval_cases: [{ eval_id: 'c1', conversation: [turn('q', 'a')] }] },
        agent: () => 'a',
        config: { criteria: { final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: 1 } } } },
        judge: { provider: 'openai', model: 'm', baseUrl: `${server.baseUrl}/v1`, timeoutMs: 120_000, maxRetries: 0 },
        signal: ac.signal,
      }));
      clearInterval(timer);
      assert.ok(Date.now() - t0 < 60_000, 'the hanging judge call was abandoned on abort');
      assert.ok(server.requests.length >= 1);
      for (const r of err.partialResult.eval_case_results) {
        // Either the case is reported cancelled, or its judged metric is (never a judge_error).
        const m = r.overall_eval_metric_results.find((x) => x.metric_name === 'final_response_match_v2');
        assert.ok(r.error?.code === 'cancelled' || m?.details?.reason === 'cancelled', JSON.stringify(r.error ?? m?.details));
      }
    } finally {
      await server.close();
    }
  });
});

// ------------------------------------------------------------------------------------------------
describe('judged metrics inside evaluate', () => {
  const VALID = '{"reasoning": "Same answer.", "is_the_agent_response_valid": "valid"}';
  const INVALID = '{"reasoning": "Different answer.", "is_the_agent_response_valid": "invalid"}';
  const SET = {
    eval_set_id: 'judged',
    eval_cases: [
      { eval_id: 'good', conversation: [turn('What is the capital of France? [case-good]', 'Paris')] },
      { eval_id: 'bad', conversation: [turn('What is the capital of Italy? [case-bad]', 'Rome')] },
    ],
  };
  const AGENT = { good: 'The capital is Paris.', bad: 'The capital is Milan.' };
  const frm = (n) => ({ criteria: { final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: n } } } });
  let server;
  let work;
  before(async () => {
    server = await startJudgeServer();
    work = mkdtempSync(join(tmpdir(), 'evalcore-run-loop-'));
  });
  after(async () => {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });
  const judge = (extra = {}) => ({ provider: 'openai', model: 'judge-m', baseUrl: `${server.baseUrl}/v1`, retryInitialDelayMs: 1, retryMaxDelayMs: 5, ...extra });
  /** Scripted answers per case: the n-th request mentioning [case-X] gets SCRIPT[X][n]. */
  function scripted(script) {
    const count = {};
    server.script((req) => {
      const text = requestText(req.wire, req.body);
      const tag = /\[case-(\w+)\]/.exec(text)?.[1];
      if (!tag || !script[tag]) return { status: 400, error: `unscripted request: ${text.slice(0, 80)}` };
      const i = count[tag] ?? 0;
      count[tag] = i + 1;
      return script[tag][i] ?? { status: 400, error: `script for ${tag} exhausted` };
    });
  }

  test('final_response_match_v2 with num_samples 3: majority vote per case, prompts carry the turn', async () => {
    scripted({ good: [VALID, INVALID, VALID], bad: [INVALID, VALID, INVALID] });
    const res = await ec.evaluate({ evalSet: SET, agent: (t) => AGENT[t.evalId], config: frm(3), judge: judge() });
    const r = Object.fromEntries(res.eval_case_results.map((x) => [x.eval_id, x]));
    assert.equal(metric(r.good, 'final_response_match_v2').score, 1);
    assert.equal(metric(r.good, 'final_response_match_v2').eval_status, 'PASSED');
    assert.equal(r.good.final_eval_status, 'PASSED');
    assert.equal(metric(r.bad, 'final_response_match_v2').score, 0);
    assert.equal(r.bad.final_eval_status, 'FAILED');
    assert.equal(server.requests.length, 6);
    const texts = server.requests.map((q) => requestText(q.wire, q.body));
    const good = texts.filter((t) => t.includes('[case-good]'));
    assert.equal(good.length, 3);
    assert.ok(good.every((t) => t.includes('The capital is Paris.') && t.includes('Paris')));
    assert.ok(texts.filter((t) => t.includes('[case-bad]')).every((t) => t.includes('The capital is Milan.') && t.includes('Rome')));
    assert.ok(server.requests.every((q) => q.body.model === 'judge-m'));
    assert.deepEqual(res.judge_stats, { requests: 6, sent: 6, attempts: 6, retries: 0, cassette_hits: 0, deduplicated: 0, answered: 6, failures: 0, not_sent: {}, budget_exhausted: false });
  });

  test('identical judge requests are sent once per evaluate, across cases and runs (judge_stats.deduplicated)', async () => {
    scripted({ good: [VALID, VALID], bad: [INVALID, INVALID] });
    const res = await ec.evaluate({ evalSet: SET, numRuns: 3, agent: (t) => AGENT[t.evalId], config: frm(2), judge: judge() });
    assert.equal(server.requests.length, 4, 'two samples per distinct prompt');
    assert.equal(res.judge_stats.requests, 12);
    assert.equal(res.judge_stats.sent, 4);
    assert.equal(res.judge_stats.deduplicated, 8);
    const good = res.run_summary.cases.find((c) => c.eval_id === 'good');
    assert.deepEqual(good.statuses, ['PASSED', 'PASSED', 'PASSED']);
    const bad = res.run_summary.cases.find((c) => c.eval_id === 'bad');
    assert.deepEqual(bad.statuses, ['FAILED', 'FAILED', 'FAILED']);
  });

  test('judge failures are NOT_EVALUATED with a reason, and counted in judge_stats', async () => {
    scripted({ good: [VALID], bad: [{ status: 400, error: 'bad request from test' }] });
    const res = await ec.evaluate({ evalSet: SET, agent: (t) => AGENT[t.evalId], config: frm(1), judge: judge({ maxRetries: 0 }) });
    const bad = res.eval_case_results.find((x) => x.eval_id === 'bad');
    const m = metric(bad, 'final_response_match_v2');
    assert.equal(m.eval_status, 'NOT_EVALUATED');
    assert.equal(m.details.reason, 'judge_error');
    assert.match(m.details.error, /400/);
    assert.equal(bad.final_eval_status, 'NOT_EVALUATED');
    assert.equal(res.judge_stats.failures, 1);
    assert.equal(res.judge_stats.sent, 2);
  });

  test('judge.maxCalls: metrics beyond the budget are NOT_EVALUATED, later cases are skipped', async () => {
    const set = {
      eval_set_id: 'budget',
      eval_cases: ['one', 'two', 'three'].map((id) => ({ eval_id: id, conversation: [turn(`Question [case-${id}]`, 'Answer')] })),
    };
    scripted({ one: [VALID, VALID], two: [VALID, VALID], three: [VALID, VALID] });
    const called = [];
    const res = await ec.evaluate({
      evalSet: set,
      concurrency: 1,
      agent: (t) => { called.push(t.evalId); return 'Answer'; },
      config: frm(2),
      judge: judge({ maxCalls: 3 }),
    });
    assert.equal(server.requests.length, 3, 'no more than maxCalls judge calls are sent');
    const r = Object.fromEntries(res.eval_case_results.map((x) => [x.eval_id, x]));
    assert.equal(r.one.final_eval_status, 'PASSED');
    const two = metric(r.two, 'final_response_match_v2');
    assert.equal(two.eval_status, 'NOT_EVALUATED');
    assert.equal(two.details.reason, 'budget_exhausted');
    assert.equal(perInv(r.two, 0, 'final_response_match_v2').eval_status, 'NOT_EVALUATED');
    assert.equal(r.three, undefined, 'a case started after the budget ran out is not run');
    assert.deepEqual(called, ['one', 'two']);
    assert.deepEqual(res.skipped, [{ eval_id: 'three', run: 0, reason: 'budget_exhausted' }]);
    assert.equal(res.judge_stats.sent, 3);
    assert.equal(res.judge_stats.budget_exhausted, true);
  });

  test('cassette: recorded in one run, replayed with the server closed', async () => {
    const path = join(work, 'frm.cassette.json');
    scripted({ good: [VALID, VALID, INVALID], bad: [INVALID, INVALID, VALID] });
    const first = await ec.evaluate({ evalSet: SET, agent: (t) => AGENT[t.evalId], config: frm(3), judge: judge({ cassette: { path, mode: 'record' } }) });
    assert.ok(existsSync(path), 'the cassette file was written');
    const file = JSON.parse(readFileSync(path, 'utf8'));
    assert.equal(Object.keys(file.entries).length, 6);
    assert.equal(first.judge_stats.sent, 6);

    // Replay from a dead server: any network use would fail (and is spied on).
    const dead = await startJudgeServer();
    const deadUrl = `${dead.baseUrl}/v1`;
    await dead.close();
    let fetches = 0;
    const spy = (...a) => { fetches += 1; return fetch(...a); };
    const again = await ec.evaluate({
      evalSet: SET,
      agent: (t) => AGENT[t.evalId],
      config: frm(3),
      judge: { ...judge({ cassette: { path, mode: 'replay' } }), baseUrl: `${server.baseUrl}/v1`, fetch: spy },
    });
    assert.equal(fetches, 0);
    const pick = (res) => res.eval_case_results.map((x) => [x.eval_id, x.final_eval_status, metric(x, 'final_response_match_v2').score]).sort();
    assert.deepEqual(pick(again), pick(first));
    assert.deepEqual(pick(again), [['bad', 'FAILED', 0], ['good', 'PASSED', 1]]);
    assert.equal(again.judge_stats.cassette_hits, 6);
    assert.equal(again.judge_stats.sent, 0);

    // Against a closed port with the real fetch: the replay needs no server at all.
    const closedUrl = deadUrl;
    const third = await ec.evaluate({ evalSet: SET, agent: (t) => AGENT[t.evalId], config: frm(3), judge: { ...judge({ cassette: { path, mode: 'replay' } }), baseUrl: closedUrl } });
    assert.deepEqual(pick(third), pick(first));

    // A different answer is not on the cassette: replay misses, NOT_EVALUATED cassette_miss.
    const miss = await ec.evaluate({ evalSet: SET, agent: () => 'Something else entirely.', config: frm(3), judge: { ...judge({ cassette: { path, mode: 'replay' } }), baseUrl: closedUrl } });
    for (const x of miss.eval_case_results) {
      const m = metric(x, 'final_response_match_v2');
      assert.equal(m.eval_status, 'NOT_EVALUATED');
      assert.equal(m.details.reason, 'cassette_miss');
    }
  });

  test('a replay cassette that does not exist is an EvalError before anything runs', async () => {
    let calls = 0;
    await assert.rejects(ec.evaluate({
      evalSet: SET,
      agent: () => { calls += 1; return 'x'; },
      config: frm(1),
      judge: judge({ cassette: { path: join(work, 'missing.json'), mode: 'replay' } }),
    }), (e) => e instanceof ec.EvalError && e.path === '$.judge.cassette.path');
    assert.equal(calls, 0);
  });

  test('judged metrics without a judge: NOT_EVALUATED needs_judge, the run still completes', async () => {
    const res = await ec.evaluate({ evalSet: SET, agent: (t) => AGENT[t.evalId], config: { criteria: { ...frm(1).criteria, response_match_score: 0.1 } } });
    for (const x of res.eval_case_results) {
      const m = metric(x, 'final_response_match_v2');
      assert.equal(m.eval_status, 'NOT_EVALUATED');
      assert.equal(m.details.reason, 'needs_judge');
    }
    assert.equal(res.judge_stats, undefined);
  });
});

describe('evaluate() tells the truth: strict, agent timeouts, stacks, an unreachable judge', () => {
  const set = {
    eval_set_id: 'truth',
    eval_cases: ['fine', 'hang', 'boom'].map((id) => ({ eval_id: id, conversation: [turn(id, 'ok')] })),
  };
  const agent = (t) => {
    if (t.text === 'hang') return new Promise(() => {});
    if (t.text === 'boom') throw new Error('the agent broke');
    return 'ok';
  };

  test('agentTimeoutMs fails a turn that never settles (its signal aborted); a throw keeps turn and stack', async () => {
    let aborted = null;
    const watched = (t) => {
      if (t.text === 'hang') t.signal.addEventListener('abort', () => { aborted = String(t.signal.reason); });
      return agent(t);
    };
    const t0 = Date.now();
    const r = await ec.evaluate({ evalSet: set, agent: watched, agentTimeoutMs: 200, config: { criteria: { response_match_score: 0.5 } } });
    assert.ok(Date.now() - t0 < 10_000);
    const by = Object.fromEntries(r.eval_case_results.map((c) => [c.eval_id, c]));
    assert.equal(by.fine.final_eval_status, 'PASSED');
    assert.equal(by.hang.error.code, 'agent_timeout');
    assert.equal(by.hang.error.turn, 1);
    assert.match(by.hang.error.message, /^turn 1: the agent did not answer within 200 ms/);
    assert.match(aborted, /timed out after 200 ms/);
    assert.equal(by.boom.error.code, 'agent_error');
    assert.match(by.boom.error.stack, /^Error: the agent broke\n\s+at agent \(.*run-loop\.test\.mjs/);
    assert.doesNotMatch(by.boom.error.stack, /pkg[/\\]lib|wasm:\/\//, 'the stack stops where evalcore called the agent');
    await assert.rejects(ec.evaluate({ evalSet: set, agent, agentTimeoutMs: -5 }), (e) => e instanceof ec.EvalError && e.path === '$.agentTimeoutMs');
  });

  test('strict: a config warning rejects before any turn; a NOT_EVALUATED metric rejects with the whole result', async () => {
    let turns = 0;
    const counted = (t) => { turns++; return 'ok'; };
    const one = { eval_set_id: 's', eval_cases: [set.eval_cases[0]] };
    await assert.rejects(ec.evaluate({ evalSet: one, agent: counted, strict: true, config: { criteria: { respone_match_score: 0.5 } } }),
      (e) => e instanceof ec.EvalError && e.path === '$.config.criteria.respone_match_score' && /did you mean "response_match_score"/.test(e.message));
    assert.equal(turns, 0);
    const config = { criteria: { response_match_score: 0.5, final_response_match_v2: 0.5 } };
    const err = await ec.evaluate({ evalSet: one, agent: counted, strict: true, config }).catch((e) => e);
    assert.ok(err instanceof ec.EvalError, String(err));
    assert.equal(err.code, 'strict');
    assert.match(err.message, /1 metric result was NOT_EVALUATED: needs_judge x1 \(final_response_match_v2\)/);
    assert.equal(err.result.eval_case_results[0].final_eval_status, 'PASSED', 'ADK\'s verdict, kept in the result');
    // Without strict the same run resolves (ADK's rule), and runHealth says what was not evaluated.
    const { runHealth } = await import('../../pkg/lib/report/reports.js');
    const r = await ec.evaluate({ evalSet: one, agent: counted, config });
    assert.deepEqual(runHealth(r).byReason.map((g) => [g.reason, g.count]), [['needs_judge', 1]]);
    await assert.rejects(ec.evaluate({ evalSet: one, agent: counted, strict: 'yes' }), (e) => e.path === '$.strict');
  });

  test('a judge nobody listens to is retried once, then not called again; the wait reaches onProgress', async () => {
    const port = await freePort();
    const progress = [];
    const many = { eval_set_id: 'm', eval_cases: ['a', 'b', 'c', 'd'].map((id) => ({ eval_id: id, conversation: [turn(`q ${id}`, 'ok')] })) };
    const t0 = Date.now();
    const r = await ec.evaluate({
      evalSet: many, agent: () => 'ok', config: { criteria: { final_response_match_v2: 0.5 } },
      judge: { provider: 'openai', model: 'm', baseUrl: `http://127.0.0.1:${port}`, retryInitialDelayMs: 50 },
      onProgress: (p) => progress.push(p),
    });
    assert.ok(Date.now() - t0 < 10_000, 'not seven attempts per call');
    // The one wait announced: its retry is made only if the judge was not found dead meanwhile.
    const s = r.judge_stats;
    assert.ok(s.retries <= 1, `retries ${s.retries}`);
    assert.equal(s.attempts, s.sent + s.retries, 'every attempt is a call sent or a retry made');
    assert.equal(s.requests, s.answered + s.failures + Object.values(s.not_sent).reduce((a, b) => a + b, 0));
    const errors = r.eval_case_results.map((c) => c.overall_eval_metric_results[0].details.error);
    assert.ok(errors.every((e) => /unreachable/.test(e)), errors.join('\n'));
    const waits = progress.filter((p) => p.phase === 'judge_retry');
    assert.equal(waits.length, 1);
    assert.equal(waits[0].retry.attempt, 1);
    assert.match(waits[0].retry.why, /ECONNREFUSED/);
  });
});
