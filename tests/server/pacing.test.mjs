// Rate limits shared while shards run, and agent runs overlapping their scoring, over real
// workerd instances of the module worker on 127.0.0.1 judging through one loopback judge:
//   * a 429 one instance's judge call gets holds every instance's judge calls for the
//     Retry-After, whichever way the running shards are told (a control line on their streamed
//     request bodies, or cancelled and re-sent; also behind a proxy that buffers bodies, and from
//     a Deno client), and the result file is the local run's;
//   * each runtime's endpoint (Node's `evalcore serve`, Deno.serve, workerd) reads control lines
//     while it streams its answer, and answers a bad one with its error;
//   * evaluate({agent, remote, numRuns}) scores earlier runs while the agent runs later ones,
//     with the local run's result and run summary.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { after, before, describe, test } from 'node:test';
import * as api from '../../pkg/index.js';
import { startJudgeServer } from '../js/support/judge-server.mjs';
import { DENO, PKG, removeWork, startDeno, startNode, startWorkerd, workDir } from './support.mjs';
import { CONFIG, corpus, fileText, sameText, unmeasured, verdict } from './shard-support.mjs';

const TOKEN = 'tok-pacing-77c1e0b5';
const KEY = 'sk-pacing-3e9d24aa10';
const LATENCY = 100;
const RETRY_AFTER_S = 1;
// How long after the 429 left the judge a call may still start: the 429 crosses one instance,
// its stream, the client and the others' request bodies (a few ms); a cancelled shard's
// instance notices its client left only when it next writes, after a judge call's latency.
const BOUND_MS = 2 * LATENCY;

const works = [];
const instances = [];
let judge;
let local;
const { evalSet, actual } = corpus(120, 'pacing_set');
const judgeHere = () => ({ provider: 'openai', model: 'judge-model', baseUrl: judge.baseUrl, headers: { authorization: `Bearer ${KEY}` } });

before(async () => {
  judge = await startJudgeServer({ latencyMs: LATENCY });
  judge.script(verdict);
  const env = { EVALCORE_TOKEN: TOKEN, EVALCORE_JUDGE: 'openai:judge-model', EVALCORE_JUDGE_BASE_URL: judge.baseUrl, OPENAI_API_KEY: KEY };
  for (let i = 0; i < 3; i++) {
    const w = workDir();
    works.push(w);
    instances.push(await startWorkerd(env, w));
  }
  local = await api.evaluate({ evalSet, actual, config: CONFIG, judge: judgeHere() });
});

after(async () => {
  await Promise.all(instances.map((s) => s.stop()));
  await judge?.close();
  for (const w of works) removeWork(w);
});

const urls = () => instances.map((s) => s.url);
const settle = async () => {
  while (judge.inFlight > 0) await new Promise((r) => setTimeout(r, 20));
};

/**
 * The judge answers its `nth` call 429 (Retry-After 1 s) and every other with the verdict.
 * Resolves, after `run()`, to the judge calls' start times (ms, this process's clock), when the
 * 429 left the judge, and what run() gave.
 */
async function throttledRun(run, nth = 6) {
  await settle();
  const starts = [];
  let sentAt = null;
  judge.script((rec) => {
    const now = performance.now();
    starts.push(now);
    if (starts.length !== nth) return verdict(rec);
    // Sent after the judge's latency.
    sentAt = now + LATENCY;
    return { status: 429, error: 'rate limited', retryAfter: RETRY_AFTER_S };
  });
  try {
    const out = await run();
    return { starts, sentAt, out };
  } finally {
    judge.script(verdict);
  }
}

/**
 * The judge calls started in the Retry-After window (after BOUND_MS), what the run's client
 * and the judge saw (as a line of text), and how many calls came after the window.
 */
function inWindow({ starts, sentAt, out }) {
  const end = sentAt + RETRY_AFTER_S * 1000 - 20;
  const late = starts.filter((t) => t > sentAt && t < end);
  const backoff = out.events.find((e) => e.phase === 'judge_backoff');
  const lag = late.length === 0 ? 'no judge call started in the window' : `the last call in the window started ${Math.round(Math.max(...late) - sentAt)} ms after the 429`;
  return {
    during: late.filter((t) => t > sentAt + BOUND_MS).map((t) => Math.round(t - sentAt)),
    seen: `the client knew of the 429 ${Math.round(backoff.at - sentAt)} ms after it left the judge; ${lag}`,
    after: starts.filter((t) => t >= end).length,
  };
}

