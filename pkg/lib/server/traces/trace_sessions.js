//! Sessions assembled from OTLP batches as an exporter sends them (what has ended, children
//! before parents, one session over many requests): each batch is filed under the traces it holds
//! (the core's traceIndex), each trace under the session a span of it names (or its own id until
//! one does), and the sessions that have gone quiet for `traceIdleMs` are built from their
//! batches, read once for all of them, and scored. Runtime-neutral: where batches and the index
//! (trace_index.js) live, and how a wake-up is set, is the backing's (memory and a timer in one
//! process; a Durable Object's storage and alarm).
import { EvalError } from '../../errors.js';
import { traceIndex } from '../../wasm/traces.js';
import {
  addBatch, batchesOf, emptyIndex, endScoring, entryBytesAtMost, fileTrace, heldBytes, markScoring, sessionOfKey,
} from './trace_index.js';

/** Failed attempts to score and store a session before it is given up (and logged). */
const MAX_TRIES = 3;

/**
 * A session assembler. `backing`: `{load(), save(index, changed), putBatch(seq, bytes), getBatch(seq),
 * deleteBatches(seqs), schedule(atMs | null)}`; `limits`: `{maxSessionSpans, maxTraceSessions,
 * maxHeldTraceBytes, maxTraceBytes, traceIdleMs}`; `score(bodies, traceIds)` builds and scores
 * the sessions of those traces and stores their results; `log(entry)` hears what went wrong.
 */
