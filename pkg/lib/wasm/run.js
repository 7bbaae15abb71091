// The async half of the API: judged metrics, custom metrics and the agent run loop.
//
// The core does the work (prompts, provider formats, retries, voting, the run loop); this file
// checks the options, hands the core the host's capabilities (host.js), keeps judge cassettes,
// and carries evaluate() across a trap (resume.js).
import { EvalError } from '../errors.js';
import { instance as ensureReady } from './instance.js';
import { extras, main } from './exports.js';
import { expandColumns } from './columns.js';
import {
  TO_EXTRAS, caseParts, configMember, describe, evalSetMember, requireObject, stringify, toMember, unwrap, checkLength,
  parseJsonBytes,
} from './wire.js';
import { RunRecord, merge, pairsOf } from './resume.js';
import { callWithHost, errorText, makeHost } from './host.js';
import { runHealth } from '../health.js';

/** Strict runs refuse a config with warnings (ADK would run it, ignoring what it cannot use). */
function strictConfig(config, fn) {
  try {
    const text = config === undefined || config === null ? '' : toMember(config, 'config', true);
    const raw = main.loadEvalConfigJson(text, '{"strict":true}');
    unwrap(raw === TO_EXTRAS ? extras.loadAgentsCliConfigJson(text, '{"strict":true}') : raw);
  } catch (e) {
    if (!(e instanceof EvalError)) throw e;
    throw new EvalError(e.code, e.path === '' || e.path === '$' ? '$.config' : e.path.replace(/^\$/, '$.config'), `${fn} (strict): ${e.message}`, { cause: e });
  }
}

function checkJudgeType(judge, fn) {
  if (judge !== undefined && judge !== null && (typeof judge !== 'object' || Array.isArray(judge))) {
    throw new EvalError('schema', '$.judge', `${fn}: judge must be an object {provider, model, baseUrl?, fetch?, headers?}, found ${describe(judge)}`);
  }
}

