//! Sessions assembled from OTLP batches as an exporter sends them (what has ended, children
//! before parents, one session over many requests): each batch is filed under the traces it holds
//! (the core's traceIndex), each trace under the session a span of it names (or its own id until
//! one does), and a session that has gone quiet for `traceIdleMs` is built from all its batches
//! and scored. Runtime-neutral: where batches and the index live, and how a wake-up is set, is
//! the backing's (memory and a timer in one process; a Durable Object's storage and alarm).
import { EvalError } from '../errors.js';
import { traceIndex } from '../traces.js';

/**
 * The index of what is held, as JSON (a Durable Object keeps it in its storage):
 * `batches[seq] = {size, refs}` (refs: traces filed under it), `traces[id] = {key, spans,
 * batches}`, `sessions[key] = {traces, spans, last, scoring}` (`scoring`: the traces being scored,
 * `tries`: failed attempts to store their result).
 */
const emptyIndex = () => ({ seq: 0, bytes: 0, batches: {}, traces: {}, sessions: {}, stats: { scored: 0, empty: 0, failed: 0 } });

/** Failed attempts to score and store a session before it is given up (and logged). */
const MAX_TRIES = 3;

/** A session of the index, holding nothing yet. */
const newSession = () => ({ traces: [], spans: 0, last: 0, scoring: null, tries: 0 });

/**
 * Files the trace `t` (an index entry of a batch) under its session in the index `ix`; false
 * when a limit refuses it (`why` gets the limit; `full` the limits of the server's room, which
 * clear as held sessions are scored, unlike a session's own).
 */
function file(ix, t, seq, why, full, { limits, now, touch }) {
  let tr = ix.traces[t.trace_id];
  const named = t.session_id ?? tr?.key ?? `trace:${t.trace_id}`;
  if (tr !== undefined && tr.key !== named && tr.key.startsWith('trace:')) move(ix, t.trace_id, named, touch);
  const key = tr?.key ?? named;
  let s = ix.sessions[key];
  if (s?.scoring?.includes(t.trace_id)) {
    why.add('spans of a trace whose session was already quiet for traceIdleMs and is being scored');
    return false;
  }
  if (s === undefined && Object.keys(ix.sessions).length >= limits.maxTraceSessions) {
    why.add(`this server holds at most ${limits.maxTraceSessions} sessions awaiting scoring (maxTraceSessions)`);
    full.add(key);
    return false;
  }
  const n = t.spans + t.logs;
  if ((s?.spans ?? 0) + n > limits.maxSessionSpans) {
    why.add(`a session holds at most ${limits.maxSessionSpans} spans and log records (maxSessionSpans)`);
    return false;
  }
  if (s === undefined) {
    s = newSession();
    ix.sessions[key] = s;
  }
  if (tr === undefined) {
    tr = { key, spans: 0, batches: [] };
    ix.traces[t.trace_id] = tr;
    s.traces.push(t.trace_id);
  }
  tr.spans += n;
  tr.batches.push(seq);
  s.spans += n;
  s.last = now();
  touch('sessions', key);
  touch('traces', t.trace_id);
  return true;
}

/** Moves trace `id` from the session of its own id to the session `key` a later span named. */
function move(ix, id, key, touch) {
  const tr = ix.traces[id];
  const from = ix.sessions[tr.key];
  if (from !== undefined && from.scoring === null) {
    from.traces = from.traces.filter((x) => x !== id);
    from.spans -= tr.spans;
    if (from.traces.length === 0) delete ix.sessions[tr.key];
    const to = ix.sessions[key] ?? newSession();
    ix.sessions[key] = to;
    to.traces.push(id);
    to.spans += tr.spans;
    to.last = Math.max(to.last, from.last);
    touch('sessions', tr.key);
    touch('sessions', key);
    touch('traces', id);
    tr.key = key;
  }
}

/**
 * Takes the traces session `s` has scored out of the index `ix`, and the batches no other trace
 * refers to: the sequence numbers of those batches, for the backing to delete.
 */
function dropScored(ix, s, touch) {
  const gone = [];
  for (const id of s.scoring) {
    const tr = ix.traces[id];
    if (tr === undefined) continue;
    for (const seq of tr.batches) {
      const b = ix.batches[seq];
      touch('batches', seq);
      if (b !== undefined && --b.refs <= 0) {
        gone.push(seq);
        ix.bytes -= b.size;
        delete ix.batches[seq];
      }
    }
    s.spans -= tr.spans;
    delete ix.traces[id];
    touch('traces', id);
  }
  return gone;
}

/**
 * A session assembler. `backing`: `{load(), save(index, changed), putBatch(seq, bytes), getBatch(seq),
 * deleteBatches(seqs), schedule(atMs | null)}`; `limits`: `{maxSessionSpans, maxTraceSessions,
 * maxHeldTraceBytes, traceIdleMs, caseConcurrency}`; `score(bodies, traceIds)` builds and scores
 * the sessions of those traces and stores their results; `log(entry)` hears what went wrong.
 */
