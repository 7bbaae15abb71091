// The session assembler behind /v1/traces (pkg/lib/server/traces/trace_sessions.js) on its own, with a
// clock and a backing of the test's: when it asks to be woken, and what a wake-up does.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import '../../pkg/index.js'; // the Node entry: loads the extras module the index reads traces with
import { traceAssembler } from '../../pkg/lib/server/traces/trace_sessions.js';

const BODY = readFileSync(new URL('../data/traces/ai-sdk-genai.otlp.pb', import.meta.url));
const IDLE = 1500;

const hex = (n, len) => n.toString(16).padStart(len, '0');
/** One OTLP/JSON request of `n` one-span traces (ids from + 1...), trace k naming session `name(k)`. */
function many(n, name = (k) => `s${k}`, from = 0) {
  const spans = Array.from({ length: n }, (_, k) => ({
    traceId: hex(from + k + 1, 32), spanId: hex(1, 16), name: 'invoke_agent a', startTimeUnixNano: '1000', endTimeUnixNano: '2000',
    attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'invoke_agent' } }, { key: 'gen_ai.conversation.id', value: { stringValue: name(k) } }],
  }));
  return new TextEncoder().encode(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] }));
}

function setup(over = {}, score = null) {
  let t = 1000;
  const wakes = [];
  const batches = new Map();
  const scored = [];
  const logs = [];
  const assembler = traceAssembler({
    backing: {
      load: () => null,
      save: () => {},
      putBatch: (seq, bytes) => { batches.set(seq, bytes); },
      getBatch: (seq) => batches.get(seq) ?? null,
      deleteBatches: (seqs) => { for (const s of seqs) batches.delete(s); },
      schedule: (at) => { wakes.push(at); },
    },
    limits: { maxSessionSpans: 10_000, maxTraceSessions: 10, maxHeldTraceBytes: 1 << 24, maxTraceBytes: 1 << 22, traceIdleMs: IDLE, ...over },
    score: async (bodies, traceIds) => {
      scored.push(traceIds);
      return score === null ? 1 : score(bodies, traceIds);
    },
    log: (e) => logs.push(e),
    now: () => t,
  });
  return { assembler, wakes, scored, logs, at: (ms) => { t = ms; } };
}

test('a session is due once quiet for traceIdleMs, and the wake-up is asked for then', async () => {
  const { assembler, wakes, scored, at } = setup();
  const r = await assembler.ingest(new Uint8Array(BODY));
  assert.ok(r.accepted > 0, JSON.stringify(r));
  assert.equal(wakes.at(-1), 1000 + IDLE);
  at(1000 + IDLE);
  assert.equal(await assembler.runDue(), 1);
  assert.equal(scored.length, 1);
  assert.equal(wakes.at(-1), null, 'nothing held: no wake-up');
  assert.deepEqual(await assembler.pending(), { sessions: 0, spans: 0, bytes: 0, scored: 1, empty: 0, failed: 0 });
});

test('woken a little before a session is due (timers may fire early), it asks to be woken again', async () => {
  const { assembler, wakes, scored, at } = setup();
  await assembler.ingest(new Uint8Array(BODY));
  const asked = wakes.length;
  at(1000 + IDLE - 1);
  assert.equal(await assembler.runDue(), 0);
  assert.equal(scored.length, 0);
  assert.ok(wakes.length > asked, 'a wake-up was asked for again, else the session waits for the next request');
  assert.equal(wakes.at(-1), 1000 + IDLE);
  at(1000 + IDLE);
  assert.equal(await assembler.runDue(), 1);
});

test('a request of many sessions is read once when they are scored, not once a session', async () => {
  const bodies = [];
  const { assembler, scored } = setup({ maxTraceSessions: 1_000 }, (b, ids) => { bodies.push(b.length); return ids.length; });
  assert.equal((await assembler.ingest(many(1_000))).accepted, 1_000);
  assert.equal(await assembler.flush(), 1_000);
  assert.deepEqual([scored.length, bodies, scored[0].length], [1, [1], 1_000], 'one scoring of the one body, for the 1,000 traces');
  assert.equal((await assembler.pending()).sessions, 0);
});

test('sessions scored together hold at most maxTraceBytes of batches; a session over it is scored alone', async () => {
  const size = many(3, (j) => `r0-${j}`).byteLength;
  // Room for two requests of three sessions in one scoring, not three.
  const { assembler, scored } = setup({ maxTraceBytes: size * 2 + 10 }, (b, ids) => ids.length);
  for (let k = 0; k < 3; k++) await assembler.ingest(many(3, (j) => `r${k}-${j}`, 10 * k));
  assert.equal(await assembler.flush(), 9);
  assert.deepEqual(scored.map((ids) => ids.length), [6, 3]);
  const tight = setup({ maxTraceBytes: 10 }, (b, ids) => ids.length);
  for (let k = 0; k < 2; k++) await tight.assembler.ingest(many(3, (j) => `r${k}-${j}`, 10 * k));
  assert.equal(await tight.assembler.flush(), 6);
  assert.deepEqual(tight.scored.map((ids) => ids.length), [1, 1, 1, 1, 1, 1], 'each over maxTraceBytes: each alone');
});

test('the index\'s own bytes count against maxHeldTraceBytes: a body of many tiny traces cannot hold more', async () => {
  const body = many(1_000);
  // Room for twice the body's bytes, not for the index of its thousand traces and sessions.
  const { assembler } = setup({ maxTraceSessions: 10_000, maxHeldTraceBytes: body.byteLength * 2 });
  const r = await assembler.ingest(body);
  assert.deepEqual([r.accepted, r.full], [0, true], JSON.stringify(r));
  assert.match(r.message, /and their index awaiting scoring \(maxHeldTraceBytes\)/);
  const roomy = setup({ maxTraceSessions: 10_000 });
  await roomy.assembler.ingest(body);
  const held = await roomy.assembler.pending();
  // Measured in V8: ~600 bytes of heap a one-span trace filed as its own session (docs/traces.md).
  assert.ok(held.bytes >= body.byteLength + 1_000 * 600, JSON.stringify(held));
  await roomy.assembler.flush();
  assert.equal((await roomy.assembler.pending()).bytes, 0, 'every counted byte is let go');
});

test('a scoring that fails is tried again one session at a time: one bad session fails no other', async () => {
  const bad = hex(2, 32);
  const { assembler, scored, logs } = setup({}, (b, ids) => {
    if (ids.includes(bad)) throw new Error('this one cannot be stored');
    return ids.length;
  });
  await assembler.ingest(many(3));
  // Together (fails), then each alone: two are scored, the bad one tried until MAX_TRIES (3).
  assert.equal(await assembler.flush(), 3 + 1 + 1 + 1 + 1);
  assert.deepEqual(scored.map((ids) => ids.length), [3, 1, 1, 1, 1]);
  assert.equal(scored.filter((ids) => ids.includes(bad)).length, 3);
  const held = await assembler.pending();
  assert.deepEqual([held.sessions, held.scored, held.failed], [0, 2, 3 + 1 + 1]);
  assert.deepEqual(logs.filter((e) => e.event === 'trace_session_given_up').map((e) => e.session), ['s1']);
});
