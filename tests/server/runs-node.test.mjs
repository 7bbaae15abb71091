// Runs on Node for real: `evalcore serve --runs_dir DIR` killed with SIGKILL mid-run and started
// again on the same folder (every case exactly once; only what was in flight done again), the
// CLI that submits, waits (re-attaching across the restart), fetches and cancels, and the guards
// every route of the endpoint applies, on the runs routes too.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as api from '../../pkg/index.js';
import { httpAgent } from '../../pkg/lib/server/index.js';
import { ndjsonRun, runsClient } from '../../pkg/lib/run/runs_client.js';
import { startJudgeServer } from '../js/support/judge-server.mjs';
import { CONFIG, cli, corpus, unmeasured, verdict } from './shard-support.mjs';
import { call, freePort, rawCall, removeWork, stable, startAgentServer, startCli, workDir } from './support.mjs';
import { caseOfCall, readEvents } from './runs-support.mjs';

const KEY = 'judge-key-node-runs';
const TOKEN = 'runs-token-0123456789';
const CONCURRENCY = 4;
const work = workDir();
let judge;
const localJudge = () => ({ provider: 'openai', model: 'judge-model', baseUrl: judge.baseUrl, headers: { authorization: `Bearer ${KEY}` } });
const env = (extra = {}) => ({
  EVALCORE_JUDGE: 'openai:judge-model', EVALCORE_JUDGE_BASE_URL: judge.baseUrl, OPENAI_API_KEY: KEY,
  EVALCORE_TOKEN: TOKEN, EVALCORE_RUN_CONCURRENCY: String(CONCURRENCY), ...extra,
});
const auth = { authorization: `Bearer ${TOKEN}` };
const serve = (dir, extra, port = 0) => startCli(['serve', '--runs_dir', dir, '--quiet'], env(extra), { port });

before(async () => {
  judge = await startJudgeServer({ latencyMs: 60 });
  judge.script(verdict);
});

after(async () => {
  await judge?.close();
  removeWork(work);
});

/** Kills a server with SIGKILL and waits for it to be gone. */
function kill(server) {
  return new Promise((resolve) => {
    server.child.once('exit', resolve);
    server.child.kill('SIGKILL');
  });
}

const fetchFrom = (url) => (path, init = {}) => fetch(url + path, { ...init, headers: { ...auth, ...init.headers } });

async function submit(url, body, headers = {}) {
  return call(url, '/v1/runs', { body, headers: { ...auth, ...headers } });
}

