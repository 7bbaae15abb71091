//! One unit of work: one case of one run scored, the recorded invocations as
//! `evaluateInvocations` scores them, or the server's agent run on the case as `evaluate` runs
//! it, through a judge whose calls the key's shared pace lets start. What a unit is, not when it
//! runs: the Workers queue consumer and the Node server both call this.
import { EvalError } from '../../errors.js';
import { evaluateInvocations } from '../../wasm/api.js';
import { evaluate } from '../../run/evaluate.js';
import { pacedFetch } from './pace.js';
import { parseUnit } from './ledger.js';

/** An error that retrying cannot fix: the unit is given up on at once (and the run says why). */
export class PermanentError extends Error {
  constructor(code, path, message) {
    super(message);
    this.code = code;
    this.path = path;
  }
}

/** An invocation ran out of its subrequest allowance: the unit is retried in another one. */
export class BudgetSpent extends Error {}

/**
 * A counter of what one invocation may still send (Workers' subrequests per invocation;
 * Infinity on Node). `take(n)` throws BudgetSpent past it.
 */
export function subrequests(max = Infinity) {
  let used = 0;
  return {
    take(n = 1) {
      if (used + n > max) throw new BudgetSpent(`this invocation has used ${used} of its ${max} subrequests (EVALCORE_RUN_SUBREQUESTS)`);
      used += n;
    },
    get used() {
      return used;
    },
  };
}

/** At most `n` at once: `run(fn)` waits for a slot. */
export function semaphore(n) {
  let free = n;
  const waiting = [];
  return async (fn) => {
    if (free > 0) free--;
    else await new Promise((resolve) => waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}

/**
 * The server's judge for the units of one invocation: each call waits for a slot of
 * `concurrency` (its wait for the pace counted in it, so no more calls wait than run), asks the
 * shared `pace`, counts against `budget`, and stops with `signal`. Null without a judge.
 */
export function pacedJudge(judge, { pace, signal, runId, perMinute, concurrency, budget, maxCalls }) {
  if (judge === null || judge === undefined) return null;
  const send = judge.fetch ?? globalThis.fetch;
  const slot = semaphore(concurrency);
  // Every ask of the pace and every call is a subrequest of the invocation.
  const counted = (input, init) => {
    budget.take(1);
    return send(input, init);
  };
  const countedPace = {
    acquire: (o) => {
      budget.take(1);
      return pace.acquire(o);
    },
    confirm: (o) => {
      budget.take(1);
      return pace.confirm(o);
    },
    throttled: (info) => {
      budget.take(1);
      return pace.throttled(info);
    },
  };
  const paced = pacedFetch(counted, countedPace, { signal, run: runId, runPerMinute: perMinute });
  return { ...judge, fetch: (input, init) => slot(() => paced(input, init)), maxCalls };
}

/**
 * Scores `unit` of the run whose input is `head` and `chunk`: resolves to `{result, stats}`
 * (the EvalCaseResult, its run set for agent runs, and the judge counters it spent). An input
 * the core refuses throws PermanentError; anything else thrown may succeed on a retry.
 */
export async function scoreUnit({ head, chunk, unit, judge, agent, signal, agentTimeoutMs }) {
  const place = parseUnit(unit);
  const entry = place === null ? undefined : chunk.cases.find((c) => c.index === place.index);
  if (entry === undefined) throw new PermanentError('internal', '', `unit ${unit} is not in its chunk of the run's input`);
  const evalSetId = head.evalSet.eval_set_id;
  try {
    if (head.mode === 'recorded') {
      let stats = null;
      const result = await evaluateInvocations({
        evalCase: entry.evalCase, actual: Object.hasOwn(chunk.actual, entry.evalCase.eval_id) ? chunk.actual[entry.evalCase.eval_id] : undefined, config: head.config, judge: judge ?? undefined, evalSetId, signal,
        ...(judge ? { onJudgeStats: (s) => { stats = s; } } : {}),
      });
      return { result, stats };
    }
    // One run of one case, as run `place.run` of the whole: the agent is told its run, and the
    // invocation ids the core makes (`e-<run>-<eval id>-<turn>`) carry it.
    const runAgent = place.run === 0 ? agent : (turn) => agent({ ...turn, run: place.run });
    const out = await evaluate({
      evalSet: { ...head.evalSet, eval_cases: [entry.evalCase] }, agent: runAgent, config: head.config, judge: judge ?? undefined,
      numRuns: 1, concurrency: 1, signal, agentTimeoutMs,
    });
    const result = out.eval_case_results[0];
    if (result === undefined) throw new Error(`the agent run of unit ${unit} gave no case result`);
    const renumbered = place.run === 0 ? result : withRun(result, place.run, `e-0-${entry.evalCase.eval_id}-`);
    return { result: { ...renumbered, run: place.run }, stats: out.judge_stats ?? null };
  } catch (e) {
    // The core refused the case itself (count_mismatch, duplicate rubric ids): no retry helps.
    if (e instanceof EvalError && !['trap', 'internal', 'io'].includes(e.code) && e.name !== 'AbortError') {
      throw new PermanentError(e.code, e.path, `case "${entry.evalCase.eval_id}": ${e.message}`);
    }
    throw e;
  }
}

/** `value` with every string `<prefix><turn>` (an invocation id of run 0) made run `run`'s. */
function withRun(value, run, prefix) {
  if (typeof value === 'string') {
    return value.startsWith(prefix) && /^\d+$/.test(value.slice(prefix.length)) ? `e-${run}-${value.slice(4)}` : value;
  }
  if (Array.isArray(value)) return value.map((v) => withRun(v, run, prefix));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withRun(v, run, prefix)]));
}
