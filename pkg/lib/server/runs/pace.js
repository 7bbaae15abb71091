//! The shared pace of one judge key: every caller (every queue consumer of every run, on Workers
//! through one Durable Object; every run of a Node server in its process) asks it when its next
//! call may start. A calls-per-minute budget spaces the starts evenly (never a burst above it);
//! after a 429 the pace is halved at once and recovers additively (AIMD), and no call starts
//! before the 429's Retry-After. Pure: the time is given, so the same rules run in a Durable
//! Object, in Node and in the tests.

/** The longest hold a 429's Retry-After may ask for. */
export const MAX_HOLD_MS = 60_000;
/** How long a run's own pace is remembered without a call. */
const RUN_IDLE_MS = 5 * 60_000;
/** The window the observed rate is measured over when there is no budget. */
const OBSERVE_MS = 10_000;
/** How many reserved starts the pace remembers for its stats. */
const GRANTS_KEPT = 1024;

/**
 * The pace of one judge key. Options: `perMinute` (the key's budget of call starts per minute;
 * null: none, then only 429s slow it), `decrease` (the factor a 429 multiplies the pace by,
 * default 0.5), `recoverMs` (how long the pace takes to climb from a cut back to where it was,
 * default 30 s), `minPerMinute` (the floor a cut stops at, default 6), `headroom` (the share of
 * the budget left unused, default 2%: the callers' network and timers start a call a few
 * milliseconds late or early, and a call late after one early would otherwise put a second's
 * window over the budget).
 */
export class JudgePace {
  constructor({ perMinute = null, decrease = 0.5, recoverMs = 30_000, minPerMinute = 6, headroom = 0.02 } = {}) {
    this.budget = Number.isFinite(perMinute) && perMinute > 0 ? perMinute * (1 - headroom) : null;
    this.perMinute = Number.isFinite(perMinute) && perMinute > 0 ? perMinute : null;
    this.decrease = decrease;
    this.recoverMs = recoverMs;
    this.minPerMinute = minPerMinute;
    // No start before `next` (the budget's spacing) nor `holdUntil` (a 429's Retry-After).
    this.next = 0;
    this.holdUntil = 0;
    // The last cut: the pace right after it, when, and the pace it cut (what it climbs back to).
    this.cut = null;
    this.runs = new Map();
    this.recent = [];
    this.gen = 0;
    this.stats = { acquired: 0, confirmed: 0, missed: 0, throttled: 0, cuts: 0, waitedMs: 0 };
    // The last starts reserved, `[askedAt, at, spacing]`, for a reader of the stats: a caller
    // that waited starts one spacing after the start before it, whatever the machine's load.
    this.grants = [];
  }

  /** The pace allowed at `now` (calls per minute; Infinity: unbounded). */
  rateAt(now) {
    const ceiling = this.budget ?? Infinity;
    if (this.cut === null) return ceiling;
    const { rate, at, from } = this.cut;
    const climbed = rate + ((from - rate) * Math.max(0, now - at)) / this.recoverMs;
    if (climbed >= from) {
      // Recovered: without a budget the pace is unbounded again.
      if (this.budget === null) this.cut = null;
      return Math.min(ceiling, from);
    }
    return Math.min(ceiling, climbed);
  }

  /** The pace observed over the last seconds (calls per minute), for a cut without a budget. */
  observed(now) {
    this.recent = this.recent.filter((t) => t > now - OBSERVE_MS);
    return (this.recent.length * 60_000) / OBSERVE_MS;
  }

  /**
   * When the next call may start: `{at, gen}`, `at` an absolute time >= now reserved for the
   * caller (the key's spacing and hold). A caller told to wait longer than `horizonMs` calls
   * `confirm` with `gen` when its time comes: a 429 meanwhile has cancelled its start and gives it
   * a new one after the hold. With `run` and `runPerMinute`, a run slower than the key gets
   * `{at, again: true}` while its own spacing has not passed: nothing reserved, ask again at `at`.
   */
  acquire(now, { run = null, runPerMinute = null } = {}) {
    const at = Math.max(now, this.next, this.holdUntil);
    const own = run === null || !(runPerMinute > 0) ? null : this.runs.get(run);
    // The run's own pace is slower than the key's: nothing is reserved (the key's next start
    // goes to another caller); the caller asks again when its run may start one.
    if (own && own.next > at) return { at: own.next, gen: this.gen, again: true };
    const rate = this.rateAt(at);
    const spacing = Number.isFinite(rate) ? 60_000 / Math.max(rate, this.minPerMinute) : 0;
    this.next = Math.max(this.next, at + spacing);
    if (run !== null && runPerMinute > 0) this.runs.set(run, { next: at + 60_000 / runPerMinute, seen: now });
    this.recent.push(at);
    if (this.recent.length > 4096) this.observed(now);
    this.stats.acquired++;
    this.stats.waitedMs += at - now;
    this.grants.push([now, at, spacing]);
    if (this.grants.length > GRANTS_KEPT) this.grants.splice(0, this.grants.length - GRANTS_KEPT);
    this.forgetIdle(now);
    return { at, gen: this.gen, toleranceMs: toleranceOf(spacing) };
  }

