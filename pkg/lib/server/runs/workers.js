//! Runs on Cloudflare Workers: the backend the routes call (the input and results in R2, one
//! Durable Object per run), and the queue consumer: each batch of unit messages worked as
//! work.js works units, its judge calls paced by the judge key's Durable Object, a failed unit
//! retried with back-off by the queue, a dead-lettered one reported to its run.
import { idOfIndexKey, indexKey } from './files.js';
import { BudgetSpent, subrequests } from './score.js';
import { CANCEL_POLL_MS, workBatch } from './work.js';
import { RUN_ID, sha256Hex } from './input.js';
import { parseUnit } from './ledger.js';
import { backoffSeconds, filesOf, runStub, runsConfig } from './workers_config.js';

/** The `runs` option of createHandler in the module worker: `{backend(env), queue(batch, env, ctx)}`. */
export function workersRuns() {
  return (server) => ({
    backend(env) {
      const cfg = runsConfig(env);
      return cfg === null ? null : workersBackend(cfg);
    },
    queue: (batch, env) => consume(batch, env, server),
  });
}

function workersBackend(cfg) {
  const files = filesOf(cfg.bucket);
  const stub = (id) => runStub(cfg, id);
  return {
    files,
    view: (id) => stub(id).view(),
    bodyHash: (id) => stub(id).bodyHash(),
    async create(id, prepared, { bodyHash, created }) {
      const meta = {
        id, name: prepared.head.name, created, total: prepared.units.length, evalSetId: prepared.head.evalSet.eval_set_id,
        numRuns: prepared.head.numRuns, plannedJudgeCalls: prepared.plannedJudgeCalls,
      };
      const made = await stub(id).init(meta, bodyHash);
      // The head is written by the submission that made the run, or by a retry of it (the same
      // body) whose first try died before its head was in; another's chunks are not used.
      const used = !made.ready && made.bodyHash === bodyHash;
      if (used) {
        await files.putHead(id, prepared.head);
        await stub(id).ready();
      }
      if (made.created) await files.putIndex(id, created);
      return { ...made, used };
    },
    async list({ limit, cursor }) {
      const page = await cfg.bucket.list({ prefix: 'index/', limit, ...(cursor === null ? {} : { cursor }) });
      const ids = (page.objects ?? []).map((o) => idOfIndexKey(o.key)).filter((id) => id !== null);
      const views = await Promise.all(ids.map((id) => stub(id).view()));
      return { runs: views.filter((v) => v !== null), cursor: page.truncated ? page.cursor : null };
    },
    waitEvents: (id, after, waitMs) => stub(id).events(after, waitMs),
    readCase: (key) => files.getBytes(key),
    cancel: (id) => stub(id).cancel(),
    async resultDoc(id) {
      return stub(id).resultDoc();
    },
    indexKey,
  };
}

/** The judge key's pace: one Durable Object per provider, model, base URL and key. */
const paceNames = new WeakMap();
async function paceOf(cfg, judge) {
  if (judge === null) return null;
  let name = paceNames.get(judge);
  if (name === undefined) {
    name = await sha256Hex(JSON.stringify([judge.provider, judge.model, judge.baseUrl ?? '', judge.headers ?? {}]));
    paceNames.set(judge, name);
  }
  const object = cfg.pace.get(cfg.pace.idFromName(name));
  return { acquire: (opts) => object.acquire(opts), confirm: (opts) => object.confirm(opts), throttled: (info) => object.throttled(info) };
}

/**
 * The run's Durable Object as work.js's coordinator. A cancel is noticed from the status every
 * answer carries (a result kept, a claim), and by asking for the status when nothing was heard
 * for CANCEL_POLL_MS.
 */
