// Recorded sessions scored: evaluate({ traces }) against the eval cases the sessions match (by
// eval id, else by the user turns they repeat) and on their own (reference-free), on traces the
// real frameworks exported (tests/data/traces): matched sessions score as ADK scored its own
// invocations; unmatched cases and sessions are reported, never dropped.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { EvalError, evaluate, evaluateInvocations, loadTraces } from '../../pkg/index.js';

const dir = new URL('../data/traces/', import.meta.url);
const bytes = (name) => readFileSync(new URL(name, dir));
const oracle = (name) => JSON.parse(bytes(name).toString('utf8'));
const metric = (r, name) => r.overall_eval_metric_results.find((m) => m.metric_name === name);

const v1 = oracle('adk-py-v1.oracle.json');
const criteria = { tool_trajectory_avg_score: 1.0, response_match_score: 0.5 };

test('against an eval set: by user turns, by eval id, several sessions of one case are its runs', async () => {
  const evalSet = {
    eval_set_id: 'regress',
    eval_cases: [
      { eval_id: 'dice', conversation: v1.expected },
      { eval_id: 'session-v2-event', conversation: oracle('adk-py-v2-event.oracle.json').expected },
      { eval_id: 'never_recorded', conversation: [{ user_content: { parts: [{ text: 'Nobody asked this.' }] } }] },
    ],
  };
  const traces = [bytes('adk-py-v1.otlp.jsonl'), bytes('adk-py-v2-span.otlp.jsonl'), bytes('adk-py-v2-event.otlp.jsonl'), bytes('ai-sdk-legacy.otlp.json')];
  const result = await evaluate({ traces, evalSet, config: { criteria } });
  const rows = result.eval_case_results.map((r) => [r.eval_id, r.run ?? 0, r.session_id, r.final_eval_status]);
  assert.deepEqual(rows, [
    ['dice', 0, 'session-v1', 'PASSED'],
    ['dice', 1, 'session-v2-span', 'PASSED'],
    ['session-v2-event', 0, 'session-v2-event', 'PASSED'],
    ['never_recorded', 0, '', 'FAILED'],
  ]);
  // The v1 session's scores are ADK's own, computed on ADK's own derivation of the session.
  for (const name of Object.keys(criteria)) assert.equal(metric(result.eval_case_results[0], name).score, v1.adk_scores[name].overall_score, name);
  assert.equal(result.eval_case_results[3].error.code, 'no_session');
  assert.ok(result.run_summary, 'several runs of a case: the result has its run summary');
  assert.deepEqual(result.traces.matched.map((m) => [m.session_id, m.eval_id, m.by, m.run]), [
    ['session-v2-event', 'session-v2-event', 'eval_id', 0],
    ['session-v1', 'dice', 'user_turns', 0],
    ['session-v2-span', 'dice', 'user_turns', 1],
  ]);
  assert.deepEqual(result.traces.unmatched_cases, ['never_recorded']);
  const aiSdk = loadTraces(bytes('ai-sdk-legacy.otlp.json')).sessions[0];
  assert.deepEqual(result.traces.unmatched_sessions, [{ session_id: aiSdk.session_id, invocations: aiSdk.invocations.length }]);
  assert.equal(result.traces.sessions, 4);
});

test('without an eval set: each session its own case; reference-based metrics say why they are not evaluated', async () => {
  const result = await evaluate({ traces: bytes('adk-py-v2-event.otlp.jsonl'), config: { criteria } });
  assert.equal(result.eval_set_id, 'traces');
  const [r] = result.eval_case_results;
  assert.equal(r.eval_id, 'session-v2-event');
  assert.equal(r.session_id, 'session-v2-event');
  assert.equal(r.user_id, 'user-7');
  for (const name of Object.keys(criteria)) {
    const m = metric(r, name);
    assert.equal(m.eval_status, 'NOT_EVALUATED', name);
    assert.equal(m.details.reason, 'missing_expected');
    assert.match(m.details.error, /recorded session scored without an eval case/);
  }
  // What needs no expected invocation is scored (the efficiency figures ADK's evaluators gave).
  const want = oracle('adk-py-v2-event.oracle.json').adk_scores;
  for (const name of ['tool_call_count_v1', 'inference_call_count_v1', 'token_usage_v1']) {
    assert.equal(metric(r, name).score, want[name].overall_score, name);
  }
  assert.equal(r.eval_metric_result_per_invocation.length, 4);
  assert.deepEqual(result.traces.unmatched_sessions, []);
});

test('content not captured: the metrics that read it are NOT_EVALUATED with the switch that records it', async () => {
  const result = await evaluate({ traces: bytes('adk-py-v2-nocontent.otlp.jsonl'), config: { criteria: { tool_trajectory_avg_score: 1.0 } }, evalSet: { eval_set_id: 'x', eval_cases: [{ eval_id: 'session-v2-nocontent', conversation: v1.expected }] } });
  const m = metric(result.eval_case_results[0], 'tool_trajectory_avg_score');
  assert.equal(m.eval_status, 'NOT_EVALUATED');
  assert.equal(m.details.reason, 'not_recorded');
  assert.match(m.details.error, /OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT/);
});

