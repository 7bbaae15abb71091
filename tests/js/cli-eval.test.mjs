// `evalcore eval` as a child process on the hello_world example (the replay agent in
// examples/hello_world/agent.mjs, no API key): ADK's console output and exit codes, result files
// in ADK's layout, selection syntax, config discovery, reports, legacy files, agent failures,
// and one-line usage errors with exit code 2.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { formatReport } from '../../pkg/index.js';
import { main } from '../../pkg/lib/cli/main.js';
import { readEvalSetResultFile } from '../../pkg/lib/node/history.js';
import { PKG, ROOT, freePort } from './helpers.mjs';
import { HOSTILE, workflowCommands } from './support/hostile-output.mjs';

const BIN = join(PKG, 'bin', 'evalcore.js');
const EXAMPLE = join(ROOT, 'examples', 'hello_world');
const work = mkdtempSync(join(tmpdir(), 'evalcore-cli-eval-'));
after(() => rmSync(work, { recursive: true, force: true }));

const CRITERIA = "Using evaluation criteria: criteria={'tool_trajectory_avg_score': 1.0, 'response_match_score': 0.5} "
  + 'custom_metrics=None user_simulator_config=None live_model_config=None\n';
const DEFAULT_CRITERIA = "Using evaluation criteria: criteria={'tool_trajectory_avg_score': 1.0, 'response_match_score': 0.8} "
  + 'custom_metrics=None user_simulator_config=None live_model_config=None\n';
const STARS = '*********************************************************************\n';

