// The shared oracles through the endpoint of a real Node, Deno and workerd server, each POSTed to
// /v1/evaluate as one request per line:
// * every line of case_oracles.jsonl (300): the result equals what the library's
//   evaluateInvocations gives in this process (as JSON), or the same error where it throws;
// * every line of judge_oracles.jsonl (120), served by the loopback judge server (oracle mode),
//   the server's judge (provider, model, base URL, key) from its environment: final status, each
//   metric's status and score overall and per invocation, and the judge calls made (not one more
//   than ADK made) equal google-adk 2.13's, as tests/js/judge-oracles.test.mjs checks the library.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readJsonl } from '../js/helpers.mjs';
import { checkRow } from '../js/support/judge-check.mjs';
import { startJudgeServer } from '../js/support/judge-server.mjs';
import * as api from '../../pkg/index.js';
import { DATA, call, evalIdOf, oracleRequest, oracleRows, removeWork, startDeno, startNode, startWorkerd, workDir } from './support.mjs';

const KEY = 'sk-oracle-secret-61f0b2';
const lines = readJsonl(join(DATA, 'judge_oracles.jsonl'));
const cases = oracleRows();
const work = workDir();
const servers = {};
let judge;

before(async () => {
  judge = await startJudgeServer();
  const env = { EVALCORE_JUDGE: 'openai:m', EVALCORE_JUDGE_BASE_URL: judge.baseUrl, OPENAI_API_KEY: KEY };
  servers.node = await startNode(env, work, ['--quiet']);
  servers.deno = await startDeno(env, work);
  servers.workerd = await startWorkerd(env, work);
});

after(async () => {
  await Promise.all(Object.values(servers).map((s) => s.stop()));
  await judge?.close();
  removeWork(work);
});

/** The library's evaluateInvocations, answered by a server's /v1/evaluate instead. */
const throughEndpoint = (url) => ({
  async evaluateInvocations({ evalCase, actual, config }) {
    const id = evalIdOf(evalCase);
    const a = await call(url, '/v1/evaluate', { body: { evalSet: { eval_set_id: 'judge_oracles', eval_cases: [evalCase] }, config, actual: { [id]: actual } } });
    if (a.status !== 200) {
      const e = new Error(a.body?.error?.message ?? a.text);
      e.code = a.body?.error?.code ?? `HTTP ${a.status}`;
      throw e;
    }
    return a.body.eval_case_results[0];
  },
});

/** What the library gives for a case oracle line, as it reads after a trip through JSON. */
async function libraryAnswer(row) {
  try {
    const r = await api.evaluateInvocations({ evalCase: row.eval_case, actual: row.actual_invocations, config: row.config, evalSetId: 'oracles' });
    return { status: 200, result: JSON.parse(JSON.stringify(r)) };
  } catch (e) {
    return { status: 400, code: e.code };
  }
}

for (const name of ['node', 'deno', 'workerd']) {
  describe(`oracles through ${name}`, () => {
    test(`all ${cases.length} case oracle lines score as the library scores them`, async (t) => {
      const failures = [];
      let refused = 0;
      for (const row of cases) {
        const want = await libraryAnswer(row);
        const a = await call(servers[name].url, '/v1/evaluate', { body: oracleRequest(row) });
        if (a.status !== want.status) failures.push(`${row.id}: HTTP ${a.status}, expected ${want.status}: ${a.text.slice(0, 200)}`);
        else if (want.status === 400) {
          refused++;
          if (a.body.error.code !== want.code) failures.push(`${row.id}: error ${a.body.error.code}, the library threw ${want.code}`);
        } else {
          try {
            assert.deepEqual(a.body.eval_case_results, [want.result]);
          } catch (e) {
            failures.push(`${row.id}: ${e.message.slice(0, 400)}`);
          }
        }
      }
      t.diagnostic(`${name}: ${cases.length - failures.length}/${cases.length} case oracle lines as the library (${refused} refused as the library refuses them)`);
      assert.equal(cases.length, 300);
      assert.deepEqual(failures, []);
    });


    test(`all ${lines.length} lines equal to google-adk 2.13, with ADK's judge calls`, async (t) => {
      const failures = [];
      for (const line of lines) {
        const { diffs } = await checkRow(throughEndpoint(servers[name].url), judge, line);
        if (diffs.length > 0) failures.push(`${line.id}: ${diffs.slice(0, 6).join('; ')}`);
        for (const r of judge.requests) {
          if (r.headers.authorization !== `Bearer ${KEY}`) failures.push(`${line.id}: a judge call without the server's key`);
        }
      }
      t.diagnostic(`${name}: ${lines.length - failures.length}/${lines.length} judge oracle lines equal to google-adk 2.13 through /v1/evaluate`);
      assert.equal(lines.length, 120);
      assert.deepEqual(failures, []);
      assert.ok(!servers[name].output().includes(KEY), `${name} printed the key`);
    });
  });
}
