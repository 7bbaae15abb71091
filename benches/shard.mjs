// Sharded runs (evaluate({..., actual, remote})) over 1, 2 and 4 real workerd instances of the
// module worker on 127.0.0.1, every instance judging through one loopback judge that answers
// after 100 ms. Prints throughput (cases/s) for each N against N x one instance (target >= 0.8
// while the judge is not the bottleneck), then a 2,000-case judged run over 4 instances against
// the local run of the same input (target >= 3.2x faster) and whether the result files are the
// same text. Then how fast running shards slow after a 429 one instance gets (remote.control
// "stream" and "cancel"), and an agent run of 3 runs scored remotely with its scoring overlapped
// against the agent-then-score order (the time the agent alone and each run's scoring take).
//
//   node benches/shard.mjs [--cases 800] [--big 2000] [--latency 100]
//
// The local run scores with the concurrency one instance gets (perEndpoint x the endpoint's
// case concurrency = 2 x 4 = 8 cases in flight), so the ratio is N instances against one.
// Needs the wasm built into pkg/ and workerd in .tools (scripts/setup.sh). Exit code 1 when a
// result differs from the local run.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as api from '../pkg/index.js';
import { formatEvalSetResult } from '../pkg/lib/node/history.js';
import { requestText, startJudgeServer } from '../tests/js/support/judge-server.mjs';
import { removeWork, startWorkerd, workDir } from '../tests/server/support.mjs';

const opt = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? Number(process.argv[i + 1]) : dflt;
};
const CASES = opt('cases', 800);
const BIG = opt('big', 2000);
const LATENCY = opt('latency', 100);
const KEY = 'sk-bench-shard';
const CONFIG = { criteria: { response_match_score: 0.6, final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: 1 } } } };
const LOCAL_CONCURRENCY = 8;

function corpus(n, setId) {
  const evalCases = [];
  const actual = {};
  for (let i = 0; i < n; i++) {
    const id = `case_${i}`;
    const user = { role: 'user', parts: [{ text: `Where is order ${i}?` }] };
    evalCases.push({ eval_id: id, conversation: [{ invocation_id: `${id}-e`, user_content: user, final_response: { role: 'model', parts: [{ text: `Order ${i} ships on day ${i % 7}` }] } }] });
    actual[id] = [{ invocation_id: `${id}-a`, user_content: user, final_response: { role: 'model', parts: [{ text: `Order ${i} ships on day ${(i * 3) % 5} from the depot` }] } }];
  }
  return { evalSet: { eval_set_id: setId, eval_cases: evalCases }, actual };
}

/** A verdict that depends on the prompt only, so every instance and the local run agree. */
function verdict(rec) {
  const text = requestText(rec.wire ?? 'openai', rec.body ?? {});
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) >>> 0;
  return { text: JSON.stringify({ reasoning: 'checked', is_the_agent_response_valid: h % 3 === 0 ? 'invalid' : 'valid' }) };
}