describe('runs on Node (evalcore serve --runs_dir)', () => {
  test('SIGKILL mid-run, started again on the same folder: every case exactly once, only cases in flight judged again', async () => {
    const N = 60;
    const { evalSet, actual } = corpus(N, 'node_kill');
    const local = await api.evaluate({ evalSet, actual, config: CONFIG, judge: localJudge(), concurrency: 16 });
    const dir = join(work, 'kill');
    let server = await serve(dir, { EVALCORE_JUDGE_CALLS_PER_MINUTE: '900' });
    judge.script(verdict);
    const { body } = await submit(server.url, { evalSet, actual, config: CONFIG });
    const seen = await readEvents(fetchFrom(server.url), body.id, 0, { onLine: (_, all) => all.length < 20 });
    await kill(server);
    const killedAt = judge.now();
    server = await serve(dir, { EVALCORE_JUDGE_CALLS_PER_MINUTE: '900' });
    try {
      const rest = await readEvents(fetchFrom(server.url), body.id, seen.length);
      const summary = rest.at(-1).summary;
      assert.equal(summary.status, 'done');
      const ids = [...seen, ...rest.slice(0, -1)].map((l) => l.eval_id);
      assert.equal(ids.length, N);
      assert.equal(new Set(ids).size, N, 'no case twice');
      const result = (await call(server.url, `/v1/runs/${body.id}/result`, { method: 'GET', headers: auth })).body;
      assert.deepEqual(stable(result), stable(local));

      // Each case's calls: a case needs one per turn (1 or 2); more means it was judged again.
      const calls = judge.requests.map(caseOfCall);
      const extra = new Map();
      for (let i = 0; i < N; i++) {
        const n = calls.filter((c) => c === i).length;
        assert.ok(n >= 1 + (i % 2), `case ${i} was judged`);
        if (n > 1 + (i % 2)) extra.set(i, n - (1 + (i % 2)));
      }
      const redone = [...extra.keys()];
      const startedBefore = new Set(judge.requests.filter((r) => r.arrivedAt < killedAt).map(caseOfCall));
      console.log(`# killed after ${seen.length} events; ${redone.length} case(s) judged again (${[...extra.values()].reduce((a, b) => a + b, 0)} calls), at most ${CONCURRENCY} were in flight`);
      assert.ok(redone.length <= CONCURRENCY, `at most the ${CONCURRENCY} cases in flight are judged again, found ${redone.length}`);
      // A case judged again had begun before the kill, and its result was not kept: it was in flight.
      const keptBefore = new Set(seen.map((l) => l.eval_id));
      for (const i of redone) {
        assert.ok(startedBefore.has(i), `case ${i} had begun before the kill`);
        assert.ok(!keptBefore.has(`case_${String(i).padStart(3, '0')}`), `case ${i} had no result yet`);
      }
    } finally {
      await server.stop();
    }
  });

  test('an agent run (HTTP agent, 2 runs) killed mid-run: the turns of the cases in flight are the only ones run again', async () => {
    const N = 24;
    const { evalSet, actual } = corpus(N, 'node_agent');
    const replies = Object.fromEntries(Object.entries(actual).map(([id, inv]) => [id, inv.map((i) => i.final_response.parts[0].text)]));
    const agentServer = await startAgentServer(replies, { delayMs: 40 });
    const config = { criteria: { response_match_score: 0.6 } };
    try {
      const local = await api.evaluate({ evalSet, agent: httpAgent('bot', agentServer.url), config, numRuns: 2 });
      const expectedTurns = agentServer.turns.length;
      agentServer.turns.length = 0;
      const dir = join(work, 'agent');
      const agents = JSON.stringify({ bot: agentServer.url });
      let server = await serve(dir, { EVALCORE_AGENTS: agents });
      const { body } = await submit(server.url, { evalSet, agent: 'bot', config, numRuns: 2 });
      assert.match(body.id, /^r_/);
      const seen = await readEvents(fetchFrom(server.url), body.id, 0, { onLine: (_, all) => all.length < 15 });
      await kill(server);
      server = await serve(dir, { EVALCORE_AGENTS: agents });
      try {
        const rest = await readEvents(fetchFrom(server.url), body.id, seen.length);
        assert.equal(rest.at(-1).summary.status, 'done');
        const keys = [...seen, ...rest.slice(0, -1)].map((l) => `${l.run}/${l.eval_id}`);
        assert.equal(keys.length, 2 * N);
        assert.equal(new Set(keys).size, 2 * N);
        const result = (await call(server.url, `/v1/runs/${body.id}/result`, { method: 'GET', headers: auth })).body;
        // A local agent run lists cases as they finish; a run lists them in the eval set's order, run after run.
        const inOrder = (r) => [...r.eval_case_results].sort((a, b) => a.run - b.run || (a.eval_id < b.eval_id ? -1 : 1)).map(stable);
        assert.deepEqual(inOrder(unmeasured(result)), inOrder(unmeasured(local)));
        assert.deepEqual(result.eval_case_results.map((r) => `${r.run}/${r.eval_id}`), inOrder(local).map((r) => `${r.run}/${r.eval_id}`));
        const summaryOf = (r) => ({ ...r.run_summary, cases: [...r.run_summary.cases].sort((a, b) => (a.eval_id < b.eval_id ? -1 : 1)) });
        assert.deepEqual(summaryOf(unmeasured(result)), summaryOf(unmeasured(local)));
        assert.deepEqual(result.run_summary.cases.map((c) => c.eval_id), evalSet.eval_cases.map((c) => c.eval_id), 'the summary in the eval set\'s order');
        const again = agentServer.turns.length - expectedTurns;
        console.log(`# ${agentServer.turns.length} agent turns for ${expectedTurns}: ${again} run again`);
        assert.ok(again >= 0 && again <= CONCURRENCY * 2, `at most the turns of the ${CONCURRENCY} cases in flight run again (2 turns each), found ${again}`);
      } finally {
        await server.stop();
      }
    } finally {
      await agentServer.close();
    }
  });

  test('the CLI: submit and leave, wait across a server restart, result, cancel, list, eval --detach', async () => {
    const N = 30;
    const { evalSet, actual } = corpus(N, 'cli_runs');
    const files = join(work, 'cli');
    mkdirSync(files, { recursive: true });
    writeFileSync(join(files, 'cli_runs.evalset.json'), JSON.stringify(evalSet));
    writeFileSync(join(files, 'actual.json'), JSON.stringify(actual));
    writeFileSync(join(files, 'test_config.json'), JSON.stringify(CONFIG));
    writeFileSync(join(files, 'agent.mjs'), 'export const agent = async () => "unused";\n');
    const local = await api.evaluate({ evalSet, actual, config: CONFIG, judge: localJudge(), concurrency: 16 });
    const dir = join(work, 'cli-runs');
    let server = await serve(dir, { EVALCORE_JUDGE_CALLS_PER_MINUTE: '600' });
    const port = new URL(server.url).port;
    const cenv = { EVALCORE_REMOTE_TOKEN: TOKEN };
    try {
      const sub = await cli(['runs', 'submit', join(files, 'cli_runs.evalset.json'), '--remote', server.url, '--actual', join(files, 'actual.json'), '--name', 'nightly', '--idempotency_key', 'build-7'], cenv);
      assert.equal(sub.code, 0, sub.stderr);
      const id = sub.stdout.trim();
      assert.match(id, /^r_[0-9a-f]{24}$/);
      assert.match(sub.stderr, /submitted: run r_/);
      const again = await cli(['runs', 'submit', join(files, 'cli_runs.evalset.json'), '--remote', server.url, '--actual', join(files, 'actual.json'), '--name', 'nightly', '--idempotency_key', 'build-7'], cenv);
      assert.equal(again.stdout.trim(), id, 'the same key, the same run');
      assert.match(again.stderr, /already submitted/);

      // `wait` follows; the server is killed under it and comes back on the same port.
      const waiting = cli(['runs', 'wait', id, '--remote', server.url, '--results_dir', join(files, 'results')], cenv);
      await new Promise((r) => setTimeout(r, 800));
      await kill(server);
      await new Promise((r) => setTimeout(r, 300));
      server = await serve(dir, { EVALCORE_JUDGE_CALLS_PER_MINUTE: '600' }, port);
      const waited = await waiting;
      const failed = local.eval_case_results.filter((r) => r.final_eval_status !== 'PASSED').length;
      assert.equal(waited.code, failed > 0 ? 1 : 0, waited.stderr);
      assert.equal(waited.stdout, api.formatReport(local.eval_case_results, { detailed: false }));
      assert.match(waited.stderr, /re-attaching/);
      assert.match(waited.stderr, /wrote .*results.*\.evalset_result\.json/);

      const status = await cli(['runs', 'status', id, '--remote', server.url, '--json'], cenv);
      assert.equal(JSON.parse(status.stdout).status, 'done');
      const out = join(files, 'result.json');
      const res = await cli(['runs', 'result', id, '--remote', server.url, '--output', out], cenv);
      assert.equal(res.code, 0, res.stderr);
      assert.deepEqual(stable(JSON.parse(readFileSync(out, 'utf8'))), stable(local));

      const detached = await cli(['eval', join(files, 'agent.mjs'), join(files, 'cli_runs.evalset.json'), '--remote', server.url, '--detach', '--actual', join(files, 'actual.json')], cenv);
      assert.equal(detached.code, 0, detached.stderr);
      const second = detached.stdout.trim();
      assert.match(second, /^r_/);
      assert.notEqual(second, id);
      const cancelled = await cli(['runs', 'cancel', second, '--remote', server.url], cenv);
      assert.equal(cancelled.code, 0, cancelled.stderr);
      assert.match(cancelled.stdout, /cancelled/);
      const waitCancelled = await cli(['runs', 'wait', second, '--remote', server.url], cenv);
      assert.equal(waitCancelled.code, 1);
      assert.match(waitCancelled.stderr, /was cancelled/);
      const listed = await cli(['runs', 'list', '--remote', server.url], cenv);
      assert.match(listed.stdout, new RegExp(`${second}.*cancelled[\\s\\S]*${id} \\(nightly\\): done`));

      const noToken = await cli(['runs', 'status', id, '--remote', server.url], {});
      assert.equal(noToken.code, 2);
      assert.match(noToken.stderr, /unauthorized/);
      const usage = await cli(['eval', join(files, 'agent.mjs'), join(files, 'cli_runs.evalset.json'), '--remote', server.url, '--detach'], cenv);
      assert.equal(usage.code, 2);
      assert.match(usage.stderr, /--actual FILE .* or --server_agent NAME/);
      // What only a local run can do is refused before anything is sent.
      const local2 = await cli(['eval', join(files, 'agent.mjs'), join(files, 'cli_runs.evalset.json'), '--remote', server.url, '--detach', '--actual', join(files, 'actual.json'), '--custom_metrics', join(files, 'agent.mjs')], cenv);
      assert.equal(local2.code, 2);
      assert.match(local2.stderr, /--custom_metrics does not go with --detach/);
    } finally {
      await server.stop();
    }
  });

  test('`runs wait` exits as `eval` would: a dead judge leaves metrics NOT_EVALUATED, exit 0, and 1 under --strict', async () => {
    const { evalSet, actual } = corpus(2, 'dead_judge_run');
    const dir = join(work, 'dead-judge');
    const server = await serve(dir, { EVALCORE_JUDGE_BASE_URL: `http://127.0.0.1:${await freePort()}` });
    const cenv = { EVALCORE_REMOTE_TOKEN: TOKEN };
    try {
      // A case whose judged metric is NOT_EVALUATED passes on its other metric (ADK's rule).
      const config = { criteria: { response_match_score: 0, final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: 1 } } } };
      const made = await submit(server.url, { evalSet, actual, config });
      assert.equal(made.status, 202, made.text);
      const plain = await cli(['runs', 'wait', made.body.id, '--remote', server.url], cenv);
      assert.equal(plain.code, 0, plain.stdout + plain.stderr);
      assert.match(plain.stdout, /Tests passed: 2\n {2}Tests failed: 0\n$/);
      assert.match(plain.stderr, /2 metric results were NOT_EVALUATED .*\n {2}judge_error x2 \(final_response_match_v2\)/);
      const strict = await cli(['runs', 'wait', made.body.id, '--remote', server.url, '--strict'], cenv);
      assert.equal(strict.code, 1, strict.stderr);
      assert.match(strict.stderr, /^error: --strict: 2 metric result\(s\) were NOT_EVALUATED$/m);
    } finally {
      await server.stop();
    }
  });

  test('a run too large to parse at once is sent as ndjson, one case a line, each checked as it comes', async () => {
    const N = 1000;
    const { evalSet, actual } = corpus(N, 'node_big');
    const config = { criteria: { response_match_score: 0.6 } };
    // The server has a judge (none of these metrics calls it): its result counts no calls, as a local run with one does.
    const local = await api.evaluate({ evalSet, actual, config, judge: localJudge() });
    const dir = join(work, 'big');
    // A parse budget of 4 MiB: the whole body (about 0.6 MiB of JSON) would take more to parse.
    const server = await serve(dir, { EVALCORE_MAX_PARSE_BYTES: String(4 << 20), EVALCORE_MAX_RUN_CASES: String(N), EVALCORE_RUN_CONCURRENCY: '16' });
    try {
      const whole = await submit(server.url, { evalSet, actual, config });
      assert.equal(whole.status, 413);
      assert.equal(whole.body.error.code, 'too_large');
      const client = runsClient(server.url, { token: TOKEN });
      const t0 = Date.now();
      const { id } = await client.submit({ evalSet, actual, config, name: 'big' });
      console.log(`# ${N} cases submitted as ndjson in ${Date.now() - t0} ms`);
      const summary = await client.follow(id);
      assert.equal(summary.status, 'done');
      assert.deepEqual(stable(await client.result(id)), stable({ ...local, eval_set_result_name: 'big' }));
      // Each line checked with its path; nothing of a refused run is kept.
      const lines = ndjsonRun({ evalSet: corpus(3, 'bad').evalSet, actual: corpus(3, 'bad').actual, config }).split('\n');
      const bad = [lines[0], lines[1], JSON.stringify({ eval_case: { eval_id: 'x', conversation: 'nope' }, actual: [] }), ''].join('\n');
      const refused = await call(server.url, '/v1/runs', { raw: bad, headers: { ...auth, 'content-type': 'application/x-ndjson' } });
      assert.equal(refused.status, 400);
      assert.match(refused.body.error.path, /^\$line\[3\]\.eval_case\.conversation/);
      const twice = await call(server.url, '/v1/runs', { raw: [lines[0], lines[1], lines[1], ''].join('\n'), headers: { ...auth, 'content-type': 'application/x-ndjson' } });
      assert.equal(twice.body.error.code, 'duplicate_id');
      assert.equal(twice.body.error.path, '$line[3].eval_case.eval_id');
      const inputs = readdirSync(join(dir, 'runs')).map((r) => readdirSync(join(dir, 'runs', r, 'input')).filter((f) => f !== 'head.json').length);
      assert.deepEqual(inputs, [1], 'one run, one submission\'s chunks: the refused ones left nothing');
    } finally {
      await server.stop();
    }
  });

  test('the guards: token, Origin, body type and size, ids, and a server that keeps no runs', async () => {
    const dir = join(work, 'guards');
    const server = await serve(dir, { EVALCORE_MAX_RUN_BODY_BYTES: '20000', EVALCORE_MAX_RUN_CASES: '5', EVALCORE_MAX_ACTIVE_RUNS: '1', EVALCORE_JUDGE_CALLS_PER_MINUTE: '6' });
    const plain = await startCli(['serve', '--quiet'], env());
    try {
      const { evalSet, actual } = corpus(3, 'guards');
      const body = { evalSet, actual, config: { criteria: { response_match_score: 0.6 } } };
      assert.equal((await call(server.url, '/v1/runs', { body })).status, 401);
      const cross = await call(server.url, '/v1/runs', { body, headers: { ...auth, origin: 'https://evil.example' } });
      assert.equal(cross.status, 403);
      assert.equal(cross.body.error.code, 'origin_not_allowed');
      const form = await rawCall(server.url, '/v1/runs', { method: 'POST', headers: { ...auth, host: new URL(server.url).host, 'content-type': 'text/plain' }, body: JSON.stringify(body) });
      assert.equal(form.status, 415);
      const rebound = await rawCall(server.url, '/v1/runs', { headers: { ...auth, host: 'evil.example' } });
      assert.equal(rebound.status, 403);
      const big = await submit(server.url, { ...body, pad: 'x'.repeat(30_000) });
      assert.equal(big.status, 413);
      const many = await submit(server.url, { ...corpus(6, 'many'), config: body.config });
      assert.equal(many.status, 413);
      assert.equal(many.body.error.code, 'too_many_cases');
      assert.match(many.body.error.message, /maxRunCases/);
      const wrong = await submit(server.url, { ...body, caseJudgeStats: true });
      assert.equal(wrong.body.error.path, '$.caseJudgeStats');
      const badName = await submit(server.url, { ...body, name: 'a\nb' });
      assert.equal(badName.body.error.path, '$.name');
      const badKey = await submit(server.url, body, { 'idempotency-key': 'x'.repeat(300) });
      assert.equal(badKey.status, 400);
      assert.equal(badKey.body.error.code, 'bad_idempotency_key');
      const missingCase = await submit(server.url, { ...body, actual: { case_000: actual.case_000 } });
      assert.equal(missingCase.status, 400);
      assert.equal(missingCase.body.error.path, '$.actual.case_001');
      for (const path of ['/v1/runs/r_0123', `/v1/runs/${'r'.repeat(5000)}`, '/v1/runs/r_000000000000000000000000/events']) {
        const r = await call(server.url, path, { method: 'GET', headers: auth });
        assert.equal(r.status, 404, path);
        assert.ok(r.text.length < 400, 'an id is not echoed at length');
      }
      const method = await call(server.url, '/v1/runs/r_000000000000000000000000/result', { method: 'DELETE', headers: auth });
      assert.equal(method.status, 405);
      const after = await call(server.url, '/v1/runs/r_000000000000000000000000/events?after=-1', { method: 'GET', headers: auth });
      assert.equal(after.status, 404);
      // Judged at 6 calls a minute: it stays unfinished while the rest is asked.
      const ok = await submit(server.url, { ...body, config: CONFIG });
      assert.equal(ok.status, 202);
      const badAfter = await call(server.url, `/v1/runs/${ok.body.id}/events?after=x`, { method: 'GET', headers: auth });
      assert.equal(badAfter.status, 400);
      const full = await submit(server.url, { ...body, name: 'one too many' });
      assert.equal(full.status, 429, 'EVALCORE_MAX_ACTIVE_RUNS is 1: the second unfinished run waits');
      assert.equal(full.body.error.code, 'too_many_runs');
      const none = await call(plain.url, '/v1/runs', { method: 'GET', headers: auth });
      assert.equal(none.status, 404);
      assert.equal(none.body.error.code, 'runs_not_configured');
    } finally {
      await server.stop();
      await plain.stop();
    }
  });
});