export function traceAssembler({ backing, limits, score, log = () => {}, now = () => Date.now() }) {
  let index = null;
  let chain = Promise.resolve();
  let scoring = 0;
  // The entries changed since the last save, so a backing that stores entry by entry writes only
  // those (`backing.save(index, changed)`).
  let changed = { sessions: new Set(), traces: new Set(), batches: new Set() };
  const touch = (part, key) => changed[part].add(String(key));
  async function save(ix) {
    const c = changed;
    changed = { sessions: new Set(), traces: new Set(), batches: new Set() };
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
    for (const s of Object.values(ix.sessions)) {
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
      if (ix.bytes + bytes.byteLength > limits.maxHeldTraceBytes) {
        return { accepted: 0, rejected: total, full: true, message: `this server holds at most ${limits.maxHeldTraceBytes} bytes of spans awaiting scoring (maxHeldTraceBytes)` };
      }
      for (const t of ix0.traces) {
        if (file(ix, t, seq, why, full, { limits, now, touch })) {
          accepted += t.spans + t.logs;
          refs++;
        } else {
          rejected += t.spans + t.logs;
        }
      }
      if (refs > 0) {
        await backing.putBatch(seq, bytes);
        ix.batches[seq] = { size: bytes.byteLength, refs };
        ix.bytes += bytes.byteLength;
        ix.seq = seq + 1;
        touch('batches', seq);
      }
      await save(ix);
      await reschedule(ix);
      // Nothing taken for want of room: the exporter should retry (429) once sessions are scored.
      return { accepted, rejected, full: accepted === 0 && full.size > 0, message: [...why].join('; ') };
    });
  }

  /** The sessions due now (quiet for traceIdleMs), marked as being scored, with their batches. */
  function takeDue(all) {
    return locked(async (ix) => {
      const t = now();
      const out = [];
      for (const [key, s] of Object.entries(ix.sessions)) {
        if (s.scoring !== null || (!all && t - s.last < limits.traceIdleMs)) continue;
        if (scoring + out.length >= limits.caseConcurrency) break;
        s.scoring = [...s.traces];
        touch('sessions', key);
        const seqs = [...new Set(s.scoring.flatMap((id) => ix.traces[id]?.batches ?? []))].sort((a, b) => a - b);
        out.push({ key, traceIds: s.scoring, seqs });
      }
      if (out.length > 0) await save(ix);
      // Woken before any session was due (a timer may fire a little early): wait again. While
      // sessions are being scored, their release sets the next wake-up instead.
      else if (scoring === 0) await reschedule(ix);
      return out;
    });
  }

  /** Lets go of what a scored session held (new traces of it that came meanwhile stay). */
  function release(key, ok) {
    return locked(async (ix) => {
      const s = ix.sessions[key];
      if (s === undefined || s.scoring === null) return;
      touch('sessions', key);
      if (!ok && ++s.tries < MAX_TRIES) {
        s.scoring = null;
        s.last = now();
      } else {
        const gone = dropScored(ix, s, touch);
        const done = new Set(s.scoring);
        s.traces = s.traces.filter((id) => !done.has(id));
        s.scoring = null;
        s.tries = 0;
        if (s.traces.length === 0) delete ix.sessions[key];
        if (gone.length > 0) await backing.deleteBatches(gone);
      }
      await save(ix);
      await reschedule(ix);
    });
  }

  async function scoreOne({ key, traceIds, seqs }) {
    let ok = false;
    try {
      const bodies = [];
      for (const seq of seqs) {
        const b = await backing.getBatch(seq);
        if (b !== null && b !== undefined) bodies.push(b);
      }
      const n = bodies.length === 0 ? 0 : await score(bodies, traceIds);
      await locked((ix) => {
        if (n === 0) ix.stats.empty++;
        else ix.stats.scored += n;
      });
      ok = true;
    } catch (e) {
      log({ event: 'trace_session_failed', session: key, code: e instanceof EvalError ? e.code : 'internal', message: e?.message ?? String(e) });
      await locked((ix) => { ix.stats.failed++; });
    } finally {
      await release(key, ok);
    }
  }

  /** Scores the sessions due (every held one with `all`), as many at once as caseConcurrency. */
  async function runDue(all = false) {
    let done = 0;
    for (;;) {
      const batch = await takeDue(all);
      if (batch.length === 0) return done;
      scoring += batch.length;
      try {
        await Promise.all(batch.map(scoreOne));
      } finally {
        scoring -= batch.length;
      }
      done += batch.length;
    }
  }

  /** What is held: sessions, spans, bytes, and what became of the sessions let go so far. */
  function pending() {
    return locked((ix) => ({
      sessions: Object.keys(ix.sessions).length,
      spans: Object.values(ix.sessions).reduce((n, s) => n + s.spans, 0),
      bytes: ix.bytes,
      ...ix.stats,
    }));
  }

  /** Forgets what a restart left half-done: sessions marked as being scored are due again. */
  function recover() {
    return locked(async (ix) => {
      for (const s of Object.values(ix.sessions)) s.scoring = null;
      await reschedule(ix);
    });
  }

  return { ingest, runDue, pending, recover, flush: () => runDue(true) };
}
