// The async half of the API: judged metrics, custom metrics and the agent run loop.
//
// The core does the work (prompts, provider formats, retries, voting, the run loop); this file
// only gives it the host's capabilities as one object whose callbacks never reject: `fetch`,
// the agent and custom metrics resolve to JSON text, either a result or
// `{"error": {kind, message}}`, so a synchronous throw, a rejection and a malformed value reach
// the core as distinct kinds.
import * as raw from '../wasm/evalcore_core.js';
import { EvalError } from './errors.js';
import { ensureReady } from './state.js';
import { caseArgs, describe, requireObject, stringify, toMember, unwrap, checkLength } from './wire.js';

const NEVER = new AbortController().signal;
const ABORTED = Symbol('aborted');

function errorText(e) {
  if (e instanceof Error) return e.message || e.name;
  try {
    return typeof e === 'string' ? e : JSON.stringify(e);
  } catch {
    return String(e);
  }
}

const fail = (kind, message) => JSON.stringify({ error: { kind, message } });

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
async function judgeOption(judge, fn) {
  if (judge === undefined || judge === null) return { json: '', fetch: null, cassette: null };
  if (typeof judge !== 'object' || Array.isArray(judge)) {
    throw new EvalError('schema', '$.judge', `${fn}: judge must be an object {provider, model, baseUrl?, fetch?, headers?}, found ${describe(judge)}`);
  }
  const fetchFn = judge.fetch === undefined ? globalThis.fetch : judge.fetch;
  // Dry runs and pure replays never send a request, so they need no fetch (hosts that batch).
  if (typeof fetchFn !== 'function' && !judge.dryRun && judge.cassette?.mode !== 'replay') {
    throw new EvalError('schema', '$.judge.fetch', `${fn}: judge.fetch must be a function (this runtime has no global fetch), found ${describe(fetchFn)}`);
  }
  let cassette = null;
  const out = { ...judge };
  delete out.fetch;
  if (judge.cassette !== undefined && judge.cassette !== null) {
    const c = judge.cassette;
    if (typeof c !== 'object') {
      throw new EvalError('schema', '$.judge.cassette', `${fn}: judge.cassette must be {path?, mode?, entries?}, found ${describe(c)}`);
    }
    const mode = c.mode ?? 'auto';
    let entries = c.entries ?? {};
    if (c.path !== undefined) {
      const fs = await import('node:fs/promises');
      try {
        const parsed = JSON.parse(await fs.readFile(c.path, 'utf8'));
        entries = { ...(parsed && parsed.entries ? parsed.entries : {}), ...entries };
      } catch (e) {
        if (e && e.code === 'ENOENT') {
          if (mode === 'replay') {
            throw new EvalError('schema', '$.judge.cassette.path', `${fn}: the cassette file ${c.path} does not exist (mode "replay" needs a recorded cassette)`);
          }
        } else {
          throw new EvalError('invalid_json', '$.judge.cassette.path', `${fn}: cannot read the cassette ${c.path}: ${errorText(e)}`, { cause: e });
        }
      }
    }
    cassette = { path: c.path, mode, entries: { ...entries }, added: 0, onRecord: c.onRecord };
    out.cassette = { mode, entries };
  }
  return { json: stringify(out, 'judge'), fetch: fetchFn, cassette };
}

