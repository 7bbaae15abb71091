// /v1/traces on Workers, in workerd through miniflare: the module worker passes each exporter
// request to the TraceSessions Durable Object, which assembles a session from requests that
// carry a few spans each, wakes on its alarm once the session is quiet, scores it and keeps its
// record (its own storage, KV, R2). The stored invocations equal what loadTraces gives in Node
// for the same spans.
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { loadTraces } from '../../pkg/index.js';
import { DATA, removeWork, workDir } from './support.mjs';
import { cutRequest, fixtureLines, startTracesWorker } from './traces-support.mjs';

const work = workDir();
const TOKEN = 'workers-trace-token';
const started = [];
after(async () => {
  for (const w of started) await w.mf.dispose();
  removeWork(work);
});

const auth = { authorization: `Bearer ${TOKEN}` };

async function post(w, path, body, headers) {
  const res = await w.mf.dispatchFetch(new URL(path, w.url), { method: 'POST', body, headers: { ...auth, ...headers } });
  return { status: res.status, type: res.headers.get('content-type'), body: new Uint8Array(await res.arrayBuffer()) };
}

async function scored(w, sessionId) {
  for (let i = 0; i < 600; i++) {
    const res = await w.mf.dispatchFetch(new URL(`/v1/traces/sessions/${encodeURIComponent(sessionId)}`, w.url), { headers: auth });
    const text = await res.text();
    if (res.status === 200) return JSON.parse(text);
    assert.equal(res.status, 404, text);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`session ${sessionId} was not scored`);
}

/** The invocations Node's loadTraces gives for the same input, as JSON (what the worker answers). */
const nodeInvocations = (input) => JSON.parse(JSON.stringify(loadTraces(input).sessions[0].invocations));