/**
 * A remote run over the three instances, its progress events timed: one shard of 40 cases per
 * instance, so each has rounds of judge calls left for the whole window when the first round
 * meets the 429.
 */
async function remoteRun(remote) {
  const events = [];
  const result = await api.evaluate({
    evalSet, actual, config: CONFIG, remote: { endpoints: urls(), token: TOKEN, shards: 3, perEndpoint: 1, ...remote },
    onProgress: (p) => events.push({ ...p, at: performance.now() }),
  });
  return { result, events };
}

/** The result file without the judge counters (the CLI writes none), and the counters: one retry more. */
function sameAsLocal(result) {
  const { judge_stats: counted, ...rest } = result;
  const { judge_stats: want, ...wantRest } = local;
  sameText(fileText(rest), fileText(wantRest), 'the result file');
  assert.deepEqual(counted, { ...want, attempts: want.attempts + 1, retries: 1 });
}

describe('a 429 seen by one instance holds every instance\'s judge calls', () => {
  for (const control of ['stream', 'cancel']) {
    test(`control: ${control}: no judge call starts on any instance during the Retry-After (after ${BOUND_MS} ms); the result is the local run's`, async (t) => {
      const got = await throttledRun(() => remoteRun({ control }));
      const { result, events } = got.out;
      sameAsLocal(result);
      const w = inWindow(got);
      t.diagnostic(`control ${control}: ${w.seen}; ${w.after} calls after the window`);
      assert.deepEqual(w.during, [], `judge calls started ${w.during.join(', ')} ms after the 429`);
      assert.ok(w.after > 0, 'the run went on after the back-off');
      const backoff = events.find((e) => e.phase === 'judge_backoff');
      // The other shards were running (so there was something to hold): told or cancelled.
      if (control === 'stream') assert.ok(backoff.told >= 2 && backoff.cancelled === 0, JSON.stringify(backoff));
      else assert.ok(backoff.cancelled >= 2 && backoff.told === 0, JSON.stringify(backoff));
      const busy = new Set(events.filter((e) => e.phase === 'shard_start' && e.at < backoff.at).map((e) => e.endpoint));
      assert.equal(busy.size, 3, 'every instance had shards running at the 429');
      if (control === 'cancel') assert.ok(events.at(-1).heldBack >= 2);
    });
  }

  test('behind a proxy that buffers request bodies: the channel is closed after controlGraceMs and the shards are cancelled instead', async (t) => {
    // Forwards a request only once its whole body is in (as nginx does by default).
    const buffering = async (url, init) => {
      const body = init.body instanceof ReadableStream ? await new Response(init.body).text() : init.body;
      const { duplex, ...rest } = init;
      return fetch(url, { ...rest, body });
    };
    const got = await throttledRun(() => remoteRun({ control: 'stream', controlGraceMs: 150, fetch: buffering }));
    const { result, events } = got.out;
    sameAsLocal(result);
    const w = inWindow(got);
    t.diagnostic(`buffering proxy: ${w.seen}`);
    assert.deepEqual(w.during, [], `judge calls started ${w.during.join(', ')} ms after the 429`);
    // Shards past the grace are cancelled; one still within it carries the control line in the
    // body the proxy forwards, so its instance holds from its start.
    const backoff = events.find((e) => e.phase === 'judge_backoff');
    assert.ok(backoff.cancelled >= 2, JSON.stringify(backoff));
  });

  test('a Deno client: control "stream" by default there too; no judge call in the window, the local run\'s result', async (t) => {
    // `import 'evalcore'` in Deno (the "deno" condition), the run's input and its answer as files.
    const project = join(workDir(), 'deno-client');
    works.push(join(project, '..'));
    mkdirSync(join(project, 'node_modules'), { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'deno-client', private: true, type: 'module', dependencies: { evalcore: 'file:../pkg' } }));
    symlinkSync(PKG, join(project, 'node_modules', 'evalcore'), 'dir');
    writeFileSync(join(project, 'input.json'), JSON.stringify({ evalSet, actual, config: CONFIG, remote: { endpoints: urls(), token: TOKEN, shards: 3, perEndpoint: 1 } }));
    writeFileSync(join(project, 'client.mjs'), `import { evaluate } from 'evalcore';
const input = JSON.parse(await Deno.readTextFile('input.json'));
const events = [];
const result = await evaluate({ ...input, onProgress: (p) => { if (p.phase === 'judge_backoff') events.push({ ...p, at: performance.timeOrigin + performance.now() }); } });
console.log(JSON.stringify({ result, events }));
`);
    const deno = () => new Promise((resolve, reject) => {
      const child = spawn(DENO, ['run', '--quiet', '--no-lock', '--no-config', '--node-modules-dir=manual', `--allow-read=${project},${PKG}`, '--allow-net=127.0.0.1', 'client.mjs'], {
        cwd: project, env: { PATH: process.env.PATH, HOME: process.env.HOME, DENO_DIR: join(project, '..', 'deno-dir'), DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1', NO_COLOR: '1' },
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => { out += d; });
      child.stderr.on('data', (d) => { err += d; });
      child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`deno exited with ${code}: ${err}`))));
    });
    const got = await throttledRun(deno);
    // The Deno process's clock, as this one's (both count from the epoch).
    const events = got.out.events.map((e) => ({ ...e, at: e.at - performance.timeOrigin }));
    sameAsLocal(got.out.result);
    const w = inWindow({ ...got, out: { events } });
    t.diagnostic(`deno client: ${w.seen}`);
    assert.deepEqual(w.during, [], `judge calls started ${w.during.join(', ')} ms after the 429`);
    assert.ok(events[0].told >= 2 && events[0].cancelled === 0, JSON.stringify(events[0]));
  });

  test('remote.control, the signal and what an agent run would refuse are checked before any request', async () => {
    await assert.rejects(api.evaluate({ evalSet, actual, remote: { endpoints: urls(), control: 'duplex' } }),
      (e) => e instanceof api.EvalError && e.code === 'schema' && e.path === '$.remote.control' && /"stream" or "cancel"/.test(e.message));
    await assert.rejects(api.evaluate({ evalSet, actual, remote: { endpoints: urls(), controlGraceMs: -1 } }),
      (e) => e instanceof api.EvalError && e.code === 'schema' && e.path === '$.remote.controlGraceMs');
    await assert.rejects(api.evaluate({ evalSet, actual, remote: { endpoints: urls() }, signal: 'stop' }),
      (e) => e instanceof api.EvalError && e.code === 'schema' && e.path === '$.signal');
    judge.reset();
    const agent = async () => 'never called';
    const refused = [
      [{ numRuns: 2 ** 40 }, 'schema', '$.numRuns'], [{ numRuns: 'two' }, 'schema', '$.numRuns'], [{ evalIds: 5 }, 'schema', '$.evalIds'],
      [{ evalSet: '{"eval_set_id": 3' }, 'invalid_json', '$.evalSet'], [{ evalSet: { eval_set_id: 's', eval_cases: 7 } }, 'schema', '$.evalSet.eval_cases'],
    ];
    for (const [bad, code, path] of refused) {
      await assert.rejects(api.evaluate({ evalSet, agent, config: CONFIG, remote: { endpoints: urls(), token: TOKEN }, ...bad }),
        (e) => e instanceof api.EvalError && e.code === code && e.path === path, JSON.stringify(bad));
    }
    assert.equal(judge.requests.length, 0);
  });
});

