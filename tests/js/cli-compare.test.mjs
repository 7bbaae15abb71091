// `evalcore compare`, `evalcore calibrate` and `evalcore eval --baseline`: result files and
// folders, every --format, exit codes per --fail_on, GitHub Actions annotations and the step
// summary, and one-line usage errors with exit code 2.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { main } from '../../pkg/lib/cli/main.js';
import { DATA, PKG, ROOT, readJsonl } from './helpers.mjs';
import { HOSTILE, workflowCommands } from './support/hostile-output.mjs';

const SCENARIOS = readJsonl(join(DATA, 'compare', 'scenarios.jsonl'));
const CALIBRATIONS = readJsonl(join(DATA, 'compare', 'calibration.jsonl'));
const work = mkdtempSync(join(tmpdir(), 'evalcore-cli-compare-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** Runs the CLI in-process; resolves to `{ code, stdout, stderr }`. */
async function run(args, env = {}) {
  let stdout = '';
  let stderr = '';
  const io = { stdout: { write: (s) => { stdout += s; } }, stderr: { write: (s) => { stderr += s; } }, env: { EVALCORE_DEBUG: '', ...env } };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

/** A scenario's sides as folders of result files (one file per result, as runs are saved). */
function folders(s, name) {
  const dir = join(work, name);
  for (const side of ['baseline', 'candidate']) {
    mkdirSync(join(dir, side), { recursive: true });
    s[side].forEach((r, i) => writeFileSync(join(dir, side, `run${i}.evalset_result.json`), typeof r === 'string' ? JSON.stringify(r) : JSON.stringify(r, null, 1)));
  }
  return [join(dir, 'baseline'), join(dir, 'candidate')];
}

const find = (pred) => {
  const s = SCENARIOS.find((x) => pred(x.expected));
  assert.ok(s, 'a scenario of that kind');
  return s;
};
const regressedCase = (e) => e.cases.some((c) => c.change === 'regressed');

test('--fail_on: regressed fails on a regressed case or verdict, significant only on the verdict, never not at all', async () => {
  const verdict = folders(find((e) => e.verdict === 'regressed'), 'verdict');
  const caseOnly = folders(find((e) => e.verdict !== 'regressed' && regressedCase(e)), 'case_only');
  const clean = folders(find((e) => e.verdict !== 'regressed' && !regressedCase(e)), 'clean');
  const expect = [
    [verdict, [], 1], [verdict, ['--fail_on', 'significant'], 1], [verdict, ['--fail_on', 'never'], 0],
    [caseOnly, [], 1], [caseOnly, ['--fail_on', 'significant'], 0], [caseOnly, ['--fail_on=never'], 0],
    [clean, [], 0], [clean, ['--fail_on', 'significant'], 0],
  ];
  for (const [[b, c], flags, code] of expect) {
    const r = await run(['compare', b, c, ...flags]);
    assert.equal(r.code, code, `${flags.join(' ')}: ${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /^evalcore compare: (REGRESSED|IMPROVED|NO SIGNIFICANT CHANGE)/);
  }
});

test('--format json prints compareRuns\'s object; a single file is a side too', async () => {
  const s = find((e) => e.metrics.length > 0);
  const [b, c] = folders(s, 'json');
  const r = await run(['compare', b, c, '--format', 'json']);
  const got = JSON.parse(r.stdout);
  assert.equal(got.verdict, s.expected.verdict);
  assert.deepEqual(got.metrics.map((m) => m.metric_name), s.expected.metrics.map((m) => m.metric_name));
  const one = await run(['compare', join(b, readdirSync(b)[0]), join(c, readdirSync(c)[0]), '--format=json', '--fail_on', 'never']);
  assert.equal(one.code, 0);
  assert.equal(JSON.parse(one.stdout).runs.baseline, 1);
});

test('markdown and junit reports, to stdout or --output (stdout then keeps the text)', async () => {
  const [b, c] = folders(find((e) => e.verdict === 'regressed' && regressedCase(e)), 'reports');
  const md = await run(['compare', b, c, '--format', 'markdown', '--fail_on', 'never']);
  assert.match(md.stdout, /^### ❌ evalcore compare: regressed/);
  const out = join(work, 'out', 'report.xml');
  const xml = await run(['compare', b, c, '--format', 'junit', '--output', out]);
  assert.equal(xml.code, 1);
  assert.match(xml.stdout, /^evalcore compare: REGRESSED/);
  assert.match(readFileSync(out, 'utf8'), /<property name="evalcore.verdict" value="regressed"\/>/);
});

test('in GitHub Actions: annotations (stderr beside a json report) and the step summary', async () => {
  const [b, c] = folders(find((e) => e.verdict === 'regressed'), 'gha');
  const summary = join(work, 'summary.md');
  const env = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary };
  const text = await run(['compare', b, c], env);
  assert.match(text.stdout, /^::error title=evalcore%3A /m);
  const json = await run(['compare', b, c, '--format', 'json'], env);
  assert.doesNotThrow(() => JSON.parse(json.stdout));
  assert.match(json.stderr, /^::error /m);
  assert.match(readFileSync(summary, 'utf8'), /### ❌ evalcore compare: regressed/);
  const never = await run(['compare', b, c, '--fail_on', 'never'], { GITHUB_ACTIONS: 'true' });
  assert.doesNotMatch(never.stdout, /::error/);
});

test('in GitHub Actions, hostile ids and reasons: the runner reads our annotations and nothing else, in every format', async () => {
  const m = (score, status, details) => ({ metric_name: HOSTILE, threshold: 0.5, score, eval_status: status, ...(details ? { details } : {}) });
  const c = (id, status, metric) => ({ eval_id: id, final_eval_status: status, overall_eval_metric_results: [metric] });
  const [b, cand] = folders({
    baseline: [{ eval_set_result_id: 'b', eval_set_id: HOSTILE, eval_case_results: [c(HOSTILE, 'PASSED', m(1, 'PASSED')), c(`${HOSTILE}2`, 'PASSED', m(1, 'PASSED'))] }],
    candidate: [{ eval_set_result_id: 'c', eval_set_id: HOSTILE, eval_case_results: [c(HOSTILE, 'FAILED', m(0, 'FAILED')),
      c(`${HOSTILE}2`, 'NOT_EVALUATED', m(null, 'NOT_EVALUATED', { reason: 'judge_error', error: HOSTILE }))] }],
  }, 'gha-hostile');
  for (const format of ['text', 'markdown', 'json', 'junit']) {
    const r = await run(['compare', b, cand, '--format', format], { GITHUB_ACTIONS: 'true' });
    assert.equal(r.code, 1, r.stderr);
    const commands = workflowCommands(r.stdout + r.stderr);
    assert.deepEqual(commands.map((x) => x.name), ['error', 'error', 'warning'], `${format}: ${JSON.stringify(commands)}`);
    assert.deepEqual(commands.map((x) => x.props.title), [`evalcore: ${HOSTILE} dropped`, `evalcore: ${HOSTILE} regressed`, 'evalcore: cases not comparable']);
  }
});

test('usage errors and unreadable results: one line, exit 2, naming the file', async () => {
  const [b, c] = folders(SCENARIOS[0], 'usage');
  const empty = join(work, 'empty');
  mkdirSync(empty, { recursive: true });
  writeFileSync(join(work, 'broken.evalset_result.json'), '{"eval_set_result_id": "x",\n  "eval_set_id": }');
  for (const [args, pattern] of [
    [['compare', b], /expected BASELINE and CANDIDATE/],
    [['compare', b, c, '--alpha', '2'], /--alpha must be a number between 0 and 1/],
    [['compare', b, c, '--fail_on', 'sometimes'], /--fail_on must be one of regressed, significant, never/],
    [['compare', b, join(work, 'nope')], /candidate not found/],
    [['compare', empty, c], /a folder with no result files/],
    [['compare', join(work, 'broken.evalset_result.json'), c], /broken\.evalset_result\.json: /],
  ]) {
    const r = await run(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, pattern);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});

test('evalcore calibrate: text, json, --fail_on flagged', async () => {
  const s = CALIBRATIONS.find((x) => x.expected.metrics.some((g) => g.flagged));
  const dir = join(work, 'cal');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'labels.json'), JSON.stringify(s.labels));
  writeFileSync(join(dir, 'run.evalset_result.json'), JSON.stringify(s.results[0]));
  const text = await run(['calibrate', join(dir, 'labels.json'), join(dir, 'run.evalset_result.json')]);
  assert.equal(text.code, 0);
  assert.match(text.stdout, /^judge calibration: /);
  const json = await run(['calibrate', join(dir, 'labels.json'), dir, '--format', 'json', '--fail_on', 'flagged', '--kappa_threshold', '0.6']);
  assert.equal(json.code, 1);
  assert.equal(JSON.parse(json.stdout).metrics.length, s.expected.metrics.length);
  const bad = await run(['calibrate', join(dir, 'run.evalset_result.json'), dir]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /labels\.json|run\.evalset_result\.json: .*kind/);
});

test('evalcore eval --baseline: the run compared with the saved one; the exit code follows --fail_on', () => {
  const app = join(work, 'app', 'hello_world');
  cpSync(join(ROOT, 'examples', 'hello_world'), app, { recursive: true, filter: (src) => !src.includes('.adk') });
  writeFileSync(join(app, 'broken.mjs'), 'export async function agent() { return "I cannot help with that."; }\n');
  const bin = join(PKG, 'bin', 'evalcore.js');
  const cli = (args) => spawnSync(process.execPath, [bin, ...args], { cwd: app, encoding: 'utf8', timeout: 120_000, env: { ...process.env, EVALCORE_DEBUG: '', GITHUB_ACTIONS: '' } });
  const base = cli(['eval', 'agent.mjs', 'hello_world.evalset.json', '--results_dir', 'main_results']);
  assert.ok(base.status === 0 || base.status === 1, base.stderr);
  const same = cli(['eval', 'agent.mjs', 'hello_world.evalset.json', '--no_save', '--baseline', 'main_results']);
  assert.equal(same.status, 0, same.stdout + same.stderr);
  assert.match(same.stdout, /evalcore compare: NO SIGNIFICANT CHANGE/);
  const worse = cli(['eval', 'broken.mjs', 'hello_world.evalset.json', '--no_save', '--baseline', 'main_results', '--format', 'json']);
  assert.equal(worse.status, 1, worse.stderr);
  assert.doesNotThrow(() => JSON.parse(worse.stdout), 'stdout keeps the json report');
  assert.match(worse.stderr, /evalcore compare: REGRESSED/);
  const tolerated = cli(['eval', 'broken.mjs', 'hello_world.evalset.json', '--no_save', '--baseline', 'main_results', '--fail_on', 'never']);
  assert.equal(tolerated.status, 0, tolerated.stderr);
  const usage = cli(['eval', 'agent.mjs', 'hello_world.evalset.json', '--alpha', '0.1']);
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /--alpha needs --baseline/);
});

test('eval --baseline --num_runs 3 and compare of the saved files: the same run counts, and notes name the same run', () => {
  const app = join(work, 'runs', 'hello_world');
  cpSync(join(ROOT, 'examples', 'hello_world'), app, { recursive: true, filter: (src) => !src.includes('.adk') });
  // The first run of "greeting" cannot be scored, and completes last (after its other runs).
  writeFileSync(join(app, 'flaky.mjs'), `import { agent as replay } from './agent.mjs';
export async function agent(turn) {
  if (turn.evalId !== 'greeting' || turn.run !== 0) return replay(turn);
  await new Promise((r) => setTimeout(r, 400));
  return 'unscorable';
}
`);
  writeFileSync(join(app, 'metrics.mjs'), `export function probe({ actualInvocations }) {
  return JSON.stringify(actualInvocations).includes('unscorable') ? { score: null } : 1;
}
`);
  writeFileSync(join(app, 'probe.json'), JSON.stringify({ criteria: { probe: 0.5 } }));
  const bin = join(PKG, 'bin', 'evalcore.js');
  const cli = (args) => spawnSync(process.execPath, [bin, ...args], { cwd: app, encoding: 'utf8', timeout: 120_000, env: { ...process.env, EVALCORE_DEBUG: '', GITHUB_ACTIONS: '' } });
  const flags = ['--num_runs', '3', '--concurrency', '4', '--config_file_path', 'probe.json', '--custom_metrics', 'metrics.mjs'];
  const base = cli(['eval', 'flaky.mjs', 'hello_world.evalset.json', ...flags, '--results_dir', 'base_runs']);
  assert.equal(base.status, 1, base.stderr);
  assert.equal(readdirSync(join(app, 'base_runs')).length, 3, 'one file per run');
  const files = cli(['compare', 'base_runs', 'base_runs', '--format', 'json', '--fail_on', 'never']);
  assert.equal(files.status, 0, files.stderr);
  const fromFiles = JSON.parse(files.stdout);
  assert.deepEqual(fromFiles.runs, { baseline: 3, candidate: 3 });
  const noteOf = (cmp) => cmp.cases.find((c) => c.eval_id === 'greeting').notes.map((n) => [n.side, n.run, n.metric_name]);
  assert.deepEqual(noteOf(fromFiles), [['baseline', 0, 'probe'], ['candidate', 0, 'probe']]);
  const out = join(app, 'cmp.json');
  const after = cli(['eval', 'flaky.mjs', 'hello_world.evalset.json', ...flags, '--no_save', '--baseline', 'base_runs',
    '--compare_format', 'json', '--compare_output', out, '--fail_on', 'never']);
  assert.equal(after.status, 0, after.stderr);
  const fromRun = JSON.parse(readFileSync(out, 'utf8'));
  assert.deepEqual(fromRun.runs, { baseline: 3, candidate: 3 }, 'runs, not result objects');
  assert.deepEqual(noteOf(fromRun), noteOf(fromFiles), 'the run as it numbered itself, on the side it is on');
  assert.match(after.stdout, /^baseline: 3 run\(s\), candidate: 3 run\(s\) of eval set hello_world$/m);
  // The text names each note's side, as the Markdown does (ADK's files keep no reason).
  const text = cli(['compare', 'base_runs', 'base_runs', '--fail_on', 'never']);
  assert.match(text.stdout, /^ {2}greeting .*; baseline: probe: NOT_EVALUATED, no reason given \(run 1\); .*; candidate: probe: NOT_EVALUATED, no reason given \(run 1\)$/m);
});
