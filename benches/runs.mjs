// Runs that outlive the client (POST /v1/runs), at scale:
// 1. Workers: the example worker in workerd through miniflare (its Queues, Durable Objects and R2),
//    N queues so N consumer invocations score at once, 2,000 judged cases against one loopback
//    judge (100 ms a call) under one calls-per-minute budget: the achieved rate against the
//    budget, the most calls in any 1 s / 5 s / 10 s window, each consumer's share, the result
//    against the local run's (the ADK result file's text), and what every binding did, per 1,000
//    cases (counted by the test worker around each binding).
// 2. The same with a burst of 429s a few seconds in: every consumer held, the pace after it.
// 3. Node: `evalcore serve --runs_dir` on the same input, killed with SIGKILL twice mid-run and
//    started again: the result against the local run's, the cases judged again.
//
//   node benches/runs.mjs [--cases 2000] [--budget 2400] [--queues 8] [--latency 100]
//
// The default budget makes the big run last more than a minute, so the budget's own window (a
// minute) can be checked: no 60 s window holds more calls than the budget.
//
// Needs the wasm built into pkg/ and miniflare in .tools (scripts/setup.sh). Exit code 1 when a
// result differs from the local run or the rate leaves the budget's 15%.
import { performance } from 'node:perf_hooks';
import * as api from '../pkg/index.js';
import { startJudgeServer } from '../tests/js/support/judge-server.mjs';
import { fileText, verdict } from '../tests/server/shard-support.mjs';
import { removeWork, startCli, workDir } from '../tests/server/support.mjs';
import { caseOfCall, maxInWindow, readEvents, startRunsWorker } from '../tests/server/runs-support.mjs';

const opt = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? Number(process.argv[i + 1]) : dflt;
};
const CASES = opt('cases', 2000);
const BUDGET = opt('budget', 2400);
const QUEUES = opt('queues', 8);
const LATENCY = opt('latency', 100);
const KEY = 'sk-bench-runs';
const CONFIG = { criteria: { response_match_score: 0.6, final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: 1 } } } };

/** Cases of one or two turns (so 1.5 judge calls a case); "order I-T" names case I in each prompt. */
function corpus(n, setId) {
  const evalCases = [];
  const actual = {};
  for (let i = 0; i < n; i++) {
    const id = `case_${String(i).padStart(4, '0')}`;
    const conv = [];
    const got = [];
    for (let t = 0; t < 1 + (i % 2); t++) {
      const user = { role: 'user', parts: [{ text: `Where is order ${i}-${t}?` }] };
      conv.push({ invocation_id: `${id}-e${t}`, user_content: user, final_response: { role: 'model', parts: [{ text: `Order ${i}-${t} ships on day ${(i + t) % 7}` }] } });
      got.push({ invocation_id: `${id}-a${t}`, user_content: user, final_response: { role: 'model', parts: [{ text: `Order ${i}-${t} ships on day ${(i * t + 2) % 5} from the depot` }] } });
    }
    evalCases.push({ eval_id: id, conversation: conv });
    actual[id] = got;
  }
  return { evalSet: { eval_set_id: setId, eval_cases: evalCases }, actual };
}

const judgeFor = (judge) => ({ provider: 'openai', model: 'judge-model', baseUrl: judge.baseUrl, headers: { authorization: `Bearer ${KEY}` } });
const per1000 = (n) => ((n * 1000) / CASES).toFixed(0);
let failed = false;
const check = (ok, what) => {
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failed = true;
};

/** Rate, windows and shares of the judge calls from `from`. */
function pacing(judge, from) {
  const calls = judge.requests.filter((r) => r.arrivedAt >= from && r.status !== 429);
  const times = calls.map((r) => r.arrivedAt);
  const span = Math.max(...times) - Math.min(...times);
  const rate = ((calls.length - 1) / span) * 60_000;
  const shares = Array.from({ length: QUEUES }, (_, q) => calls.filter((r) => caseOfCall(r) % QUEUES === q).length);
  return { calls: calls.length, span, rate, w1: maxInWindow(times, 1000), w10: maxInWindow(times, 10_000), w60: maxInWindow(times, 60_000), shares, times };
}

