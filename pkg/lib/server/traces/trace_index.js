//! The index of what a trace receiver holds, and its own operations: each batch (one request's
//! body) under the traces it holds, each trace under its session, each session with what it
//! holds and when it last heard. Keyed by what clients send (session ids), so every map is a Map:
//! a session named `__proto__` is a session like any other. What the index itself takes is
//! counted with the batches' bytes (`maxHeldTraceBytes`), so a body of many tiny traces cannot
//! hold more memory than the limit says.

/**
 * What the entries take, measured in V8 (Node 20): 50,000 one-span traces filed one session each
 * grew the heap by 594-638 bytes a trace beyond the batches' own bytes (docs/traces.md,
 * "Bounds, measured"); counted with a margin: a trace's entry, its session's (with the key's
 * characters at two bytes), each reference from a trace to a batch.
 */
export const TRACE_ENTRY_BYTES = 512;
export const SESSION_ENTRY_BYTES = 256;
export const BATCH_REF_BYTES = 16;

/** The index's key of a session: a session id a span named (`s...`), or a trace's own (`t...`). */
export const namedKey = (sessionId) => `s${sessionId}`;
export const traceKey = (traceId) => `t${traceId}`;
/** The session id a key stands for (a trace's own: its id, as the core names such a session). */
export const sessionOfKey = (key) => key.slice(1);

/**
 * An empty index: `batches` seq -> {size, refs} (refs: traces filed under it), `traces` id ->
 * {key, spans, batches, scoring}, `sessions` key -> {traces (a Set), spans, last, scoring (the
 * traces being scored, or null), tries, solo}; `bytes` the batches' bytes, `entryBytes` what the
 * entries take (both counted against maxHeldTraceBytes).
 */
export const emptyIndex = () => ({
  seq: 0, bytes: 0, entryBytes: 0, batches: new Map(), traces: new Map(), sessions: new Map(),
  stats: { scored: 0, empty: 0, failed: 0 },
});

/** A session of the index, holding nothing yet. */
const newSession = () => ({ traces: new Set(), spans: 0, last: 0, scoring: null, tries: 0, solo: false });

const sessionBytes = (key) => SESSION_ENTRY_BYTES + 2 * key.length;

/** What filing the traces of a batch index (`traceIndex`'s entries) may add to the entries, at most. */
export function entryBytesAtMost(entries) {
  let n = 0;
  for (const t of entries) n += TRACE_ENTRY_BYTES + BATCH_REF_BYTES + sessionBytes(t.session_id ?? t.trace_id) + 2;
  return n;
}

/** The held bytes the limit counts: the batches and the index's entries. */
export const heldBytes = (ix) => ix.bytes + ix.entryBytes;

function addSession(ix, key, touch) {
  const s = newSession();
  ix.sessions.set(key, s);
  ix.entryBytes += sessionBytes(key);
  touch('sessions', key);
  return s;
}

function deleteSession(ix, key, touch) {
  if (ix.sessions.delete(key)) ix.entryBytes -= sessionBytes(key);
  touch('sessions', key);
}

/**
 * Files the trace `t` (an entry of a batch's traceIndex) under its session; false when a limit
 * refuses it (`why` gets the limit; `full` the limits of the server's room, which clear as held
 * sessions are scored, unlike a session's own).
 */
