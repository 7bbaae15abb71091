// The figures of docs/traces.md's "Bounds, measured": what /v1/traces costs for what an attacker
// sends. `node --expose-gc benches/traces_bounds.mjs`:
//   many     CPU of scoring one request of N sessions (1,000 and 2,000)
//   index    heap the held index takes against what maxHeldTraceBytes counts (50,000 tiny traces)
//   gzip     peak memory of a server sent 40 gzip bodies at once, each inflating to 31 MiB
//   chain    loadTraces of one chain of 10,000 spans in wasm (the event loop blocked that long)
// On the shared 2-core machine the CPU and times move with its load; the byte counts do not.
import { fork } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { createHandler } from '../pkg/lib/server/index.js';
import { serveNode } from '../pkg/lib/server/node.js';
import { loadTraces } from '../pkg/index.js';

const hex = (n, len) => n.toString(16).padStart(len, '0');
const str = (key, value) => ({ key, value: { stringValue: value } });
const post = (h, path, body, headers = {}) => h(new Request(`http://localhost${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } }));

/** OTLP/JSON of `n` one-span traces, each naming its own session. */
function sessions(n) {
  const spans = Array.from({ length: n }, (_, k) => ({
    traceId: hex(k + 1, 32), spanId: hex(1, 16), name: 'invoke_agent a', startTimeUnixNano: '1000', endTimeUnixNano: '2000',
    attributes: [str('gen_ai.operation.name', 'invoke_agent'), str('gen_ai.conversation.id', `s${k}`)],
  }));
  return JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
}

async function many(n) {
  const h = createHandler({ limits: { traceIdleMs: 3_600_000, maxTraceSessions: 100_000 } });
  const body = sessions(n);
  await post(h, '/v1/traces', body);
  const c0 = process.cpuUsage();
  const scored = await (await post(h, '/v1/traces/flush', '')).json();
  const c = process.cpuUsage(c0);
  console.log(`many   ${n} sessions in one request (${body.length} bytes): ${JSON.stringify(scored)} in ${((c.user + c.system) / 1e6).toFixed(2)} s of CPU`);
}

/** A protobuf ExportTraceServiceRequest of one-span traces `from`..`from + n` (no session named). */
function tinyTracesPb(from, n) {
  const bytes = [];
  const len = (field, body, out) => {
    out.push((field << 3) | 2);
    for (let v = body.length; ; v >>= 7) {
      if (v < 0x80) { out.push(v); break; }
      out.push((v & 0x7f) | 0x80);
    }
    out.push(...body);
  };
  const id = (h) => h.match(/../g).map((x) => parseInt(x, 16));
  const spans = [];
  for (let k = 0; k < n; k++) {
    const span = [];
    len(1, id(hex(from + k + 1, 32)), span);
    len(2, id(hex(1, 16)), span);
    len(5, [0x78], span);
    len(2, span, spans);
  }
  const rs = [];
  len(2, spans, rs);
  len(1, rs, bytes);
  return new Uint8Array(bytes);
}

async function index() {
  if (typeof gc !== 'function') return console.log('index  (run with --expose-gc)');
  const h = createHandler({ limits: { traceIdleMs: 3_600_000, maxTraceSessions: 1_000_000, maxHeldTraceBytes: 1 << 30 } });
  const bodies = Array.from({ length: 50 }, (_, b) => tinyTracesPb(b * 1000, 1000));
  const sent = bodies.reduce((n, b) => n + b.byteLength, 0);
  gc();
  const h0 = process.memoryUsage().heapUsed;
  for (const body of bodies) await post(h, '/v1/traces', body, { 'content-type': 'application/x-protobuf' });
  bodies.length = 0;
  gc();
  const grown = process.memoryUsage().heapUsed - h0;
  const { pending } = await (await h(new Request('http://localhost/v1/traces/sessions'))).json();
  console.log(`index  50,000 one-span traces (${sent} bytes sent): counted ${pending.bytes} bytes; the heap grew ${grown} (${Math.round((grown) / 50_000)} a trace, requests apart)`);
}

async function gzipPeak() {
  const child = fork(fileURLToPath(import.meta.url), ['--serve']);
  const ready = await new Promise((r) => child.once('message', r));
  const body = gzipSync(Buffer.alloc(31 * 1024 * 1024, 0x20));
  const statuses = await Promise.all(Array.from({ length: 40 }, () => fetch(`${ready.url}/v1/traces`, { method: 'POST', body, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } }).then((r) => r.status)));
  child.send('peak');
  const { peak } = await new Promise((r) => child.once('message', r));
  child.kill();
  const count = {};
  for (const s of statuses) count[s] = (count[s] ?? 0) + 1;
  console.log(`gzip   40 bodies of ${body.length} bytes at once: ${JSON.stringify(count)}; server RSS ${(ready.rss / 2 ** 20).toFixed(0)} MiB at start, ${(peak / 2 ** 20).toFixed(0)} MiB at the peak`);
}

function chain(n) {
  const kinds = ['invoke_agent', 'chat', 'execute_tool'];
  const spans = Array.from({ length: n }, (_, i) => ({
    traceId: hex(7, 32), spanId: hex(i + 1, 16), ...(i ? { parentSpanId: hex(i, 16) } : {}), name: `${kinds[i % 3]} x${i}`,
    startTimeUnixNano: String(1e6 + i * 10), endTimeUnixNano: String(1e6 + 2 * n * 10 - i * 10),
    attributes: [str('gen_ai.operation.name', kinds[i % 3]), str('gen_ai.agent.name', `a${i % 5}`), str('gen_ai.conversation.id', 's')],
  }));
  const body = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
  loadTraces(body);
  const t0 = performance.now();
  loadTraces(body);
  console.log(`chain  ${n} spans, each the parent of the next: loadTraces took ${(performance.now() - t0).toFixed(0)} ms`);
}

if (process.argv.includes('--serve')) {
  const s = await serveNode(createHandler({}), { port: 0 });
  let peak = 0;
  setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5).unref();
  process.on('message', (m) => process.send({ peak }));
  process.send({ url: s.url, rss: process.memoryUsage().rss });
} else {
  await many(1_000);
  await many(2_000);
  await index();
  await gzipPeak();
  chain(10_000);
}
