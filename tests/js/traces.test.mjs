// loadTraces / tracesToEvalSet through the built package (the trace module loaded on first use),
// on traces exported by the real frameworks (tests/data/traces, tools/traces/refresh.sh): the
// rebuilt invocations score exactly as ADK's own evaluators scored ADK's own invocations.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { EvalError, evaluateInvocations, loadTraces, tracesToEvalSet } from '../../pkg/index.js';

const dir = new URL('../data/traces/', import.meta.url);
const bytes = (name) => readFileSync(new URL(name, dir));
const oracle = (name) => JSON.parse(bytes(name).toString('utf8'));

test('every input form reads alike: bytes, text, objects, protobuf with its logs', () => {
  const a = loadTraces(bytes('adk-py-v2-event.otlp.jsonl'));
  const text = bytes('adk-py-v2-event.otlp.jsonl').toString('utf8');
  const b = loadTraces(text);
  const c = loadTraces(text.trim().split('\n').map((l) => JSON.parse(l)));
  const d = loadTraces([bytes('adk-py-v2-event.otlp.pb'), bytes('adk-py-v2-event.logs.pb')]);
  for (const x of [b, c, d]) assert.deepEqual(x.sessions, a.sessions);
  assert.equal(a.sessions.length, 1);
  assert.equal(a.sessions[0].session_id, 'session-v2-event');
  assert.equal(a.sessions[0].user_id, 'user-7');
  assert.equal(a.sessions[0].invocations.length, 4);
});

for (const v of ['v1', 'v2-span', 'v2-event']) {
  test(`ADK ${v}: the rebuilt invocations score as ADK scored its own`, async () => {
    const want = oracle(`adk-py-${v}.oracle.json`);
    const { sessions } = loadTraces(bytes(`adk-py-${v}.otlp.jsonl`));
    const criteria = Object.fromEntries(Object.entries(want.metrics).filter(([, t]) => t !== null));
    const r = await evaluateInvocations({
      evalCase: { eval_id: 'from-traces', conversation: want.expected },
      actual: sessions[0].invocations,
      config: { criteria },
    });
    for (const m of r.overall_eval_metric_results) {
      const adk = want.adk_scores[m.metric_name];
      if (m.metric_name === 'invocation_duration_v1') {
        // Timings from spans, not ADK's clock: the same breakdown, within 40 ms a turn.
        assert.ok(m.details.duration_details.model_seconds > 0);
        continue;
      }
      assert.equal(m.score, adk.overall_score, `${v} ${m.metric_name}`);
      assert.equal(m.eval_status, adk.overall_eval_status, `${v} ${m.metric_name}`);
    }
    const names = r.overall_eval_metric_results.map((m) => m.metric_name).sort();
    assert.deepEqual(names, Object.keys(want.adk_scores).sort());
    r.eval_metric_result_per_invocation.forEach((inv, k) => {
      for (const m of inv.eval_metric_results) {
        if (m.metric_name === 'invocation_duration_v1') continue;
        assert.equal(m.score, want.adk_scores[m.metric_name].per_invocation[k], `${v} invocation ${k} ${m.metric_name}`);
      }
    });
  });
}

test('tracesToEvalSet: each session a case, as ADK writes it, numbers exactly as recorded', () => {
  const { evalSet, warnings, text } = tracesToEvalSet(bytes('adk-py-v1.otlp.jsonl'), { evalSetId: 'prod', text: true });
  assert.deepEqual(warnings, []);
  assert.equal(evalSet.eval_set_id, 'prod');
  assert.equal(evalSet.eval_cases.length, 1);
  const c = evalSet.eval_cases[0];
  assert.equal(c.eval_id, 'session-v1');
  assert.deepEqual(c.session_input, { app_name: 'dice_app', user_id: '', state: {} });
  assert.equal(c.conversation.length, 4);
  assert.ok(c.conversation.every((i) => i.duration === undefined));
  assert.match(text, /"seed": 9007199254740993/);
  assert.match(text, /"scale": 1\.0/);
  assert.throws(() => tracesToEvalSet(bytes('adk-py-v1.otlp.jsonl'), {}), (e) => e instanceof EvalError && e.path === '$options.evalSetId');
});

test('the AI SDK and ADK JS', () => {
  for (const [file, source] of [['ai-sdk-legacy.otlp.json', 'ai-sdk'], ['ai-sdk-genai.otlp.pb', 'genai'], ['adk-js.otlp.pb', 'adk-js']]) {
    const { sessions, warnings } = loadTraces(bytes(file));
    assert.equal(sessions.length, 1, file);
    assert.equal(sessions[0].source, source);
    assert.deepEqual(warnings, [], file);
  }
});

test('content capture off: the gaps come back with their switch', () => {
  const { sessions, warnings } = loadTraces(bytes('adk-py-v2-nocontent.otlp.jsonl'));
  assert.ok(sessions[0].missing.some((m) => m.field === 'final_response'));
  assert.ok(warnings.some((w) => w.path === '$.sessions[0].invocations[0].user_content'
    && w.message.includes('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT')));
});

test('bad input throws EvalError with a code and where', () => {
  assert.throws(() => loadTraces('{"resourceSpans": [\n  {"scopeSpans": [}]}'),
    (e) => e instanceof EvalError && e.code === 'invalid_json' && /line 2, column \d+/.test(e.message));
  const pb = bytes('adk-py-v1.otlp.pb');
  assert.throws(() => loadTraces(pb.subarray(0, pb.length - 5)), (e) => e.code === 'invalid_protobuf');
  assert.throws(() => loadTraces(42), (e) => e.code === 'schema');
  assert.throws(() => loadTraces([]), (e) => e.code === 'schema');
  // The module is still usable after errors.
  assert.equal(loadTraces(bytes('adk-js.otlp.json')).sessions.length, 1);
});
