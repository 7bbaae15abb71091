// A sharded run (evaluate({..., actual, remote})) over three real workerd instances of the
// module worker on 127.0.0.1, each judging through the same loopback judge (its EVALCORE_JUDGE
// env), compared with the local run of the same input (evaluate({..., actual, judge}) against
// that judge): the result files the core writes must be the same text. Also: a 413 shard split
// in two, an instance killed mid-run (its streamed cases kept, the rest sent elsewhere, none
// counted twice), Ctrl-C (an abort signal) cancelling every shard's request, a bad token, and no
// endpoint left.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as api from '../../pkg/index.js';
import { startJudgeServer } from '../js/support/judge-server.mjs';
import { PKG, freePort, removeWork, startWorkerd, workDir } from './support.mjs';
import { CONFIG, cli, corpus, fileText, sameText, unmeasured, verdict } from './shard-support.mjs';

const TOKEN = 'tok-shard-5d2e8a71c4';
const KEY = 'sk-shard-9b3f0e6a21';
const N = 60;

const works = [];
const instances = [];
let judge;
let local;
const { evalSet, actual } = corpus(N);

before(async () => {
  judge = await startJudgeServer({ latencyMs: 40 });
  judge.script(verdict);
  const env = {
    EVALCORE_TOKEN: TOKEN, EVALCORE_JUDGE: 'openai:judge-model', EVALCORE_JUDGE_BASE_URL: judge.baseUrl, OPENAI_API_KEY: KEY,
    // Fewer cases per request than the client's shards of 10: each is refused (413) and split.
    EVALCORE_MAX_CASES: '8',
  };
  for (let i = 0; i < 3; i++) {
    const w = workDir();
    works.push(w);
    instances.push(await startWorkerd(env, w));
  }
  local = await api.evaluate({
    evalSet, actual, config: CONFIG,
    judge: { provider: 'openai', model: 'judge-model', baseUrl: judge.baseUrl, headers: { authorization: `Bearer ${KEY}` } },
  });
});

after(async () => {
  await Promise.all(instances.map((s) => s.stop()));
  await judge?.close();
  for (const w of works) removeWork(w);
});

const urls = () => instances.map((s) => s.url);