function cli(args, { cwd = work, env = {} } = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, EVALCORE_DEBUG: '', NO_COLOR: '1', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function assertUsageError(r, pattern) {
  assert.equal(r.code, 2, `exit code 2 expected, got ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  assert.match(r.stderr, pattern);
  assert.equal(r.stderr.trim().split('\n').length, 1, `one line expected:\n${r.stderr}`);
  assert.ok(!/\n\s+at /.test(r.stderr), 'no stack trace');
}

/** A fresh copy of the example as an app folder `<work>/<name>/hello_world`. */
function appCopy(name) {
  const dir = join(work, name, 'hello_world');
  cpSync(EXAMPLE, dir, { recursive: true, filter: (src) => !src.includes('.adk') });
  return dir;
}

const historyOf = (dir) => {
  const h = join(dir, '.adk', 'eval_history');
  return existsSync(h) ? readdirSync(h).sort().map((n) => join(h, n)) : [];
};

describe('running the hello_world example', () => {
  test("ADK's output and exit code 1 (one case fails), a result file in the app's eval history", () => {
    const app = appCopy('basic');
    const r = cli(['eval', join(app, 'agent.mjs'), join(app, 'hello_world.evalset.json')]);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, `${CRITERIA}${STARS}Eval Run Summary\nhello_world:\n  Tests passed: 3\n  Tests failed: 1\n`);
    const files = historyOf(app);
    // No progress bar when stderr is not a terminal; the failing case named (issue 24), the result file named.
    assert.equal(r.stderr, '1 case run did not pass (--print_detailed_results shows each invocation):\n'
      + `  hello_world/check_listed_numbers: tool_trajectory_avg_score 0 (threshold 1)\nwrote ${files[0]}\n`);
    assert.equal(files.length, 1);
    assert.match(files[0], /[/\\]hello_world_hello_world_\d+\.\d+\.evalset_result\.json$/);
    const raw = JSON.parse(readFileSync(files[0], 'utf8'));
    assert.deepEqual(raw.eval_case_results.map((c) => c.final_eval_status).sort(), [1, 1, 1, 2]);
    assert.equal(raw.eval_set_result_id, files[0].split(/[/\\]/).pop().replace('.evalset_result.json', ''));
    const failed = raw.eval_case_results.find((c) => c.final_eval_status === 2);
    assert.equal(failed.eval_id, 'check_listed_numbers');
    assert.equal(failed.user_id, 'user');
    assert.equal(failed.eval_metric_results, null);
  });

  test('--print_detailed_results prints what formatReport prints for the saved results, plus the trajectory mismatch', () => {
    const app = appCopy('detailed');
    const r = cli(['eval', app, join(app, 'hello_world.evalset.json'), '--print_detailed_results', '--concurrency', '1']);
    assert.equal(r.code, 1);
    const [file] = historyOf(app);
    const saved = readEvalSetResultFile(file);
    // The saved file is ADK's (no explanation in it); the printed text adds evalcore's `mismatch`
    // field under the failing trajectory metric and is otherwise ADK's text byte for byte.
    const lines = r.stdout.split('\n');
    const start = lines.findIndex((l) => l.startsWith('  mismatch:'));
    assert.ok(start > 0, r.stdout);
    assert.match(lines[start - 1], /^  tool_trajectory_avg_score: +FAILED \(0\.0\)$/);
    let end = start + 1;
    while (lines[end].startsWith(' '.repeat(30))) end++;
    const block = lines.slice(start, end).join('\n');
    assert.match(block, /match type EXACT/);
    assert.match(block, /expected call 1 check_prime -> no match: arguments differ, nearest actual call 1\n +nums \[exact\] differs: expected \[/);
    assert.equal(lines.filter((l) => l.startsWith('  mismatch:')).length, 1);
    const withoutMismatch = [...lines.slice(0, start), ...lines.slice(end)].join('\n');
    assert.equal(withoutMismatch, CRITERIA + formatReport(saved.eval_case_results, { detailed: true }));
    assert.match(r.stdout, /Eval Id: check_listed_numbers\nOverall Eval Status: FAILED/);
    assert.match(r.stdout, /Metric: tool_trajectory_avg_score, Status: FAILED, Score: 0\.0, Threshold: 1\.0/);
  });

  test('selection: ids are trimmed, lists merge, only the selected cases run (exit 0)', () => {
    const app = appCopy('select');
    const set = join(app, 'hello_world.evalset.json');
    const r = cli(['eval', app, set, `${set}:greeting, roll_and_check`, '--results_dir', join(work, 'select-results')]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /Tests passed: 2\n {2}Tests failed: 0\n$/);
    const [file] = readdirSync(join(work, 'select-results'));
    const saved = readEvalSetResultFile(join(work, 'select-results', file));
    assert.deepEqual(saved.eval_case_results.map((c) => c.eval_id).sort(), ['greeting', 'roll_and_check']);
    assert.deepEqual(historyOf(app), [], '--results_dir replaces the default folder');
  });

  test('unknown ids are skipped with a warning; nothing ran is exit 1', () => {
    const app = appCopy('unknown');
    const r = cli(['eval', app, `${join(app, 'hello_world.evalset.json')}:nope`]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, `${CRITERIA}${STARS}Eval Run Summary\n`);
    assert.match(r.stderr, /eval set "hello_world" has no eval case "nope"/);
  });

  test('eval set ids: looked up as <app>/<id>.evalset.json, with the default criteria (ADK 2.x)', () => {
    const app = appCopy('ids');
    const r = cli(['eval', app, 'hello_world:roll_and_check'], { cwd: join(work, 'ids') });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${DEFAULT_CRITERIA}${STARS}Eval Run Summary\nhello_world:\n  Tests passed: 1\n  Tests failed: 0\n`);
    assertUsageError(cli(['eval', app, 'no_such_set']), /eval set not found: .*no_such_set/);
  });

  test('--num_runs 2: one result file per run; the JSON report carries the run summary', () => {
    const app = appCopy('runs');
    const out = join(work, 'runs.json');
    const r = cli(['eval', app, `${join(app, 'hello_world.evalset.json')}:greeting,check_listed_numbers`, '--num_runs', '2', '--format', 'json', '--output', out]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /Tests passed: 2\n {2}Tests failed: 2\n$/, 'the text output still goes to stdout');
    const files = historyOf(app);
    assert.equal(files.length, 2);
    for (const f of files) {
      assert.deepEqual(readEvalSetResultFile(f).eval_case_results.map((c) => c.eval_id).sort(), ['check_listed_numbers', 'greeting']);
    }
    const report = JSON.parse(readFileSync(out, 'utf8'));
    assert.equal(report.ok, false);
    assert.deepEqual(report.summary.eval_sets[0], {
      eval_set_id: 'hello_world', runs: 2, total: 4, passed: 2, failed: 2, not_evaluated: 0, not_evaluated_metrics: 0, not_evaluated_reasons: {},
    });
    const summary = report.eval_set_results[0].run_summary;
    assert.equal(summary.num_runs, 2);
    const traj = summary.cases.find((c) => c.eval_id === 'check_listed_numbers').metrics.find((m) => m.metric_name === 'tool_trajectory_avg_score');
    assert.deepEqual([traj.invocation_mean, traj.passed], [0, false]);
  });

  test('--format junit / markdown without --output: stdout is the report, the criteria line goes to stderr', () => {
    const app = appCopy('formats');
    const set = join(app, 'hello_world.evalset.json');
    const junit = cli(['eval', app, set, '--format', 'junit']);
    assert.equal(junit.code, 1);
    assert.ok(junit.stdout.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="evalcore" tests="4" failures="1" errors="0">'), junit.stdout);
    assert.match(junit.stdout, /<testcase name="check_listed_numbers" classname="hello_world">\n {6}<failure message="tool_trajectory_avg_score: FAILED/);
    assert.equal(junit.stderr, `${CRITERIA}1 case run did not pass (--print_detailed_results shows each invocation):\n`
      + `  hello_world/check_listed_numbers: tool_trajectory_avg_score 0 (threshold 1)\nwrote ${historyOf(app)[0]}\n`);
    const md = cli(['eval', app, `${set}:greeting`, '--format', 'markdown']);
    assert.equal(md.code, 0);
    assert.ok(md.stdout.startsWith('### ✅ evalcore: 1 of 1 eval case passed\n'), md.stdout);
  });

  test('an --output file that cannot be written: one line, exit 2, and the console summary is still printed', () => {
    const app = appCopy('output_folder');
    const r = cli(['eval', app, join(app, 'hello_world.evalset.json'), '--format', 'junit', '--output', app]);
    assertUsageError(r, /^evalcore: EISDIR/);
    assert.equal(r.stdout, `${CRITERIA}${STARS}Eval Run Summary\nhello_world:\n  Tests passed: 3\n  Tests failed: 1\n`);
    assert.equal(historyOf(app).length, 1, 'the result file was written');
  });

  test('progress on a terminal: drawn on stderr and cleared (in process, stderr a TTY)', async () => {
    const app = appCopy('tty');
    const sink = (isTTY) => ({ isTTY, columns: 200, text: '', write(s) { this.text += s; return true; } });
    const stdout = sink(false);
    const stderr = sink(true);
    const code = await main(['eval', app, `${join(app, 'hello_world.evalset.json')}:greeting,roll_and_check`, '--concurrency', '1'],
      { stdout, stderr, env: { NO_COLOR: '1' } });
    assert.equal(code, 0);
    const wrote = `wrote ${historyOf(app)[0]}\n`;
    assert.ok(stderr.text.endsWith(`\r\x1b[2K${wrote}`), 'the line is cleared before anything else is written');
    const frames = stderr.text.slice(0, -wrote.length).split('\r\x1b[2K').filter((f) => f !== '');
    assert.ok(frames.length >= 2, stderr.text);
    assert.match(frames.at(-1), /^hello_world {2}\[#{20}\] 2\/2 cases {2}2 passed {2}0 failed {2}\d+:\d\d$/);
    assert.match(stdout.text, /Tests passed: 2/);
  });
});

describe('other eval data', () => {
  const ECHO = `export async function agent(turn) {
  if (turn.text.includes('crash')) throw new Error('the agent crashed');
  return { finalResponse: 'Hello, I am the echo agent.' };
}
`;

  function echoApp(name) {
    const dir = join(work, name, 'echo');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'agent.mjs'), ECHO);
    return dir;
  }

  test('a legacy *.test.json list and a legacy named list run (ADK crashes on the first, §5.1, and cannot save the second, §7.16)', () => {
    const dir = echoApp('legacy');
    writeFileSync(join(dir, 'greet.test.json'), JSON.stringify([{ query: 'Hi', expected_tool_use: [], reference: 'Hello, I am the echo agent.' }]));
    writeFileSync(join(dir, 'named.json'), JSON.stringify([{ name: 'n1', data: [{ query: 'Hey', reference: 'Hello, I am the echo agent.' }], initial_session: { app_name: 'echo', user_id: 'u', state: {} } }]));
    const r = cli(['eval', dir, join(dir, 'greet.test.json'), join(dir, 'named.json')]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.stdout, `${DEFAULT_CRITERIA}${STARS}Eval Run Summary\ngreet:\n  Tests passed: 1\n  Tests failed: 0\nnamed:\n  Tests passed: 1\n  Tests failed: 0\n`);
    assert.deepEqual(historyOf(dir).map((f) => f.split(/[/\\]/).pop().replace(/_\d+\.\d+\.evalset_result\.json$/, '')), ['echo_greet', 'echo_named']);
  });

  test('an agent that throws: its case FAILED with the error kept in the result file and an <error> in JUnit', () => {
    const dir = echoApp('crash');
    writeFileSync(join(dir, 'c.evalset.json'), JSON.stringify({
      eval_set_id: 'c',
      eval_cases: ['Hi', 'please crash'].map((text, i) => ({
        eval_id: `case${i}`,
        conversation: [{ invocation_id: `i${i}`, user_content: { role: 'user', parts: [{ text }] }, final_response: { role: 'model', parts: [{ text: 'Hello, I am the echo agent.' }] } }],
      })),
    }));
    const r = cli(['eval', dir, join(dir, 'c.evalset.json'), '--format', 'junit', '--output', join(work, 'crash.xml')]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /Tests passed: 1\n {2}Tests failed: 1\n$/);
    const saved = JSON.parse(readFileSync(historyOf(dir)[0], 'utf8'));
    const crashed = saved.eval_case_results.find((c) => c.eval_id === 'case1');
    assert.equal(crashed.final_eval_status, 2);
    assert.deepEqual(crashed.overall_eval_metric_results, []);
    assert.match(crashed.error.message, /the agent crashed/);
    assert.match(readFileSync(join(work, 'crash.xml'), 'utf8'), /<error message="agent error \([^)]*\): [^"]*the agent crashed/);
  });

  test('in GitHub Actions, a hostile eval set: no line of stdout or stderr is a command, in every format', () => {
    const dir = echoApp('hostile');
    writeFileSync(join(dir, 'agent.mjs'), `export const agent = () => ${JSON.stringify(HOSTILE)};\n`);
    writeFileSync(join(dir, 'h.evalset.json'), JSON.stringify({
      eval_set_id: HOSTILE.replace(/[/\\]/g, ''), // an eval set id names a result file: no path separator
      eval_cases: [{
        eval_id: HOSTILE,
        conversation: [{ invocation_id: 'i', user_content: { role: 'user', parts: [{ text: HOSTILE }] }, final_response: { role: 'model', parts: [{ text: 'no' }] } }],
      }],
    }));
    for (const format of ['text', 'markdown', 'junit', 'json', 'html']) {
      const r = cli(['eval', dir, join(dir, 'h.evalset.json'), '--format', format, '--print_detailed_results', '--no_save'], { env: { GITHUB_ACTIONS: 'true' } });
      assert.equal(r.code, 1, r.stderr);
      assert.ok(r.stdout.includes(format === 'text' ? '::error::forged CR' : 'Verdict'), `${format}: the data is shown`);
      const commands = workflowCommands(r.stdout + r.stderr);
      assert.deepEqual(commands.map((c) => c.name), format === 'text' ? ['stop-commands'] : [], `${format}: ${JSON.stringify(commands)}`);
      if (format === 'text') assert.match(commands[0].data, /^[0-9a-f]{32}$/, 'a token no data can guess');
    }
  });

  test('an explicit --config_file_path wins over test_config.json', () => {
    const app = appCopy('config');
    writeFileSync(join(work, 'strict.json'), JSON.stringify({ criteria: { response_match_score: 0.99 } }));
    const r = cli(['eval', app, `${join(app, 'hello_world.evalset.json')}:greeting`, '--config_file_path', join(work, 'strict.json')]);
    assert.equal(r.code, 1);
    assert.ok(r.stdout.startsWith("Using evaluation criteria: criteria={'response_match_score': 0.99} custom_metrics=None"), r.stdout);
  });

  const adkModules = join(ROOT, 'examples', 'adk_agent', 'node_modules', '@google', 'adk');
  test('an @google/adk rootAgent export is wrapped with fromAdkAgent, its logs routed to stderr', { skip: !existsSync(adkModules) && 'examples/adk_agent has no node_modules (run scripts/examples.sh)' }, () => {
    // A project elsewhere with @google/adk in its node_modules, evalcore run from this checkout.
    const project = join(work, 'adk_project');
    mkdirSync(join(project, 'app'), { recursive: true });
    symlinkSync(join(ROOT, 'examples', 'adk_agent', 'node_modules'), join(project, 'node_modules'), 'dir');
    writeFileSync(join(project, 'app', 'agent.mjs'), `export { rootAgent } from ${JSON.stringify(join(ROOT, 'examples', 'adk_agent', 'agent.mjs'))};\n`);
    const set = join(ROOT, 'examples', 'adk_agent', 'adk_agent.evalset.json');
    const r = cli(['eval', join(project, 'app', 'agent.mjs'), set, '--format', 'json', '--log_level', 'INFO'], { cwd: project });
    const report = JSON.parse(r.stdout);
    assert.ok(report.summary.total > 0);
    assert.equal(r.code, report.ok ? 0 : 1);
    assert.match(r.stderr, /INFO: \[ADK\]/, 'ADK log lines on stderr, not in the JSON');
  });
});