export function fileTrace(ix, t, seq, why, full, { limits, now, touch }) {
  let tr = ix.traces.get(t.trace_id);
  if (tr?.scoring) {
    why.add('spans of a trace whose session was already quiet for traceIdleMs and is being scored');
    return false;
  }
  const n = t.spans + t.logs;
  const named = t.session_id === undefined || t.session_id === null ? null : namedKey(t.session_id);
  // A trace held under its own id until a span names its session: moved there now, with its spans.
  const moving = tr !== undefined && named !== null && tr.key !== named && tr.key.startsWith('t');
  const key = moving || tr === undefined ? (named ?? traceKey(t.trace_id)) : tr.key;
  let s = ix.sessions.get(key);
  if (s === undefined && ix.sessions.size >= limits.maxTraceSessions && !(moving && ix.sessions.get(tr.key)?.traces.size === 1)) {
    why.add(`this server holds at most ${limits.maxTraceSessions} sessions awaiting scoring (maxTraceSessions)`);
    full.add(key);
    return false;
  }
  if ((s?.spans ?? 0) + (moving ? tr.spans : 0) + n > limits.maxSessionSpans) {
    why.add(`a session holds at most ${limits.maxSessionSpans} spans and log records (maxSessionSpans)`);
    return false;
  }
  if (moving) {
    const from = ix.sessions.get(tr.key);
    if (from !== undefined) {
      from.traces.delete(t.trace_id);
      from.spans -= tr.spans;
      if (from.traces.size === 0) deleteSession(ix, tr.key, touch);
      else touch('sessions', tr.key);
    }
    s ??= addSession(ix, key, touch);
    s.traces.add(t.trace_id);
    s.spans += tr.spans;
    s.last = Math.max(s.last, from?.last ?? 0);
    tr.key = key;
  }
  s ??= addSession(ix, key, touch);
  if (tr === undefined) {
    tr = { key, spans: 0, batches: [], scoring: false };
    ix.traces.set(t.trace_id, tr);
    ix.entryBytes += TRACE_ENTRY_BYTES;
    s.traces.add(t.trace_id);
  }
  tr.spans += n;
  tr.batches.push(seq);
  ix.entryBytes += BATCH_REF_BYTES;
  s.spans += n;
  s.last = now();
  touch('sessions', key);
  touch('traces', t.trace_id);
  return true;
}

/** Adds batch `seq` of `size` bytes that `refs` traces were filed under. */
export function addBatch(ix, seq, size, refs, touch) {
  ix.batches.set(seq, { size, refs });
  ix.bytes += size;
  ix.seq = seq + 1;
  touch('batches', seq);
}

/** Marks what session `key` holds now as being scored: its trace ids. */
export function markScoring(ix, key, touch) {
  const s = ix.sessions.get(key);
  s.scoring = [...s.traces];
  for (const id of s.scoring) {
    const tr = ix.traces.get(id);
    if (tr !== undefined) {
      tr.scoring = true;
      touch('traces', id);
    }
  }
  touch('sessions', key);
  return s.scoring;
}

/** The batches the traces `ids` were filed under, in the order they came. */
export function batchesOf(ix, ids) {
  const seqs = new Set();
  for (const id of ids) for (const seq of ix.traces.get(id)?.batches ?? []) seqs.add(seq);
  return [...seqs].sort((a, b) => a - b);
}

/**
 * Lets go of session `key`'s scoring: with `keep`, its traces are held again (to be tried once
 * more); else they leave the index with the batches no other trace refers to. Returns the
 * sequence numbers of those batches, for the backing to delete.
 */
export function endScoring(ix, key, keep, touch) {
  const s = ix.sessions.get(key);
  if (s === undefined || s.scoring === null) return [];
  const gone = [];
  for (const id of s.scoring) {
    const tr = ix.traces.get(id);
    if (tr === undefined) continue;
    touch('traces', id);
    if (keep) {
      tr.scoring = false;
      continue;
    }
    for (const seq of tr.batches) {
      const b = ix.batches.get(seq);
      touch('batches', seq);
      if (b !== undefined && --b.refs <= 0) {
        gone.push(seq);
        ix.bytes -= b.size;
        ix.batches.delete(seq);
      }
    }
    ix.entryBytes -= TRACE_ENTRY_BYTES + BATCH_REF_BYTES * tr.batches.length;
    s.spans -= tr.spans;
    s.traces.delete(id);
    ix.traces.delete(id);
  }
  s.scoring = null;
  if (s.traces.size === 0) deleteSession(ix, key, touch);
  else touch('sessions', key);
  return gone;
}

/** A session's entry as JSON (its traces a list). */
export const sessionJson = (s) => ({ ...s, traces: [...s.traces] });
/** A session's entry from its JSON. */
export const sessionFromJson = (v) => ({ ...newSession(), ...v, traces: new Set(v.traces ?? []) });

/** The index's entries' bytes counted again (an index read back from storage). */
export function recount(ix) {
  let n = 0;
  for (const key of ix.sessions.keys()) n += sessionBytes(key);
  for (const tr of ix.traces.values()) n += TRACE_ENTRY_BYTES + BATCH_REF_BYTES * tr.batches.length;
  ix.entryBytes = n;
  return ix;
}