/** User + system CPU time of a process so far, in ms (Linux /proc; clock ticks of 10 ms). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const fileText = (r) => formatEvalSetResult({ ...r, eval_set_result_id: 'x', eval_set_result_name: 'x', creation_timestamp: 1 });

const judge = await startJudgeServer({ latencyMs: LATENCY });
const judgeHere = { provider: 'openai', model: 'judge-model', baseUrl: judge.baseUrl, headers: { authorization: `Bearer ${KEY}` } };
judge.script(verdict);
const env = { EVALCORE_JUDGE: 'openai:judge-model', EVALCORE_JUDGE_BASE_URL: judge.baseUrl, OPENAI_API_KEY: KEY };
const works = [];
const instances = [];
let failed = false;
try {
  for (let i = 0; i < 4; i++) {
    const w = workDir();
    works.push(w);
    instances.push(await startWorkerd(env, w));
  }
  const urls = instances.map((s) => s.url);
  // Warm each instance (module compile, JIT) before anything is timed.
  const warm = corpus(40, 'warm');
  for (const u of urls) await api.evaluate({ ...warm, config: CONFIG, remote: { endpoints: [u] } });

  const { evalSet, actual } = corpus(CASES, 'bench');
  const rate = {};
  console.log(`throughput, ${CASES} judged cases (judge ${LATENCY} ms):`);
  console.log('  N   seconds   cases/s   vs N x one instance   judge calls in flight (max)');
  let cpuPerCase = null;
  for (const n of [1, 2, 4]) {
    judge.reset();
    const cpu0 = n === 1 ? cpuMs(instances[0].child.pid) : null;
    const t0 = performance.now();
    await api.evaluate({ evalSet, actual, config: CONFIG, remote: { endpoints: urls.slice(0, n) } });
    const s = (performance.now() - t0) / 1000;
    if (cpu0 !== null) cpuPerCase = (cpuMs(instances[0].child.pid) - cpu0) / CASES;
    rate[n] = CASES / s;
    const ratio = rate[n] / (n * rate[1]);
    console.log(`  ${n}   ${s.toFixed(2).padStart(7)}   ${rate[n].toFixed(1).padStart(7)}   ${ratio.toFixed(2).padStart(19)}${ratio < 0.8 ? ' (below 0.8)' : ''}   ${String(judge.maxInFlight).padStart(27)}`);
  }

  if (cpuPerCase !== null) {
    console.log(`workerd CPU per judged case (whole process: HTTP, JSON, scoring, the judge call): ${cpuPerCase.toFixed(2)} ms`);
  }

  const big = corpus(BIG, 'big');
  let t0 = performance.now();
  const local = await api.evaluate({ ...big, config: CONFIG, judge: judgeHere, concurrency: LOCAL_CONCURRENCY });
  const localS = (performance.now() - t0) / 1000;
  t0 = performance.now();
  const remote = await api.evaluate({ ...big, config: CONFIG, remote: { endpoints: urls } });
  const remoteS = (performance.now() - t0) / 1000;
  const same = fileText(remote) === fileText(local);
  failed ||= !same;
  const speedup = localS / remoteS;
  console.log(`${BIG} judged cases: local (${LOCAL_CONCURRENCY} in flight) ${localS.toFixed(2)} s, 4 instances ${remoteS.toFixed(2)} s: ${speedup.toFixed(2)}x faster${speedup < 3.2 ? ' (below 3.2)' : ''}; result files ${same ? 'identical' : 'DIFFER'}`);
  const passed = local.eval_case_results.filter((r) => r.final_eval_status === 'PASSED').length;
  console.log(`  (${passed} passed, ${BIG - passed} failed in both)`);

  // A 429 (Retry-After 1 s) to one call of one instance while 4 instances each run a 40-case shard.
  console.log('429 to one instance\'s call (Retry-After 1 s), 4 instances each running a 40-case shard:');
  console.log('  control   client knew (ms)   last call started after the 429 (ms)   calls 150-980 ms after   result');
  const held = corpus(160, 'held');
  const heldLocal = await api.evaluate({ ...held, config: CONFIG, judge: judgeHere, concurrency: LOCAL_CONCURRENCY });
  for (const control of ['stream', 'cancel']) {
    while (judge.inFlight > 0) await new Promise((r) => setTimeout(r, 20));
    const starts = [];
    let sentAt = null;
    judge.script((rec) => {
      const now = performance.now();
      starts.push(now);
      if (starts.length !== 10) return verdict(rec);
      sentAt = now + LATENCY;
      return { status: 429, error: 'rate limited', retryAfter: 1 };
    });
    let knewAt = null;
    const r = await api.evaluate({
      ...held, config: CONFIG, remote: { endpoints: urls, shards: 4, perEndpoint: 1, control },
      onProgress: (p) => { if (p.phase === 'judge_backoff' && knewAt === null) knewAt = performance.now(); },
    });
    judge.script(verdict);
    const late = starts.filter((t) => t > sentAt && t < sentAt + 980);
    const { judge_stats: x, ...a } = r;
    const { judge_stats: y, ...b } = heldLocal;
    const same = fileText(a) === fileText(b);
    failed ||= !same;
    console.log(`  ${control.padEnd(7)}   ${String(Math.round(knewAt - sentAt)).padStart(16)}   ${String(late.length === 0 ? '-' : Math.round(Math.max(...late) - sentAt)).padStart(36)}   ${String(late.filter((t) => t > sentAt + 150).length).padStart(22)}   ${same ? 'identical' : 'DIFFERS'}`);
  }

  // evaluate({agent, remote, numRuns: 3}): the agent (20 ms a turn, 8 cases at once) and the scoring overlapped.
  const runs = 3;
  const agentSet = corpus(CASES / 2, 'agent');
  const agent = async (turn) => {
    await new Promise((r) => setTimeout(r, 20));
    return agentSet.actual[turn.evalId][turn.turnIndex].final_response.parts[0].text;
  };
  const common = { evalSet: agentSet.evalSet, agent, numRuns: runs, concurrency: LOCAL_CONCURRENCY };
  t0 = performance.now();
  const collected = await api.evaluate({ ...common, config: { criteria: {} } });
  const agentS = (performance.now() - t0) / 1000;
  let scoreS = 0;
  for (let run = 0; run < runs; run++) {
    const got = Object.fromEntries(collected.eval_case_results.filter((c) => (c.run ?? 0) === run)
      .map((c) => [c.eval_id, c.eval_metric_result_per_invocation.map((p) => p.actual_invocation)]));
    t0 = performance.now();
    await api.evaluate({ evalSet: agentSet.evalSet, actual: got, config: CONFIG, remote: { endpoints: urls } });
    scoreS += (performance.now() - t0) / 1000;
  }
  t0 = performance.now();
  await api.evaluate({ ...common, config: CONFIG, remote: { endpoints: urls } });
  const overlapS = (performance.now() - t0) / 1000;
  console.log(`agent run of ${CASES / 2} cases x ${runs} runs, scored over 4 instances: the agent alone ${agentS.toFixed(2)} s + each run's scoring ${scoreS.toFixed(2)} s = ${(agentS + scoreS).toFixed(2)} s one after the other; overlapped ${overlapS.toFixed(2)} s (${((agentS + scoreS) / overlapS).toFixed(2)}x)`);
} finally {
  await Promise.all(instances.map((s) => s.stop()));
  await judge.close();
  for (const w of works) removeWork(w);
}
process.exitCode = failed ? 1 : 0;
