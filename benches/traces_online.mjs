// /v1/traces throughput (issue 26): spans per second an exporter's requests are taken at, in
// workerd (the module worker and its TraceSessions Durable Object, through miniflare) and, in the
// same run, in Node (`createHandler` on Node's http server: `evalcore serve`), as a ratio; then
// how fast the held sessions are built and scored once quiet. The traffic is google-adk 2.13's own
// export (tests/data/traces, schema 2 with content on spans) repeated under new trace and session
// ids, each session cut into requests of `--per` spans as a batch span processor sends them.
//
//   node benches/traces_online.mjs [--sessions 200] [--per 16] [--concurrency 8] [--json]
//
// Needs `bash scripts/build.sh` first and miniflare (scripts/setup.sh puts it in .tools).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHandler } from '../pkg/lib/server/index.js';
import { serveNode } from '../pkg/lib/server/node.js';
import { cutRequest, fixtureLines, renamed, startTracesWorker } from '../tests/server/traces-support.mjs';

const opt = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? Number(process.argv[i + 1]) : dflt;
};
const SESSIONS = opt('sessions', 200);
const PER = opt('per', 16);
const CONCURRENCY = opt('concurrency', 8);
const TOKEN = 'bench-token';
const LIMITS = { traceIdleMs: 3_600_000, maxTraceSessions: SESSIONS + 10 };

/** Every session's requests, interleaved as many exporters' batches would arrive. */
function traffic() {
  const [spans] = fixtureLines('adk-py-v2-span.otlp.jsonl');
  const perSession = Array.from({ length: SESSIONS }, (_, k) => cutRequest(renamed(spans, k + 1, 'session-v2-span'), PER).map((r) => JSON.stringify(r)));
  const out = [];
  for (let i = 0; perSession.some((p) => i < p.length); i++) for (const p of perSession) if (i < p.length) out.push(p[i]);
  const count = (t) => (t.match(/"spanId"/g) ?? []).length;
  return { bodies: out, spans: out.reduce((n, b) => n + count(b), 0), bytes: out.reduce((n, b) => n + b.length, 0) };
}

/** Sends every body with `send(body)`, CONCURRENCY at a time; ms of wall time. */
async function drive(bodies, send) {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < bodies.length) {
      const res = await send(bodies[next++]);
      if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    }
  }));
  return performance.now() - t0;
}

const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

async function measure(label, fetchAt) {
  const t = traffic();
  const ms = await drive(t.bodies, (body) => fetchAt('/v1/traces', { method: 'POST', body, headers }));
  const f0 = performance.now();
  const flushed = await (await fetchAt('/v1/traces/flush', { method: 'POST', headers })).json();
  const flushMs = performance.now() - f0;
  const page = await (await fetchAt('/v1/traces/sessions?limit=100', { headers })).json();
  if (flushed.scored !== SESSIONS || page.pending.sessions !== 0) throw new Error(`${label}: ${JSON.stringify(flushed)} ${JSON.stringify(page.pending)}`);
  return {
    label, requests: t.bodies.length, spans: t.spans, mb: t.bytes / 1e6, ms,
    spansPerSecond: t.spans / (ms / 1000), requestsPerSecond: t.bodies.length / (ms / 1000),
    scoreMs: flushMs, sessionsPerSecond: SESSIONS / (flushMs / 1000),
  };
}

const work = mkdtempSync(join(tmpdir(), 'evalcore-traces-bench-'));
const rows = [];
try {
  const node = await serveNode(createHandler({ token: TOKEN, limits: LIMITS }), { port: 0 });
  rows.push(await measure('Node (evalcore serve)', (path, init) => fetch(`${node.url}${path}`, init)));
  await node.close();
  const bindings = { EVALCORE_TOKEN: TOKEN, EVALCORE_TRACE_IDLE_MS: String(LIMITS.traceIdleMs), EVALCORE_MAX_TRACE_SESSIONS: String(LIMITS.maxTraceSessions) };
  const w = await startTracesWorker(work, { bindings });
  rows.push(await measure('workerd (Durable Object)', (path, init) => w.mf.dispatchFetch(new URL(path, w.url), init)));
  await w.mf.dispose();
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(rows));
} else {
  const r0 = rows[0];
  console.log(`/v1/traces: ${SESSIONS} ADK sessions, ${r0.requests} requests of <= ${PER} spans (${r0.spans} spans, ${r0.mb.toFixed(1)} MB), ${CONCURRENCY} in flight`);
  for (const r of rows) {
    console.log(`  ${r.label.padEnd(26)} ${Math.round(r.spansPerSecond).toString().padStart(7)} spans/s  ${Math.round(r.requestsPerSecond).toString().padStart(5)} requests/s`
      + `  scoring ${Math.round(r.sessionsPerSecond)} sessions/s`);
  }
  console.log(`  workerd / Node: ${(rows[1].spansPerSecond / rows[0].spansPerSecond).toFixed(2)}x the spans per second`);
}
