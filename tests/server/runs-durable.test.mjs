// Runs on Node (createHandler + localRuns on a folder, serveNode on 127.0.0.1) whose folder a
// kill or another program left damaged: a ledger whose last line was cut, a line that is JSON
// but no record, a cut meta.json. Each is skipped and reported, never fatal, never destructive;
// no case is lost. And what clients name: eval ids that are Object.prototype's members, a
// listing cursor that is no position.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { createHandler, localRuns } from '../../pkg/lib/server/index.js';
import { serveNode } from '../../pkg/lib/server/node.js';
import { corpus } from './shard-support.mjs';
import { call, removeWork, workDir } from './support.mjs';

const TOKEN = 'runs-durable-token-5521';
const auth = { authorization: `Bearer ${TOKEN}` };
const CONFIG = { criteria: { response_match_score: 0.5 } };
const work = workDir();
after(() => removeWork(work));

/** A server keeping runs in `dir`: `{url, logs, stop()}` (stop: its writes finished, nothing more started). */
async function start(dir) {
  const logs = [];
  const handler = createHandler({ token: TOKEN, runs: localRuns({ dir, retryDelayMs: 10, log: (e) => logs.push(e) }) });
  const s = await serveNode(handler, { port: 0 });
  return {
    url: s.url, logs,
    stop: async () => {
      await handler.runs.engine.close();
      await s.close();
    },
  };
}

async function get(s, path) {
  const r = await call(s.url, path, { method: 'GET', headers: auth });
  assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
  return r.body;
}

async function finished(s, id) {
  for (let i = 0; i < 200; i++) {
    const v = await get(s, `/v1/runs/${id}`);
    if (['done', 'failed', 'cancelled'].includes(v.status)) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`run ${id} did not end`);
}

async function submit(s, body) {
  const r = await call(s.url, '/v1/runs', { body, headers: auth });
  assert.equal(r.status, 202, JSON.stringify(r.body));
  return r.body.id;
}

const runDir = (dir, id) => join(dir, 'runs', id);
const ledgerLines = (dir, id) => readFileSync(join(runDir(dir, id), 'ledger.ndjson'), 'utf8').split('\n').filter((l) => l !== '');

/** The run's meta as a kill mid-run leaves it: running, not finished. */
function asRunning(dir, id) {
  const path = join(runDir(dir, id), 'meta.json');
  const saved = JSON.parse(readFileSync(path, 'utf8'));
  writeFileSync(path, JSON.stringify({ ...saved, meta: { ...saved.meta, status: 'running', finished: null } }));
}

describe('a damaged runs folder: skipped and reported, never fatal, never destructive', () => {
  test('a ledger whose last line a kill cut: the next result is not appended onto it, and no case is lost', async () => {
    const dir = join(work, 'torn');
    let s = await start(dir);
    const { evalSet, actual } = corpus(8, 'torn');
    const id = await submit(s, { evalSet, actual, config: CONFIG });
    assert.equal((await finished(s, id)).counts.scored, 8);
    await s.stop();
    // Killed while writing the seventh result: six whole lines and half of the seventh.
    const lines = ledgerLines(dir, id);
    writeFileSync(join(runDir(dir, id), 'ledger.ndjson'), `${lines.slice(0, 6).join('\n')}\n${lines[6].slice(0, 40)}`);
    asRunning(dir, id);
    s = await start(dir);
    let view = await finished(s, id);
    assert.deepEqual([view.status, view.counts.scored], ['done', 8]);
    assert.ok(s.logs.some((e) => /ledger line 7/.test(e.error ?? '')), JSON.stringify(s.logs));
    await s.stop();
    // Started once more: what the ledger holds is every case.
    s = await start(dir);
    try {
      view = await finished(s, id);
      assert.deepEqual([view.status, view.counts.scored, view.counts.cases], ['done', 8, 8]);
      const result = await get(s, `/v1/runs/${id}/result`);
      assert.deepEqual(result.eval_case_results.map((c) => c.eval_id), evalSet.eval_cases.map((c) => c.eval_id));
      assert.ok(readFileSync(join(runDir(dir, id), 'ledger.ndjson'), 'utf8').includes(lines[6].slice(0, 40)), 'the cut line is still there');
    } finally {
      await s.stop();
    }
  });

  test('ledger lines that are JSON but no record are skipped and reported; every run resumes', async () => {
    const dir = join(work, 'foreign');
    let s = await start(dir);
    const ids = [];
    for (const name of ['foreign_a', 'foreign_b']) {
      const { evalSet, actual } = corpus(4, name);
      ids.push(await submit(s, { evalSet, actual, config: CONFIG }));
    }
    for (const id of ids) await finished(s, id);
    await s.stop();
    const [a, b] = ids;
    const lines = ledgerLines(dir, a);
    const foreign = ['5', 'null', '"text"', '[1,2]', '{}', '{"unit":"x"}', '{"unit":"0.1","status":"PASSED","seq":"no"}'];
    writeFileSync(join(runDir(dir, a), 'ledger.ndjson'), `${[lines[0], ...foreign, lines[1]].join('\n')}\n`);
    asRunning(dir, a);
    s = await start(dir);
    try {
      const view = await finished(s, a);
      assert.deepEqual([view.status, view.counts.scored], ['done', 4]);
      assert.equal((await finished(s, b)).status, 'done', 'the other run is there too');
      const told = s.logs.filter((e) => String(e.error ?? '').includes(a));
      assert.equal(told.length, foreign.length, JSON.stringify(s.logs));
      assert.ok(readFileSync(join(runDir(dir, a), 'ledger.ndjson'), 'utf8').includes('{"unit":"x"}'), 'kept, not deleted');
    } finally {
      await s.stop();
    }
  });

  test('a cut meta.json: the run and its results are kept and it resumes; the cut file is kept aside', async () => {
    const dir = join(work, 'meta');
    let s = await start(dir);
    const { evalSet, actual } = corpus(6, 'cut_meta');
    const id = await submit(s, { evalSet, actual, config: CONFIG });
    await finished(s, id);
    await s.stop();
    const lines = ledgerLines(dir, id);
    writeFileSync(join(runDir(dir, id), 'ledger.ndjson'), `${lines.slice(0, 4).join('\n')}\n`);
    const meta = readFileSync(join(runDir(dir, id), 'meta.json'), 'utf8');
    writeFileSync(join(runDir(dir, id), 'meta.json'), meta.slice(0, Math.floor(meta.length / 2)));
    s = await start(dir);
    try {
      assert.ok(existsSync(runDir(dir, id)), 'the run\'s folder is still there');
      const view = await finished(s, id);
      assert.deepEqual([view.status, view.counts.scored, view.counts.cases, view.eval_set_id], ['done', 6, 6, 'cut_meta']);
      const aside = readdirSync(runDir(dir, id)).filter((n) => n.startsWith('meta.json.unreadable'));
      assert.equal(aside.length, 1);
      assert.equal(readFileSync(join(runDir(dir, id), aside[0]), 'utf8'), meta.slice(0, Math.floor(meta.length / 2)));
      assert.ok(s.logs.some((e) => /meta\.json/.test(e.error ?? '')), JSON.stringify(s.logs));
    } finally {
      await s.stop();
    }
  });
});