async function saveCassette(cassette) {
  if (!cassette || !cassette.path || cassette.added === 0) return;
  const fs = await import('node:fs/promises');
  const sorted = Object.fromEntries(Object.entries(cassette.entries).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  await fs.writeFile(cassette.path, `${JSON.stringify({ version: 1, entries: sorted }, null, 2)}\n`);
}

function makeHost({ fetchFn, agent, customMetrics, signal, onEvent }) {
  const sig = signal ?? NEVER;
  // One listener on the caller's signal for the whole run (not one per call, which trips Node's
  // MaxListenersExceededWarning with many calls in flight); it aborts every pending fetch and
  // ends every pending sleep.
  const pendingFetches = new Set();
  const pendingSleeps = new Set();
  let abortedPromise = new Promise(() => {});
  if (signal) {
    abortedPromise = new Promise((resolve) => {
      if (signal.aborted) resolve(ABORTED);
      signal.addEventListener('abort', () => {
        for (const c of pendingFetches) c.abort();
        for (const done of pendingSleeps) done();
        resolve(ABORTED);
      }, { once: true });
    });
  }
  // Each conversation's history, kept here: the core sends only the invocation added since the
  // previous turn (resending the whole history every turn made long conversations quadratic).
  const histories = new Map();
  return {
    async fetch(url, headersJson, body, timeoutMs) {
      if (sig.aborted) return fail('aborted', 'cancelled');
      const ctrl = new AbortController();
      let timedOut = false;
      const timer = timeoutMs > 0 ? setTimeout(() => { timedOut = true; ctrl.abort(); }, timeoutMs) : null;
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
          res = await pending;
        } catch (e) {
          if (timedOut) return fail('timeout', 'timed out');
          if (sig.aborted) return fail('aborted', 'cancelled');
          return fail('network', errorText(e));
        }
        if (res === null || typeof res !== 'object' || typeof res.status !== 'number' || typeof res.text !== 'function') {
          return fail('not_response', `expected a Response, found ${describe(res)}`);
        }
        let text;
        try {
          text = await res.text();
        } catch (e) {
          if (timedOut) return fail('timeout', 'timed out');
          if (sig.aborted) return fail('aborted', 'cancelled');
          return fail('network', `reading the body failed: ${errorText(e)}`);
        }
        return JSON.stringify({ status: res.status, headers: headersOf(res), body: String(text) });
      } finally {
        if (timer !== null) clearTimeout(timer);
        pendingFetches.delete(ctrl);
      }
    },
    sleep(ms) {
      return new Promise((resolve) => {
        if (sig.aborted) { resolve(); return; }
        const done = () => { clearTimeout(t); pendingSleeps.delete(done); resolve(); };
        const t = setTimeout(done, Math.max(0, ms));
        pendingSleeps.add(done);
      });
    },
    now: () => Date.now(),
    random: () => Math.random(),
    async agent(turnJson) {
      if (typeof agent !== 'function') return fail('failed', 'no agent was given');
      const turn = JSON.parse(turnJson);
      const key = `${turn.run}\u0000${turn.evalId}`;
      let history = histories.get(key);
      if (turn.turnIndex === 0 || history === undefined) {
        history = [];
        histories.set(key, history);
      }
      if (turn.previousInvocation) history.push(turn.previousInvocation);
      delete turn.previousInvocation;
      turn.history = history.slice();
      turn.signal = sig;
      let reply;
      try {
        // An agent that ignores turn.signal must not hold a cancelled run: race it with the abort.
        reply = await Promise.race([agent(turn), abortedPromise]);
        if (reply === ABORTED) return fail('aborted', 'cancelled');
      } catch (e) {
        if (sig.aborted) return fail('aborted', 'cancelled');
        return fail('failed', `the agent threw: ${errorText(e)}`);
      }
      if (reply === undefined) return fail('failed', 'the agent returned undefined (return a string or {events | finalResponse, toolCalls})');
      try {
        return JSON.stringify({ ok: reply });
      } catch (e) {
        return fail('failed', `the agent's reply cannot be written as JSON: ${errorText(e)}`);
      }
    },
    emit(eventJson) {
      if (onEvent) onEvent(JSON.parse(eventJson));
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

function checkCustom(customMetrics, fn) {
  if (customMetrics === undefined || customMetrics === null) return null;
  if (typeof customMetrics !== 'object' || Array.isArray(customMetrics)) {
    throw new EvalError('schema', '$.customMetrics', `${fn}: customMetrics must map metric names to functions, found ${describe(customMetrics)}`);
  }
  for (const [k, v] of Object.entries(customMetrics)) {
    if (typeof v !== 'function') {
      throw new EvalError('schema', `$.customMetrics.${k}`, `${fn}: customMetrics.${k} must be a function, found ${describe(v)}`);
    }
  }
  return customMetrics;
}

function cassetteRecorder(cassette, next) {
  return (ev) => {
    if (ev.type === 'cassette' && cassette) {
      cassette.entries[ev.key] = ev.entry;
      cassette.added += 1;
      if (typeof cassette.onRecord === 'function') cassette.onRecord(ev.key, ev.entry);
      return;
    }
    if (next) next(ev);
  };
}

/** evaluateInvocations with a judge or custom metrics (called by api.js). */
export async function evaluateInvocationsJudged(args) {
  ensureReady();
  const text = caseArgs(args, 'evaluateInvocations', true);
  const custom = checkCustom(args.customMetrics, 'evaluateInvocations');
  const judge = await judgeOption(args.judge, 'evaluateInvocations');
  const host = makeHost({ fetchFn: judge.fetch, customMetrics: custom, signal: args.signal, onEvent: cassetteRecorder(judge.cassette, null) });
  const out = await raw.evaluateInvocationsAsync(text, judge.json, host);
  await saveCassette(judge.cassette);
  return unwrap(out);
}

/**
 * Every judge call `evaluateInvocations(args)` would make, without sending any:
 * `{count, estimatedTokens, calls: [{metric, invocationIndex, sample, kind, provider, model, key, estimatedTokens}],
 *   pendingValidatorCallsAtMost}`.
 */
export async function planJudgeCalls(args) {
  ensureReady();
  const text = caseArgs(args, 'planJudgeCalls', true);
  const judge = await judgeOption(args.judge === undefined ? undefined : { ...args.judge, dryRun: true }, 'planJudgeCalls');
  const host = makeHost({ fetchFn: null });
  return unwrap(await raw.planJudgeCallsAsync(text, judge.json, host));
}

/**
 * Runs `agent` over an eval set (static conversations, or a simulated user for
 * conversation_scenario cases), scores every case, and returns ADK's EvalSetResult.
 */
export async function evaluate(args) {
  ensureReady();
  requireObject(args, 'evaluate');
  const { evalSet, agent, config, judge, numRuns, concurrency, evalIds, signal, onProgress, onCaseResult, customMetrics, appName } = args;
  if (evalSet === undefined || evalSet === null) {
    throw new EvalError('schema', '$.evalSet', 'evaluate: evalSet is required (an eval set object, JSON text or bytes)');
  }
  if (typeof agent !== 'function') {
    throw new EvalError('schema', '$.agent', `evaluate: agent must be a function (turn) => reply, found ${describe(agent)}`);
  }
  for (const [name, v] of [['onProgress', onProgress], ['onCaseResult', onCaseResult]]) {
    if (v !== undefined && typeof v !== 'function') {
      throw new EvalError('schema', `$.${name}`, `evaluate: ${name} must be a function, found ${describe(v)}`);
    }
  }
  if (signal !== undefined && (signal === null || typeof signal.aborted !== 'boolean' || typeof signal.addEventListener !== 'function')) {
    throw new EvalError('schema', '$.signal', `evaluate: signal must be an AbortSignal, found ${describe(signal)}`);
  }
  const members = [`"evalSet":${toMember(evalSet, 'evalSet')}`];
  if (config !== undefined && config !== null) members.push(`"config":${toMember(config, 'config', true)}`);
  const num = (v, name, min) => {
    if (v === undefined || v === null) return;
    if (!Number.isInteger(v) || v < min) {
      throw new EvalError('schema', `$.${name}`, `evaluate: ${name} must be an integer >= ${min}, found ${JSON.stringify(v)}`);
    }
    members.push(`"${name}":${v}`);
  };
  num(numRuns, 'numRuns', 1);
  num(concurrency, 'concurrency', 1);
  if (evalIds !== undefined && evalIds !== null) {
    if (!Array.isArray(evalIds) || evalIds.some((x) => typeof x !== 'string')) {
      throw new EvalError('schema', '$.evalIds', `evaluate: evalIds must be an array of strings, found ${describe(evalIds)}`);
    }
    members.push(`"evalIds":${stringify(evalIds, 'evalIds')}`);
  }
  if (appName !== undefined && appName !== null) members.push(`"appName":${stringify(String(appName), 'appName')}`);
  for (const k of ['includeInvocations', 'perInvocation', 'efficiencyMetrics']) {
    if (args[k] !== undefined) members.push(`"${k}":${stringify(Boolean(args[k]), k)}`);
  }
  const custom = checkCustom(customMetrics, 'evaluate');
  const j = await judgeOption(judge, 'evaluate');
  const listenerErrors = [];
  const safe = (f, v) => {
    try { f(v); } catch (e) { listenerErrors.push(e); }
  };
  const onEvent = cassetteRecorder(j.cassette, (ev) => {
    if (ev.type === 'progress' && onProgress) {
      const { type, ...p } = ev;
      safe(onProgress, p);
    } else if (ev.type === 'case_result' && onCaseResult) {
      safe(onCaseResult, ev.result);
    }
  });
  const host = makeHost({ fetchFn: j.fetch, agent, customMetrics: custom, signal, onEvent });
  const out = await raw.evaluateAsync(checkLength(`{${members.join(',')}}`, 'evaluate'), j.json, host);
  await saveCassette(j.cassette);
  const result = unwrap(out);
  if (signal && signal.aborted) {
    const err = new Error('evalcore: the evaluation was aborted; `partialResult` holds the cases that completed', { cause: signal.reason });
    err.name = 'AbortError';
    err.partialResult = result;
    throw err;
  }
  if (listenerErrors.length > 0) {
    const err = new AggregateError(listenerErrors, 'evalcore: an onProgress/onCaseResult callback threw (the evaluation itself completed; `result` holds it)');
    err.result = result;
    throw err;
  }
  return result;
}