describe('user errors: one line on stderr, exit code 2, no stack trace', () => {
  const set = join(EXAMPLE, 'hello_world.evalset.json');
  const agent = join(EXAMPLE, 'agent.mjs');
  const write = (name, text) => {
    const p = join(work, 'errors', name);
    mkdirSync(join(work, 'errors'), { recursive: true });
    writeFileSync(p, text);
    return p;
  };

  test('arguments and flags', () => {
    assertUsageError(cli(['eval']), /missing AGENT_MODULE/);
    assertUsageError(cli(['eval', agent]), /missing EVAL_SET/);
    assertUsageError(cli(['eval', agent, set, '--bogus']), /unknown option --bogus/);
    assertUsageError(cli(['eval', agent, set, '--num_runs', '0']), /--num_runs must be a whole number of at least 1/);
    assertUsageError(cli(['eval', agent, set, '--judge', 'gpt4']), /--judge must be PROVIDER:MODEL/);
    assertUsageError(cli(['eval', agent, set, '--judge_mode', 'replay']), /--judge_mode needs --judge/);
    assertUsageError(cli(['eval', agent, set, '--format', 'pdf']), /--format must be one of/);
  });

  test('files', () => {
    assertUsageError(cli(['eval', join(work, 'missing.mjs'), set]), /agent module not found/);
    assertUsageError(cli(['eval', agent, join(work, 'missing.evalset.json')]), /eval set not found|eval set file not found/);
    assertUsageError(cli(['eval', agent, set, 'not_a_file.json']), /eval set file not found: not_a_file\.json/);
    assertUsageError(cli(['eval', agent, set, '--config_file_path', join(work, 'nope.json')]), /config file not found/);
    assertUsageError(cli(['eval', agent, write('bad.evalset.json', '{"eval_set_id": "x", "eval_cases": [{}]}')]),
      /^evalcore: schema at \$\.eval_cases\[0\]/);
    assertUsageError(cli(['eval', agent, write('broken.evalset.json', '{')]), /^evalcore: invalid_json/);
    assertUsageError(cli(['eval', agent, set, '--config_file_path', write('cfg.json', '{"criteria": {"response_match_score": {"match_type": 1}}}')]),
      /cfg\.json/);
    assertUsageError(cli(['eval', agent, set, write('same.evalset.json', readFileSync(set, 'utf8'))]), /same eval_set_id "hello_world"/);
    assertUsageError(cli(['eval', agent, write('slash.evalset.json', '{"eval_set_id": "a/b", "eval_cases": []}')]), /must not contain path separators/);
  });

  test('agent modules that cannot be used', () => {
    assertUsageError(cli(['eval', write('throws.mjs', 'throw new Error("broken at import");\n'), set]), /cannot load agent module .*broken at import/);
    assertUsageError(cli(['eval', write('empty.mjs', 'export const x = 1;\n'), set]), /exports no agent/);
    assertUsageError(cli(['eval', write('syntax.mjs', 'export const = ;\n'), set]), /cannot load agent module/);
    assertUsageError(cli(['eval', write('factory.mjs', 'export function getAgent() { throw new Error("no model"); }\n'), set]), /getAgent\(\) failed: no model/);
    const ts = cli(['eval', write('agent.ts', 'export const agent = async (t: unknown) => "hi";\n'), `${set}:greeting`]);
    if (ts.code === 2) assert.match(ts.stderr, /TypeScript|cannot load agent module/);
    else assert.ok(ts.code === 0 || ts.code === 1, `a Node that runs .ts files evaluates it: ${ts.stderr}`);
  });

  test('getAgent() returning a callback works', () => {
    const factory = write('factory_ok.mjs', `export async function getAgent() { return (await import(${JSON.stringify(agent)})).agent; }\n`);
    const r = cli(['eval', factory, `${set}:greeting`, '--results_dir', join(work, 'factory-results')]);
    assert.equal(r.code, 0, r.stderr);
  });
});