/**
 * A streamed /v1/evaluate request whose body stays open: `body` as its first line, then each of
 * `control(line, send)`'s sends, called for every answer line. Resolves to the answer's lines.
 */
async function duplexRequest(url, body, control) {
  const encoder = new TextEncoder();
  let out;
  const stream = new ReadableStream({ start(c) { out = c; } });
  out.enqueue(encoder.encode(`${JSON.stringify(body)}\n`));
  const send = (text) => out.enqueue(encoder.encode(`${text}\n`));
  const res = await fetch(`${url}/v1/evaluate`, {
    method: 'POST', body: stream, duplex: 'half',
    headers: { 'content-type': 'application/x-ndjson', accept: 'application/x-ndjson', authorization: `Bearer ${TOKEN}` },
  });
  assert.equal(res.status, 200);
  const lines = [];
  let carry = '';
  for await (const chunk of res.body.pipeThrough(new TextDecoderStream())) {
    carry += chunk;
    let i;
    while ((i = carry.indexOf('\n')) >= 0) {
      const line = JSON.parse(carry.slice(0, i));
      carry = carry.slice(i + 1);
      lines.push(line);
      control(line, send);
    }
  }
  out.close();
  return lines;
}

describe('each runtime\'s endpoint reads control lines while it streams', () => {
  const servers = {};
  const env = () => ({ EVALCORE_TOKEN: TOKEN, EVALCORE_JUDGE: 'openai:judge-model', EVALCORE_JUDGE_BASE_URL: judge.baseUrl, OPENAI_API_KEY: KEY });
  before(async () => {
    const w = workDir();
    works.push(w);
    [servers.node, servers.deno] = await Promise.all([startNode(env(), w), startDeno(env(), w)]);
    servers.workerd = instances[0];
  });
  after(async () => {
    await Promise.all([servers.node?.stop(), servers.deno?.stop()]);
  });
  const small = corpus(6, 'control_set');
  const request = { ...small, config: CONFIG, judgeConcurrency: 1, caseJudgeStats: true };

  for (const name of ['node', 'deno', 'workerd']) {
    test(`${name}: {"judge_throttled": {"retry_after_ms": 600}} holds the instance's judge calls; a bad control line ends the request with its error`, async () => {
      await settle();
      const starts = [];
      judge.script((rec) => {
        starts.push(performance.now());
        return verdict(rec);
      });
      let heldAt = null;
      const lines = await duplexRequest(servers[name].url, request, (line, send) => {
        if (heldAt === null && typeof line.eval_id === 'string') {
          heldAt = performance.now();
          send('{"judge_throttled":{"retry_after_ms":600}}');
        }
      });
      judge.script(verdict);
      const during = starts.filter((t) => t > heldAt + 30 && t < heldAt + 580).map((t) => Math.round(t - heldAt));
      assert.deepEqual(during, [], `judge calls started ${during.join(', ')} ms after the control line`);
      assert.ok(starts.some((t) => t >= heldAt + 580), 'the calls went on after the hold');
      const results = lines.filter((l) => typeof l.eval_id === 'string');
      assert.deepEqual(results.map((r) => r.eval_id).sort(), small.evalSet.eval_cases.map((c) => c.eval_id));
      // Each case result follows its judge counters, as the request asked.
      const counted = lines.filter((l) => l.judge_stats);
      assert.equal(counted.length, 6);
      for (const r of results) assert.equal(lines[lines.indexOf(r) - 1].judge_stats?.eval_id, r.eval_id);
      assert.equal(lines.at(-1).summary.judge_stats.sent, small.evalSet.eval_cases.reduce((n, c) => n + c.conversation.length, 0));

      for (const [bad, code, path] of [['not json', 'invalid_json', '$control[2]'], ['{"pause":1}', 'schema', '$control[2]'],
        ['{"judge_throttled":{"retry_after_ms":"soon"}}', 'schema', '$control[2].judge_throttled.retry_after_ms']]) {
        let sent = false;
        const got = await duplexRequest(servers[name].url, request, (line, send) => {
          if (!sent) {
            sent = true;
            send(bad);
          }
        });
        const err = got.at(-1).error;
        assert.equal(err?.code, code, JSON.stringify(got.at(-1)));
        assert.equal(err.path, path);
        assert.match(err.message, /control line 2/);
      }
      await settle();
    });
  }
});