  /**
   * A reserved start at `at` that has come: kept (`at` = now) unless a 429 came since `gen` or
   * the caller comes later than the slot's tolerance (a late start would crowd the next ones);
   * then a new one.
   */
  confirm(now, gen, opts = {}, at = now) {
    this.stats.confirmed++;
    if (gen === this.gen && now >= this.holdUntil && now - at <= toleranceOf(this.spacingAt(now))) return { at: now, gen, toleranceMs: toleranceOf(this.spacingAt(now)) };
    if (gen === this.gen && now >= this.holdUntil) this.stats.missed++;
    return this.acquire(now, opts);
  }

  /** A start reserved but not made (its caller woke too late): counted; the caller asks again. */
  missed() {
    this.stats.missed++;
  }

  spacingAt(now) {
    const rate = this.rateAt(now);
    return Number.isFinite(rate) ? 60_000 / Math.max(rate, this.minPerMinute) : 0;
  }

  /**
   * The judge answered 429 at `now`: no call starts before its Retry-After (at most a minute),
   * and the pace is cut by `decrease` unless it was already cut for this congestion (429s of
   * calls started before the last cut took effect count once, as TCP counts one loss per
   * round trip).
   */
  throttled(now, retryAfterMs = 1000) {
    this.stats.throttled++;
    const hold = Math.min(Math.max(0, Number.isFinite(retryAfterMs) ? retryAfterMs : 1000), MAX_HOLD_MS);
    this.holdUntil = Math.max(this.holdUntil, now + hold);
    // Starts reserved beyond the hold are dropped: their callers confirm and start after it.
    this.next = this.holdUntil;
    this.gen++;
    if (this.cut !== null && now - this.cut.at < Math.max(hold, 1000)) return;
    const current = this.rateAt(now);
    const from = Number.isFinite(current) ? current : Math.max(this.observed(now), this.minPerMinute);
    this.cut = { rate: Math.max(this.minPerMinute, from * this.decrease), at: now, from };
    this.stats.cuts++;
  }

  /** What a restart keeps: the hold and the cut (a Durable Object stores it). */
  snapshot() {
    return { holdUntil: this.holdUntil, cut: this.cut };
  }

  restore(saved) {
    if (saved === null || typeof saved !== 'object') return;
    if (Number.isFinite(saved.holdUntil)) this.holdUntil = saved.holdUntil;
    const c = saved.cut;
    if (c && Number.isFinite(c.rate) && Number.isFinite(c.at) && Number.isFinite(c.from)) this.cut = { rate: c.rate, at: c.at, from: c.from };
  }

  forgetIdle(now) {
    if (this.runs.size < 64) return;
    for (const [k, v] of this.runs) if (now - v.seen > RUN_IDLE_MS) this.runs.delete(k);
  }
}

/** A start further out than this is confirmed when it comes (JudgePace.confirm). */
export const HORIZON_MS = 250;
/** How late a start may be made: a slot's spacing, at least this (timers and networks jitter). */
const MIN_TOLERANCE_MS = 50;
/** Starts missed in a row before a caller starts late anyway (a machine that cannot keep time). */
const MAX_MISSES = 3;

const toleranceOf = (spacing) => Math.max(MIN_TOLERANCE_MS, spacing);

/**
 * A `fetch` for the judge that asks `pace.acquire()` (maybe a Durable Object across the
 * network) before each call, waits until the start it is given (confirming one further than
 * `horizonMs` when it comes: `pace.confirm()`), and tells `pace.throttled()` of a 429. With `signal` aborted no call starts, and one in flight is abandoned. `sleep(ms,
 * signal)` waits (resolving early when the signal aborts).
 */
