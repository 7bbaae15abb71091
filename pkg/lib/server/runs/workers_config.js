//! What a Workers deployment of runs is bound to (wrangler.toml, docs/runs.md) and its settings,
//! read from `env`: the R2 bucket, the Durable Object namespaces, the queues, and the numbers
//! that keep one consumer invocation inside Workers' limits.
import { r2Store } from '../../store/workers.js';
import { runFiles } from './files.js';

/** The bindings runs need; without all of them the deployment keeps no runs. */
export const BINDINGS = { bucket: 'EVALCORE_RUNS', runs: 'EVALCORE_RUN', pace: 'EVALCORE_JUDGE_PACE' };

const int = (env, name, dflt, min = 0) => {
  const v = typeof env?.[name] === 'string' ? env[name].trim() : '';
  if (v === '') return dflt;
  const n = Number(v);
  return /^\d+$/.test(v) && Number.isSafeInteger(n) && n >= min ? n : dflt;
};

/** The runs settings of `env`, or null when a binding is missing. */
export function runsConfig(env) {
  if (!env || typeof env !== 'object') return null;
  const bucket = env[BINDINGS.bucket];
  const runs = env[BINDINGS.runs];
  const pace = env[BINDINGS.pace];
  const queueNames = (typeof env.EVALCORE_RUN_QUEUES === 'string' ? env.EVALCORE_RUN_QUEUES : 'EVALCORE_RUN_QUEUE')
    .split(',').map((s) => s.trim()).filter((s) => s !== '');
  const queues = queueNames.map((n) => env[n]).filter((q) => q && typeof q.sendBatch === 'function');
  if (!bucket || typeof bucket.get !== 'function' || !runs || typeof runs.idFromName !== 'function' || !pace || typeof pace.idFromName !== 'function' || queues.length === 0) return null;
  return {
    bucket, runs, pace, queues,
    deadLetterQueue: typeof env.EVALCORE_RUN_DEAD_LETTER_QUEUE === 'string' ? env.EVALCORE_RUN_DEAD_LETTER_QUEUE : 'evalcore-runs-dlq',
    // Subrequests one consumer invocation may make (judge calls, the pace's answers, R2 and
    // Durable Object calls): 1,000 on older Paid plans (10,000 now), 50 on Free.
    subrequests: int(env, 'EVALCORE_RUN_SUBREQUESTS', 1000, 10),
    // The first retry of a failed case waits this long; each next one twice as long (at most 5 min).
    retryDelayS: int(env, 'EVALCORE_RUN_RETRY_DELAY_S', 2),
    // Units sent ahead of those with a result (the queue's backlog one run keeps).
    feedWindow: int(env, 'EVALCORE_RUN_FEED_WINDOW', 1000, 100),
    // No progress this long with every unit sent: the units without a result are sent again.
    stallMs: int(env, 'EVALCORE_RUN_STALL_S', 900, 1) * 1000,
    judgeCallsPerMinute: int(env, 'EVALCORE_JUDGE_CALLS_PER_MINUTE', null, 1),
  };
}

// One runFiles per bucket: its cache of heads and chunks lives as long as the isolate.
const filesByBucket = new WeakMap();
export function filesOf(bucket) {
  let f = filesByBucket.get(bucket);
  if (f === undefined) {
    // An isolate has 128 MB: a few parsed chunks (up to ~512 KiB of JSON each) at most.
    f = runFiles(r2Store(bucket), { cacheLimit: 4 });
    filesByBucket.set(bucket, f);
  }
  return f;
}

/** The Durable Object of a run. */
export const runStub = (cfg, id) => cfg.runs.get(cfg.runs.idFromName(id));

/** The retry delay of a message that failed `attempts` times (seconds). */
export const backoffSeconds = (attempts, base) => Math.min(300, base * 2 ** Math.max(0, attempts - 1));