describe('a run sharded over workerd instances', () => {
  test('the local run is a real mix of verdicts (the comparison can fail)', () => {
    assert.equal(local.eval_case_results.length, N);
    const judged = local.eval_case_results.map((r) => r.overall_eval_metric_results.find((m) => m.metric_name === 'final_response_match_v2'));
    const statuses = new Set(judged.map((m) => m.eval_status));
    assert.deepEqual([...statuses].sort(), ['FAILED', 'PASSED'], 'judged metric both passes and fails');
    assert.ok(local.eval_case_results.some((r) => r.final_eval_status === 'PASSED'));
    assert.ok(local.eval_case_results.some((r) => r.final_eval_status === 'FAILED'));
    // Results are in the eval set's order, whatever order they finished in.
    assert.deepEqual(local.eval_case_results.map((r) => r.eval_id), evalSet.eval_cases.map((c) => c.eval_id));
  });

  test('3 instances, 6 shards split to 12 by the instances\' 413: the same result file as the local run', async () => {
    const events = [];
    const streamed = [];
    const remote = await api.evaluate({
      evalSet, actual, config: CONFIG, remote: { endpoints: urls(), token: TOKEN },
      onProgress: (p) => events.push(p), onCaseResult: (r) => streamed.push(r.eval_id),
    });
    sameText(fileText(remote), fileText(local), 'the result file');
    assert.deepEqual(remote, { ...local, eval_set_result_id: remote.eval_set_result_id, eval_set_result_name: remote.eval_set_result_name, creation_timestamp: remote.creation_timestamp });
    // The judge counters are the local run's: the endpoints' per case, summed over the cases kept.
    const turns = evalSet.eval_cases.reduce((n, c) => n + c.conversation.length, 0);
    assert.deepEqual(remote.judge_stats, { requests: turns, sent: turns, attempts: turns, retries: 0, cassette_hits: 0, deduplicated: 0, answered: turns, failures: 0, not_sent: {}, budget_exhausted: false });
    assert.deepEqual(remote.judge_stats, local.judge_stats);
    assert.equal(streamed.length, N);
    assert.equal(new Set(streamed).size, N);
    const done = events.at(-1);
    assert.equal(done.phase, 'done');
    assert.equal(done.casesDone, N);
    assert.equal(done.shardsDone, 12);
    assert.equal(done.judgeCalls, evalSet.eval_cases.reduce((n, c) => n + c.conversation.length, 0), 'one judge call per turn, none twice');
    assert.ok(done.endpoints.every((e) => e.cases > 0), `every instance scored cases: ${JSON.stringify(done.endpoints)}`);
    assert.equal(done.endpoints.reduce((n, e) => n + e.cases, 0), N);
    assert.ok(events.some((e) => e.phase === 'shard_retry' && /too_many_cases/.test(e.why)));
  });

  test('selected cases (evalIds) only, in the set\'s order', async () => {
    const ids = ['case_007', 'case_002', 'case_031'];
    const remote = await api.evaluate({ evalSet, actual, config: CONFIG, evalIds: ids, remote: { endpoints: urls(), token: TOKEN } });
    assert.deepEqual(remote.eval_case_results.map((r) => r.eval_id), ['case_002', 'case_007', 'case_031']);
    const want = local.eval_case_results.filter((r) => ids.includes(r.eval_id));
    assert.deepEqual(remote.eval_case_results, want);
  });

  test('errors: a bad token, a case the endpoint refuses (its path in the whole set), no endpoint left', async () => {
    await assert.rejects(api.evaluate({ evalSet, actual, config: CONFIG, remote: { endpoints: urls(), token: 'wrong' } }),
      (e) => e instanceof api.EvalError && e.code === 'unauthorized' && Array.isArray(e.partialResult?.eval_case_results));
    // Case 41 has a turn too many: the core refuses it (count_mismatch) on whichever instance gets it.
    const bad = structuredClone(actual);
    bad.case_041 = [...bad.case_041, bad.case_041[0]];
    await assert.rejects(api.evaluate({ evalSet, actual: bad, config: CONFIG, remote: { endpoints: urls(), token: TOKEN, shards: 12 } }),
      (e) => e instanceof api.EvalError && e.path.startsWith('$.actual.case_041') && e.partialResult.eval_case_results.every((r) => r.eval_id !== 'case_041'));
    const dead = `http://127.0.0.1:${await freePort()}`;
    await assert.rejects(api.evaluate({ evalSet, actual, config: CONFIG, remote: { endpoints: [dead], token: TOKEN, maxCasesPerShard: 8 } }),
      (e) => e instanceof api.EvalError && e.code === 'remote_unavailable' && e.path === '$.remote.endpoints' && e.partialResult.eval_case_results.length === 0);
    await assert.rejects(api.evaluate({ evalSet, actual, remote: { endpoints: ['ftp://x'] } }), (e) => e.code === 'schema' && e.path === '$.remote.endpoints[0]');
    await assert.rejects(api.evaluate({ evalSet, actual: { case_000: [] }, remote: { endpoints: urls() } }), (e) => e.code === 'schema' && e.path === '$.actual.case_001');
    await assert.rejects(api.evaluate({ evalSet, actual, remote: { endpoints: urls() }, judge: { provider: 'openai', model: 'm' } }), (e) => e.code === 'unsupported' && e.path === '$.judge');
  });

  test('a silent endpoint (no line for shardTimeoutMs) and one that sends every line twice: the same result, no case counted twice', async () => {
    // Takes the request, never answers.
    const held = [];
    const silent = createServer((req, res) => held.push(res));
    await new Promise((r) => silent.listen(0, '127.0.0.1', r));
    const silentUrl = `http://127.0.0.1:${silent.address().port}`;
    try {
      const events = [];
      const remote = await api.evaluate({
        evalSet, actual, config: CONFIG, remote: { endpoints: [silentUrl, ...urls()], token: TOKEN, maxCasesPerShard: 8, shardTimeoutMs: 400 },
        onProgress: (p) => events.push(p),
      });
      sameText(fileText(remote), fileText(local), 'the result file');
      const retried = events.filter((e) => e.phase === 'shard_retry' && e.endpoint === silentUrl);
      assert.ok(retried.length >= 1 && retried.every((e) => /no answer for 400 ms/.test(e.why)), JSON.stringify(retried));
      assert.equal(events.at(-1).endpoints.find((e) => e.url === silentUrl).down, true);
    } finally {
      for (const res of held) res.destroy();
      silent.closeAllConnections();
      await new Promise((r) => silent.close(r));
    }
    // Every ndjson line delivered twice (a proxy that retried, say).
    const doubling = async (url, init) => {
      const res = await fetch(url, init);
      if (!res.ok || res.body === null) return res;
      const text = await res.text();
      const doubled = text.split('\n').filter((l) => l !== '').map((l) => (l.includes('"summary"') ? `${l}\n` : `${l}\n${l}\n`)).join('');
      return new Response(doubled, { status: 200, headers: res.headers });
    };
    const events = [];
    const streamed = [];
    const twice = await api.evaluate({
      evalSet, actual, config: CONFIG, remote: { endpoints: urls(), token: TOKEN, maxCasesPerShard: 8, fetch: doubling },
      onProgress: (p) => events.push(p), onCaseResult: (r) => streamed.push(r.eval_id),
    });
    sameText(fileText(twice), fileText(local), 'the result file');
    assert.equal(streamed.length, N);
    assert.equal(events.at(-1).duplicatesDropped, N);
  });

  test('options a remote run cannot honour are refused, and strict holds as in a local run', async () => {
    await assert.rejects(api.evaluate({ evalSet, actual, config: CONFIG, remote: { endpoints: urls() }, customMetrics: { m: () => ({ score: 1 }) } }),
      (e) => e.code === 'unsupported' && e.path === '$.customMetrics');
    await assert.rejects(api.evaluate({ evalSet, actual, config: CONFIG, remote: { endpoints: urls() }, perInvocation: false }),
      (e) => e.code === 'unsupported' && e.path === '$.perInvocation');
    judge.reset();
    const misspelt = { criteria: { ...CONFIG.criteria, response_match_scor: 0.5 } };
    await assert.rejects(api.evaluate({ evalSet, actual, config: misspelt, strict: true, remote: { endpoints: urls(), token: TOKEN } }),
      (e) => e instanceof api.EvalError && e.path.startsWith('$.config.criteria') && /strict/.test(e.message));
    assert.equal(judge.requests.length, 0, 'refused before any request');
    // A judged metric that cannot be judged (an unknown model answer) fails strict, local and remote alike.
    judge.script(() => ({ text: 'not json at all' }));
    const few = { evalSet, actual, evalIds: ['case_001', 'case_002'], config: CONFIG, strict: true };
    const judgeHere = { provider: 'openai', model: 'judge-model', baseUrl: judge.baseUrl, headers: { authorization: `Bearer ${KEY}` }, maxRetries: 0 };
    const here = await api.evaluate({ ...few, judge: judgeHere }).then(() => null, (e) => e);
    const there = await api.evaluate({ ...few, remote: { endpoints: urls(), token: TOKEN } }).then(() => null, (e) => e);
    judge.script(verdict);
    assert.equal(here?.code, 'strict');
    assert.equal(there?.code, 'strict');
    assert.equal(there.message, here.message);
  });

  test('one key\'s allowance split, not multiplied: judgeConcurrency 4 over 6 request slots never has 5 calls in flight', async () => {
    // Calls a cancelled run of an earlier test left in flight would count as this run's.
    while (judge.inFlight > 0) await new Promise((r) => setTimeout(r, 20));
    judge.script((rec) => ({ ...verdict(rec), delayMs: 60 }));
    const events = [];
    const remote = await api.evaluate({
      evalSet, actual, config: CONFIG, remote: { endpoints: urls(), token: TOKEN, maxCasesPerShard: 8, judgeConcurrency: 4 },
      onProgress: (p) => events.push(p),
    });
    const most = judge.maxInFlight;
    judge.script(verdict);
    sameText(fileText(remote), fileText(local), 'the result file');
    assert.ok(most <= 4 && most >= 3, `${most} judge calls in flight at most`);
    assert.ok(Math.max(...events.map((e) => e.shardsRunning)) <= 4);
  });

  test('a 429 from the judge seen by one shard pauses every shard\'s start; the result is unchanged', async () => {
    let first = true;
    judge.script((rec) => {
      if (!first) return verdict(rec);
      first = false;
      return { status: 429, error: 'rate limited', retryAfter: 1 };
    });
    const events = [];
    const remote = await api.evaluate({
      evalSet, actual, config: CONFIG, remote: { endpoints: urls(), token: TOKEN, maxCasesPerShard: 4 },
      onProgress: (p) => events.push({ ...p, at: Date.now() }),
    });
    judge.script(verdict);
    // The result file (as the CLI writes it: no judge counters) is the local run's; the counters
    // say what the judges did: one call was answered 429 and retried.
    const { judge_stats: counted, ...rest } = remote;
    const { judge_stats: localCounted, ...localRest } = local;
    sameText(fileText(rest), fileText(localRest), 'the result file');
    assert.deepEqual(counted, { ...localCounted, attempts: localCounted.attempts + 1, retries: 1 });
    const backoff = events.find((e) => e.phase === 'judge_backoff');
    assert.ok(backoff, 'the endpoint reported the 429');
    assert.equal(backoff.delayMs, 1000);
    const during = events.filter((e) => e.phase === 'shard_start' && e.at > backoff.at && e.at < backoff.at + 950);
    assert.deepEqual(during, [], 'no shard started during the back-off');
    assert.ok(events.some((e) => e.phase === 'shard_start' && e.at >= backoff.at + 950), 'shards started again after it');
    assert.equal(events.at(-1).throttled, 1);
  });

  test('an abort signal cancels every shard\'s request; what completed is kept', async () => {
    judge.reset();
    // Slower answers, so most of the run is still ahead when it is interrupted.
    judge.script((rec) => ({ ...verdict(rec), delayMs: 300 }));
    const totalCalls = evalSet.eval_cases.reduce((n, c) => n + c.conversation.length, 0);
    const controller = new AbortController();
    let seen = 0;
    let atAbort = -1;
    const run = api.evaluate({
      evalSet, actual, config: CONFIG, signal: controller.signal, remote: { endpoints: urls(), token: TOKEN, maxCasesPerShard: 8 },
      onCaseResult: () => {
        seen++;
        // Mid-way through the next round of judge calls (each takes 300 ms), not as one ends.
        if (seen === 5) {
          setTimeout(() => {
            atAbort = judge.requests.length;
            controller.abort(new Error('interrupted'));
          }, 150);
        }
      },
    });
    await assert.rejects(run, (e) => e.name === 'AbortError' && e.partialResult.eval_case_results.length >= 5 && e.partialResult.eval_case_results.length < N);
    // The instances stop calling the judge once their clients are gone.
    await new Promise((r) => setTimeout(r, 400));
    const settled = judge.requests.length;
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(judge.requests.length, settled, 'no judge call after the abort settled');
    judge.script(verdict);
    // Calls already sent when Ctrl-C came are answered; hardly any starts after it.
    assert.ok(settled - atAbort <= 4 && settled < totalCalls, `judge calls: ${atAbort} at the abort, ${settled} in all of ${totalCalls}`);
  });

  test('evaluate({agent, remote}) and `evalcore eval --remote`: the agent here, the scoring there, the local run\'s result', async () => {
    const dir = workDir();
    works.push(dir);
    const small = corpus(24, 'cli_set');
    // An agent module that replays the recorded replies (case c_005 throws: FAILED locally too).
    writeFileSync(join(dir, 'replies.json'), JSON.stringify(small.actual));
    writeFileSync(join(dir, 'agent.mjs'), `import { readFileSync } from 'node:fs';
const replies = JSON.parse(readFileSync(new URL('./replies.json', import.meta.url), 'utf8'));
export async function agent(turn) {
  if (turn.evalId === 'case_005') throw new Error('the agent fell over');
  return replies[turn.evalId][turn.turnIndex].final_response.parts[0].text;
}
`);
    writeFileSync(join(dir, 'cli_set.evalset.json'), JSON.stringify(small.evalSet));
    writeFileSync(join(dir, 'config.json'), JSON.stringify(CONFIG));
    const common = ['eval', join(dir, 'agent.mjs'), join(dir, 'cli_set.evalset.json'), '--config_file_path', join(dir, 'config.json'), '--num_runs', '2'];
    const here = await cli([...common, '--judge', 'openai:judge-model', '--judge_base_url', judge.baseUrl, '--concurrency', '1', '--results_dir', join(dir, 'local')], { OPENAI_API_KEY: KEY });
    const there = await cli([...common, '--remote', urls().join(','), '--shards', '5', '--results_dir', join(dir, 'remote')], { EVALCORE_REMOTE_TOKEN: TOKEN });
    assert.equal(here.code, 1, here.stderr);
    assert.equal(there.code, here.code, there.stderr);
    assert.equal(there.stdout, here.stdout);
    // stderr says what the judges did: here one client answers run 2's identical calls from run 1.
    const asked = 2 * small.evalSet.eval_cases.filter((c) => c.eval_id !== 'case_005').reduce((n, c) => n + c.conversation.length, 0);
    assert.match(here.stderr, new RegExp(`^judge: ${asked} call\\(s\\) asked for: ${asked} answered \\(${asked / 2} by an identical call of the run\\), 0 failed; ${asked / 2} sent in ${asked / 2} attempt\\(s\\) \\(0 retried\\)$`, 'm'));
    assert.match(there.stderr, new RegExp(`^judge: ${asked} call\\(s\\) asked for: ${asked} answered, 0 failed; ${asked} sent in ${asked} attempt\\(s\\) \\(0 retried\\)$`, 'm'));
    const files = (sub) => readdirSync(join(dir, sub)).sort().map((f) => api.loadEvalSetResult(readFileSync(join(dir, sub, f))));
    const [l, r] = [files('local'), files('remote')];
    assert.equal(l.length, 2);
    assert.equal(r.length, 2);
    for (let run = 0; run < 2; run++) sameText(fileText(unmeasured(r[run])), fileText(unmeasured(l[run])), `the result file of run ${run}`);
    assert.ok(l[0].eval_case_results.some((c) => c.error?.code === 'agent_error'));
    // The same through the API, with the run summary the core computes over both runs.
    const replay = async (turn) => small.actual[turn.evalId][turn.turnIndex].final_response.parts[0].text;
    const judgeHere = { provider: 'openai', model: 'judge-model', baseUrl: judge.baseUrl, headers: { authorization: `Bearer ${KEY}` } };
    const a = await api.evaluate({ evalSet: small.evalSet, agent: replay, config: CONFIG, judge: judgeHere, numRuns: 2, concurrency: 1 });
    const b = await api.evaluate({ evalSet: small.evalSet, agent: replay, config: CONFIG, numRuns: 2, remote: { endpoints: urls(), token: TOKEN } });
    assert.deepEqual(unmeasured(b).run_summary, unmeasured(a).run_summary);
    // The judge counters say what the judges did: as many calls asked as the local run; the
    // local run's one client answers run 2's identical calls from run 1 (deduplicated), the
    // endpoints score each run's cases afresh and send every call.
    // (This agent completes every case.)
    const calls = 2 * small.evalSet.eval_cases.reduce((n, c) => n + c.conversation.length, 0);
    assert.equal(a.judge_stats.requests, calls);
    assert.equal(a.judge_stats.sent + a.judge_stats.deduplicated, calls);
    assert.deepEqual(b.judge_stats, { requests: calls, sent: calls, attempts: calls, retries: 0, cassette_hits: 0, deduplicated: 0, answered: calls, failures: 0, not_sent: {}, budget_exhausted: false });
    delete a.judge_stats;
    delete b.judge_stats;
    sameText(fileText(unmeasured(b)), fileText(unmeasured(a)), 'the API result');
  });

  test('Ctrl-C in `evalcore eval --remote` cancels every shard: exit 130, no result file, no judge call after it', async () => {
    const dir = workDir();
    works.push(dir);
    const big = corpus(120, 'cli_stop');
    writeFileSync(join(dir, 'replies.json'), JSON.stringify(big.actual));
    writeFileSync(join(dir, 'agent.mjs'), `import { readFileSync } from 'node:fs';
const replies = JSON.parse(readFileSync(new URL('./replies.json', import.meta.url), 'utf8'));
export const agent = async (turn) => replies[turn.evalId][turn.turnIndex].final_response.parts[0].text;
`);
    writeFileSync(join(dir, 'cli_stop.evalset.json'), JSON.stringify(big.evalSet));
    writeFileSync(join(dir, 'config.json'), JSON.stringify(CONFIG));
    while (judge.inFlight > 0) await new Promise((r) => setTimeout(r, 20));
    judge.script((rec) => ({ ...verdict(rec), delayMs: 300 }));
    const child = spawn(process.execPath, [join(PKG, 'bin', 'evalcore.js'), 'eval', join(dir, 'agent.mjs'), join(dir, 'cli_stop.evalset.json'),
      '--config_file_path', join(dir, 'config.json'), '--remote', urls().join(','), '--results_dir', join(dir, 'out')],
    { env: { PATH: process.env.PATH, HOME: process.env.HOME, EVALCORE_REMOTE_TOKEN: TOKEN } });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    const exited = new Promise((r) => child.on('close', (code) => r(code)));
    // Interrupt once the endpoints are judging, mid-way through a round of calls.
    while (judge.requests.length < 6) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 150));
    child.kill('SIGINT');
    const code = await exited;
    await new Promise((r) => setTimeout(r, 500));
    const settled = judge.requests.length;
    await new Promise((r) => setTimeout(r, 600));
    const after = judge.requests.length;
    judge.script(verdict);
    assert.equal(code, 130, stderr);
    assert.match(stderr, /interrupted: \d+ case run\(s\) had completed; no result files written/);
    assert.equal(after, settled, 'no judge call after the interrupt settled');
    const total = big.evalSet.eval_cases.reduce((n, c) => n + c.conversation.length, 0);
    assert.ok(settled < total / 2, `${settled} of ${total} judge calls were made`);
    assert.throws(() => readdirSync(join(dir, 'out')), /ENOENT/);
  });

  test('one instance killed mid-run: the result is complete and the same, no case counted twice', async () => {
    const victim = instances[2];
    const events = [];
    const streamed = [];
    let killed = false;
    const remote = await api.evaluate({
      evalSet, actual, config: CONFIG, remote: { endpoints: urls(), token: TOKEN, maxCasesPerShard: 8 },
      onProgress: (p) => events.push(p),
      onCaseResult: (r) => {
        streamed.push(r.eval_id);
        const fromVictim = events.at(-1)?.endpoint === victim.url;
        if (!killed && streamed.length >= 6 && !fromVictim) {
          killed = true;
          victim.child.kill('SIGKILL');
        }
      },
    });
    assert.ok(killed);
    sameText(fileText(remote), fileText(local), 'the result file');
    assert.equal(streamed.length, N);
    assert.equal(new Set(streamed).size, N, 'no case streamed twice');
    const retries = events.filter((e) => e.phase === 'shard_retry' && e.endpoint === victim.url);
    assert.ok(retries.length >= 1, 'the killed instance\'s shards were retried');
    const done = events.at(-1);
    assert.equal(done.endpoints.find((e) => e.url === victim.url).down, true);
  });
});
