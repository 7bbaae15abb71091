// `evalcore/server/traces` in workerd (Cloudflare Workers): the module worker of evalcore/server
// plus `TraceSessions`, the Durable Object class that holds /v1/traces' sessions. An exporter's
// requests land on many isolates; each passes its body to the one TraceSessions object, which
// files it in its storage, wakes on an alarm once a session has been quiet for traceIdleMs,
// scores it and keeps its record (in KV or R2 when bound, else in its own storage).
//
//   export { default, TraceSessions } from 'evalcore/server/traces';
//   # wrangler.toml: [[durable_objects.bindings]] name = "EVALCORE_TRACES", class_name = "TraceSessions"
// First: worker.js sets up the main module and the extras module (the trace import).
export { default } from '../worker.js';
import { EvalError } from '../../errors.js';
import { optionsFromEnv, resolveLimits } from '../config.js';
import { instancePace } from '../pace.js';
import { kvStore, r2Store } from '../../store/workers.js';
import { checkedStore } from '../../store/store.js';
import { tracesOptions } from './trace_backend.js';
import { traceAssembler } from './trace_sessions.js';
import { emptyIndex, recount, sessionFromJson, sessionJson } from './trace_index.js';
import { recordDirectory } from './trace_records_worker.js';
import { getRecord, listRecords, sessionScorer } from './trace_results.js';

/** A Durable Object's storage values are at most 128 KiB: a batch is kept in pieces. */
const PIECE = 120 * 1024;

const PARTS = { b: 'batches', t: 'traces', s: 'sessions' };

async function sha256(text) {
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return [...d].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** An index entry's value as stored, and back (a session's traces are a Set in memory). */
const toStored = { b: (v) => v, t: (v) => v, s: sessionJson };
const fromStored = { b: (v) => v, t: (v) => v, s: sessionFromJson };
/** A batch's sequence number is a number in the index, text in a storage key. */
const keyFrom = { b: Number, t: String, s: String };

/**
 * The index in the object's storage, one value per entry (`i:head`, `i:b:<seq>`, `i:t:<trace>`,
 * `i:s:<session>`, each `[key, entry]` as JSON): as one value it would pass the 128 KiB limit
 * with a few hundred sessions held, and rewriting it all on every request made ingestion slow
 * down as sessions piled up. `save(ix, changed)` writes the entries the assembler says changed
 * (every entry without `changed`). A key past 256 characters (a long session id) is stored under
 * its SHA-256.
 */
function indexStorage(storage) {
  const keyOf = async (p, k) => {
    const text = String(k);
    return `i:${p}:${text.length <= 256 ? text : `~${await sha256(text)}`}`;
  };
  return {
    async load() {
      const all = await storage.list({ prefix: 'i:' });
      if (!all.has('i:head')) return undefined;
      const head = JSON.parse(all.get('i:head'));
      const ix = { ...emptyIndex(), seq: head.seq, bytes: head.bytes, stats: head.stats };
      for (const [key, text] of all) {
        const p = key[2];
        if (key === 'i:head' || !Object.hasOwn(PARTS, p)) continue;
        const [k, v] = JSON.parse(text);
        ix[PARTS[p]].set(keyFrom[p](k), fromStored[p](v));
      }
      return recount(ix);
    },
    async save(ix, changed) {
      const puts = [['i:head', JSON.stringify({ seq: ix.seq, bytes: ix.bytes, stats: ix.stats })]];
      const dels = changed === undefined ? [...(await storage.list({ prefix: 'i:' })).keys()].filter((k) => k !== 'i:head') : [];
      for (const [p, part] of Object.entries(PARTS)) {
        for (const k of changed?.[part] ?? ix[part].keys()) {
          const key = await keyOf(p, k);
          const v = ix[part].get(k);
          if (v !== undefined) puts.push([key, JSON.stringify([k, toStored[p](v)])]);
          else dels.push(key);
        }
      }
      const written = new Set(puts.map(([k]) => k));
      const gone = dels.filter((k) => !written.has(k));
      // put() and delete() take at most 128 keys at once.
      for (let i = 0; i < gone.length; i += 128) await storage.delete(gone.slice(i, i + 128));
      for (let i = 0; i < puts.length; i += 128) await storage.put(Object.fromEntries(puts.slice(i, i + 128)));
    },
  };
}

/**
 * The batches and the index in the object's storage; the wake-up its alarm, set for the first
 * of the sessions' wake-up and `otherAt()` (when the next record expires).
 */
