// /v1/traces on Workers against what a client sends and what piles up, in workerd through
// miniflare: session ids that name Object.prototype's members held and scored by the
// TraceSessions Durable Object; the listing read a page at a time from the object's directory of
// records (its storage reads counted by tests/server/traces-worker/counting.js); records deleted once past EVALCORE_TRACE_RETENTION_MS (in the object's storage, KV
// and R2).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { removeWork, workDir } from './support.mjs';
import { request, startTracesWorker, traceSpans } from './traces-support.mjs';

const work = workDir();
const TOKEN = 'workers-trace-bounds-token';
const auth = { authorization: `Bearer ${TOKEN}` };
const started = [];
after(async () => {
  for (const w of started) await w.mf.dispose();
  removeWork(work);
});

/** The values the TraceSessions object of `w` has read from its storage so far. */
async function reads(w) {
  const ns = await w.mf.getDurableObjectNamespace('EVALCORE_TRACES');
  return (await (await ns.get(ns.idFromName('evalcore-traces')).fetch('https://evalcore-traces/reads')).json()).values;
}

async function start(name, bindings = {}, where = {}) {
  const w = await startTracesWorker(join(work, name), { ...where, bindings: { EVALCORE_TOKEN: TOKEN, EVALCORE_TRACE_IDLE_MS: '3600000', ...bindings } });
  started.push(w);
  return w;
}

async function call(w, path, body) {
  const init = body === undefined ? { headers: auth } : { method: 'POST', body, headers: { ...auth, 'content-type': 'application/json' } };
  const res = await w.mf.dispatchFetch(new URL(path, w.url), init);
  return { status: res.status, body: await res.json() };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test('__proto__, constructor, toString, hasOwnProperty as session ids: held, scored and listed by the object', async () => {
  const w = await start('ids');
  const ids = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
  for (let k = 0; k < 8; k++) {
    const r = await call(w, '/v1/traces', request(traceSpans(k + 1, ids[k % 4])));
    assert.deepEqual([r.status, r.body], [200, {}]);
  }
  assert.deepEqual((await call(w, '/v1/traces/sessions')).body.pending.sessions, 4);
  assert.deepEqual((await call(w, '/v1/traces/flush', '')).body, { scored: 4 });
  for (const id of ids) {
    const r = await call(w, `/v1/traces/sessions/${encodeURIComponent(id)}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual([r.body.session_id, r.body.scorings[0].invocations], [id, 2]);
  }
  const page = (await call(w, '/v1/traces/sessions')).body;
  assert.deepEqual(page.sessions.map((s) => s.session_id).sort(), [...ids].sort());
  assert.deepEqual([page.pending.sessions, page.pending.bytes], [0, 0]);
});

test('the listing reads a page of records, not every record, from the object\'s storage', async () => {
  const w = await start('pages', {}, { entry: 'counting.js' });
  for (let k = 0; k < 30; k++) await call(w, '/v1/traces', request(traceSpans(k + 1, `page-${String(k).padStart(2, '0')}`)));
  await call(w, '/v1/traces/flush', '');
  const seen = [];
  const sizes = [];
  const spent = [];
  let after = null;
  for (let i = 0; i < 20; i++) {
    const before = await reads(w);
    const r = (await call(w, `/v1/traces/sessions?limit=7${after === null ? '' : `&after=${after}`}`)).body;
    spent.push((await reads(w)) - before);
    sizes.push(r.sessions.length);
    seen.push(...r.sessions.map((s) => s.session_id));
    after = r.next;
    if (after === null) break;
  }
  assert.deepEqual(sizes, [7, 7, 7, 7, 2]);
  assert.deepEqual(seen, Array.from({ length: 30 }, (_, k) => `page-${String(k).padStart(2, '0')}`));
  // A page of 7: the directory's 8 entries and the 7 records (of 30), whatever is stored.
  for (const n of spent) assert.ok(n <= 7 + 8, `a page read ${n} values: ${spent}`);
});

for (const where of ['storage', 'kv', 'r2']) {
  test(`records in ${where} are deleted once past EVALCORE_TRACE_RETENTION_MS`, async () => {
    const w = await start(`retention-${where}`, { EVALCORE_TRACE_RETENTION_MS: '1500' }, { kv: where === 'kv', r2: where === 'r2' });
    await call(w, '/v1/traces', request(traceSpans(1, 'kept-a-while')));
    assert.deepEqual((await call(w, '/v1/traces/flush', '')).body, { scored: 1 });
    assert.equal((await call(w, '/v1/traces/sessions/kept-a-while')).status, 200);
    let status = 200;
    for (let i = 0; i < 100 && status === 200; i++) {
      await sleep(100);
      status = (await call(w, '/v1/traces/sessions/kept-a-while')).status;
    }
    assert.equal(status, 404, 'the record was deleted by the object\'s alarm');
    assert.deepEqual((await call(w, '/v1/traces/sessions')).body.sessions, []);
    // A session scored after that is kept, and goes the same way.
    await call(w, '/v1/traces', request(traceSpans(2, 'later')));
    await call(w, '/v1/traces/flush', '');
    assert.deepEqual((await call(w, '/v1/traces/sessions')).body.sessions.map((s) => s.session_id), ['later']);
  });
}