describe('what clients name', () => {
  test('eval ids __proto__, constructor, toString, hasOwnProperty: scored in a run as /v1/evaluate scores them', async () => {
    const dir = join(work, 'ids');
    const s = await start(dir);
    try {
      const { evalSet, actual } = corpus(4, 'proto_ids');
      const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
      const rename = (id) => names[Number(id.slice(-3))];
      const set = { ...evalSet, eval_cases: evalSet.eval_cases.map((c) => ({ ...c, eval_id: rename(c.eval_id) })) };
      // Own properties whatever the name (an assignment of __proto__ would set the prototype).
      const recorded = Object.fromEntries(Object.entries(actual).map(([k, v]) => [rename(k), v]));
      const text = JSON.stringify({ evalSet: set, actual: recorded, config: CONFIG });
      const direct = await call(s.url, '/v1/evaluate', { body: JSON.parse(text), headers: auth });
      assert.equal(direct.status, 200, JSON.stringify(direct.body));
      const id = await submit(s, JSON.parse(text));
      const view = await finished(s, id);
      assert.deepEqual([view.status, view.counts.scored, view.counts.dead_letter], ['done', 4, 0], JSON.stringify(view));
      const result = await get(s, `/v1/runs/${id}/result`);
      assert.deepEqual(result.eval_case_results.map((c) => c.eval_id), names);
      assert.deepEqual(result.eval_case_results.map((c) => c.final_eval_status), direct.body.eval_case_results.map((c) => c.final_eval_status));
      for (const name of names) {
        for (const sub of ['', '/events', '/result']) {
          const r = await call(s.url, `/v1/runs/${name}${sub}`, { method: 'GET', headers: auth });
          assert.deepEqual([r.status, r.body.error?.code], [404, 'not_found'], `/v1/runs/${name}${sub}`);
        }
      }
    } finally {
      await s.stop();
    }
  });

  test('GET /v1/runs: a cursor that is no position (Infinity, 1e400, -5, 1.5, 0x1) is a 400, and limit holds', async () => {
    const dir = join(work, 'cursor');
    const s = await start(dir);
    try {
      for (const name of ['c1', 'c2', 'c3']) {
        const { evalSet, actual } = corpus(1, name);
        await finished(s, await submit(s, { evalSet, actual, config: CONFIG }));
      }
      for (const cursor of ['Infinity', '1e400', '-5', '1.5', '0x1', 'NaN']) {
        const r = await call(s.url, `/v1/runs?limit=1&cursor=${cursor}`, { method: 'GET', headers: auth });
        assert.equal(r.status, 400, `${cursor}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.error.path, '$cursor');
      }
      const first = await get(s, '/v1/runs?limit=1');
      assert.equal(first.runs.length, 1);
      const second = await get(s, `/v1/runs?limit=1&cursor=${first.cursor}`);
      assert.equal(second.runs.length, 1);
      assert.notEqual(second.runs[0].id, first.runs[0].id);
      assert.deepEqual((await get(s, '/v1/runs?limit=5&cursor=3')).runs, [], 'past the end: an empty page');
    } finally {
      await s.stop();
    }
  });
});