function storageBacking(storage, otherAt) {
  const pieces = (seq, n) => Array.from({ length: n }, (_, k) => `b:${seq}:${k}`);
  const index = indexStorage(storage);
  return {
    load: () => index.load(),
    save: (ix, changed) => index.save(ix, changed),
    async putBatch(seq, bytes) {
      const n = Math.max(1, Math.ceil(bytes.byteLength / PIECE));
      const entries = { [`n:${seq}`]: n };
      pieces(seq, n).forEach((k, i) => { entries[k] = bytes.slice(i * PIECE, (i + 1) * PIECE); });
      // put() of an object writes at most 128 keys at once.
      const keys = Object.keys(entries);
      for (let i = 0; i < keys.length; i += 128) await storage.put(Object.fromEntries(keys.slice(i, i + 128).map((k) => [k, entries[k]])));
    },
    async getBatch(seq) {
      const n = await storage.get(`n:${seq}`);
      if (typeof n !== 'number') return null;
      const got = await storage.get(pieces(seq, n));
      const parts = pieces(seq, n).map((k) => got.get(k));
      if (parts.some((p) => p === undefined)) return null;
      const out = new Uint8Array(parts.reduce((a, p) => a + p.byteLength, 0));
      let at = 0;
      for (const p of parts) {
        out.set(new Uint8Array(p), at);
        at += p.byteLength;
      }
      return out;
    },
    async deleteBatches(seqs) {
      for (const seq of seqs) {
        const n = await storage.get(`n:${seq}`);
        const keys = [`n:${seq}`, ...(typeof n === 'number' ? pieces(seq, n) : [])];
        for (let i = 0; i < keys.length; i += 128) await storage.delete(keys.slice(i, i + 128));
      }
    },
    async schedule(at) {
      const other = await otherAt();
      const first = at === null ? other : other === null ? at : Math.min(at, other);
      await (first === null ? storage.deleteAlarm() : storage.setAlarm(first));
    },
  };
}

/** A Store over the object's storage (`r:` keys), where records go without a KV or R2 binding. */
function objectStore(storage) {
  return checkedStore({
    get: async (key) => {
      const v = await storage.get(`r:${key}`);
      return v === undefined ? null : new Uint8Array(v);
    },
    put: (key, bytes) => storage.put(`r:${key}`, bytes),
    delete: (key) => storage.delete(`r:${key}`),
    list: async (prefix) => [...(await storage.list({ prefix: `r:${prefix}` })).keys()].map((k) => k.slice(2)),
  });
}

/**
 * Where records go: `env.EVALCORE_TRACES_R2` (R2), `env.EVALCORE_TRACES_KV` (KV, each written
 * with an expirationTtl of the retention), else the object's storage.
 */
function recordStore(env, storage, retentionMs) {
  if (env.EVALCORE_TRACES_R2) return r2Store(env.EVALCORE_TRACES_R2);
  const kv = env.EVALCORE_TRACES_KV;
  if (kv) {
    // KV's shortest expiration is 60 s; the object's alarm deletes a record due sooner.
    const expirationTtl = Math.max(60, Math.ceil(retentionMs / 1000));
    return kvStore({ get: (...a) => kv.get(...a), delete: (k) => kv.delete(k), list: (o) => kv.list(o), put: (k, v) => kv.put(k, v, { expirationTtl }) });
  }
  return objectStore(storage);
}

const reply = (status, value) => new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });

/** The Durable Object holding a deployment's trace sessions (bind it as EVALCORE_TRACES). */
export class TraceSessions {
  constructor(state, env) {
    this.state = state;
    const options = optionsFromEnv(env);
    const limits = resolveLimits(options.limits);
    const tracing = tracesOptions(options.traces);
    const pace = instancePace(options.judge ?? null, limits);
    this.records = recordDirectory(state.storage, recordStore(env, state.storage, limits.traceRetentionMs), limits.traceRetentionMs);
    this.store = this.records.store;
    this.assembler = traceAssembler({
      backing: storageBacking(state.storage, () => this.records.nextExpiry()),
      limits,
      score: sessionScorer({ store: this.store, config: tracing.config, judgeFor: () => pace.judgeFor(null).judge, concurrency: limits.caseConcurrency }),
      log: options.log ?? ((e) => console.error(JSON.stringify({ evalcore: 'traces', ...e }))),
    });
    this.ready = state.blockConcurrencyWhile(async () => {
      await this.records.backfill();
      await this.assembler.recover();
    });
  }

  async fetch(request) {
    await this.ready;
    const url = new URL(request.url);
    try {
      switch (url.pathname) {
        case '/ingest': return reply(200, await this.assembler.ingest(new Uint8Array(await request.arrayBuffer())));
        case '/list': {
          const page = { limit: Number(url.searchParams.get('limit')), after: url.searchParams.get('after') };
          return reply(200, { ...(await listRecords(this.store, page, this.records.page)), pending: await this.assembler.pending() });
        }
        case '/get': return reply(200, { record: await getRecord(this.store, url.searchParams.get('id') ?? '') });
        case '/flush': return reply(200, { scored: await this.assembler.flush() });
        default: return reply(404, { error: { code: 'not_found', path: '', message: url.pathname } });
      }
    } catch (e) {
      const err = e instanceof EvalError ? e : { code: 'internal', path: '', message: e?.message ?? String(e) };
      return reply(e instanceof EvalError && e.code !== 'trap' ? 400 : 500, { error: { code: err.code, path: err.path, message: err.message } });
    }
  }

  /** Records past their retention deleted, then the sessions due scored (which sets the next alarm). */
  async alarm() {
    await this.ready;
    await this.records.expire(Date.now());
    await this.assembler.runDue();
  }
}
