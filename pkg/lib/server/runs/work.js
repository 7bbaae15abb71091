//! A batch of units of one run worked through: the coordinator asked which are still to do (a
//! redelivered unit that has a result is acknowledged without work), each scored (score.js),
//! its result stored under its attempt's key and offered to the coordinator, which keeps the
//! first result of a unit (a duplicate attempt's file is deleted). A unit that fails is handed
//! back for a retry with its error told to the coordinator; one the core refuses is given up on
//! at once. A cancelled run stops its judge calls within `pollMs`.
import { FINAL } from './ledger.js';
import { attemptTag, caseBytes } from './files.js';
import { BudgetSpent, PermanentError, pacedJudge, scoreUnit, subrequests } from './score.js';
import { linkedSignal } from './pace.js';

/** How often a batch asks its coordinator whether the run was cancelled. */
export const CANCEL_POLL_MS = 500;

/** An error as the ledger keeps it: `{code, path, message}` (a message at most 1,000 characters). */
export function errorRecord(e) {
  const message = String(e?.message ?? e).slice(0, 1000);
  return { code: typeof e?.code === 'string' ? e.code : e instanceof BudgetSpent ? 'subrequests' : 'unit_failed', path: typeof e?.path === 'string' ? e.path : '', message };
}

/**
 * Works `items` (`[{unit, chunk, ack(), retry(error)}]`) of run `runId`. Ports:
 * - `coordinator`: `claim(units) -> {status, pending}`, `record(entry) -> {kept}`,
 *   `failed(unit, error)`, `deadLetter(unit, evalId, error)`, `watch(onCancel) -> stop()`
 * - `files` (runFiles), `scoring` (`{judge, agents, limits}` of the server), `pace` (the key's
 *   shared pace: `{acquire, throttled}`), `budget` (subrequests(), counting store and
 *   coordinator calls too), `concurrency` (units at once).
 */
export async function workBatch({ runId, items, coordinator, files, scoring, pace, budget = subrequests(), concurrency = 4, log = () => {} }) {
  budget.take(1);
  const { status, pending } = await coordinator.claim(items.map((i) => i.unit));
  const todo = new Set(pending);
  if (FINAL.has(status)) {
    for (const it of items) it.ack();
    return { worked: 0 };
  }
  for (const it of items) if (!todo.has(it.unit)) it.ack();
  const left = items.filter((it) => todo.has(it.unit));
  if (left.length === 0) return { worked: 0 };
  budget.take(1);
  const head = await files.head(runId);
  if (head === null) {
    // The run's input is gone (deleted under it): nothing here can be scored.
    for (const it of left) it.retry(new Error(`the input of run ${runId} is missing from the store`));
    return { worked: 0 };
  }
  const abort = new AbortController();
  const stop = coordinator.watch(() => abort.abort(new Error('the run was cancelled')));
  const judge = pacedJudge(scoring.judge, {
    pace, signal: abort.signal, runId, perMinute: head.judgeCallsPerMinute, budget,
    concurrency: Math.max(1, head.judgeConcurrency ?? scoring.limits.judgeConcurrency), maxCalls: scoring.limits.maxCalls,
  });
  const agent = head.mode === 'agent' ? scoring.agents.get(head.agent) : undefined;
  let next = 0;
  let worked = 0;
  const one = async (it) => {
    if (abort.signal.aborted) return it.ack();
    try {
      budget.take(1);
      const chunk = await files.chunkOf(head, it.chunk);
      if (chunk === null) throw new Error(`chunk ${it.chunk} of run ${runId} is missing from the store`);
      if (head.mode === 'agent' && agent === undefined) throw new PermanentError('unknown_agent', '$.agent', `this server runs no agent "${head.agent}" (EVALCORE_AGENTS)`);
      // Each case its own signal, tied to the batch's for the case's time only (the host listens
      // on the signal it is given).
      const own = linkedSignal(abort.signal);
      let scored;
      try {
        scored = await scoreUnit({ head, chunk, unit: it.unit, judge, agent, signal: own.signal, agentTimeoutMs: scoring.limits.agentTimeoutMs });
      } finally {
        own.done();
      }
      const { result, stats } = scored;
      // A cancel while the case was scored: its result (cut short) is not kept.
      if (abort.signal.aborted) return it.ack();
      budget.take(3);
      const bytes = caseBytes(result);
      const key = await files.putCase(runId, it.unit, attemptTag(), bytes);
      const { kept } = await coordinator.record({ unit: it.unit, eval_id: result.eval_id, status: result.final_eval_status, key, bytes: bytes.byteLength, stats });
      if (!kept) await files.remove(key).catch(() => {});
      worked++;
      return it.ack();
    } catch (e) {
      if (abort.signal.aborted) return it.ack();
      const error = errorRecord(e);
      if (e instanceof PermanentError) {
        await coordinator.deadLetter(it.unit, evalIdOf(head, it.unit), error);
        return it.ack();
      }
      log({ run: runId, unit: it.unit, error });
      await coordinator.failed(it.unit, error).catch(() => {});
      return it.retry(e);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, left.length) }, async () => {
      while (next < left.length) await one(left[next++]);
    }));
  } finally {
    stop();
  }
  return { worked };
}

/** The eval id of a unit, from the head's places. */
export function evalIdOf(head, unit) {
  const index = Number(unit.split('.')[1]);
  return head.places.find((p) => p.index === index)?.eval_id ?? null;
}