async function workersRun(judge, { burst = false, cases = CASES } = {}) {
  const work = workDir();
  const worker = await startRunsWorker({
    EVALCORE_JUDGE: 'openai:judge-model', EVALCORE_JUDGE_BASE_URL: judge.baseUrl, OPENAI_API_KEY: KEY,
    EVALCORE_JUDGE_CALLS_PER_MINUTE: String(BUDGET), EVALCORE_MAX_RUN_CASES: String(CASES),
  }, work, { queues: QUEUES });
  try {
    const { evalSet, actual } = corpus(cases, 'bench_runs');
    let burstAt = null;
    judge.script((rec) => {
      if (burst) {
        burstAt ??= rec.arrivedAt + 5000;
        if (rec.arrivedAt >= burstAt && rec.arrivedAt < burstAt + 300) return { status: 429, error: 'slow down', retryAfter: 1 };
      }
      return verdict(rec);
    });
    const from = judge.now();
    const t0 = performance.now();
    const res = await worker.fetch('/v1/runs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ evalSet, actual, config: CONFIG }) });
    const { id } = await res.json();
    const events = await readEvents(worker.fetch, id);
    const seconds = (performance.now() - t0) / 1000;
    const afterRun = await (await worker.fetch('/__test/counters?reset=1')).json();
    const result = await (await worker.fetch(`/v1/runs/${id}/result`)).json();
    const forResult = await (await worker.fetch('/__test/counters')).json();
    const p = pacing(judge, from);
    const summary = events.at(-1).summary;
    return { seconds, p, summary, result, afterRun, forResult, burstAt, events, pace: await (await worker.fetch('/__test/pace')).json() };
  } finally {
    await worker.dispose();
    removeWork(work);
  }
}

function printCosts(c, label) {
  const q = c.queue;
  console.log(`  ${label} per 1,000 cases: worker requests ${per1000(c.worker_requests)} + queue invocations ${per1000(c.queue_invocations)}; `
    + `Durable Object requests ${per1000(c.do_requests.run)} (run) + ${per1000(c.do_requests.pace)} (judge pace) + ${per1000(c.do_alarms)} alarms; `
    + `DO storage ${per1000(c.do_storage.reads)} reads, ${per1000(c.do_storage.writes)} writes; `
    + `R2 ${per1000(c.r2.class_a)} class A, ${per1000(c.r2.class_b)} class B, ${per1000(c.r2.deletes)} deletes; `
    + `queue messages ${per1000(q.sent)} sent, ${per1000(q.delivered)} delivered, ${per1000(q.acked)} acked, ${per1000(q.retried)} retried`);
  console.log(`    (Durable Object calls by method: ${Object.entries(c.do_methods).map(([k, v]) => `${k} ${per1000(v)}`).join(', ')})`);
}

async function nodeRun(judge) {
  const work = workDir();
  const env = { EVALCORE_JUDGE: 'openai:judge-model', EVALCORE_JUDGE_BASE_URL: judge.baseUrl, OPENAI_API_KEY: KEY, EVALCORE_JUDGE_CALLS_PER_MINUTE: String(BUDGET), EVALCORE_MAX_RUN_CASES: String(CASES), EVALCORE_RUN_CONCURRENCY: '16' };
  const start = () => startCli(['serve', '--runs_dir', work, '--quiet'], env);
  const { evalSet, actual } = corpus(CASES, 'bench_runs');
  judge.script(verdict);
  const from = judge.now();
  let server = await start();
  const t0 = performance.now();
  const { id } = await (await fetch(`${server.url}/v1/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ evalSet, actual, config: CONFIG }) })).json();
  const fetchOf = (s) => (path, init) => fetch(s.url + path, init);
  let seen = [];
  const kills = [];
  for (const at of [CASES / 4, CASES / 2]) {
    seen = seen.concat(await readEvents(fetchOf(server), id, seen.length, { onLine: (_, all) => seen.length + all.length < at }));
    await new Promise((ok) => { server.child.once('exit', ok); server.child.kill('SIGKILL'); });
    kills.push(seen.length);
    server = await start();
  }
  const rest = await readEvents(fetchOf(server), id, seen.length);
  const seconds = (performance.now() - t0) / 1000;
  const result = await (await fetch(`${server.url}/v1/runs/${id}/result`)).json();
  await server.stop();
  removeWork(work);
  const ids = [...seen, ...rest.slice(0, -1)].map((l) => l.eval_id);
  const p = pacing(judge, from);
  return { seconds, p, ids, kills, result, summary: rest.at(-1).summary };
}

async function main() {
  const judge = await startJudgeServer({ latencyMs: LATENCY });
  judge.script(verdict);
  try {
    const { evalSet, actual } = corpus(CASES, 'bench_runs');
    let t0 = performance.now();
    const local = await api.evaluate({ evalSet, actual, config: CONFIG, judge: judgeFor(judge), concurrency: 32 });
    console.log(`local run: ${CASES} cases, ${local.judge_stats.sent} judge calls, ${((performance.now() - t0) / 1000).toFixed(1)} s (32 cases at once, no budget)`);
    const expected = fileText(local);

    console.log(`\nWorkers (miniflare): ${CASES} judged cases, ${QUEUES} consumers, budget ${BUDGET} calls a minute, judge ${LATENCY} ms`);
    t0 = performance.now();
    const w = await workersRun(judge);
    console.log(`  ${w.p.calls} judge calls in ${(w.p.span / 1000).toFixed(2)} s: ${w.p.rate.toFixed(0)} a minute = ${((w.p.rate / BUDGET) * 100).toFixed(1)}% of the budget; run ${w.seconds.toFixed(1)} s from submit to summary`);
    console.log(`  most calls in any 60 s: ${w.p.w60} (budget ${BUDGET}), 10 s: ${w.p.w10} (${BUDGET / 6}), 1 s: ${w.p.w1} (${(BUDGET / 60).toFixed(0)}); calls by consumer: ${w.p.shares.join(', ')}`);
    check(w.p.rate >= 0.85 * BUDGET && w.p.rate <= BUDGET, 'the rate is within 15% of the budget and not above it');
    check(w.p.w60 <= BUDGET && w.p.w10 <= BUDGET / 6, 'no 60 s or 10 s window above the budget');
    check(w.p.shares.every((n) => n > 0), `all ${QUEUES} consumers judged`);
    check(w.summary.status === 'done' && new Set(w.events.slice(0, -1).map((l) => l.eval_id)).size === CASES, 'done, every case once');
    check(fileText(w.result) === expected, 'the result file is the local run\'s text');
    printCosts(w.afterRun, 'the run (scoring, and one client following its events)');
    printCosts(w.forResult, 'GET /result');

    const half = CASES / 2;
    const localHalf = await api.evaluate({ ...corpus(half, 'bench_runs'), config: CONFIG, judge: judgeFor(judge), concurrency: 32 });
    console.log(`\nWorkers: ${half} cases with the judge answering 429 (Retry-After 1 s) to every call for 300 ms, 5 s in`);
    const b = await workersRun(judge, { burst: true, cases: half });
    const t429 = Math.min(...judge.requests.filter((r) => r.status === 429).map((r) => r.arrivedAt));
    const ok = b.p.times;
    const held = ok.filter((t) => t > t429 + 450 && t < t429 + 1000).length;
    const before = ok.filter((t) => t >= t429 - 3000 && t < t429).length;
    const after = ok.filter((t) => t >= t429 + 1100 && t < t429 + 4100).length;
    const later = ok.filter((t) => t >= t429 + 20_000 && t < t429 + 23_000).length;
    console.log(`  calls in the 3 s before the 429s: ${before}; started during the hold: ${held}; 3 s after the hold: ${after} (${((after / before) * 100).toFixed(0)}%); 20-23 s after: ${later}`);
    console.log(`  pace: ${JSON.stringify(b.pace)}`);
    check(held === 0 && after <= 0.65 * before, 'held through the Retry-After, then cut to about half');
    check(fileText({ ...b.result, judge_stats: undefined }) === fileText({ ...localHalf, judge_stats: undefined }), 'the result file is the local run\'s text (the 429s retried)');

    console.log(`\nNode (evalcore serve --runs_dir, 16 cases at once): ${CASES} judged cases, budget ${BUDGET}, killed with SIGKILL twice`);
    const n = await nodeRun(judge);
    const byCase = new Map();
    for (const r of judge.requests) if (r.arrivedAt >= 0) byCase.set(caseOfCall(r), (byCase.get(caseOfCall(r)) ?? 0) + 1);
    const redone = [...byCase].filter(([i, c]) => i !== null && c > 1 + (i % 2)).length;
    console.log(`  killed after ${n.kills.join(' and ')} events; ${n.p.calls} judge calls for ${local.judge_stats.sent} (${n.p.calls - local.judge_stats.sent} again, ${redone} cases); ${n.p.rate.toFixed(0)} a minute = ${((n.p.rate / BUDGET) * 100).toFixed(1)}% of the budget; ${n.seconds.toFixed(1)} s`);
    check(n.summary.status === 'done' && n.ids.length === CASES && new Set(n.ids).size === CASES, 'every case exactly once across the kills');
    check(redone <= 32, 'at most the cases in flight (16 per kill) judged again');
    check(fileText(n.result) === expected, 'the result file is the local run\'s text');
  } finally {
    await judge.close();
  }
  process.exit(failed ? 1 : 0);
}

main();
