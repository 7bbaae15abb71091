// Issue 9 item 5: the CLI reads regular files only (a FIFO is never opened: that blocks), and no
// file is parsed by JSON.parse in JS before the core has bounded it.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { readEvalSetFile } from '../../pkg/lib/node/evalsets.js';
import { readJsonFile } from '../../pkg/lib/node/files.js';
import { coreMemory, EvalError } from '../../pkg/index.js';
import { MINIMAL_SET, PKG } from './helpers.mjs';

const BIN = join(PKG, 'bin', 'evalcore.js');
const work = mkdtempSync(join(tmpdir(), 'evalcore-cli-files-'));
after(() => rmSync(work, { recursive: true, force: true }));

function cli(args) {
  const t0 = Date.now();
  // A blocked read shows as a timeout (status null), not as a hung test run.
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: work, encoding: 'utf8', timeout: 20_000, env: { ...process.env, EVALCORE_DEBUG: '' } });
  return { code: r.status, stderr: r.stderr, ms: Date.now() - t0 };
}

function assertRefused(r, pattern) {
  assert.notEqual(r.code, null, `the command hung (killed after ${r.ms} ms)`);
  assert.equal(r.code, 2, `exit code 2 expected, got ${r.code}\nstderr: ${r.stderr}`);
  assert.match(r.stderr, pattern);
  assert.equal(r.stderr.trim().split('\n').length, 1, `one line expected:\n${r.stderr}`);
}

function fifo(name) {
  const p = join(work, name);
  execFileSync('mkfifo', [p]);
  return p;
}

const canFifo = process.platform !== 'win32' && spawnSync('mkfifo', ['--version']).status === 0;

describe('FIFOs and devices are refused, never opened', { skip: !canFifo && 'no mkfifo here' }, () => {
  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'agent.mjs'), 'export const agent = async () => "ok";\n');
  const setFile = join(work, 'ok.evalset.json');
  writeFileSync(setFile, JSON.stringify(MINIMAL_SET));

  test('migrate: a FIFO as the old file, or as the initial session file', () => {
    assertRefused(cli(['migrate', fifo('old.test.json'), join(work, 'new.json')]), /old\.test\.json: a FIFO, not a regular file/);
    const legacy = join(work, 'legacy.test.json');
    writeFileSync(legacy, JSON.stringify([{ query: 'q', reference: 'r', expected_tool_use: [] }]));
    assertRefused(cli(['migrate', legacy, join(work, 'new2.json'), '--initial_session_file', fifo('session.json')]), /session\.json: a FIFO/);
    assert.ok(!existsSync(join(work, 'new.json')) && !existsSync(join(work, 'new2.json')));
  });

  test('eval: a FIFO met through the eval set id lookup', () => {
    fifo('app/piped.evalset.json');
    assertRefused(cli(['eval', app, 'piped']), /piped\.evalset\.json is not a regular file/);
  });

  test('eval: a FIFO or a device named as the eval set file, as the config, or as test_config.json', () => {
    assertRefused(cli(['eval', app, fifo('set.evalset.json')]), /set\.evalset\.json is not a regular file/);
    assertRefused(cli(['eval', app, '/dev/zero']), /\/dev\/zero is not a regular file/);
    assertRefused(cli(['eval', app, setFile, '--config_file_path', fifo('cfg.json')]), /cfg\.json is not a regular file/);
    const dir = join(work, 'withcfg');
    mkdirSync(dir);
    writeFileSync(join(dir, 'x.evalset.json'), JSON.stringify(MINIMAL_SET));
    fifo('withcfg/test_config.json');
    assertRefused(cli(['eval', app, join(dir, 'x.evalset.json')]), /test_config\.json: a FIFO/);
  });

  test('eval: a FIFO as the judge cassette', () => {
    assertRefused(cli(['eval', app, setFile, '--judge', 'openai:m', '--judge_cassette', fifo('cassette.json'), '--judge_mode', 'replay']),
      /cassette .*cassette\.json is not a regular file/);
  });

  test('eval: a FIFO as the agent module', () => {
    assertRefused(cli(['eval', fifo('agent.mjs'), setFile]), /agent\.mjs is not a regular file/);
  });

  test('eval_set add_eval_case: FIFO scenarios and session files', () => {
    const a2 = join(work, 'app2');
    mkdirSync(a2);
    writeFileSync(join(a2, 'agent.mjs'), 'export const agent = async () => "ok";\n');
    assert.equal(cli(['eval_set', 'create', a2, 's']).code, 0);
    const sess = join(work, 'sess.json');
    writeFileSync(sess, '{"app_name": "a", "user_id": "u", "state": {}}');
    assertRefused(cli(['eval_set', 'add_eval_case', a2, 's', '--scenarios_file', fifo('scen.json'), '--session_input_file', sess]), /scen\.json: a FIFO/);
    const scen = join(work, 'scen-ok.json');
    writeFileSync(scen, '{"scenarios": []}');
    assertRefused(cli(['eval_set', 'add_eval_case', a2, 's', '--scenarios_file', scen, '--session_input_file', fifo('sess-fifo.json')]), /sess-fifo\.json: a FIFO/);
  });

  test('readJsonFile and readEvalSetFile say what the path is', () => {
    const p = fifo('direct.json');
    assert.throws(() => readJsonFile(p, 'some file'), (e) => e instanceof EvalError && e.code === 'not_a_file' && /a FIFO/.test(e.message));
    assert.throws(() => readEvalSetFile(p), (e) => e instanceof EvalError && e.code === 'not_a_file');
    assert.throws(() => readEvalSetFile('/dev/null'), (e) => e instanceof EvalError && /character device/.test(e.message));
  });
});

