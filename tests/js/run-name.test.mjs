// `evalcore eval --run_name LABEL`: the label is kept in the result files as
// `eval_set_result_name` (a field ADK 2.13's EvalSetResult has, as any string), the file keeps
// ADK's name (the result id), the JSON report carries it, and a bad label stops the run before
// the agent runs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createEvalSetResult, readEvalSetResultFile, saveEvalSetResult, validateRunName } from '../../pkg/lib/node/history.js';
import { PKG, ROOT } from './helpers.mjs';

const BIN = join(PKG, 'bin', 'evalcore.js');
const work = mkdtempSync(join(tmpdir(), 'evalcore-run-name-'));
after(() => rmSync(work, { recursive: true, force: true }));

function app(tag) {
  const dir = join(work, tag);
  cpSync(join(ROOT, 'examples', 'hello_world'), dir, { recursive: true, filter: (p) => !p.includes('.adk') });
  return dir;
}

const cli = (args, cwd) => spawnSync(process.execPath, [BIN, ...args], {
  cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, EVALCORE_DEBUG: '', NO_COLOR: '1' },
});

test('--run_name labels every result file of the run; files keep ADK\'s id-based names', () => {
  const dir = app('labelled');
  const r = cli(['eval', join(dir, 'agent.mjs'), join(dir, 'hello_world.evalset.json'), '--num_runs', '2', '--run_name', 'prompt v2 — shorter system prompt'], dir);
  assert.equal(r.status, 1, r.stderr); // check_listed_numbers fails on purpose
  const history = join(dir, '.adk', 'eval_history');
  const files = readdirSync(history).sort();
  assert.equal(files.length, 2);
  for (const f of files) {
    const raw = JSON.parse(readFileSync(join(history, f), 'utf8'));
    assert.equal(raw.eval_set_result_name, 'prompt v2 — shorter system prompt');
    // ADK names the file after the id (and finds it by that name): so do we, label or not.
    assert.equal(f, `${raw.eval_set_result_id.replaceAll('/', '_')}.evalset_result.json`);
    assert.match(raw.eval_set_result_id, /_hello_world_\d+\.\d+$/);
    assert.deepEqual(Object.keys(raw), ['eval_set_result_id', 'eval_set_result_name', 'eval_set_id', 'eval_case_results', 'creation_timestamp']);
    assert.equal(readEvalSetResultFile(join(history, f)).eval_set_result_name, 'prompt v2 — shorter system prompt');
  }
});

test('--run_name reaches the JSON report; without it the name is ADK\'s (the id)', () => {
  const dir = app('json');
  const labelled = cli(['eval', join(dir, 'agent.mjs'), join(dir, 'hello_world.evalset.json'), '--format', 'json', '--no_save', '--run_name', 'nightly'], dir);
  assert.equal(JSON.parse(labelled.stdout).eval_set_results[0].eval_set_result_name, 'nightly');
  const plain = cli(['eval', join(dir, 'agent.mjs'), join(dir, 'hello_world.evalset.json')], dir);
  assert.equal(plain.status, 1, plain.stderr);
  const [f] = readdirSync(join(dir, '.adk', 'eval_history'));
  const raw = JSON.parse(readFileSync(join(dir, '.adk', 'eval_history', f), 'utf8'));
  assert.equal(raw.eval_set_result_name, raw.eval_set_result_id);
});

test('a blank, long or multi-line --run_name stops before the agent runs, naming the rule', () => {
  for (const [bad, why] of [['   ', /non-blank/], ['x'.repeat(201), /at most 200 characters, found 201/], ['a\nb', /control character/]]) {
    const dir = app(`bad-${bad.length}`);
    const r = cli(['eval', join(dir, 'agent.mjs'), join(dir, 'hello_world.evalset.json'), '--run_name', bad], dir);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, why);
    assert.ok(!/\n\s+at /.test(r.stderr), 'no stack trace');
    assert.ok(!existsSync(join(dir, '.adk')), 'nothing ran, nothing was written');
  }
});

test('the history API: createEvalSetResult / saveEvalSetResult take `name`; validateRunName says what is wrong', () => {
  const r = createEvalSetResult('my/app', 'set', [], { timestamp: 5, name: 'baseline' });
  assert.deepEqual([r.eval_set_result_id, r.eval_set_result_name], ['my/app_set_5.0', 'baseline']);
  const { path, result } = saveEvalSetResult({ appName: 'app', evalSetId: 'set', evalCaseResults: [], historyDir: join(work, 'api'), timestamp: 7, name: 'candidate' });
  assert.ok(path.endsWith(join('api', 'app_set_7.0.evalset_result.json')), path);
  assert.equal(result.eval_set_result_name, 'candidate');
  assert.equal(validateRunName('ok'), 'ok');
  for (const bad of ['', ' ', 'a\tb', 42, null]) {
    assert.throws(() => validateRunName(bad), (e) => e.name === 'EvalError' && e.code === 'schema', String(bad));
  }
});