for (const where of ['storage', 'kv', 'r2']) {
  describe(`TraceSessions, records in ${where}`, () => {
    let w;
    test('a session cut into requests of 3 spans is assembled, scored once quiet and listed', async () => {
      w = await startTracesWorker(join(work, where), {
        kv: where === 'kv', r2: where === 'r2',
        // Quiet means no request for 5 s: a loaded machine can stall a second between two posts
        // (at 600 ms the alarm once scored the first request alone), never five.
        bindings: { EVALCORE_TOKEN: TOKEN, EVALCORE_TRACE_IDLE_MS: '5000', EVALCORE_TRACES_CONFIG: '{"criteria": {"response_match_score": 0.5}}' },
      });
      started.push(w);
      const [spans, logs] = fixtureLines('adk-py-v2-event.otlp.jsonl'); // content and the user on log records
      const parts = cutRequest(spans, 3);
      assert.ok(parts.length > 5);
      for (const p of parts) {
        const r = await post(w, '/v1/traces', JSON.stringify(p), { 'content-type': 'application/json' });
        assert.equal(r.status, 200, new TextDecoder().decode(r.body));
        assert.deepEqual(JSON.parse(new TextDecoder().decode(r.body)), {});
      }
      const logsAnswer = await post(w, '/v1/logs', JSON.stringify(logs), { 'content-type': 'application/json' });
      assert.equal(logsAnswer.status, 200);
      const record = await scored(w, 'session-v2-event');
      assert.equal(record.scorings.length, 1, 'scored once, with every request of the session');
      const [c] = record.scorings[0].result.eval_case_results;
      const got = c.eval_metric_result_per_invocation.map((p) => p.actual_invocation);
      assert.deepEqual(got, nodeInvocations([spans, logs]));
      assert.equal(c.user_id, 'user-7');
      assert.ok(c.overall_eval_metric_results.some((m) => m.metric_name === 'tool_call_count_v1'));
    });

    test('protobuf, gzip-compressed, answers in protobuf; the listing and the pending count', async () => {
      const pb = readFileSync(join(DATA, 'traces', 'adk-js.otlp.pb'));
      const r = await post(w, '/v1/traces', gzipSync(pb), { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' });
      assert.equal(r.status, 200);
      assert.equal(r.type, 'application/x-protobuf');
      assert.equal(r.body.byteLength, 0, 'an empty ExportTraceServiceResponse: every span taken');
      const id = loadTraces(pb).sessions[0].session_id;
      const record = await scored(w, id);
      assert.deepEqual(record.scorings[0].result.eval_case_results[0].eval_metric_result_per_invocation.map((p) => p.actual_invocation), nodeInvocations(pb));
      const page = await (await w.mf.dispatchFetch(new URL('/v1/traces/sessions', w.url), { headers: auth })).json();
      assert.deepEqual(page.sessions.map((s) => s.session_id).sort(), [id, 'session-v2-event'].sort());
      assert.equal(page.pending.sessions, 0);
      assert.equal(page.pending.scored, 2);
    });
  });
}

test('a restart in the middle of a session: the held requests and the index are read back from storage', async () => {
  const w = await startTracesWorker(join(work, 'restart'), { persist: true, bindings: { EVALCORE_TOKEN: TOKEN, EVALCORE_TRACE_IDLE_MS: '3600000' } });
  started.push(w);
  const [spans, logs] = fixtureLines('adk-py-v2-event.otlp.jsonl');
  const parts = cutRequest(spans, 4);
  const half = Math.ceil(parts.length / 2);
  for (const p of parts.slice(0, half)) assert.equal((await post(w, '/v1/traces', JSON.stringify(p), { 'content-type': 'application/json' })).status, 200);
  await w.restart();
  for (const p of parts.slice(half)) assert.equal((await post(w, '/v1/traces', JSON.stringify(p), { 'content-type': 'application/json' })).status, 200);
  assert.equal((await post(w, '/v1/logs', JSON.stringify(logs), { 'content-type': 'application/json' })).status, 200);
  const before = await (await w.mf.dispatchFetch(new URL('/v1/traces/sessions', w.url), { headers: auth })).json();
  assert.equal(before.pending.sessions, 1, 'one session held, from requests before and after the restart');
  assert.equal(before.pending.spans, spans.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)).length + logs.resourceLogs.flatMap((r) => r.scopeLogs.flatMap((s) => s.logRecords)).length);
  const flushed = JSON.parse(new TextDecoder().decode((await post(w, '/v1/traces/flush', '')).body));
  assert.equal(flushed.scored, 1);
  const record = await scored(w, 'session-v2-event');
  assert.deepEqual(record.scorings[0].result.eval_case_results[0].eval_metric_result_per_invocation.map((p) => p.actual_invocation), nodeInvocations([spans, logs]));
  const after = await (await w.mf.dispatchFetch(new URL('/v1/traces/sessions', w.url), { headers: auth })).json();
  assert.deepEqual([after.pending.sessions, after.pending.spans, after.pending.bytes], [0, 0, 0], 'what the session held was let go');
});

test('bounded and guarded in workerd too: token, content type, a gzip bomb', async () => {
  const w = await startTracesWorker(join(work, 'bounds'), { bindings: { EVALCORE_TOKEN: TOKEN, EVALCORE_MAX_TRACE_BYTES: '100000' } });
  started.push(w);
  const noToken = await w.mf.dispatchFetch(new URL('/v1/traces', w.url), { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
  assert.equal(noToken.status, 401);
  assert.equal((await post(w, '/v1/traces', '{}', { 'content-type': 'text/plain' })).status, 415);
  const bomb = gzipSync(Buffer.alloc(5_000_000, 0x20));
  assert.ok(bomb.byteLength < 10_000);
  const r = await post(w, '/v1/traces', bomb, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
  assert.equal(r.status, 413);
  assert.equal(JSON.parse(new TextDecoder().decode(r.body)).code, 8, 'a google.rpc.Status: RESOURCE_EXHAUSTED');
});
