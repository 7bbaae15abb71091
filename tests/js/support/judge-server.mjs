// A loopback LLM-judge server for tests: Node only, no dependencies, 127.0.0.1 on a random port.
// Speaks the OpenAI, Gemini and Anthropic wire formats (judge-wire.mjs) in two modes:
//
// * oracle mode, `load(row)` of a shared/judge_oracles.jsonl line: every request is routed by
//   the rule of judge_oracles.md (judge-routing.mjs) on its text, whatever its wire format, and
//   answered with the next scripted answer of its key; `report()` gives the accounting.
// * scripted mode, `script(spec)`, for transport tests: replies come from per-path queues or a
//   handler, with latency and faults.
//
// Either way every request is recorded (`requests`: method, path, query, headers, parsed body,
// arrival and finish times in ms since the server started, in-flight count at arrival) and the
// highest number of requests in flight at once is kept (`maxInFlight`).
//
// A scripted reply is one of
//   'text'                                 200 with that answer, in the request's wire format
//   { text } | { texts: [...] }            the same; `texts` gives one choice/candidate each
//                                          (a single `text` is repeated when `n` > 1)
//   { status, error?, code?, retryAfter? } that HTTP status with the provider's error body;
//                                          `retryAfter` (seconds) becomes a Retry-After header
//   { body, status? , contentType? }       a raw body (object as JSON, string as is)
//   { fault: 'reset' }                     the socket is destroyed without a response
//   { fault: 'hang' }                      no response at all (until the client gives up)
//   { fault: 'malformed' }                 200 with a JSON body cut in the middle
//   { fault: 'empty' }                     200 with no choices / candidates / content blocks
//   { fault: 'errorBody' }                 200 whose body is the provider's error body
//   (req) => reply                         decided per request (may return a Promise)
// plus on any object `delayMs` (added to the server's `latencyMs`) and `headers`.
//
// CLI: `node tests/js/support/judge-server.mjs FILE.jsonl LINE [--port N] [--latency MS]` serves
// one line (LINE: 1-based number or eval id) and logs how each request was routed; Ctrl-C prints
// the accounting.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { OracleScript } from './judge-routing.mjs';
import {
  emptyBody, errorBody, requestText, requestedCount, streamBody, successBody, validateRequest, wantsStream, wireOf,
} from './judge-wire.mjs';

export { OracleScript, routeText, routingTable, questionTag } from './judge-routing.mjs';
export { requestMedia, requestText, validateRequest, wireOf } from './judge-wire.mjs';

const DEFAULT_FALLBACK = Object.freeze({ status: 400, error: 'no scripted reply left for this request', code: 'script_exhausted' });

/**
 * Starts the server. Options: `latencyMs` (added before every reply, default 0), `log` (called
 * with one line per request, e.g. console.error).
 */