function coordinatorOf(cfg, runId, budget) {
  const object = runStub(cfg, runId);
  let heard = 0;
  let cancelled = null;
  const note = (status) => {
    heard = Date.now();
    if (status === 'cancelled') cancelled?.();
  };
  return {
    claim: async (units) => {
      const out = await object.claim(units);
      note(out.status);
      return out;
    },
    record: async (entry) => {
      const out = await object.record(entry);
      note(out.status);
      return out;
    },
    failed: (unit, error) => object.failed(unit, error),
    deadLetter: (unit, evalId, error) => object.deadLetter(unit, evalId, error),
    watch(onCancel) {
      let stopped = false;
      let timer;
      cancelled = () => {
        if (!stopped) onCancel();
      };
      const poll = async () => {
        if (stopped) return;
        try {
          if (Date.now() - heard >= CANCEL_POLL_MS) {
            budget.take(1);
            const view = await object.view();
            note(view?.status);
          }
        } catch (e) {
          if (e instanceof BudgetSpent) return;
        }
        if (!stopped) timer = setTimeout(poll, Math.max(50, CANCEL_POLL_MS - (Date.now() - heard)));
      };
      timer = setTimeout(poll, CANCEL_POLL_MS);
      return () => {
        stopped = true;
        clearTimeout(timer);
      };
    },
  };
}

/** A message body as the run's Durable Object sends it, or null. */
function unitOf(body) {
  if (body === null || typeof body !== 'object' || typeof body.r !== 'string' || !RUN_ID.test(body.r)) return null;
  if (parseUnit(body.u) === null || !Number.isSafeInteger(body.c) || body.c < 0) return null;
  return { run: body.r, unit: body.u, chunk: body.c };
}

/** The queue consumer: a batch of units (or of dead letters) of one or more runs. */
async function consume(batch, env, server) {
  const cfg = runsConfig(env);
  if (cfg === null) throw new Error('evalcore runs: the worker is not bound to EVALCORE_RUNS, EVALCORE_RUN, EVALCORE_JUDGE_PACE and a queue (docs/runs.md)');
  const groups = new Map();
  for (const m of batch.messages) {
    const u = unitOf(m.body);
    if (u === null) {
      // Not ours: acknowledged, so it is not retried forever.
      console.error(JSON.stringify({ evalcore: 'runs', error: 'a queue message that is not a unit of a run was dropped', id: m.id }));
      m.ack();
      continue;
    }
    if (!groups.has(u.run)) groups.set(u.run, []);
    groups.get(u.run).push({ m, u });
  }
  if (batch.queue === cfg.deadLetterQueue) return deadLetters(cfg, groups);
  const budget = subrequests(cfg.subrequests);
  const pace = await paceOf(cfg, server.judge);
  const scoring = { judge: server.judge, agents: server.agents, limits: server.limits };
  // At most 6 connections of one invocation are open at once: more cases at a time buy nothing.
  const concurrency = Math.min(server.limits.caseConcurrency, 6);
  await Promise.all([...groups].map(([runId, list]) => workBatch({
    runId,
    items: list.map(({ m, u }) => ({
      unit: u.unit, chunk: u.chunk,
      ack: () => m.ack(),
      retry: (e) => m.retry({ delaySeconds: e instanceof BudgetSpent ? 0 : backoffSeconds(m.attempts, cfg.retryDelayS) }),
    })),
    coordinator: coordinatorOf(cfg, runId, budget),
    files: filesOf(cfg.bucket),
    scoring, pace, budget, concurrency,
    log: (e) => console.error(JSON.stringify({ evalcore: 'runs', ...e })),
  }).catch((e) => {
    console.error(JSON.stringify({ evalcore: 'runs', run: runId, error: String(e?.message ?? e) }));
    for (const { m } of list) m.retry({ delaySeconds: backoffSeconds(m.attempts, cfg.retryDelayS) });
  })));
  return undefined;
}

/** Dead letters: each unit reported to its run as given up on (with the last error it saw). */
async function deadLetters(cfg, groups) {
  for (const [runId, list] of groups) {
    const object = runStub(cfg, runId);
    for (const { m, u } of list) {
      try {
        await object.deadLetter(u.unit, null, null);
        m.ack();
      } catch (e) {
        console.error(JSON.stringify({ evalcore: 'runs', run: runId, unit: u.unit, error: `cannot report a dead letter: ${e?.message ?? e}` }));
        m.retry({ delaySeconds: 5 });
      }
    }
  }
}
