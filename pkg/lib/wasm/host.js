// The host's capabilities as the core sees them (src/wasm/host.rs): one object whose callbacks
// never reject. `fetch`, the agent and custom metrics resolve to JSON text, either a result or
// `{"error": {kind, message}}`, so a synchronous throw, a rejection and a malformed value reach
// the core as distinct kinds; timeouts and the caller's abort hold whatever the host does.
import { callAsync } from './instance.js';
import { describe } from './wire.js';

const NEVER = new AbortController().signal;
const ABORTED = Symbol('aborted');
const TIMED_OUT = Symbol('timed out');

export function errorText(e) {
  if (e instanceof Error) return e.message || e.name;
  try {
    return typeof e === 'string' ? e : JSON.stringify(e);
  } catch {
    return String(e);
  }
}

export const fail = (kind, message, stack) => JSON.stringify({ error: { kind, message, stack } });

// Errors that mean nobody answers at that address: retried once by the core, not six times.
const UNREACHABLE = /ECONNREFUSED|ENOTFOUND|connection refused|Name or service not known|No such host|bad port/i;

// The package's own frames (this file, the wasm glue, the module) end an agent's stack: below
// them is evalcore, not the user's code.
const OWN_FRAME = /[/\\]pkg[/\\](?:lib|wasm)[/\\]|wasm:\/\/|evalcore[/\\](?:lib|wasm)[/\\]/;

// The reply's key check, loaded with the first agent turn: a page that only reads results (the
// viewer) never loads it.
let keyCheck = null;
function replyKeys() {
  // A bundle that left the module out loses the hint, never the turn.
  keyCheck ??= import('./reply_keys.js').then(
    (m) => ({ framework: m.frameworkResultProblem, check: (reply) => m.replyKeyProblem(reply, m.AGENT_REPLY) }),
    () => ({ framework: () => null, check: () => null }),
  );
  return keyCheck;
}

/** The stack of what the agent threw, down to where evalcore called it. */
function agentStack(e) {
  if (typeof e?.stack !== 'string') return undefined;
  const lines = e.stack.split('\n');
  const own = lines.findIndex((l, i) => i > 0 && OWN_FRAME.test(l));
  return (own > 0 ? lines.slice(0, own) : lines).join('\n');
}

/** What a failed fetch says, its causes included (Node's `fetch failed` hides the reason in `cause`). */
function networkText(e) {
  const parts = [errorText(e)];
  for (let c = e?.cause, i = 0; c && i < 3; c = c.cause, i++) parts.push(c.code ? `${c.code}: ${errorText(c)}` : errorText(c));
  return parts.join(': ');
}

function headersOf(res) {
  const out = [];
  try {
    if (res.headers && typeof res.headers.forEach === 'function') {
      res.headers.forEach((v, k) => out.push([k, String(v)]));
    }
  } catch { /* headers are optional */ }
  return out;
}

