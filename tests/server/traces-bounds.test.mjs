// /v1/traces against what an attacker sends, in Node (createHandler + serveNode on 127.0.0.1):
// session ids that name Object.prototype's members, a request of a thousand sessions, a trace
// moved into a full session, many gzip bodies at once, and a body the client cuts off. Each
// bound is asserted as a count or a limit, never as a speed.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { after, describe, test } from 'node:test';
import { createHandler } from '../../pkg/lib/server/index.js';
import { serveNode } from '../../pkg/lib/server/node.js';
import { request, traceSpans } from './traces-support.mjs';

const TOKEN = 'tok-trace-bounds-77a0';
const auth = { authorization: `Bearer ${TOKEN}` };
const open = [];
after(async () => {
  for (const s of open) await s.close();
});

async function serve(options = {}) {
  const s = await serveNode(createHandler({ token: TOKEN, ...options }), { port: 0 });
  open.push(s);
  return s;
}

const post = (s, path, body, headers = {}) => fetch(`${s.url}${path}`, { method: 'POST', body, headers: { ...auth, 'content-type': 'application/json', ...headers } });
const get = async (s, path) => {
  const res = await fetch(`${s.url}${path}`, { headers: auth });
  return { status: res.status, body: await res.json() };
};

const hex = (n, len) => n.toString(16).padStart(len, '0');

/** Object.prototype's own names and what a fresh object inherits, to compare before and after. */
const prototypeState = () => JSON.stringify([Object.getOwnPropertyNames(Object.prototype).sort(), ['spans', 'last', 'traces', 'scoring', 'key'].map((k) => typeof ({})[k])]);