export async function startJudgeServer({ latencyMs = 0, log = null } = {}) {
  const t0 = performance.now();
  const now = () => performance.now() - t0;
  const timers = new Set();
  const state = {
    mode: 'scripted', oracle: null, handler: null, queues: new Map(), fallback: DEFAULT_FALLBACK,
    latencyMs, requests: [], inFlight: 0, maxInFlight: 0, exhausted: 0, closed: false,
  };

  const sleep = (ms) => new Promise((resolve) => {
    if (!(ms > 0)) return resolve();
    const t = setTimeout(() => { timers.delete(t); resolve(); }, ms);
    timers.add(t);
  });

  const server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `judge test server bug: ${e?.stack ?? e}` } }));
      }
    });
  });
  server.keepAliveTimeout = 5_000;

  async function handle(req, res) {
    const url = new URL(req.url, 'http://127.0.0.1');
    const rec = {
      seq: state.requests.length + 1,
      method: req.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: { ...req.headers },
      arrivedAt: now(),
      inFlightAtArrival: 0,
      rawBody: '',
      body: undefined,
      wire: null,
      status: null,
      outcome: null,
      finishedAt: null,
      clientAborted: false,
    };
    state.requests.push(rec);
    state.inFlight++;
    rec.inFlightAtArrival = state.inFlight;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    let done = false;
    res.on('close', () => {
      if (done) return;
      done = true;
      state.inFlight--;
      rec.finishedAt = now();
      rec.clientAborted = !res.writableFinished && rec.outcome !== 'reset';
    });

    const chunks = [];
    for await (const c of req) chunks.push(c);
    rec.rawBody = Buffer.concat(chunks).toString('utf8');
    try {
      rec.body = JSON.parse(rec.rawBody);
    } catch {
      rec.body = undefined;
    }
    const info = wireOf(url.pathname);
    rec.wire = info?.wire ?? null;
    rec.model = info?.model ?? (typeof rec.body?.model === 'string' ? rec.body.model : undefined);

    if (state.mode === 'oracle') return oracleReply(rec, info, res);
    let reply = state.handler ? state.handler : nextQueued(rec);
    if (typeof reply === 'function') reply = await reply(rec);
    return send(rec, info, res, reply ?? state.fallback);
  }

  function nextQueued(rec) {
    for (const key of [rec.path, rec.wire, '*']) {
      const q = key === null ? undefined : state.queues.get(key);
      if (q && q.length > 0) return q.shift();
    }
    state.exhausted++;
    return state.fallback;
  }

  async function oracleReply(rec, info, res) {
    const oracle = state.oracle;
    const where = { wire: rec.wire, path: rec.path, seq: rec.seq };
    const wire = rec.wire ?? 'openai';
    let reply;
    if (rec.method !== 'POST') {
      oracle.rejectInvalid(`method ${rec.method}`, where);
      reply = { status: 405, error: `method ${rec.method} not allowed`, code: 'method_not_allowed' };
    } else if (!info) {
      oracle.rejectInvalid(`no provider serves ${rec.path}`, where);
      reply = { status: 404, error: `unknown path ${rec.path}`, code: 'unknown_path' };
    } else {
      const invalid = rec.body === undefined ? 'the body is not JSON' : validateRequest(rec.wire, rec.body, rec.headers);
      if (invalid) {
        oracle.rejectInvalid(invalid, where);
        reply = { status: 400, error: invalid, code: 'invalid_request' };
      } else {
        const text = requestText(rec.wire, rec.body);
        const n = requestedCount(rec.wire, rec.body);
        const got = oracle.take(text, n, where);
        rec.route = got.route ? { metric: got.route.metric, marker: got.route.marker, kind: got.route.kind, index: got.index, n } : null;
        if (got.error) reply = { status: 400, error: `request not routable: ${got.error}`, code: 'unroutable' };
        else if (got.exhausted) reply = { status: 400, error: `script exhausted for ${got.route.metric} ${got.route.marker} ${got.route.kind}`, code: 'script_exhausted' };
        else if (got.failure !== undefined) reply = { status: 400, error: got.failure, code: 'scripted_failure' };
        else reply = { texts: got.answers };
      }
    }
    if (log) {
      const r = rec.route;
      const target = r ? `${r.metric} ${r.marker} ${r.kind} #${r.index + 1}${r.n > 1 ? `..${r.index + r.n}` : ''}` : '(not routed)';
      const what = reply.texts ? `200 ${JSON.stringify(reply.texts.map((t) => t.slice(0, 60)))}` : `${reply.status} ${reply.code}: ${reply.error}`;
      log(`#${rec.seq} ${wire} ${rec.path} -> ${target} -> ${what}`);
    }
    return send(rec, info, res, reply);
  }

  async function send(rec, info, res, reply) {
    const r = typeof reply === 'string' ? { text: reply } : reply;
    const wire = rec.wire ?? 'openai';
    const model = rec.model ?? 'unknown-model';
    if (r.fault === 'hang') {
      rec.outcome = 'hang';
      return; // the connection stays open until the client gives up or close()
    }
    await sleep(state.latencyMs + (r.delayMs ?? 0));
    if (res.destroyed || res.socket === null || res.socket.destroyed) {
      rec.outcome = 'client_gone';
      return;
    }
    if (r.fault === 'reset') {
      rec.outcome = 'reset';
      const s = res.socket;
      if (typeof s.resetAndDestroy === 'function') s.resetAndDestroy();
      else s.destroy();
      return;
    }
    const headers = { ...(r.headers ?? {}) };
    let status = r.status ?? 200;
    let body;
    let contentType = r.contentType ?? 'application/json';
    if (r.fault === 'malformed') {
      const whole = JSON.stringify(successBody(wire, { model, texts: ['{"is_the_agent_response_valid": "valid"}'] }));
      body = whole.slice(0, Math.floor(whole.length / 2));
    } else if (r.fault === 'empty') {
      body = JSON.stringify(emptyBody(wire, model));
    } else if (r.fault === 'errorBody') {
      body = JSON.stringify(errorBody(wire, 500, r.error ?? 'internal error reported with HTTP 200', r.code));
    } else if (r.fault !== undefined) {
      throw new Error(`unknown fault ${r.fault}`);
    } else if (r.body !== undefined) {
      body = typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
    } else if (r.text !== undefined || r.texts !== undefined) {
      const n = rec.body && rec.wire ? requestedCount(rec.wire, rec.body) : 1;
      const texts = r.texts ?? Array.from({ length: n }, () => r.text);
      const promptText = rec.body && rec.wire ? requestText(rec.wire, rec.body) : '';
      if (rec.body && info && wantsStream(info, rec.body)) {
        const s = streamBody(wire, { model, texts, promptText, sseMode: info.wire !== 'gemini' || rec.query.alt === 'sse' });
        body = s.body;
        contentType = s.contentType;
      } else {
        body = JSON.stringify(successBody(wire, { model, texts, promptText }));
      }
    } else if (r.status !== undefined) {
      body = JSON.stringify(errorBody(wire, status, r.error ?? `HTTP ${status}`, r.code));
    } else {
      throw new Error(`a scripted reply needs text, texts, status, body or fault: ${JSON.stringify(r)}`);
    }
    if (r.retryAfter !== undefined) headers['retry-after'] = String(r.retryAfter);
    if (status === undefined) status = 200;
    rec.status = status;
    rec.outcome = 'answered';
    res.writeHead(status, { 'content-type': contentType, ...headers });
    res.end(body);
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();

  const api = {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    now,
    /** Oracle mode with one judge_oracles.jsonl line (parsed object); clears the records. */
    load(row) {
      state.mode = 'oracle';
      state.oracle = new OracleScript(row);
      api.reset();
      return api;
    },
    /**
     * Scripted mode. `spec` is a reply handler `(req) => reply`, or an object of reply queues
     * keyed by exact path, by wire name (`openai`, `gemini`, `anthropic`) or `*` (tried in that
     * order). `fallback` answers when the queues are empty (default: 400 script_exhausted).
     */
    script(spec = {}, { fallback } = {}) {
      state.mode = 'scripted';
      state.oracle = null;
      state.handler = typeof spec === 'function' ? spec : null;
      state.queues = new Map();
      if (typeof spec !== 'function') {
        for (const [k, v] of Object.entries(spec)) state.queues.set(k, Array.isArray(v) ? [...v] : [v]);
      }
      state.fallback = fallback ?? DEFAULT_FALLBACK;
      api.reset();
      return api;
    },
    /** Appends replies to a queue of scripted mode. */
    enqueue(key, ...replies) {
      if (!state.queues.has(key)) state.queues.set(key, []);
      state.queues.get(key).push(...replies);
      return api;
    },
    setLatency(ms) {
      state.latencyMs = ms;
      return api;
    },
    /** Forgets the recorded requests and the in-flight maximum (keeps mode and script). */
    reset() {
      state.requests = [];
      state.maxInFlight = state.inFlight;
      state.exhausted = 0;
      return api;
    },
    get requests() { return state.requests; },
    get inFlight() { return state.inFlight; },
    get maxInFlight() { return state.maxInFlight; },
    get mode() { return state.mode; },
    /** Oracle mode: the accounting of the loaded line. Scripted mode: counts. */
    report() {
      if (state.mode === 'oracle') return { ...state.oracle.report(), maxInFlight: state.maxInFlight };
      const left = Object.fromEntries([...state.queues].map(([k, q]) => [k, q.length]));
      return { requests: state.requests.length, maxInFlight: state.maxInFlight, fallbackReplies: state.exhausted, queued: left };
    },
    async close() {
      if (state.closed) return;
      state.closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return api;
}

/** Reads line `which` (1-based number or eval id) of a judge_oracles.jsonl file. */
export function readOracleLine(file, which) {
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
  const n = Number(which);
  if (Number.isInteger(n) && String(n) === String(which)) {
    if (n < 1 || n > lines.length) throw new Error(`${file} has ${lines.length} lines; asked for line ${n}`);
    return { row: JSON.parse(lines[n - 1]), line: n };
  }
  const i = lines.findIndex((l) => JSON.parse(l).id === which);
  if (i < 0) throw new Error(`no line with id ${which} in ${file}`);
  return { row: JSON.parse(lines[i]), line: i + 1 };
}

async function main(argv) {
  const args = [];
  const opts = {};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--port' || argv[i] === '--latency') opts[argv[i].slice(2)] = Number(argv[++i]);
    else args.push(argv[i]);
  }
  if (args.length !== 2) {
    console.error('usage: node tests/js/support/judge-server.mjs FILE.jsonl LINE [--latency MS]\n  LINE: 1-based line number or eval id');
    process.exit(2);
  }
  if (opts.port !== undefined) console.error('--port is not supported: the server takes a random free port');
  const { row, line } = readOracleLine(args[0], args[1]);
  const server = await startJudgeServer({ latencyMs: opts.latency ?? 0, log: (l) => console.log(l) });
  server.load(row);
  const keys = Object.entries(server.report().calls).map(([k, v]) => `  ${k}: ${v.scripted} answer(s)`);
  console.log(`serving ${row.id} (line ${line}, tags ${row.tags.join(' ')})`);
  console.log(`baseUrl ${server.baseUrl}  (OpenAI /chat/completions, Gemini /models/M:generateContent, Anthropic /messages)`);
  console.log(`expected final_eval_status ${row.expected_result.final_eval_status}; scripted keys:\n${keys.join('\n')}`);
  console.log('Ctrl-C prints the accounting.');
  const stop = async () => {
    const rep = server.report();
    console.log(JSON.stringify({ ok: rep.ok, requests: rep.requests, routed: rep.routed, maxInFlight: rep.maxInFlight, problems: rep.problems }, null, 2));
    await server.close();
    process.exit(rep.ok ? 0 : 1);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(e?.message ?? e);
    process.exit(1);
  });
}