export function pacedFetch(send, pace, { signal = null, run = null, runPerMinute = null, sleep = abortableSleep, horizonMs = HORIZON_MS } = {}) {
  return async (input, init = {}) => {
    const opts = { run, runPerMinute };
    if (signal?.aborted) throw cancelledError(signal);
    let slot = await pace.acquire(opts);
    let got = Date.now();
    let misses = 0;
    for (;;) {
      // A run's own slower pace reserves nothing: asked again when it allows a start. A far
      // start is confirmed when it comes: a 429 meanwhile moves it after the hold.
      if (slot.again || slot.waitMs > horizonMs) {
        await sleep(slot.waitMs, signal);
        if (signal?.aborted) throw cancelledError(signal);
        slot = slot.again ? await pace.acquire(opts) : await pace.confirm({ ...opts, gen: slot.gen, at: slot.at });
        got = Date.now();
        continue;
      }
      if (slot.waitMs > 0) await sleep(slot.waitMs, signal);
      if (signal?.aborted) throw cancelledError(signal);
      // Woken later than the slot allows (a busy machine's timers): starting now would crowd the
      // starts after it, so a new one is asked for.
      const late = Date.now() - got - Math.max(0, slot.waitMs);
      if (late > (slot.toleranceMs ?? Infinity) && misses < MAX_MISSES) {
        misses++;
        slot = await pace.acquire({ ...opts, missed: true });
        got = Date.now();
        continue;
      }
      break;
    }
    const res = await sendWith(send, input, init, signal);
    if (res.status === 429) {
      const after = Number(res.headers.get('retry-after'));
      await pace.throttled({ retryAfterMs: Number.isFinite(after) && after > 0 ? after * 1000 : 1000 });
    }
    return res;
  };
}

// One listener per signal, however many waits and calls hang on it (a run's signal is shared by
// every call of its cases: a listener each would pile up).
const hangers = new WeakMap();

/** Calls `fn` when `signal` aborts (at once if it has); returns a function that forgets it. */
export function onAbort(signal, fn) {
  if (signal === null || signal === undefined) return () => {};
  if (signal.aborted) {
    fn();
    return () => {};
  }
  let set = hangers.get(signal);
  if (set === undefined) {
    set = new Set();
    hangers.set(signal, set);
    signal.addEventListener('abort', () => {
      for (const f of [...set]) f();
      set.clear();
    }, { once: true });
  }
  set.add(fn);
  return () => set.delete(fn);
}

/** A signal of its own that aborts with `signal` or `other`, and `done()` to let go of `signal`. */
export function linkedSignal(signal, other = null) {
  const c = new AbortController();
  const off = onAbort(signal, () => c.abort(signal.reason));
  const offOther = onAbort(other, () => c.abort(other.reason));
  return { signal: c.signal, done: () => { off(); offOther(); } };
}

/** `send(input, init)` whose signal also aborts with `signal`. */
async function sendWith(send, input, init, signal) {
  if (signal === null) return send(input, init);
  const linked = linkedSignal(signal, init?.signal ?? null);
  try {
    return await send(input, { ...init, signal: linked.signal });
  } finally {
    linked.done();
  }
}

export function cancelledError(signal) {
  const e = new Error('the run was cancelled', { cause: signal?.reason });
  e.name = 'AbortError';
  return e;
}

/** Waits `ms`, or less when `signal` aborts. */
export function abortableSleep(ms, signal) {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    let off = () => {};
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      off();
      resolve();
    }
    off = onAbort(signal, done);
    return undefined;
  });
}

/**
 * A pace in this process (Node): `{acquire, confirm, throttled}` answering as a Durable Object
 * would: `{waitMs, gen}`, the wait in milliseconds from now.
 */
export function localPace(pace, now = () => Date.now()) {
  return {
    acquire: async ({ missed, ...opts }) => {
      const t = now();
      if (missed) pace.missed();
      const slot = pace.acquire(t, opts);
      return { ...slot, waitMs: slot.at - t };
    },
    confirm: async ({ gen, at, ...opts }) => {
      const t = now();
      const slot = pace.confirm(t, gen, opts, at);
      return { ...slot, waitMs: slot.at - t };
    },
    throttled: async ({ retryAfterMs }) => pace.throttled(now(), retryAfterMs),
  };
}