test('Ctrl-C stops the run: exit 130, no result files', async () => {
  const dir = join(work, 'slow', 'slow');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'agent.mjs'), `export async function agent(turn) {
  process.stderr.write('turn\\n');
  await new Promise((r) => setTimeout(r, 300));
  return 'hello';
}
`);
  cpSync(join(EXAMPLE, 'hello_world.evalset.json'), join(dir, 'set.evalset.json'));
  const child = spawn(process.execPath, [BIN, 'eval', dir, join(dir, 'set.evalset.json'), '--concurrency', '1', '--num_runs', '3'], { cwd: work });
  let stderr = '';
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise((resolve) => child.stderr.on('data', (d) => { stderr += d; if (stderr.includes('turn')) resolve(); }));
  child.kill('SIGINT');
  const code = await exited;
  assert.equal(code, 130, stderr);
  assert.match(stderr, /interrupted/);
  assert.deepEqual(historyOf(dir), []);
});

test('--judge, --judge_base_url, the API key from the environment, --judge_cassette record then replay', async () => {
  const { startJudgeServer } = await import('./support/judge-server.mjs');
  const server = await startJudgeServer();
  const VALID = '{"reasoning": "The answers agree.", "is_the_agent_response_valid": "valid"}';
  server.script(() => VALID);
  const app = appCopy('judge');
  const config = join(work, 'judge_config.json');
  writeFileSync(config, JSON.stringify({ criteria: { final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: 1 } } } }));
  const cassette = join(work, 'judge-cassette.json');
  const run = (extra, env) => new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'eval', app, `${join(app, 'hello_world.evalset.json')}:greeting`, '--config_file_path', config,
      '--judge', 'openai:judge-m', '--judge_cassette', cassette, '--format', 'json', ...extra],
    { cwd: work, env: { ...process.env, NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
  try {
    const recorded = await run(['--judge_base_url', `${server.baseUrl}/v1`, '--judge_mode', 'record'], { OPENAI_API_KEY: 'sk-test' });
    assert.equal(recorded.code, 0, recorded.stderr);
    const metric = (out) => JSON.parse(out).eval_set_results[0].eval_case_results[0].overall_eval_metric_results
      .find((m) => m.metric_name === 'final_response_match_v2');
    assert.deepEqual([metric(recorded.stdout).eval_status, metric(recorded.stdout).score], ['PASSED', 1]);
    assert.equal(server.requests.length, 1);
    assert.equal(server.requests[0].headers.authorization, 'Bearer sk-test');
    assert.ok(existsSync(cassette), 'record mode writes the cassette');
    await server.close();
    const replayed = await run(['--judge_base_url', `${server.baseUrl}/v1`, '--judge_mode', 'replay'], {});
    assert.equal(replayed.code, 0, replayed.stderr);
    assert.deepEqual([metric(replayed.stdout).eval_status, metric(replayed.stdout).score], ['PASSED', 1]);
  } finally {
    await server.close();
  }
});

