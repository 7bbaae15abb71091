// /v1/traces in Node (createHandler + serveNode on 127.0.0.1): OTLP/HTTP as the spec has it
// (JSON and protobuf bodies, gzip, ExportTraceServiceResponse with partialSuccess, a
// google.rpc.Status on failure), sessions held until quiet and then scored with the server's
// reference-free criteria (a rubric judged by a loopback judge, a custom metric), records listed a
// page at a time; and every bound: body, decompressed size, spans per session, sessions held,
// token, Host / Origin, content type and encoding.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { createHandler, fsStore } from '../../pkg/lib/server/index.js';
import { serveNode } from '../../pkg/lib/server/node.js';
import { exportResponse } from '../../pkg/lib/server/traces/traces_route.js';
import { loadTraces } from '../../pkg/index.js';
import { traceIndex } from '../../pkg/lib/wasm/traces.js';
import { startJudgeServer } from '../js/support/judge-server.mjs';
import { DATA, removeWork, workDir } from './support.mjs';
import { cutRequest, fixtureLines, renamed } from './traces-support.mjs';

const TOKEN = 'tok-traces-5b1e';
const KEY = 'sk-traces-judge-88c1';
const auth = { authorization: `Bearer ${TOKEN}` };
const work = workDir();
const open = [];
let judge;

before(async () => { judge = await startJudgeServer(); });
after(async () => {
  for (const s of open) await s.close();
  await judge?.close();
  removeWork(work);
});

async function serve(options = {}) {
  const s = await serveNode(createHandler({ token: TOKEN, ...options }), { port: 0 });
  open.push(s);
  return s;
}

const post = (s, path, body, headers = {}) => fetch(`${s.url}${path}`, { method: 'POST', body, headers: { ...auth, 'content-type': 'application/json', ...headers } });
const text = (v) => JSON.stringify(v);

// Quiet means no request for QUIET ms: long enough that a loaded machine's stall between two
// posts (a gzip, a GC) never scores half a session (200 ms once scored the spans before their
// logs arrived), short enough to wait for.
const QUIET = 3000;

async function scored(s, id) {
  for (let i = 0; i < 400; i++) {
    const res = await fetch(`${s.url}/v1/traces/sessions/${encodeURIComponent(id)}`, { headers: auth });
    if (res.status === 200) return res.json();
    assert.equal(res.status, 404, await res.text());
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`session ${id} was not scored`);
}