/** The judge option as the core reads it (everything but `fetch`), plus the host-side parts. */
export function makeHost({ fetchFn, agent, customMetrics, signal, onEvent, onTurn, onEmitError }) {
  const sig = signal ?? NEVER;
  // One listener on the caller's signal for the whole run (not one per call, which trips Node's
  // MaxListenersExceededWarning with many calls in flight); it aborts every pending fetch and
  // ends every pending sleep.
  const pendingFetches = new Set();
  const pendingSleeps = new Set();
  let abortedPromise = new Promise(() => {});
  let onAbort = null;
  if (signal) {
    abortedPromise = new Promise((resolve) => {
      if (signal.aborted) resolve(ABORTED);
      onAbort = () => {
        for (const c of pendingFetches) c.abort();
        for (const done of pendingSleeps) done();
        resolve(ABORTED);
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
  // Each conversation's history, kept here: the core sends only the invocation added since the
  // previous turn (resending the whole history every turn made long conversations quadratic).
  const histories = new Map();
  return {
    /** Done with the host: its listener leaves the caller's signal (a run of many cases adds one per case). */
    close() {
      if (onAbort !== null) signal.removeEventListener('abort', onAbort);
      onAbort = null;
    },
    async fetch(url, headersJson, body, timeoutMs, cancels) {
      if (sig.aborted) return fail('aborted', 'cancelled');
      const ctrl = new AbortController();
      let timedOut = false;
      // The timeout does not trust the host: a fetch (or a body) that ignores its signal still
      // ends when the timer fires, as does the caller's abort.
      let expire;
      const expired = new Promise((resolve) => { expire = resolve; });
      const timer = timeoutMs > 0 ? setTimeout(() => { timedOut = true; ctrl.abort(); expire(TIMED_OUT); }, timeoutMs) : null;
      const ended = Promise.race([expired, abortedPromise]);
      const settled = (p) => Promise.race([p, ended]);
      // When its instance dies the call ends at once: no timer of a dead instance keeps the
      // process alive until it fires.
      const cancel = () => { ctrl.abort(); if (timer !== null) clearTimeout(timer); expire(ABORTED); };
      cancels?.add(cancel);
      pendingFetches.add(ctrl);
      try {
        let pending;
        try {
          pending = fetchFn(url, { method: 'POST', headers: Object.fromEntries(JSON.parse(headersJson)), body, signal: ctrl.signal });
        } catch (e) {
          return fail('thrown', errorText(e));
        }
        let res;
        try {
          res = await settled(pending);
          if (res === TIMED_OUT) return fail('timeout', 'timed out');
          if (res === ABORTED) return fail('aborted', 'cancelled');
        } catch (e) {
          if (timedOut) return fail('timeout', 'timed out');
          if (sig.aborted) return fail('aborted', 'cancelled');
          const why = networkText(e);
          return fail(UNREACHABLE.test(why) ? 'unreachable' : 'network', why);
        }
        if (res === null || typeof res !== 'object' || typeof res.status !== 'number' || typeof res.text !== 'function') {
          return fail('not_response', `expected a Response, found ${describe(res)}`);
        }
        let text;
        try {
          text = await settled(res.text());
          if (text === TIMED_OUT) return fail('timeout', 'timed out');
          if (text === ABORTED) return fail('aborted', 'cancelled');
        } catch (e) {
          if (timedOut) return fail('timeout', 'timed out');
          if (sig.aborted) return fail('aborted', 'cancelled');
          return fail('network', `reading the body failed: ${errorText(e)}`);
        }
        return JSON.stringify({ status: res.status, headers: headersOf(res), body: String(text) });
      } finally {
        if (timer !== null) clearTimeout(timer);
        pendingFetches.delete(ctrl);
        cancels?.delete(cancel);
      }
    },
    // `cancels` (hostFor's): where this sleep's early end is kept for when its instance dies.
    // The promise's `cancel()` ends it early: the core calls it when it stops waiting (a judge
    // call that answered before its timeout timer), so no timer outlives its use.
    sleep(ms, cancels) {
      let cancel = () => {};
      const p = new Promise((resolve) => {
        if (sig.aborted) { resolve(); return; }
        const done = () => { clearTimeout(t); pendingSleeps.delete(done); cancels?.delete(done); resolve(); };
        const t = setTimeout(done, Math.max(0, ms));
        pendingSleeps.add(done);
        cancels?.add(done);
        cancel = done;
      });
      p.cancel = () => cancel();
      return p;
    },
    now: () => Date.now(),
    random: () => Math.random(),
    async agent(turnJson) {
      if (typeof agent !== 'function') return fail('failed', 'no agent was given');
      const turn = JSON.parse(turnJson);
      if (onTurn) onTurn(turn);
      const key = `${turn.run}\u0000${turn.evalId}`;
      let history = histories.get(key);
      if (turn.turnIndex === 0 || history === undefined) {
        history = [];
        histories.set(key, history);
      }
      if (turn.previousInvocation) history.push(turn.previousInvocation);
      delete turn.previousInvocation;
      turn.history = history.slice();
      // Each turn gets a signal of its own, aborted with the run or at the turn's timeout (the
      // core fails the case then): the listeners a framework adds to it go with the turn, not
      // onto one signal shared by every turn of the run.
      const own = new AbortController();
      let expire = null;
      const stop = () => own.abort(sig.reason);
      if (turn.timeoutMs > 0) {
        expire = setTimeout(() => own.abort(new Error(`the turn timed out after ${turn.timeoutMs} ms`)), turn.timeoutMs);
        expire.unref?.();
      }
      if (sig.aborted) stop();
      else if (sig !== NEVER) sig.addEventListener('abort', stop, { once: true });
      turn.signal = own.signal;
      let reply;
      try {
        // An agent that ignores turn.signal must not hold a cancelled run: race it with the abort.
        reply = await Promise.race([agent(turn), abortedPromise]);
        if (reply === ABORTED) return fail('aborted', 'cancelled');
      } catch (e) {
        if (sig.aborted) return fail('aborted', 'cancelled');
        // The turn's own timeout aborted it, and an agent that honours its signal rejects at
        // once: the core's clock, racing this call, reports the timeout (agent_timeout).
        if (own.signal.aborted) return new Promise(() => {});
        return fail('failed', `the agent threw: ${errorText(e)}`, agentStack(e));
      } finally {
        clearTimeout(expire);
        if (sig !== NEVER) sig.removeEventListener('abort', stop);
      }
      if (reply === undefined) return fail('failed', 'the agent returned undefined (return a string or {events | finalResponse, toolCalls})');
      const keys = await replyKeys();
      // A framework's own result is named before it is written: a streamText one may not be JSON.
      const framework = keys.framework(reply);
      if (framework) return fail('failed', framework.message);
      let text;
      try {
        text = JSON.stringify({ ok: reply });
      } catch (e) {
        return fail('failed', `the agent's reply cannot be written as JSON: ${errorText(e)}`);
      }
      const unknown = keys.check(reply);
      return unknown ? fail('failed', unknown.message) : text;
    },
    emit(eventJson) {
      // Called from inside the core: an exception here would unwind wasm frames (a trap).
      try {
        if (onEvent) onEvent(JSON.parse(eventJson));
      } catch (e) {
        if (onEmitError) onEmitError(e);
      }
    },
    aborted: () => sig.aborted,
    hasCustom: (name) => customMetrics != null && Object.prototype.hasOwnProperty.call(customMetrics, name)
      && typeof customMetrics[name] === 'function',
    async custom(name, payloadJson) {
      const p = JSON.parse(payloadJson);
      const input = {
        metricName: p.metric_name,
        criterion: p.criterion,
        threshold: p.threshold,
        actualInvocations: p.actual_invocations,
        expectedInvocations: p.expected_invocations,
        conversationScenario: p.conversation_scenario,
      };
      let out;
      try {
        out = await customMetrics[name](input);
      } catch (e) {
        return fail('failed', errorText(e));
      }
      // JSON would turn NaN and Infinity into null (no score) silently: say so instead.
      const bad = [];
      const text = JSON.stringify({ ok: out === undefined ? null : out }, (k, v) => {
        if (typeof v === 'number' && !Number.isFinite(v)) bad.push(`${k || 'score'}: ${v}`);
        return v;
      });
      if (bad.length > 0) return fail('failed', `returned a non-finite number (${bad.join(', ')}); scores must be finite numbers or null`);
      return text;
    },
  };
}

/**
 * The host as one instance sees it. A trapped instance may still run on until its frames return;
 * from then on its calls reach nobody: no event is delivered, no agent turn or request starts.
 */
export function hostFor(host, gen) {
  const dead = () => gen.trap !== null;
  const gone = () => Promise.resolve(fail('aborted', 'the wasm instance trapped'));
  // Its pending sleeps and requests end when the instance dies (their timers with them).
  const cancels = new Set();
  const end = () => {
    for (const cancel of [...cancels]) cancel();
    cancels.clear();
  };
  gen.onDeath(end);
  return {
    end,
    fetch: (url, headers, body, timeoutMs) => (dead() ? gone() : host.fetch(url, headers, body, timeoutMs, cancels)),
    sleep: (ms) => (dead() ? Promise.resolve() : host.sleep(ms, cancels)),
    now: () => host.now(),
    random: () => host.random(),
    agent: (turn) => (dead() ? gone() : host.agent(turn)),
    emit: (event) => { if (!dead()) host.emit(event); },
    aborted: () => dead() || host.aborted(),
    hasCustom: (name) => host.hasCustom(name),
    custom: (name, payload) => (dead() ? gone() : host.custom(name, payload)),
  };
}


/**
 * An async export called with `host` as its instance sees it (`start(glue, boundHost)`). When
 * the call ends, whatever it left pending ends too: the core races each judge request against
 * its own sleep, and the losing sleep's timer (up to `timeoutMs`) must not keep the process alive.
 */
export async function callWithHost(host, start) {
  let bound = null;
  try {
    return await callAsync((g, gen) => {
      bound = hostFor(host, gen);
      return start(g, bound);
    });
  } finally {
    if (bound !== null) bound.end();
  }
}