async function judgeOption(judge, fn) {
  if (judge === undefined || judge === null) return { json: '', fetch: null, cassette: null };
  checkJudgeType(judge, fn);
  const fetchFn = judge.fetch === undefined ? globalThis.fetch : judge.fetch;
  // Dry runs and pure replays never send a request, so they need no fetch (hosts that batch).
  if (typeof fetchFn !== 'function' && !judge.dryRun && judge.cassette?.mode !== 'replay') {
    throw new EvalError('schema', '$.judge.fetch', `${fn}: judge.fetch must be a function (this runtime has no global fetch), found ${describe(fetchFn)}`);
  }
  let cassette = null;
  let out;
  try {
    out = { ...judge };
  } catch (cause) {
    throw new EvalError('schema', '$.judge', `${fn}: judge cannot be read as an object: ${errorText(cause)}`, { cause });
  }
  delete out.fetch;
  if (judge.cassette !== undefined && judge.cassette !== null) {
    const c = judge.cassette;
    if (typeof c !== 'object') {
      throw new EvalError('schema', '$.judge.cassette', `${fn}: judge.cassette must be {path?, mode?, entries?}, found ${describe(c)}`);
    }
    const mode = c.mode ?? 'auto';
    let entries = c.entries ?? {};
    if (c.path !== undefined) {
      try {
        const parsed = parseJsonBytes(await readRegularFileAsync(c.path), `${fn}: judge.cassette.path ${c.path}`);
        entries = { ...(parsed && parsed.entries ? parsed.entries : {}), ...entries };
      } catch (e) {
        if (e instanceof EvalError) {
          throw new EvalError(e.code, '$.judge.cassette.path', `${fn}: cannot read the cassette ${c.path}: ${e.message}`, { cause: e });
        }
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

// A cassette file's bytes: a regular file only (a FIFO would block the read forever), checked
// before opening and again on the descriptor, which is opened non-blocking.
async function readRegularFileAsync(path) {
  const fs = await import('node:fs/promises');
  const { constants } = await import('node:fs');
  const notRegular = () => new EvalError('not_a_file', '$.judge.cassette.path', `the cassette ${path} is not a regular file`);
  if (!(await fs.stat(path)).isFile()) throw notRegular();
  const handle = await fs.open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    if (!(await handle.stat()).isFile()) throw notRegular();
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

async function saveCassette(cassette) {
  if (!cassette || !cassette.path || cassette.added === 0) return;
  const fs = await import('node:fs/promises');
  const sorted = Object.fromEntries(Object.entries(cassette.entries).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  await fs.writeFile(cassette.path, `${JSON.stringify({ version: 1, entries: sorted }, null, 2)}\n`);
}

function checkCustom(customMetrics, fn) {
  if (customMetrics === undefined || customMetrics === null) return null;
  if (typeof customMetrics !== 'object' || Array.isArray(customMetrics)) {
    throw new EvalError('schema', '$.customMetrics', `${fn}: customMetrics must map metric names to functions, found ${describe(customMetrics)}`);
  }
  let entries;
  try {
    entries = Object.entries(customMetrics);
  } catch (cause) {
    throw new EvalError('schema', '$.customMetrics', `${fn}: customMetrics cannot be read as an object: ${errorText(cause)}`, { cause });
  }
  for (const [k, v] of entries) {
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
  const wire = { held: null };
  const parts = caseParts(args, 'evaluateInvocations', true, wire);
  const custom = checkCustom(args.customMetrics, 'evaluateInvocations');
  const { onJudgeStats } = args;
  if (onJudgeStats !== undefined && onJudgeStats !== null && typeof onJudgeStats !== 'function') {
    throw new EvalError('schema', '$.onJudgeStats', `evaluateInvocations: onJudgeStats must be a function (stats) => void, found ${describe(onJudgeStats)}`);
  }
  const judge = await judgeOption(args.judge, 'evaluateInvocations');
  const emitErrors = [];
  // The case's judge counters, told once the case is scored (a run of many cases sums them),
  // with the calls a dry run listed.
  let judgeStats = null;
  let judgePlan;
  const host = makeHost({
    fetchFn: judge.fetch, customMetrics: custom, signal: args.signal,
    onEvent: cassetteRecorder(judge.cassette, (ev) => {
      if (ev.type === 'judge_stats') [judgeStats, judgePlan] = [ev.stats, ev.plan];
    }),
    onEmitError: (e) => emitErrors.push(e),
  });
  let out;
  try {
    out = await callWithHost(host, (g, h) => main.on.evaluateInvocationsAsync(g, ...parts, judge.json, h));
  } finally {
    host.close();
    // What was recorded is kept, even when the call failed (a trap).
    await saveCassette(judge.cassette);
  }
  const result = unwrap(out);
  expandColumns(result, wire.held);
  if (emitErrors.length > 0) {
    throw new EvalError('callback_error', '$.judge.cassette.onRecord', `evaluateInvocations: judge.cassette.onRecord threw: ${errorText(emitErrors[0])}`, { cause: emitErrors[0] });
  }
  if (judgeStats !== null && typeof onJudgeStats === 'function') {
    try {
      onJudgeStats(judgeStats, judgePlan);
    } catch (e) {
      throw new EvalError('callback_error', '$.onJudgeStats', `evaluateInvocations: onJudgeStats threw: ${errorText(e)}`, { cause: e });
    }
  }
  return result;
}

/**
 * Every judge call `evaluateInvocations(args)` would make, without sending any:
 * `{count, estimatedTokens, calls: [{metric, invocationIndex, sample, kind, provider, model, key, estimatedTokens}],
 *   pendingValidatorCallsAtMost}`.
 */
export async function planJudgeCalls(args) {
  ensureReady();
  requireObject(args, 'planJudgeCalls');
  // Checked before anything is copied: spreading a long string would make an object of its characters.
  checkJudgeType(args.judge, 'planJudgeCalls');
  const parts = caseParts(args, 'planJudgeCalls', true);
  let dry;
  if (args.judge !== undefined && args.judge !== null) {
    try {
      dry = { ...args.judge, dryRun: true };
    } catch (cause) {
      throw new EvalError('schema', '$.judge', `planJudgeCalls: judge cannot be read as an object: ${errorText(cause)}`, { cause });
    }
  }
  const judge = await judgeOption(dry, 'planJudgeCalls');
  const host = makeHost({ fetchFn: null });
  return unwrap(await callWithHost(host, (g, h) => main.on.planJudgeCallsAsync(g, ...parts, judge.json, h)));
}

/**
 * Runs `agent` over an eval set (static conversations, or a simulated user for
 * conversation_scenario cases), scores every case, and returns ADK's EvalSetResult. The public
 * `evaluate` (evaluate.js) sends recorded and remote runs elsewhere first.
 */
export async function evaluate(args) {
  ensureReady();
  requireObject(args, 'evaluate');
  const { evalSet, agent, config, judge, numRuns, concurrency, evalIds, signal, onProgress, onCaseResult, customMetrics, appName, strict, agentTimeoutMs } = args;
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
  const members = [`"evalSet":${evalSetMember(evalSet)}`];
  if (config !== undefined && config !== null) members.push(`"config":${configMember(config)}`);
  const num = (v, name, min) => {
    if (v === undefined || v === null) return undefined;
    if (!Number.isInteger(v) || v < min) {
      throw new EvalError('schema', `$.${name}`, `evaluate: ${name} must be an integer >= ${min}, found ${typeof v === 'number' ? v : describe(v)}`);
    }
    return v;
  };
  const runs = num(numRuns, 'numRuns', 1);
  if (agentTimeoutMs !== undefined && agentTimeoutMs !== null) {
    if (typeof agentTimeoutMs !== 'number' || !(agentTimeoutMs >= 0) || !Number.isFinite(agentTimeoutMs)) {
      throw new EvalError('schema', '$.agentTimeoutMs', `evaluate: agentTimeoutMs must be a number of milliseconds >= 0 (0: no timeout), found ${describe(agentTimeoutMs)}`);
    }
    members.push(`"agentTimeoutMs":${agentTimeoutMs}`);
  }
  if (strict !== undefined && typeof strict !== 'boolean') {
    throw new EvalError('schema', '$.strict', `evaluate: strict must be a boolean, found ${describe(strict)}`);
  }
  // Strict: a config warning fails the run before any agent turn.
  if (strict) strictConfig(config, 'evaluate');
  const conc = num(concurrency, 'concurrency', 1);
  if (conc !== undefined) members.push(`"concurrency":${conc}`);
  if (evalIds !== undefined && evalIds !== null) {
    if (!Array.isArray(evalIds) || evalIds.some((x) => typeof x !== 'string')) {
      throw new EvalError('schema', '$.evalIds', `evaluate: evalIds must be an array of strings, found ${describe(evalIds)}`);
    }
  }
  if (appName !== undefined && appName !== null) members.push(`"appName":${stringify(String(appName), 'appName')}`);
  for (const k of ['includeInvocations', 'perInvocation', 'efficiencyMetrics', 'explain']) {
    if (args[k] !== undefined) members.push(`"${k}":${stringify(Boolean(args[k]), k)}`);
  }
  // The args of one call: the whole request, or after a trap the runs and cases left.
  const argsText = (ids, count) => {
    const m = [...members];
    if (count !== undefined) m.push(`"numRuns":${count}`);
    if (ids !== undefined && ids !== null) m.push(`"evalIds":${stringify(ids, 'evalIds')}`);
    return checkLength(`{${m.join(',')}}`, 'evaluate');
  };
  const first = argsText(evalIds, runs);
  const custom = checkCustom(customMetrics, 'evaluate');
  const j = await judgeOption(judge, 'evaluate');
  const listenerErrors = [];
  const safe = (f, v) => {
    try { f(v); } catch (e) { listenerErrors.push(e); }
  };
  let lastProgress = null;
  const deliver = (ev) => {
    if (ev.type === 'progress' && onProgress) {
      const { type, ...p } = ev;
      lastProgress = p;
      safe(onProgress, p);
    } else if (ev.type === 'judge_retry' && onProgress) {
      // A judge call waits before its next attempt: the wait is shown, with the run's counts.
      const { type, ...retry } = ev;
      safe(onProgress, { ...(lastProgress ?? { run: 0, casesDone: 0, casesTotal: 0, passed: 0, failed: 0, notEvaluated: 0 }), phase: 'judge_retry', retry });
    } else if (ev.type === 'case_result' && onCaseResult) {
      safe(onCaseResult, ev.result);
    }
  };
  const record = new RunRecord(runs ?? 1);
  const onEvent = cassetteRecorder(j.cassette, (ev) => {
    const out = record.event(ev);
    if (out !== null) deliver(out);
  });
  const host = makeHost({
    fetchFn: j.fetch, agent, customMetrics: custom, signal, onEvent,
    onTurn: (t) => record.turn(t), onEmitError: (e) => listenerErrors.push(e),
  });
  const calls = [];
  let result;
  try {
    try {
      result = unwrap(await callWithHost(host, (g, h) => main.on.evaluateAsync(g, first, j.json, h)));
    } catch (e) {
      // A trap before the run loop began (the eval set itself) has nothing to keep: it is thrown.
      if (!(e instanceof EvalError) || e.code !== 'trap' || !record.callStarted) throw e;
      result = await resumeAfterTrap(e);
    }
  } finally {
    host.close();
    // What was recorded is kept, even when the run failed.
    await saveCassette(j.cassette);
  }
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
  if (strict) {
    // Strict is about what could not be judged: a case the agent failed is FAILED already.
    const h = runHealth(result);
    if (h.count > 0) {
      const err = new EvalError('strict', '', `evaluate (strict): ${h.summary}. \`result\` holds the whole result`);
      err.result = result;
      throw err;
    }
  }
  return result;

  // The cases that were running are FAILED (`trap`); the rest run on a fresh instance, in as
  // many calls as traps need; the results of every call are merged into one EvalSetResult.
  async function resumeAfterTrap(trap) {
    const set = unwrap(main.loadEvalSetJson(members[0].slice('"evalSet":'.length), ''));
    if (record.setId === null) record.setId = set.eval_set_id;
    const ids = evalIds ?? set.eval_cases.map((c) => c.eval_id);
    const fail = (err, pairs) => {
      for (const r of record.failAfterTrap(err, pairs)) {
        deliver({ type: 'case_result', result: r });
        deliver(record.progress('case', r.run, r.eval_id));
      }
    };
    fail(trap, pairsOf(ids, 0, runs ?? 1));
    let plan = record.plan(ids);
    // With nothing left, an empty call still gives the result's ids and timestamp.
    if (plan.length === 0) plan = [{ from: 0, count: 1, ids: [] }];
    while (plan.length > 0) {
      const call = plan.shift();
      record.offset = call.from;
      record.callStarted = false;
      try {
        const out = unwrap(await callWithHost(host, (g, h) => main.on.evaluateAsync(g, argsText(call.ids, call.count), j.json, h)));
        calls.push({ from: call.from, result: out });
      } catch (e) {
        if (!(e instanceof EvalError) || e.code !== 'trap') throw e;
        if (call.ids.length === 0) {
          // Even an empty run traps: the eval set itself does. What completed is kept here.
          e.partialResult = { eval_set_id: record.setId, eval_case_results: record.results };
          throw e;
        }
        fail(e, pairsOf(call.ids, call.from, call.count));
        plan = record.plan(ids);
        if (plan.length === 0 && calls.length === 0) plan = [{ from: 0, count: 1, ids: [] }];
      }
    }
    deliver(record.progress('done', (runs ?? 1) - 1, null));
    // The core computes the run summary of the merged result, as it does for a result file.
    const summaryOf = (merged) => unwrap(main.loadEvalSetResultJson(stringify(merged, 'result'), '{"runSummary":true}')).run_summary;
    return merge(record, calls, summaryOf);
  }
}