export function traceAssembler({ backing, limits, score, log = () => {}, now = () => Date.now() }) {
  let index = null;
  let chain = Promise.resolve();
  let scoring = 0;
  // The entries changed since the last save, so a backing that stores entry by entry writes only
  // those (`backing.save(index, changed)`).
  const fresh = () => ({ sessions: new Set(), traces: new Set(), batches: new Set() });
  let changed = fresh();
  const touch = (part, key) => changed[part].add(key);
  async function save(ix) {
    const c = changed;
    changed = fresh();
    await backing.save(ix, c);
  }

  /** Runs `fn` after every earlier change to the index (they never interleave). */
  function locked(fn) {
    const run = chain.then(async () => {
      index ??= (await backing.load()) ?? emptyIndex();
      return fn(index);
    });
    chain = run.then(() => {}, () => {});
    return run;
  }

  async function reschedule(ix) {
    let at = null;
    for (const s of ix.sessions.values()) {
      if (s.scoring !== null) continue;
      const due = s.last + limits.traceIdleMs;
      if (at === null || due < at) at = due;
    }
    await backing.schedule(at);
  }

  /**
   * Takes one OTLP request body (spans or log records, JSON or protobuf bytes): `{accepted,
   * rejected, full, message}`, counted in spans and log records. An unreadable body throws the
   * core's EvalError (a 400).
   */
  function ingest(bytes) {
    const ix0 = bytes.byteLength === 0 ? { traces: [] } : traceIndex(bytes);
    return locked(async (ix) => {
      const why = new Set();
      const full = new Set();
      let accepted = 0;
      let rejected = 0;
      const seq = ix.seq;
      let refs = 0;
      const total = ix0.traces.reduce((n, t) => n + t.spans + t.logs, 0);
      if (heldBytes(ix) + bytes.byteLength + entryBytesAtMost(ix0.traces) > limits.maxHeldTraceBytes) {
        return { accepted: 0, rejected: total, full: true, message: `this server holds at most ${limits.maxHeldTraceBytes} bytes of spans and their index awaiting scoring (maxHeldTraceBytes)` };
      }
      for (const t of ix0.traces) {
        if (fileTrace(ix, t, seq, why, full, { limits, now, touch })) {
          accepted += t.spans + t.logs;
          refs++;
        } else {
          rejected += t.spans + t.logs;
        }
      }
      if (refs > 0) {
        await backing.putBatch(seq, bytes);
        addBatch(ix, seq, bytes.byteLength, refs, touch);
      }
      await save(ix);
      await reschedule(ix);
      // Nothing taken for want of room: the exporter should retry (429) once sessions are scored.
      return { accepted, rejected, full: accepted === 0 && full.size > 0, message: [...why].join('; ') };
    });
  }

  /**
   * The sessions due now (quiet for traceIdleMs; every held one with `all`) that are scored
   * together, marked as being scored: `{keys, traceIds, seqs}`, or null when none is due. Their
   * batches are read once for all of them, so together they hold at most maxTraceBytes of
   * batches (a session holding more is scored alone); a session whose scoring failed is next
   * scored alone, so one bad session fails no other.
   */
  function takeDue(all) {
    return locked(async (ix) => {
      const t = now();
      const group = { keys: [], traceIds: [], seqs: new Set() };
      let bytes = 0;
      for (const [key, s] of ix.sessions) {
        if (s.scoring !== null || (!all && t - s.last < limits.traceIdleMs)) continue;
        if (s.solo && group.keys.length > 0) continue;
        const seqs = batchesOf(ix, s.traces);
        const more = seqs.filter((q) => !group.seqs.has(q)).reduce((n, q) => n + (ix.batches.get(q)?.size ?? 0), 0);
        if (group.keys.length > 0 && bytes + more > limits.maxTraceBytes) continue;
        group.keys.push(key);
        group.traceIds.push(...markScoring(ix, key, touch));
        for (const q of seqs) group.seqs.add(q);
        bytes += more;
        if (s.solo) break;
      }
      if (group.keys.length > 0) {
        await save(ix);
        return { ...group, seqs: [...group.seqs].sort((a, b) => a - b) };
      }
      // Woken before any session was due (a timer may fire a little early): wait again. While
      // sessions are being scored, their release sets the next wake-up instead.
      if (scoring === 0) await reschedule(ix);
      return null;
    });
  }

  /** Lets go of what the scored sessions held (new traces of them that came meanwhile stay). */
  function release(keys, ok) {
    return locked(async (ix) => {
      const gone = [];
      for (const key of keys) {
        const s = ix.sessions.get(key);
        if (s === undefined || s.scoring === null) continue;
        const again = !ok && ++s.tries < MAX_TRIES;
        if (!ok && !again) log({ event: 'trace_session_given_up', session: sessionOfKey(key), tries: s.tries });
        if (again) {
          s.solo = true;
          s.last = now();
        } else {
          s.tries = 0;
          s.solo = false;
        }
        gone.push(...endScoring(ix, key, again, touch));
      }
      if (gone.length > 0) await backing.deleteBatches(gone);
      await save(ix);
      await reschedule(ix);
    });
  }

  async function scoreGroup({ keys, traceIds, seqs }) {
    let ok = false;
    try {
      const bodies = [];
      for (const seq of seqs) {
        const b = await backing.getBatch(seq);
        if (b !== null && b !== undefined) bodies.push(b);
      }
      const n = bodies.length === 0 ? 0 : await score(bodies, traceIds);
      await locked((ix) => {
        if (n === 0) ix.stats.empty += keys.length;
        else ix.stats.scored += n;
      });
      ok = true;
    } catch (e) {
      const session = keys.length === 1 ? sessionOfKey(keys[0]) : `${keys.length} sessions`;
      log({ event: 'trace_session_failed', session, code: e instanceof EvalError ? e.code : 'internal', message: e?.message ?? String(e) });
      await locked((ix) => { ix.stats.failed += keys.length; });
    } finally {
      await release(keys, ok);
    }
  }

  /** Scores the sessions due (every held one with `all`); resolves to how many were taken. */
  async function runDue(all = false) {
    let done = 0;
    for (;;) {
      const group = await takeDue(all);
      if (group === null) return done;
      scoring++;
      try {
        await scoreGroup(group);
      } finally {
        scoring--;
      }
      done += group.keys.length;
    }
  }

  /** What is held: sessions, spans, bytes (with the index's), and what became of the sessions let go so far. */
  function pending() {
    return locked((ix) => {
      let spans = 0;
      for (const s of ix.sessions.values()) spans += s.spans;
      return { sessions: ix.sessions.size, spans, bytes: heldBytes(ix), ...ix.stats };
    });
  }

  /** Forgets what a restart left half-done: sessions marked as being scored are due again. */
  function recover() {
    return locked(async (ix) => {
      for (const [key, s] of ix.sessions) if (s.scoring !== null) endScoring(ix, key, true, touch);
      await save(ix);
      await reschedule(ix);
    });
  }

  return { ingest, runDue, pending, recover, flush: () => runDue(true) };
}