describe('no JSON.parse in JS before the core bounds a file', () => {
  test('a 200 MB file of "[" is rejected in well under a second of JS work, and the memory goes back', () => {
    const big = join(work, 'brackets.test.json');
    writeFileSync(big, Buffer.alloc(200 * 2 ** 20, '['));
    try {
      // Refused by the core before it parses: too deep, or (with the parse budget) too costly.
      // JS never parses the text itself (a JS JSON.parse of it took 30 s and 10.7 GB): every
      // JSON.parse the read makes is watched, and none may see more than a small envelope.
      const parse = JSON.parse;
      let longest = 0;
      JSON.parse = function watched(text, ...rest) {
        longest = Math.max(longest, typeof text === 'string' ? text.length : 0);
        return parse.call(this, text, ...rest);
      };
      try {
        assert.throws(() => readEvalSetFile(big), (e) => e instanceof EvalError && ['invalid_json', 'too_large'].includes(e.code));
      } finally {
        JSON.parse = parse;
      }
      assert.ok(longest < 64 * 1024, `JSON.parse in JS was given ${longest} characters of the file`);
      assert.ok(coreMemory().bytes < 64 * 2 ** 20, `the instance holds ${coreMemory().bytes} bytes after the rejection`);
      const r = cli(['migrate', big, join(work, 'out.json')]);
      assertRefused(r, /invalid_json|too_large/);
    } finally {
      rmSync(big, { force: true });
    }
  });

  test('session and scenario files go through the core parser: deep nesting is invalid_json, not a JS stack', () => {
    const deep = join(work, 'deep.json');
    writeFileSync(deep, `${'['.repeat(100000)}${']'.repeat(100000)}`);
    assert.throws(() => readJsonFile(deep, 'initial session file'),
      (e) => e instanceof EvalError && e.code === 'invalid_json' && e.message.startsWith(`initial session file ${deep}: `));
    const ok = join(work, 'ok.json');
    writeFileSync(ok, '\ufeff{"app_name": "a", "state": {"n": -0.0, "big": 12345678901234567890}}');
    const v = readJsonFile(ok, 'initial session file');
    assert.equal(v.app_name, 'a');
    assert.equal(typeof v.state.big, 'number');
  });
});