describe('evaluate({agent, remote, numRuns}): scoring overlaps the agent\'s runs', () => {
  test('run 1\'s cases are scored while the agent runs later runs; the result and run summary are the local run\'s', async (t) => {
    await settle();
    const small = corpus(24, 'overlap_set');
    const replay = async (turn) => {
      await new Promise((r) => setTimeout(r, 15));
      return small.actual[turn.evalId][turn.turnIndex].final_response.parts[0].text;
    };
    const common = { evalSet: small.evalSet, agent: replay, config: CONFIG, numRuns: 3 };
    // One case at a time here, so the local result lists cases in the set's order as a remote run does.
    const here = await api.evaluate({ ...common, concurrency: 1, judge: judgeHere() });
    const events = [];
    const scored = [];
    const t0 = performance.now();
    const there = await api.evaluate({
      ...common, concurrency: 4, remote: { endpoints: urls(), token: TOKEN },
      onProgress: (p) => events.push({ ...p, at: performance.now() - t0 }),
      onCaseResult: (r) => scored.push({ run: r.run, id: r.eval_id, session: r.session_id }),
    });
    const agentDone = Math.max(...events.filter((e) => e.stage === 'agent').map((e) => e.at));
    const scoredWhileAgent = events.filter((e) => e.stage === 'score' && e.phase === 'case' && e.at < agentDone);
    t.diagnostic(`the agent's last turn at ${Math.round(agentDone)} ms, the last case scored at ${Math.round(events.at(-1).at)} ms; ${scoredWhileAgent.length} of ${scored.length} cases scored before the agent was done`);
    assert.ok(scoredWhileAgent.some((e) => e.run === 0), 'run 1 was scored while the agent still ran');
    const lastRun = events.filter((e) => e.stage === 'agent' && e.phase === 'case' && e.run === 2);
    assert.ok(lastRun.length > 0 && scoredWhileAgent.some((e) => e.at < lastRun[0].at), 'a case was scored before run 3 had a case');
    // The result: run after run in the eval set's order, with the local run's run summary and,
    // but for what each agent run measures, the same text; every case streamed once with its session.
    const { judge_stats: a, ...hereRest } = here;
    const { judge_stats: b, ...thereRest } = there;
    assert.deepEqual(there.eval_case_results.map((r) => [r.run, r.eval_id]), here.eval_case_results.map((r) => [r.run, r.eval_id]));
    assert.deepEqual(unmeasured(there).run_summary, unmeasured(here).run_summary);
    sameText(fileText(unmeasured(thereRest)), fileText(unmeasured(hereRest)), 'the result');
    assert.equal(scored.length, 3 * 24);
    assert.equal(new Set(scored.map((s) => `${s.run}/${s.id}`)).size, 3 * 24);
    const sessions = new Map(there.eval_case_results.map((r) => [`${r.run}/${r.eval_id}`, r.session_id]));
    assert.ok(scored.every((s) => sessions.get(`${s.run}/${s.id}`) === s.session));
    assert.equal(b.requests, a.requests);
    // One sharded pass under one set of limits: never more requests than the run's slots.
    assert.ok(Math.max(...events.filter((e) => e.stage === 'score').map((e) => e.shardsRunning)) <= 6);
  });

  test('a bad option of the agent run fails the run with its path; an abort stops the agent and the scoring, what was scored kept', async () => {
    await settle();
    const small = corpus(24, 'overlap_stop');
    const slow = async (turn) => {
      await new Promise((r) => setTimeout(r, 30));
      return small.actual[turn.evalId][turn.turnIndex].final_response.parts[0].text;
    };
    await assert.rejects(api.evaluate({ evalSet: small.evalSet, agent: slow, config: CONFIG, numRuns: 2, concurrency: 0, remote: { endpoints: urls(), token: TOKEN } }),
      (e) => e instanceof api.EvalError && e.code === 'schema' && e.path === '$.concurrency');
    const controller = new AbortController();
    let turns = 0;
    let turnsAtAbort = -1;
    const counting = async (turn) => {
      turns++;
      return slow(turn);
    };
    const run = api.evaluate({
      evalSet: small.evalSet, agent: counting, config: CONFIG, numRuns: 3, concurrency: 2, signal: controller.signal,
      remote: { endpoints: urls(), token: TOKEN, shards: 12 },
      onCaseResult: () => {
        if (turnsAtAbort < 0) {
          turnsAtAbort = turns;
          controller.abort(new Error('interrupted'));
        }
      },
    });
    await assert.rejects(run, (e) => e.name === 'AbortError' && e.partialResult.eval_case_results.length >= 1 && e.partialResult.eval_case_results.length < 72);
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(turns <= turnsAtAbort + 2, `${turns} agent turns, ${turnsAtAbort} at the abort`);
  });
});
