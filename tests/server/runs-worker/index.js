// The example worker (examples/worker/src/index.js, copied beside this file as example.js) with
// what the runs tests need on top, all in this test worker, none in the package:
// - every binding call counted (R2 class A/B operations, Durable Object requests, alarms and
//   storage operations, queue messages sent, delivered, acknowledged and retried), to measure
//   what a run costs per case: `GET /__test/counters` (`?reset=1` zeroes them);
// - `POST /__test/fault?after=N`: the next batch of a run queue crashes after its N-th
//   acknowledgement (the handler rejects while the rest of the batch is still being scored);
// - `POST /__test/fault?fail_unit=U`: storing unit U's result always fails (it ends as a dead letter);
// - `POST /__test/fault?drop_unit=U`: the first message of unit U is acknowledged unseen (lost);
// - `GET /__test/pace`: the judge key's pace counters.
import worker, { EvalcoreJudgePace as PaceBase, EvalcoreRun as RunBase } from './example.js';

const fault = { after: 0, crashes: 0, failUnit: null, dropUnit: null, dropped: 0 };
const zero = () => ({
  worker_requests: 0, queue_invocations: 0, do_requests: { run: 0, pace: 0 }, do_methods: {}, do_alarms: 0,
  do_storage: { reads: 0, writes: 0, deletes: 0 }, r2: { class_a: 0, class_b: 0, deletes: 0 },
  queue: { sent: 0, delivered: 0, acked: 0, retried: 0 },
});
let counters = zero();

function countingBucket(bucket) {
  return {
    get: (...a) => { counters.r2.class_b++; return bucket.get(...a); },
    head: (...a) => { counters.r2.class_b++; return bucket.head(...a); },
    put: (key, ...a) => {
      counters.r2.class_a++;
      if (fault.failUnit !== null && key.includes(`/cases/${fault.failUnit}.`)) return Promise.reject(new Error(`a test fault: storing ${fault.failUnit} fails`));
      return bucket.put(key, ...a);
    },
    list: (...a) => { counters.r2.class_a++; return bucket.list(...a); },
    delete: (...a) => { counters.r2.deletes++; return bucket.delete(...a); },
  };
}

function countingNamespace(ns, kind) {
  return {
    idFromName: (n) => ns.idFromName(n),
    get(id) {
      const stub = ns.get(id);
      return new Proxy({}, {
        get(_, name) {
          return (...a) => {
            counters.do_requests[kind]++;
            counters.do_methods[`${kind}.${String(name)}`] = (counters.do_methods[`${kind}.${String(name)}`] ?? 0) + 1;
            return stub[name](...a);
          };
        },
      });
    },
  };
}

function countingQueue(q) {
  return {
    send: (body, o) => { counters.queue.sent++; return q.send(body, o); },
    sendBatch: (messages, o) => { counters.queue.sent += messages.length; return q.sendBatch(messages, o); },
  };
}

const wrapped = new WeakMap();
/** `env` with its runs bindings counted (the same object for the same env: caches key on it). */
function countingEnv(env) {
  if (wrapped.has(env)) return wrapped.get(env);
  const out = { ...env, EVALCORE_RUNS: countingBucket(env.EVALCORE_RUNS), EVALCORE_RUN: countingNamespace(env.EVALCORE_RUN, 'run'), EVALCORE_JUDGE_PACE: countingNamespace(env.EVALCORE_JUDGE_PACE, 'pace') };
  for (const name of (env.EVALCORE_RUN_QUEUES ?? '').split(',')) if (env[name]) out[name] = countingQueue(env[name]);
  wrapped.set(env, out);
  return out;
}

