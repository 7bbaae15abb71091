// Trace bodies as exporters send them, made from the fixtures the real frameworks exported
// (tests/data/traces): one session's spans cut into many OTLP requests (as a batch processor
// sends what has ended), copies under new trace and session ids, and the module worker with the
// TraceSessions Durable Object in workerd through miniflare.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DATA, PKG, ROOT, workerFiles } from './support.mjs';

/** The JSON lines of a fixture, parsed. */
export const fixtureLines = (name) => readFileSync(join(DATA, 'traces', name), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));

/**
 * An OTLP/JSON trace request cut into requests of at most `per` spans each, in the order the
 * spans ended (children before their parents, as an exporter sends them).
 */
export function cutRequest(request, per) {
  const items = [];
  for (const rs of request.resourceSpans ?? []) {
    for (const ss of rs.scopeSpans ?? []) for (const span of ss.spans ?? []) items.push({ rs, ss, span });
  }
  items.sort((a, b) => Number(BigInt(a.span.endTimeUnixNano) - BigInt(b.span.endTimeUnixNano)));
  const out = [];
  for (let i = 0; i < items.length; i += per) {
    const chunk = items.slice(i, i + per);
    out.push({ resourceSpans: chunk.map(({ rs, ss, span }) => ({ resource: rs.resource, scopeSpans: [{ scope: ss.scope, spans: [span] }] })) });
  }
  return out;
}

const hex = (n, len) => n.toString(16).padStart(len, '0');

const str = (key, value) => ({ key, value: { stringValue: value } });

/**
 * The spans of one trace `t`: an agent span and `models - 1` model calls under it (GenAI
 * conventions), naming session `session` (none: null).
 */
export function traceSpans(t, session, models = 1) {
  const named = session === null ? [] : [str('gen_ai.conversation.id', session)];
  const spans = [{
    traceId: hex(t, 32), spanId: hex(1, 16), name: 'invoke_agent helper', startTimeUnixNano: '1000000', endTimeUnixNano: '9000000',
    attributes: [str('gen_ai.operation.name', 'invoke_agent'), str('gen_ai.agent.name', 'helper'), ...named],
  }];
  for (let k = 1; k < models; k++) {
    spans.push({
      traceId: hex(t, 32), spanId: hex(k + 1, 16), parentSpanId: hex(1, 16), name: 'chat m', startTimeUnixNano: String(1000000 + k), endTimeUnixNano: String(2000000 + k),
      attributes: [str('gen_ai.operation.name', 'chat')],
    });
  }
  return spans;
}

export const request = (spans) => JSON.stringify({ resourceSpans: [{ resource: { attributes: [str('service.name', 'bounds')] }, scopeSpans: [{ scope: { name: 'test' }, spans }] }] });

/**
 * A copy of a request (spans or log records) whose trace ids and session ids are made new by
 * `k`: a distinct session with the same behaviour.
 */
export function renamed(request, k, session) {
  const text = JSON.stringify(request)
    .replace(/"traceId":"([0-9a-f]{32})"/g, (_, id) => `"traceId":"${hex((BigInt(`0x${id}`) + BigInt(k) * 7919n) % (1n << 128n), 32)}"`)
    .replaceAll(`"${session}"`, `"${session}-${k}"`);
  return JSON.parse(text);
}

/**
 * The module worker of tests/server/traces-worker with TraceSessions bound as EVALCORE_TRACES,
 * `bindings` as text variables, `kv` / `r2` for where records go, `entry` the worker's module in
 * tests/server/traces-worker: `{mf, url, restart}`.
 */
export async function startTracesWorker(work, { bindings = {}, kv = false, r2 = false, persist = false, entry: module = 'index.js' } = {}) {
  const tools = process.env.MINIFLARE_TOOLS ?? join(ROOT, '.tools');
  let entry;
  try {
    entry = createRequire(join(tools, 'package.json')).resolve('miniflare');
  } catch {
    throw new Error(`miniflare not found in ${tools}/node_modules: run scripts/setup.sh`);
  }
  const { Miniflare } = await import(pathToFileURL(entry).href);
  const server = JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8')).exports['./server/traces'].workerd.replace(/^\.\//, '');
  const dir = join(work, 'worker');
  const files = workerFiles(server);
  for (const f of files) {
    mkdirSync(dirname(join(dir, 'evalcore', f)), { recursive: true });
    copyFileSync(join(PKG, f), join(dir, 'evalcore', f));
  }
  copyFileSync(join(ROOT, 'tests', 'server', 'traces-worker', module), join(dir, 'index.js'));
  const modules = [
    { type: 'ESModule', path: join(dir, 'index.js') },
    { type: 'ESModule', path: join(dir, 'evalcore', 'server', 'traces'), contents: `export * from '../${server}';\nexport { default } from '../${server}';\n` },
    ...files.map((f) => ({ type: f.endsWith('.wasm') ? 'CompiledWasm' : 'ESModule', path: join(dir, 'evalcore', f) })),
  ];
  for (const m of modules) if (m.contents === undefined && !existsSync(m.path)) throw new Error(`missing module ${m.path}`);
  const options = {
    modulesRoot: dir,
    modules,
    compatibilityDate: '2025-01-01',
    durableObjects: { EVALCORE_TRACES: 'TraceSessions' },
    kvNamespaces: kv ? ['EVALCORE_TRACES_KV'] : [],
    r2Buckets: r2 ? ['EVALCORE_TRACES_R2'] : [],
    bindings,
    // `persist`: the object's storage on disk, so a restart (`restart()`) finds it again.
    ...(persist ? { durableObjectsPersist: join(work, 'objects') } : {}),
  };
  const mf = new Miniflare(options);
  return { mf, url: (await mf.ready).href, restart: () => mf.setOptions(options) };
}
