// The errors a newcomer meets in the first hour (issue 24), each as they meet it: the CLI as a
// child process in a project made from the starter (pkg/starter), the API, and the endpoint.
// Each answer must say what is wrong and what to do: the line and column of broken JSON, the
// key that was meant, the flag or variable that is missing.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { loadEvalConfig, loadEvalSet, validateEvalConfig, validateEvalSet } from '../../pkg/index.js';
import { fromFunction } from '../../pkg/lib/adapters/generic.js';
import { HELP as EVAL_HELP } from '../../pkg/lib/cli/eval.js';
import { main } from '../../pkg/lib/cli/main.js';
import { createHandler } from '../../pkg/lib/server/index.js';
import { AgentEvaluator } from '../../pkg/lib/testing/agent_evaluator.js';
import { PKG, ROOT } from './helpers.mjs';
import { startJudgeServer } from './support/judge-server.mjs';

const BIN = join(PKG, 'bin', 'evalcore.js');
const work = mkdtempSync(join(tmpdir(), 'evalcore-newcomer-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A project made from the starter, its agent importing the package under test. */
function project(name) {
  const dir = join(work, name);
  cpSync(join(PKG, 'starter'), dir, { recursive: true });
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  symlinkSync(PKG, join(dir, 'node_modules', 'evalcore'), 'dir');
  return dir;
}

function cli(dir, args, env = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: dir, encoding: 'utf8', timeout: 120_000,
    env: { ...process.env, EVALCORE_DEBUG: '', NO_COLOR: '1', GEMINI_API_KEY: '', GOOGLE_API_KEY: '', OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `cli` without blocking the event loop (for tests that serve a judge in this process). */
function cliAsync(dir, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dir, env: { ...process.env, EVALCORE_DEBUG: '', NO_COLOR: '1', GEMINI_API_KEY: '', GOOGLE_API_KEY: '', OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function usageError(r, pattern) {
  assert.equal(r.code, 2, `exit code 2 expected, got ${r.code}\n${r.stdout}\n${r.stderr}`);
  assert.match(r.stderr, pattern);
  assert.equal(r.stderr.trim().split('\n').length, 1, `one line expected:\n${r.stderr}`);
}

const starter = project('starter');
const SET = 'evals/weather.evalset.json';

describe('broken JSON says where (line and column)', () => {
  const broken = '{"eval_set_id": "weather",\n  "eval_cases": [\n    {"eval_id": "x",}\n  ]\n}\n';

  test('the CLI: an eval set file and a config file', () => {
    writeFileSync(join(starter, 'broken.evalset.json'), broken);
    usageError(cli(starter, ['eval', 'agent.mjs', 'broken.evalset.json']),
      /^evalcore: invalid_json: .*broken\.evalset\.json: trailing comma at line 3 column 21$/m);
    writeFileSync(join(starter, 'broken_config.json'), '{\n  "criteria": {\n    "response_match_score": 0.8,\n  }\n}\n');
    usageError(cli(starter, ['eval', 'agent.mjs', SET, '--config_file_path', 'broken_config.json']),
      /^evalcore: invalid_json: broken_config\.json: trailing comma at line 4 column 3$/m);
  });

  test('the API', () => {
    assert.throws(() => loadEvalSet(broken), { code: 'invalid_json', message: 'trailing comma at line 3 column 21' });
    assert.deepEqual(validateEvalSet(broken).errors.map((e) => e.message), ['trailing comma at line 3 column 21']);
    assert.throws(() => loadEvalConfig('{"criteria": {\n"x": 1 "y": 2}}'), { code: 'invalid_json', message: /at line 2 column 8$/ });
    assert.throws(() => loadEvalSet('{"eval_set_id": "s",\n "eval_cases": [}'), { message: 'expected value at line 2 column 17' });
  });

  test('the endpoint: the request body, and an eval set sent as JSON text', async () => {
    const handler = createHandler({});
    const post = async (body) => {
      const r = await handler(new Request('http://127.0.0.1/v1/evaluate', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
      return [r.status, (await r.json()).error];
    };
    assert.deepEqual(await post('{"evalSet": {"eval_set_id": "s",\n "eval_cases": [}}'),
      [400, { code: 'invalid_json', path: '', message: 'expected value at line 2 column 17' }]);
    const [status, error] = await post(JSON.stringify({ evalSet: broken, actual: {} }));
    assert.equal(status, 400);
    assert.deepEqual(error, { code: 'invalid_json', path: '$.evalSet', message: 'trailing comma at line 3 column 21' });
  });
});

test('a YAML config is read by its .yaml name; YAML in a file named .json is named as such', () => {
  writeFileSync(join(starter, 'config.yaml'), 'criteria:\n  response_match_score: 0.8\n');
  const ok = cli(starter, ['eval', 'agent.mjs', SET, '--config_file_path', 'config.yaml', '--no_save']);
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /criteria=\{'response_match_score': 0\.8\}/);
  const dir = project('yaml_beside');
  writeFileSync(join(dir, 'evals', 'test_config.json'), '# thresholds\ncriteria:\n  response_match_score: 0.8\n');
  usageError(cli(dir, ['eval', 'agent.mjs', SET]),
    /test_config\.json: the config is YAML in a file not named \.yaml: .*ADK's test_config\.json is JSON, e\.g\. \{"criteria"/);
  // A JSON config that is merely broken is not called YAML.
  writeFileSync(join(dir, 'evals', 'test_config.json'), '{"criteria": }');
  const r = cli(dir, ['eval', 'agent.mjs', SET]);
  assert.doesNotMatch(r.stderr, /YAML/);
  assert.match(r.stderr, /expected value at line 1 column 14/);
});

describe('eval sets the CLI cannot find', () => {
  test('a missing x.evalset.json is a missing file (not the id "x.evalset.json"), with the file of that name in the project', () => {
    const r = cli(starter, ['eval', 'agent.mjs', 'weather.evalset.json']);
    usageError(r, /^evalcore eval: eval set file not found: weather\.evalset\.json \(from .*\); did you mean evals\/weather\.evalset\.json\?$/m);
    assert.doesNotMatch(r.stderr, /evalset\.json\.evalset\.json/);
    usageError(cli(starter, ['eval', 'agent.mjs', 'nowhere/else.json']), /eval set file not found: nowhere\/else\.json \(from [^)]*\)$/m);
    // An id is still an id: `<agent folder>/<id>.evalset.json`.
    usageError(cli(starter, ['eval', 'agent.mjs', 'weather']), /no file weather and no eval set "weather" at .*weather\.evalset\.json$/m);
  });

  test('a folder without eval sets says so', () => {
    mkdirSync(join(starter, 'empty'), { recursive: true });
    writeFileSync(join(starter, 'empty', 'notes.json'), '{}');
    usageError(cli(starter, ['eval', 'agent.mjs', 'empty']), /^evalcore eval: folder empty has no eval sets: no \*\.evalset\.json or \*\.test\.json file under it$/m);
    usageError(cli(starter, ['eval', 'agent.mjs', SET, 'empty/']), /folder empty\/ has no eval sets/);
  });
});

describe('agents', () => {
  test('`export default { name, run }` is refused at load, naming the function to export', async () => {
    writeFileSync(join(starter, 'object_agent.mjs'), 'export default { name: "weather", async run(text) { return "hi"; } };\n');
    const r = cli(starter, ['eval', 'object_agent.mjs', SET]);
    usageError(r, /object_agent\.mjs: export default is an object \{ name, run \}, not an agent: .*`export const agent = fromFunction\(\(text\) => myAgent\.run\(text\)\)`/);
    assert.doesNotMatch(r.stderr, /@google\/adk'/, 'not "cannot load @google/adk" on every turn');
    assert.equal(r.stdout, '', 'no turn ran');
    await assert.rejects(AgentEvaluator.evaluate(join(starter, 'object_agent.mjs'), join(starter, 'evals')),
      { message: /export default is an object \{ name, run \}, not an agent/ });
  });

  test("a reply with another framework's keys names the key it should be", () => {
    writeFileSync(join(starter, 'text_agent.mjs'), 'export async function agent() { return { text: "The weather in Paris is sunny, 24°C." }; }\n');
    const r = cli(starter, ['eval', 'text_agent.mjs', SET, '--no_save']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /paris: agent_error: turn 1: unknown key `text` in the agent's reply; use `finalResponse` \(the agent's reply has events, finalResponse, toolCalls, toolResponses, appDetails, agents, timings\)/);
    writeFileSync(join(starter, 'args_agent.mjs'), 'export async function agent() { return { finalResponse: "x", toolCalls: [{ name: "get_weather", arguments: "{}" }] }; }\n');
    assert.match(cli(starter, ['eval', 'args_agent.mjs', SET, '--no_save']).stderr, /unknown key `arguments` in toolCalls\[0\]; use `args`/);
  });

  test('fromFunction: tool_calls, arguments and an OpenAI tool call', async () => {
    const turn = { evalId: 'e', run: 0, turnIndex: 0, sessionId: 's', userId: 'u', appName: 'a', text: 'hi', userContent: { role: 'user', parts: [{ text: 'hi' }] }, history: [] };
    const reply = (value) => fromFunction(() => value)(turn);
    await assert.rejects(reply({ text: 'x', tool_calls: [] }), { code: 'agent_reply', path: '$.tool_calls', message: /unknown key `tool_calls` in the reply; use `toolCalls` \(the reply has text, toolCalls, steps, usage, model, timings, agents\)/ });
    await assert.rejects(reply({ content: 'x' }), { path: '$.content', message: /use `text`/ });
    await assert.rejects(reply({ text: 'x', toolCalls: [{ name: 'f', arguments: '{}' }] }), { path: '$.toolCalls[0].arguments', message: /use `args`/ });
    await assert.rejects(reply({ text: 'x', toolCalls: [{ id: '1', type: 'function', function: { name: 'f', arguments: '{}' } }] }),
      { message: /that is an OpenAI tool call: give \{ name, args \}, or wrap the agent with fromOpenAIMessages/ });
    const ok = await reply({ text: 'x', toolCalls: [{ id: 'c1', name: 'f', args: { a: 1 }, response: 2 }] });
    assert.equal(ok.events.length, 3);
  });
});

test('the plain summary names the cases that did not pass, on stderr', () => {
  const dir = project('failing');
  const set = readFileSync(join(dir, SET), 'utf8').replace('"city": "Paris"', '"city": "London"');
  writeFileSync(join(dir, SET), set);
  const r = cli(dir, ['eval', 'agent.mjs', SET, '--no_save']);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /Tests passed: 1\n {2}Tests failed: 1\n$/, "stdout stays ADK's");
  assert.equal(r.stderr, '1 case run did not pass (--print_detailed_results shows each invocation):\n'
    + '  weather/paris: tool_trajectory_avg_score 0 (threshold 1)\n');
  const runs = cli(dir, ['eval', 'agent.mjs', SET, '--no_save', '--num_runs', '2']);
  assert.match(runs.stderr, /^ {2}weather\/paris \(run 1\): .*\n {2}weather\/paris \(run 2\): /m);
});

test('an unknown eval-set key gets a did-you-mean', () => {
  const base = JSON.parse(readFileSync(join(starter, SET), 'utf8'));
  const messages = (mutate) => {
    const set = JSON.parse(JSON.stringify(base));
    mutate(set);
    return validateEvalSet(JSON.stringify(set)).errors.map((e) => `${e.path}: ${e.message}`);
  };
  const rename = (o, from, to) => { o[to] = o[from]; delete o[from]; };
  // Where ADK forbids unknown keys (an invocation), and where it keeps them (an eval case), so
  // that the misspelt key shows only as the field it should have been.
  assert.match(messages((s) => rename(s.eval_cases[0].conversation[0], 'user_content', 'user_contnet')).join('\n'),
    /^\$\.eval_cases\[0\]\.conversation\[0\]\.user_contnet: unknown field `user_contnet`, .*; did you mean `user_content`\?$/);
  assert.match(messages((s) => rename(s.eval_cases[1], 'conversation', 'conversations')).join('\n'),
    /^\$\.eval_cases\[1\]: an eval case needs `conversation` .*; the case has `conversations`: did you mean `conversation`\?$/);
  assert.throws(() => loadEvalSet(JSON.stringify({ ...base, eval_cases: [{ evalid: 'a', conversation: [] }] })),
    { path: '$.eval_cases[0]', message: 'missing field `eval_id`; the case has `evalid`: did you mean `eval_id`?' });
  // The CLI shows it too.
  const dir = project('misspelt');
  writeFileSync(join(dir, SET), JSON.stringify({ ...base, eval_cases: base.eval_cases.map(({ conversation, ...c }) => ({ ...c, conversations: conversation })) }));
  usageError(cli(dir, ['eval', 'agent.mjs', SET]), /did you mean `conversation`\?/);
});

describe('judges from the CLI', () => {
  const judged = (dir) => {
    writeFileSync(join(dir, 'evals', 'judged.json'), JSON.stringify({ criteria: { final_response_match_v2: 0.5 } }));
    return ['eval', 'agent.mjs', SET, '--no_save', '--config_file_path', 'evals/judged.json'];
  };

  test('a provider judge without its key names the environment variable; under --strict it is an error', () => {
    const args = judged(starter);
    for (const [provider, vars] of [['openai', 'OPENAI_API_KEY'], ['gemini', 'GEMINI_API_KEY or GOOGLE_API_KEY'], ['anthropic', 'ANTHROPIC_API_KEY']]) {
      const r = cli(starter, [...args, '--judge', `${provider}:m`, '--dry_run', '--strict']);
      // --dry_run sends nothing, so no key is needed.
      assert.equal(r.code, 1, r.stderr);
      usageError(cli(starter, [...args, '--judge', `${provider}:m`, '--strict']),
        new RegExp(`^evalcore eval: --judge ${provider}:m: no API key for the ${provider} judge: set ${vars} \\(or --judge_base_url`));
    }
    const lax = cli(starter, [...args, '--judge', 'openai:m', '--judge_base_url', 'http://127.0.0.1:9', '--judge_retries', '0']);
    assert.doesNotMatch(lax.stderr, /no API key/, 'a base URL of its own may need no key');
  });

  test('a key the provider refuses: the variable to check', async () => {
    const server = await startJudgeServer();
    try {
      server.script(() => ({ status: 401, error: 'Incorrect API key provided' }));
      const r = await cliAsync(starter, [...judged(starter), '--judge', 'openai:m', '--judge_base_url', server.baseUrl, '--judge_retries', '0'], { OPENAI_API_KEY: 'sk-wrong' });
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /^ {2}judge_error x2 \(final_response_match_v2\): .*HTTP 401.*\n {4}-> the judge refused the request's key: check OPENAI_API_KEY$/m);
      assert.equal(server.requests[0].headers.authorization, 'Bearer sk-wrong');
    } finally {
      await server.close();
    }
  });

  test('needs_judge says --judge; a missing cassette names --judge_cassette', () => {
    const args = judged(starter);
    const r = cli(starter, args);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^ {2}needs_judge x2 \(final_response_match_v2\): .*\n {4}-> give a judge: --judge gemini:gemini-2\.5-flash \(key in GEMINI_API_KEY\), --judge openai:MODEL or --judge anthropic:MODEL$/m);
    const missing = cli(starter, [...args, '--judge', 'gemini:m', '--judge_cassette', 'evals/none.json', '--judge_mode', 'replay']);
    usageError(missing, /^evalcore eval: --judge_cassette evals\/none\.json: no such file; --judge_mode replay answers only from a recorded cassette/);
    assert.equal(missing.stdout, '');
  });
});

test('under strict, no message promises a NOT_EVALUATED metric: nothing runs', async () => {
  const config = { criteria: { respone_match_score: 0.8, tool_trajectory_avg_score: { threshold: 1, match_type: 'INORDER' } } };
  const lax = validateEvalConfig(config);
  assert.equal(lax.warnings.length, 2);
  assert.ok(lax.warnings.every((w) => w.message.endsWith(' (the metric will be NOT_EVALUATED)')), JSON.stringify(lax.warnings));
  const strict = validateEvalConfig(config, { strict: true });
  assert.equal(strict.errors.length, 2);
  assert.ok(strict.errors.every((e) => !/NOT_EVALUATED/.test(e.message)), JSON.stringify(strict.errors));
  assert.throws(() => loadEvalConfig(config, { strict: true }), (e) => !/will be NOT_EVALUATED/.test(e.message) && /respone_match_score/.test(e.message));
  await assert.rejects(AgentEvaluator.evaluate(join(starter, 'agent.mjs'), join(starter, SET), { config, strict: true }),
    (e) => !/will be NOT_EVALUATED/.test(e.message) && /did you mean "response_match_score"/.test(e.message));
  const dir = project('strict');
  writeFileSync(join(dir, 'evals', 'test_config.json'), JSON.stringify(config));
  const r = cli(dir, ['eval', 'agent.mjs', SET, '--strict']);
  assert.equal(r.code, 1);
  assert.doesNotMatch(r.stderr, /will be NOT_EVALUATED|^warning/m);
  assert.match(r.stderr, /^error: .*: \$\.criteria\.respone_match_score: unknown metric/m);
});

test('exit code 70 (evalcore failed) is documented where the others are, and is what an internal error gives', async () => {
  assert.match(EVAL_HELP, /\b70\b.*evalcore itself/s);
  for (const page of ['README.md', join('docs', 'cli.md')]) {
    assert.match(readFileSync(join(ROOT, page), 'utf8'), /\|\s*70\s*\|[^\n]*evalcore itself/, `${page} documents exit code 70`);
  }
  const out = [];
  const io = { stdout: { write: (s) => out.push(s) }, stderr: { write: (s) => out.push(s) }, env: {} };
  // An internal error: the command module blows up with something that is not a user mistake.
  const code = await main(['eval', '--help'], { ...io, stdout: { write: () => { throw new TypeError('boom'); } } });
  assert.equal(code, 70);
  assert.match(out.join(''), /^evalcore: internal error: TypeError: boom/);
});

test('a starter copy holds no leftovers of another run', () => {
  assert.ok(!existsSync(join(PKG, 'starter', '.adk')), 'pkg/starter has no results in it');
  assert.ok(!existsSync(join(PKG, 'starter', 'node_modules')));
});