function countingCtx(ctx) {
  const s = ctx.storage;
  const storage = {
    get: (...a) => { counters.do_storage.reads++; return s.get(...a); },
    list: (...a) => { counters.do_storage.reads++; return s.list(...a); },
    put: (...a) => { counters.do_storage.writes++; return s.put(...a); },
    delete: (...a) => { counters.do_storage.deletes++; return s.delete(...a); },
    setAlarm: (...a) => { counters.do_storage.writes++; return s.setAlarm(...a); },
    getAlarm: (...a) => s.getAlarm(...a),
  };
  return new Proxy(ctx, {
    get(t, p) {
      if (p === 'storage') return storage;
      const v = t[p];
      return typeof v === 'function' ? v.bind(t) : v;
    },
  });
}

// The runtime's base class takes only its own ctx: the objects use the counted one after it (their
// first read, in the constructor, is counted by hand: `meta`, and the units' list).
export class EvalcoreRun extends RunBase {
  constructor(ctx, env) {
    super(ctx, countingEnv(env));
    this.state = countingCtx(ctx);
    counters.do_storage.reads += 2;
  }

  alarm() {
    counters.do_alarms++;
    return super.alarm();
  }
}

export class EvalcoreJudgePace extends PaceBase {
  constructor(ctx, env) {
    super(ctx, countingEnv(env));
    this.state = countingCtx(ctx);
    counters.do_storage.reads += 1;
  }
}

/** The batch with its messages counted; with `after`, the after-th ack() rejects `crash`. */
function counted(batch, after, crash) {
  let acks = 0;
  const kept = batch.messages.filter((m) => {
    if (fault.dropUnit === null || m.body?.u !== fault.dropUnit) return true;
    fault.dropUnit = null;
    fault.dropped++;
    m.ack();
    return false;
  });
  const messages = kept.map((m) => {
    counters.queue.delivered++;
    return {
      id: m.id, timestamp: m.timestamp, body: m.body, attempts: m.attempts,
      ack() {
        counters.queue.acked++;
        m.ack();
        if (++acks === after) crash(new Error('the consumer crashed mid-batch (a test fault)'));
      },
      retry: (o) => { counters.queue.retried++; m.retry(o); },
    };
  });
  return { queue: batch.queue, messages, ackAll: () => batch.ackAll(), retryAll: (o) => batch.retryAll(o) };
}

async function paceStats(env) {
  const [provider, ...model] = env.EVALCORE_JUDGE.split(':');
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify([
    provider, model.join(':'), env.EVALCORE_JUDGE_BASE_URL ?? '', { authorization: `Bearer ${env.OPENAI_API_KEY}` },
  ]))));
  const name = [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
  return env.EVALCORE_JUDGE_PACE.get(env.EVALCORE_JUDGE_PACE.idFromName(name)).stats();
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname === '/__test/fault') {
      if (url.searchParams.has('after')) fault.after = Number(url.searchParams.get('after'));
      if (url.searchParams.has('fail_unit')) fault.failUnit = url.searchParams.get('fail_unit') || null;
      if (url.searchParams.has('drop_unit')) fault.dropUnit = url.searchParams.get('drop_unit') || null;
      return Response.json(fault);
    }
    if (url.pathname === '/__test/pace') return Response.json(await paceStats(env));
    if (url.pathname === '/__test/counters') {
      const out = { ...counters, crashes: fault.crashes };
      if (url.searchParams.get('reset') === '1') counters = zero();
      return Response.json(out);
    }
    counters.worker_requests++;
    return worker.fetch(request, countingEnv(env), ctx);
  },
  queue(batch, env, ctx) {
    counters.queue_invocations++;
    const crashing = fault.after > 0 && batch.queue !== env.EVALCORE_RUN_DEAD_LETTER_QUEUE && batch.messages.length > fault.after;
    let crash;
    const crashed = new Promise((_, reject) => { crash = reject; });
    const after = crashing ? fault.after : 0;
    if (crashing) {
      fault.after = 0;
      fault.crashes++;
    }
    const run = worker.queue(counted(batch, after, crash), countingEnv(env), ctx);
    return crashing ? Promise.race([run, crashed]) : run;
  },
};