describe('sessions assembled and scored', () => {
  test('a session over many requests, scored once quiet with a judged rubric and a custom metric', async () => {
    judge.script(() => 'ID: r1\nProperty: The final answer says what was rolled.\nEvidence: it does\nRationale: it names the number\nVerdict: yes');
    const custom = [];
    const s = await serve({
      judge: { provider: 'openai', model: 'judge-model', baseUrl: judge.baseUrl, headers: { authorization: `Bearer ${KEY}` } },
      limits: { traceIdleMs: QUIET },
      traces: {
        config: { criteria: {
          rubric_based_final_response_quality_v1: { threshold: 0.5, rubrics: [{ rubric_id: 'r1', rubric_content: { text_property: 'The final answer says what was rolled.' } }], judge_model_options: { num_samples: 1 } },
          turns_seen: 0.5,
        } },
        customMetrics: { turns_seen: ({ actualInvocations }) => { custom.push(actualInvocations.length); return { score: 1 }; } },
      },
    });
    const [spans] = fixtureLines('adk-py-v1.otlp.jsonl');
    for (const part of cutRequest(spans, 4)) {
      const res = await post(s, '/v1/traces', text(part));
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), {});
    }
    const record = await scored(s, 'session-v1');
    const [c] = record.scorings[0].result.eval_case_results;
    assert.deepEqual(c.eval_metric_result_per_invocation.map((p) => p.actual_invocation), JSON.parse(text(loadTraces(text(spans)).sessions[0].invocations)));
    const rubric = c.overall_eval_metric_results.find((m) => m.metric_name === 'rubric_based_final_response_quality_v1');
    assert.equal(rubric.eval_status, 'PASSED');
    assert.equal(rubric.score, 1);
    assert.deepEqual(custom, [4]);
    assert.equal(c.final_eval_status, 'PASSED');
    assert.equal(record.scorings[0].result.eval_set_id, 'traces');
    assert.ok(judge.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`));
  });

  test('protobuf in, protobuf out; logs at /v1/logs join their spans; records in a Store; pages', async () => {
    const store = fsStore(join(work, 'records'));
    const s = await serve({ store, limits: { traceIdleMs: QUIET } });
    const pb = readFileSync(join(DATA, 'traces', 'adk-py-v2-event.otlp.pb'));
    const res = await post(s, '/v1/traces', pb, { 'content-type': 'application/x-protobuf' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/x-protobuf');
    assert.equal((await res.arrayBuffer()).byteLength, 0);
    const logs = readFileSync(join(DATA, 'traces', 'adk-py-v2-event.logs.pb'));
    const lr = await post(s, '/v1/logs', gzipSync(logs), { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' });
    assert.equal(lr.status, 200);
    const [lines] = [fixtureLines('adk-py-v1.otlp.jsonl')];
    for (let k = 0; k < 3; k++) assert.equal((await post(s, '/v1/traces', text(renamed(lines[0], k + 1, 'session-v1')))).status, 200);
    const record = await scored(s, 'session-v2-event');
    const invs = record.scorings[0].result.eval_case_results[0].eval_metric_result_per_invocation.map((p) => p.actual_invocation);
    assert.deepEqual(invs, JSON.parse(text(loadTraces([pb, logs]).sessions[0].invocations)), 'the user turns came from the log records');
    await scored(s, 'session-v1-3');
    assert.ok((await store.list('traces/sessions/')).includes('traces/sessions/session-v2-event.json'));
    const first = await (await fetch(`${s.url}/v1/traces/sessions?limit=2`, { headers: auth })).json();
    assert.equal(first.sessions.length, 2);
    const rest = await (await fetch(`${s.url}/v1/traces/sessions?limit=2&after=${first.next}`, { headers: auth })).json();
    assert.deepEqual([...first.sessions, ...rest.sessions].map((x) => x.session_id).sort(), ['session-v1-1', 'session-v1-2', 'session-v1-3', 'session-v2-event']);
    assert.equal(rest.next, null);
    assert.equal(first.sessions[0].final_eval_status, 'NOT_EVALUATED', 'no criteria: only the informational figures');
  });

  test('flush scores what is held now; a session that resumes gets a second scoring', async () => {
    const s = await serve({ limits: { traceIdleMs: 3_600_000 } });
    const [spans] = fixtureLines('adk-py-v1.otlp.jsonl');
    const [a, b] = [cutRequest(spans, 1000)[0], renamed(spans, 9, 'session-v1')];
    assert.equal((await post(s, '/v1/traces', text(a))).status, 200);
    const list = await (await fetch(`${s.url}/v1/traces/sessions`, { headers: auth })).json();
    assert.deepEqual([list.sessions.length, list.pending.sessions], [0, 1]);
    assert.deepEqual(await (await post(s, '/v1/traces/flush', '')).json(), { scored: 1 });
    // The same session id again (new traces): a second scoring of its new invocations.
    const again = JSON.parse(text(b).replaceAll('"session-v1-9"', '"session-v1"'));
    assert.equal((await post(s, '/v1/traces', text(again))).status, 200);
    await post(s, '/v1/traces/flush', '');
    const record = await scored(s, 'session-v1');
    assert.equal(record.scorings.length, 2);
  });
});

describe('bounds and guards', () => {
  let s;
  before(async () => {
    s = await serve({ limits: { maxSessionSpans: 20, maxTraceSessions: 2, maxTraceBytes: 200_000, maxBodyBytes: 150_000, traceIdleMs: 3_600_000 } });
  });

  test('spans past a session\'s limit are refused in partialSuccess; a full server answers 429', async () => {
    const [spans] = fixtureLines('adk-py-v1.otlp.jsonl');
    const parts = cutRequest(spans, 15);
    let res = await post(s, '/v1/traces', text(parts[0]));
    assert.deepEqual(await res.json(), {});
    res = await post(s, '/v1/traces', text(parts[1]));
    const body = await res.json();
    assert.equal(res.status, 200);
    // A trace is taken or refused whole: of the second request's three traces (1, 11 and 3 spans;
    // the session holds 15), the 11-span one would pass 20 and is refused, the other two fit.
    assert.deepEqual(traceIndex(text(parts[1])).traces.map((t) => t.spans), [1, 11, 3]);
    assert.equal(body.partialSuccess.rejectedSpans, '11');
    assert.match(body.partialSuccess.errorMessage, /at most 20 spans and log records \(maxSessionSpans\)/);
    // The same refusal in protobuf: ExportTraceServiceResponse{partial_success{rejected_spans, error_message}}.
    const pb = exportResponse(3, 'x', true);
    assert.deepEqual([...pb], [0x0a, 0x05, 0x08, 0x03, 0x12, 0x01, 0x78]);
    for (const k of [1, 2]) await post(s, '/v1/traces', text(renamed(parts[0], k, 'session-v1')));
    res = await post(s, '/v1/traces', text(renamed(parts[0], 3, 'session-v1')));
    assert.equal(res.status, 429);
    assert.ok(Number(res.headers.get('retry-after')) >= 1);
    const status = await res.json();
    assert.equal(status.code, 8);
    assert.match(status.message, /at most 2 sessions awaiting scoring \(maxTraceSessions\)/);
  });

  test('body, decompressed size, encoding, type, bad OTLP: each its status and a Status body', async () => {
    const big = await post(s, '/v1/traces', 'x'.repeat(160_000));
    assert.equal(big.status, 413);
    const bomb = await post(s, '/v1/traces', gzipSync(Buffer.alloc(3_000_000, 0x20)), { 'content-encoding': 'gzip' });
    assert.equal(bomb.status, 413);
    assert.match((await bomb.json()).message, /decompresses to more than 200000 bytes/);
    const pbBomb = await post(s, '/v1/traces', gzipSync(Buffer.alloc(3_000_000, 0)), { 'content-encoding': 'gzip', 'content-type': 'application/x-protobuf' });
    assert.equal(pbBomb.status, 413);
    assert.equal(pbBomb.headers.get('content-type'), 'application/x-protobuf');
    assert.equal((await post(s, '/v1/traces', 'garbage', { 'content-encoding': 'gzip' })).status, 400);
    assert.equal((await post(s, '/v1/traces', '{}', { 'content-encoding': 'br' })).status, 415);
    assert.equal((await post(s, '/v1/traces', '{}', { 'content-type': 'text/plain' })).status, 415);
    const bad = await post(s, '/v1/traces', '{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "zz"');
    assert.equal(bad.status, 400);
    const st = await bad.json();
    assert.equal(st.code, 3);
    assert.equal(st.details[0].reason, 'invalid_json');
    assert.match(st.message, /line 1, column \d+/);
    assert.deepEqual(await (await post(s, '/v1/traces', '')).json(), {}, 'an empty export is taken');
  });

  test('token, Host, Origin, methods, unknown paths', async () => {
    const noToken = await fetch(`${s.url}/v1/traces`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    assert.equal(noToken.status, 401);
    assert.equal((await fetch(`${s.url}/v1/traces/sessions`)).status, 401);
    const cross = await post(s, '/v1/traces', '{}', { origin: 'https://evil.example' });
    assert.equal(cross.status, 403);
    assert.equal((await fetch(`${s.url}/v1/traces`, { headers: auth })).status, 405);
    assert.equal((await fetch(`${s.url}/v1/traces/nope`, { headers: auth })).status, 404);
    assert.equal((await fetch(`${s.url}/v1/traces/sessions?limit=1000`, { headers: auth })).status, 400);
    assert.equal((await fetch(`${s.url}/v1/traces/sessions?after=../x`, { headers: auth })).status, 400);
    const missing = await fetch(`${s.url}/v1/traces/sessions/never`, { headers: auth });
    assert.equal(missing.status, 404);
    assert.match((await missing.json()).error.message, /scored once quiet/);
  });
});