describe('the CLI tells the truth (NOT_EVALUATED, config warnings, hangs, dry runs)', () => {
  const ECHO = `export async function agent(turn) {
  if (turn.text.includes('hang')) return new Promise(() => {});
  if (turn.text.includes('crash')) throw new Error('the agent crashed');
  return { finalResponse: 'Hello, I am the echo agent.' };
}
`;
  function app(name, texts = ['Hi'], config = { criteria: { response_match_score: 0.5, final_response_match_v2: 0.5 } }) {
    const dir = join(work, name, 'echo');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'agent.mjs'), ECHO);
    writeFileSync(join(dir, 's.evalset.json'), JSON.stringify({
      eval_set_id: 's',
      eval_cases: texts.map((text, i) => ({
        eval_id: `case${i}`,
        conversation: [{ invocation_id: `i${i}`, user_content: { role: 'user', parts: [{ text }] }, final_response: { role: 'model', parts: [{ text: 'Hello, I am the echo agent.' }] } }],
      })),
    }));
    if (config) writeFileSync(join(dir, 'test_config.json'), JSON.stringify(config));
    return dir;
  }

  function cliAsync(args) {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [BIN, ...args], { cwd: work, env: { ...process.env, NO_COLOR: '1', OPENAI_API_KEY: '' } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => { stdout += d; });
      child.stderr.on('data', (d) => { stderr += d; });
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  test('a dead judge: ADK\'s summary and exit 0, but the reason on stderr; --strict exits 1; it fails fast', async () => {
    const dir = app('dead_judge', ['Hi', 'Hello']);
    const url = `http://127.0.0.1:${await freePort()}`;
    const t0 = Date.now();
    const r = await cliAsync(['eval', dir, join(dir, 's.evalset.json'), '--judge', 'openai:m', '--judge_base_url', url]);
    assert.ok(Date.now() - t0 < 20_000, 'a refused connection is not retried for long');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Tests passed: 2\n {2}Tests failed: 0\n$/);
    assert.match(r.stderr, /^2 metric results were NOT_EVALUATED \(ADK's rule does not fail a case for it; --strict \/ strict: true does\):\n {2}judge_error x2 \(final_response_match_v2\): .*ECONNREFUSED/m);
    // Every call asked for is accounted for, and every attempt is a call sent or a retry made.
    const [, asked, answered, failed, unsent, sent, attempts, retried] = /^judge: (\d+) call\(s\) asked for: (\d+) answered, (\d+) failed(?:, (\d+) not sent \(judge_error x\d+\))?; (\d+) sent in (\d+) attempt\(s\) \((\d+) retried\)$/m
      .exec(r.stderr)?.map(Number) ?? assert.fail(`no judge line in:\n${r.stderr}`);
    assert.equal(asked, 10, 'two cases, five samples each');
    assert.equal(asked, answered + failed + (unsent || 0));
    assert.equal(attempts, sent + retried);
    const strict = await cliAsync(['eval', dir, join(dir, 's.evalset.json'), '--judge', 'openai:m', '--judge_base_url', url, '--strict', '--print_detailed_results']);
    assert.equal(strict.code, 1);
    assert.match(strict.stderr, /^NOT_EVALUATED, each:\n {2}case0: final_response_match_v2: judge_error: /m);
    assert.match(strict.stderr, /^error: --strict: 2 metric result\(s\) were NOT_EVALUATED$/m);
  });

  test('a misspelt metric: the warning (with the closest name) before the run; --strict runs nothing', () => {
    const dir = app('typo', ['Hi'], { criteria: { respone_match_score: 0.5 } });
    const r = cli(['eval', dir, join(dir, 's.evalset.json')]);
    const lines = r.stderr.split('\n');
    assert.match(lines[0], /^warning: .*test_config\.json: \$\.criteria\.respone_match_score: unknown metric "respone_match_score"; did you mean "response_match_score"\?/);
    assert.match(r.stderr, /unknown_metric x1 \(respone_match_score\)/);
    assert.match(r.stderr, /No metric was evaluated/);
    assert.equal(r.code, 1, 'the case is NOT_EVALUATED');
    const strict = cli(['eval', dir, join(dir, 's.evalset.json'), '--strict']);
    assert.equal(strict.code, 1);
    assert.match(strict.stderr, /^error: .*test_config\.json: \$\.criteria\.respone_match_score: unknown metric "respone_match_score"; did you mean "response_match_score"\?/m);
    assert.match(strict.stderr, /error: --strict: the config has 1 problem\(s\) that would leave metrics NOT_EVALUATED; nothing was run/);
    // Issue 24: nothing runs under --strict, so no line promises a NOT_EVALUATED metric.
    assert.doesNotMatch(strict.stderr, /will be NOT_EVALUATED|^warning:/m);
    assert.equal(strict.stdout, '');
    assert.equal(historyOf(dir).length, 1, 'only the first run wrote results');
  });

  test('an agent that never answers fails its case at --agent_timeout; a throw shows its stack with --log_level DEBUG', async () => {
    const dir = app('hang', ['Hi', 'please hang', 'please crash'], { criteria: { response_match_score: 0.5 } });
    const t0 = Date.now();
    const r = await cliAsync(['eval', dir, join(dir, 's.evalset.json'), '--agent_timeout', '0.5', '--log_level', 'DEBUG']);
    assert.ok(Date.now() - t0 < 20_000);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /Tests passed: 1\n {2}Tests failed: 2\n$/);
    assert.match(r.stderr, /^2 case runs could not be completed:\n {2}case1: agent_timeout: turn 1: the agent did not answer within 500 ms/m);
    assert.match(r.stderr, /^ {2}case2: agent_error: turn 1: the agent threw: the agent crashed$/m);
    assert.match(r.stderr, /^stack of case2 \(turn 1\):\n {2}Error: the agent crashed\n {6}at agent \(.*agent\.mjs:3:\d+\)\n(?! )/m, 'the stack ends where evalcore called the agent');
    const quiet = await cliAsync(['eval', dir, join(dir, 's.evalset.json'), '--agent_timeout', '0.5']);
    assert.doesNotMatch(quiet.stderr, /^stack of/m);
    assert.match(quiet.stderr, /--log_level DEBUG prints the stack/);
  });

  test('--dry_run counts the judge calls and sends none; --no_save writes nothing; --judge_retries/--judge_timeout reach the judge', async () => {
    const dir = app('dry', ['Hi', 'Hello']);
    const url = `http://127.0.0.1:${await freePort()}`;
    const r = cli(['eval', dir, join(dir, 's.evalset.json'), '--judge', 'openai:m', '--judge_base_url', url, '--dry_run']);
    assert.match(r.stderr, /^dry run: 10 judge call\(s\) would be sent \(about \d+ prompt tokens\); nothing was sent and no result file was written$/m);
    assert.equal(historyOf(dir).length, 0);
    const n = cli(['eval', dir, join(dir, 's.evalset.json'), '--no_save']);
    assert.equal(n.code, 0, n.stderr);
    assert.doesNotMatch(n.stderr, /wrote/);
    assert.equal(historyOf(dir).length, 0);
    assertUsageError(cli(['eval', dir, join(dir, 's.evalset.json'), '--judge_retries', '2']), /--judge_retries needs --judge PROVIDER:MODEL/);
    assertUsageError(cli(['eval', dir, join(dir, 's.evalset.json'), '--agent_timeout', '-1']), /--agent_timeout must be a number of seconds/);
    const { judgeFromFlags } = await import('../../pkg/lib/cli/eval.js');
    assert.deepEqual(judgeFromFlags({ judge: 'openai:m', judge_retries: 0, judge_timeout: 2.5, dry_run: true }, {}),
      { provider: 'openai', model: 'm', timeoutMs: 2500, maxRetries: 0, dryRun: true });
  });

  test('a folder runs every eval file under it, each with the test_config.json beside it (as AgentEvaluator)', () => {
    const dir = app('folder', ['Hi']);
    const sub = join(dir, 'more');
    mkdirSync(sub);
    writeFileSync(join(sub, 'greet.test.json'), JSON.stringify([{ query: 'Hi', expected_tool_use: [], reference: 'Hello, I am the echo agent.' }]));
    writeFileSync(join(sub, 'test_config.json'), JSON.stringify({ criteria: { response_match_score: 0.9 } }));
    rmSync(join(dir, 'test_config.json'));
    const r = cli(['eval', join(dir, 'agent.mjs'), dir]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /\ngreet:\n {2}Tests passed: 1\n {2}Tests failed: 0\ns:\n {2}Tests passed: 1\n {2}Tests failed: 0\n$/);
    const greet = readEvalSetResultFile(historyOf(dir).find((f) => f.includes('echo_greet_')));
    assert.deepEqual(greet.eval_case_results[0].overall_eval_metric_results.map((m) => [m.metric_name, m.threshold]).filter(([n]) => !n.endsWith('_v1')),
      [['response_match_score', 0.9]], 'the config beside greet.test.json');
  });
});
