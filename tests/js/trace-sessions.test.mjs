// The session assembler behind /v1/traces (pkg/lib/server/trace_sessions.js) on its own, with a
// clock and a backing of the test's: when it asks to be woken, and what a wake-up does.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import '../../pkg/index.js'; // the Node entry: loads the extras module the index reads traces with
import { traceAssembler } from '../../pkg/lib/server/trace_sessions.js';

const BODY = readFileSync(new URL('../data/traces/ai-sdk-genai.otlp.pb', import.meta.url));
const IDLE = 1500;

function setup() {
  let t = 1000;
  const wakes = [];
  const batches = new Map();
  const scored = [];
  const assembler = traceAssembler({
    backing: {
      load: () => null,
      save: () => {},
      putBatch: (seq, bytes) => { batches.set(seq, bytes); },
      getBatch: (seq) => batches.get(seq) ?? null,
      deleteBatches: (seqs) => { for (const s of seqs) batches.delete(s); },
      schedule: (at) => { wakes.push(at); },
    },
    limits: { maxSessionSpans: 10_000, maxTraceSessions: 10, maxHeldTraceBytes: 1 << 24, traceIdleMs: IDLE, caseConcurrency: 2 },
    score: async (bodies, traceIds) => { scored.push(traceIds); return 1; },
    now: () => t,
  });
  return { assembler, wakes, scored, at: (ms) => { t = ms; } };
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