test('a session matched by id whose turn count differs fails its case with the reason, the rest are scored', async () => {
  const short = { eval_id: 'session-v1', conversation: v1.expected.slice(0, 2) };
  const result = await evaluate({ traces: [bytes('adk-py-v1.otlp.jsonl'), bytes('adk-py-v2-span.otlp.jsonl')], evalSet: { eval_set_id: 's', eval_cases: [short, { eval_id: 'session-v2-span', conversation: v1.expected }] }, config: { criteria } });
  const [a, b] = result.eval_case_results;
  assert.equal(a.final_eval_status, 'FAILED');
  assert.equal(a.error.code, 'count_mismatch');
  assert.equal(a.session_id, 'session-v1');
  assert.equal(b.final_eval_status, 'PASSED');
});

test('loaded sessions, sessionIds and evalIds; bad arguments are EvalErrors with paths', async () => {
  const loaded = loadTraces([bytes('adk-py-v1.otlp.jsonl'), bytes('adk-py-v2-span.otlp.jsonl')]);
  const only = await evaluate({ traces: loaded, sessionIds: ['session-v2-span'], config: { criteria: {} } });
  assert.deepEqual(only.eval_case_results.map((r) => r.eval_id), ['session-v2-span']);
  await assert.rejects(evaluate({ traces: loaded, sessionIds: ['nope'] }), (e) => e instanceof EvalError && e.path === '$.sessionIds' && /session-v1/.test(e.message));
  await assert.rejects(evaluate({ traces: loaded, evalIds: ['a'] }), (e) => e.path === '$.evalIds');
  await assert.rejects(evaluate({ traces: '{"resourceSpans": 3}' }), (e) => e instanceof EvalError && e.code === 'schema');
  // A bad config is the run's error, not each case's.
  await assert.rejects(evaluate({ traces: loaded, config: { criteria: { tool_call_count_v1: {} } } }), (e) => e.path === '$.config.criteria.tool_call_count_v1');
  await assert.rejects(evaluate({ traces: loaded, agent: async () => 'x', evalSet: { eval_set_id: 'a', eval_cases: [] } }), (e) => e.path === '$.traces');
  const strict = evaluate({ traces: loaded, strict: true, config: { criteria: { response_match_score: 0.5 } } });
  await assert.rejects(strict, (e) => e.code === 'strict' && e.result.eval_case_results.length === 2);
});

test('evaluateInvocations takes a recorded session instead of an eval case', async () => {
  const [s] = loadTraces(bytes('adk-py-v2-span.otlp.jsonl')).sessions;
  const r = await evaluateInvocations({ session: { session_id: s.session_id, user_id: 'u1' }, actual: s.invocations, config: { criteria: { response_match_score: 0.5 } } });
  assert.equal(r.eval_id, s.session_id);
  assert.equal(r.user_id, 'u1');
  assert.equal(metric(r, 'response_match_score').details.reason, 'missing_expected');
  assert.throws(() => loadTraces(bytes('adk-py-v2-span.otlp.jsonl'), { nope: 1 }), EvalError);
});

test('loadTraces with timeline: each invocation\'s spans, kinds and parents', () => {
  const { sessions } = loadTraces(bytes('adk-py-v1.otlp.jsonl'), { timeline: true });
  const [s] = sessions;
  assert.equal(s.timelines.length, s.invocations.length);
  const t = s.timelines[0];
  assert.equal(t[0].kind, 'invocation');
  assert.equal(t[0].start_ms, 0);
  assert.equal(t[0].parent, undefined);
  assert.ok(t.slice(1).every((x) => Number.isInteger(x.parent) && x.parent < t.length));
  const kinds = new Set(t.map((x) => x.kind));
  assert.ok(kinds.has('model') && kinds.has('tool'), [...kinds].join());
  const tool = t.find((x) => x.kind === 'tool');
  assert.equal(tool.detail, 'roll_die');
  // The spans' model time is the invocation's model_duration (their union, as the split counts it).
  const model = t.filter((x) => x.kind === 'model').reduce((n, x) => n + (x.end_ms - x.start_ms), 0);
  assert.ok(Math.abs(model / 1000 - s.invocations[0].model_duration) < 0.002, `${model} ms vs ${s.invocations[0].model_duration} s`);
  assert.equal(loadTraces(bytes('adk-py-v1.otlp.jsonl')).sessions[0].timelines, undefined);
  // Every span after its parent, in start order, also where the AI SDK's spans of a turn start in
  // the same millisecond (the exporter sent the children first).
  for (const f of ['adk-py-v1.otlp.jsonl', 'ai-sdk-genai.otlp.pb', 'adk-js.otlp.json']) {
    for (const spans of loadTraces(bytes(f), { timeline: true }).sessions.flatMap((x) => x.timelines)) {
      spans.forEach((x, i) => {
        assert.ok(x.parent === undefined ? i === 0 : x.parent < i, `${f}: ${x.name} before its parent`);
        if (i > 0) assert.ok(spans[i - 1].start_ms <= x.start_ms, `${f}: ${x.name} out of start order`);
      });
    }
  }
});