describe('session ids are strings, never object keys', () => {
  const IDS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

  test('__proto__, constructor, toString, hasOwnProperty: taken, scored, listed, and Object.prototype untouched', async () => {
    const before = prototypeState();
    const s = await serve({ limits: { traceIdleMs: 3_600_000, maxTraceSessions: 8 } });
    // More requests than maxTraceSessions, each a new trace of one of the four: nothing is pinned.
    for (let k = 0; k < 12; k++) {
      const res = await post(s, '/v1/traces', request(traceSpans(k + 1, IDS[k % 4])));
      const text = await res.text();
      assert.equal(res.status, 200, text);
      assert.deepEqual(JSON.parse(text), {});
    }
    assert.equal(prototypeState(), before, 'Object.prototype is as it was');
    const held = await get(s, '/v1/traces/sessions');
    assert.deepEqual([held.body.pending.sessions, held.body.pending.spans], [4, 12]);
    assert.deepEqual((await (await post(s, '/v1/traces/flush', '')).json()), { scored: 4 });
    for (const id of IDS) {
      const r = await get(s, `/v1/traces/sessions/${encodeURIComponent(id)}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.session_id, id);
      assert.equal(r.body.scorings[0].invocations, 3);
      assert.equal(r.body.scorings[0].result.eval_case_results[0].eval_id, id);
    }
    const listed = await get(s, '/v1/traces/sessions');
    assert.deepEqual(listed.body.sessions.map((x) => x.session_id).sort(), [...IDS].sort());
    assert.deepEqual([listed.body.pending.sessions, listed.body.pending.spans, listed.body.pending.bytes], [0, 0, 0], 'nothing is held after the flush');
    // And again: the same ids are not stuck behind what came before.
    for (const [k, id] of IDS.entries()) assert.equal((await post(s, '/v1/traces', request(traceSpans(100 + k, id)))).status, 200);
    assert.deepEqual((await (await post(s, '/v1/traces/flush', '')).json()), { scored: 4 });
    assert.equal((await get(s, '/v1/traces/sessions/__proto__')).body.scorings.length, 2);
    assert.equal(prototypeState(), before);
  });
});

describe('work and memory bounded by what was sent', () => {
  test('one request of 1,000 sessions: every one scored and listed', async () => {
    const s = await serve({ limits: { traceIdleMs: 3_600_000, maxTraceSessions: 1_000 } });
    const spans = [];
    for (let k = 0; k < 1_000; k++) spans.push(...traceSpans(k + 1, `many-${k}`));
    const res = await post(s, '/v1/traces', request(spans));
    assert.deepEqual(await res.json(), {});
    assert.deepEqual(await (await post(s, '/v1/traces/flush', '')).json(), { scored: 1_000 });
    const seen = new Set();
    let after = null;
    for (let page = 0; page < 20; page++) {
      const r = await get(s, `/v1/traces/sessions?limit=100${after === null ? '' : `&after=${after}`}`);
      for (const x of r.body.sessions) seen.add(x.session_id);
      after = r.body.next;
      if (after === null) break;
    }
    assert.equal(seen.size, 1_000);
  });

  test('a held trace moved into a named session is held to maxSessionSpans', async () => {
    const s = await serve({ limits: { traceIdleMs: 3_600_000, maxSessionSpans: 20 } });
    // Three traces of 15 spans that name no session yet: each held under its own id.
    for (const t of [1, 2, 3]) assert.deepEqual(await (await post(s, '/v1/traces', request(traceSpans(t, null, 15)))).json(), {});
    // Then a span of each names session `s`: the first moves (15 + 1 <= 20), the others would
    // pass 20 and their spans are refused; their traces stay where they were.
    const answers = [];
    for (const t of [1, 2, 3]) {
      const [root] = traceSpans(t, 's');
      answers.push(await (await post(s, '/v1/traces', request([{ ...root, spanId: hex(99, 16) }]))).json());
    }
    assert.deepEqual(answers[0], {});
    for (const a of answers.slice(1)) {
      assert.equal(a.partialSuccess?.rejectedSpans, '1', JSON.stringify(a));
      assert.match(a.partialSuccess.errorMessage, /at most 20 spans and log records \(maxSessionSpans\)/);
    }
    const { pending } = (await get(s, '/v1/traces/sessions')).body;
    assert.deepEqual([pending.sessions, pending.spans], [3, 46]);
    await post(s, '/v1/traces/flush', '');
    const named = await get(s, '/v1/traces/sessions/s');
    assert.equal(named.status, 200);
    assert.equal(named.body.scorings.length, 1);
  });

  test('gzip bodies are inflated a few at a time: more wait their turn, and past the waiting room a 429', async () => {
    const s = await serve({ limits: { traceIdleMs: 3_600_000, maxTraceInflations: 1 } });
    // Exporters sending at once (8, as a Collector's queue does) all get their spans in: they wait.
    const bodies = Array.from({ length: 8 }, (_, k) => gzipSync(request(traceSpans(k + 1, `queued-${k}`, 20))));
    const taken = await Promise.all(bodies.map(async (body) => (await post(s, '/v1/traces', body, { 'content-encoding': 'gzip' })).status));
    assert.deepEqual(taken, Array(8).fill(200));
    // 8 MB of spaces, 8 KB on the wire: each takes a while to inflate (and is then refused as a
    // body that is not OTLP). Of 60 at once, one inflates and 16 wait: the others are a 429.
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20));
    const answers = await Promise.all(Array.from({ length: 60 }, async () => {
      const res = await post(s, '/v1/traces', bomb, { 'content-encoding': 'gzip' });
      return { status: res.status, retry: res.headers.get('retry-after'), body: await res.json() };
    }));
    const busy = answers.filter((a) => a.status === 429);
    assert.ok(busy.length > 0 && busy.length <= 60 - 17, JSON.stringify(answers.map((a) => a.status)));
    for (const a of busy) {
      assert.ok(Number(a.retry) >= 1);
      assert.match(a.body.message, /inflates at most 1 gzip trace requests at once, and keeps at most 16 waiting \(maxTraceInflations\)/);
    }
    for (const a of answers) assert.ok([400, 429].includes(a.status), JSON.stringify(a));
    // Once they are done, the slot is free again.
    assert.deepEqual(await (await post(s, '/v1/traces', gzipSync(request(traceSpans(99, 'after'))), { 'content-encoding': 'gzip' })).json(), {});
  });
});

describe('a client that leaves', () => {
  test('a body cut off by the client is logged as 499 client_closed, not as our 500', async () => {
    const logs = [];
    const s = await serve({ log: (e) => logs.push(e) });
    const { hostname, port } = new URL(s.url);
    await new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(`POST /v1/traces HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"resourceSpans": [`);
        setTimeout(() => socket.destroy(), 200);
      });
      socket.on('close', resolve);
      socket.on('error', reject);
    });
    for (let i = 0; i < 100 && logs.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(logs.map((e) => [e.method, e.path, e.status, e.code]), [['POST', '/v1/traces', 499, 'client_closed']]);
  });
});
