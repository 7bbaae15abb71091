// evaluate() in Deno: `import 'evalcore'` (the package's "deno" entry) runs the agent loop with
// a plain callback agent — two static cases, two runs, streamed results and progress, Deno's
// AbortSignal handed to the agent — and the numbers must equal the same evaluation in Node.
import assert from 'node:assert/strict';
import { denoRunner } from './deno-runner.mjs';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as ec from '../../pkg/index.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const PKG = join(ROOT, 'pkg');
const DENO = process.env.DENO ?? join(ROOT, '.tools', 'node_modules', '@deno', 'linux-x64-glibc', 'deno');

// Shared by both runtimes: the eval set, the agent and what is reported back.
const COMMON = `
const U = (text) => ({ role: 'user', parts: [{ text }] });
const M = (text) => ({ role: 'model', parts: [{ text }] });
export const SET = {
  eval_set_id: 'deno_loop',
  eval_cases: [
    {
      eval_id: 'weather',
      session_input: { app_name: 'weather_app', user_id: 'u1', state: { unit: 'C' } },
      conversation: [
        { user_content: U('What is the weather in Paris?'), final_response: M('It is sunny in Paris.'),
          intermediate_data: { tool_uses: [{ name: 'get_weather', args: { city: 'Paris' } }] } },
        { user_content: U('And in Rome?'), final_response: M('It is raining in Rome.'),
          intermediate_data: { tool_uses: [{ name: 'get_weather', args: { city: 'Rome' } }] } },
      ],
    },
    { eval_id: 'greeting', conversation: [{ user_content: U('Hello!'), final_response: M('Hello, how can I help you today?') }] },
  ],
};
export function makeAgent(log) {
  return async (t) => {
    log.push({ evalId: t.evalId, run: t.run, turnIndex: t.turnIndex, history: t.history.length, userId: t.userId,
      appName: t.appName, state: t.state, signal: t.signal instanceof AbortSignal && !t.signal.aborted });
    await new Promise((r) => setTimeout(r, 1));
    if (t.evalId === 'greeting') return t.run === 0 ? 'Hello, how can I help you today?' : 'Hi.';
    const city = t.text.includes('Paris') ? 'Paris' : 'Rome';
    return {
      finalResponse: city === 'Paris' ? 'It is sunny in Paris.' : 'Rome has rain today.',
      toolCalls: [{ name: 'get_weather', args: { city }, response: { sky: city === 'Paris' ? 'sun' : 'rain' } }],
    };
  };
}
export async function runOnce(ec) {
  const log = [];
  const streamed = [];
  const phases = [];
  const res = await ec.evaluate({
    evalSet: SET, agent: makeAgent(log), numRuns: 2, concurrency: 2, signal: new AbortController().signal,
    onCaseResult: (r) => streamed.push(r.eval_id + '#' + r.run), onProgress: (p) => phases.push(p.phase),
  });
  const key = (r) => r.eval_id + '#' + r.run;
  const cases = Object.fromEntries(res.eval_case_results.map((r) => [key(r), {
    status: r.final_eval_status,
    scores: r.overall_eval_metric_results.filter((m) => m.eval_status !== 'INFORMATIONAL').map((m) => [m.metric_name, m.score, m.eval_status]),
    per: r.eval_metric_result_per_invocation.map((p) => p.eval_metric_results.filter((m) => m.eval_status !== 'INFORMATIONAL').map((m) => m.score)),
    tools: r.overall_eval_metric_results.find((m) => m.metric_name === 'tool_call_count_v1').score,
  }]));
  const summary = res.run_summary.cases.map((c) => ({ eval_id: c.eval_id, statuses: c.statuses, flipped: c.flipped,
    metrics: c.metrics.filter((m) => !m.informational).map((m) => [m.metric_name, m.case_scores, m.invocation_mean, m.passed]) }))
    .sort((a, b) => (a.eval_id < b.eval_id ? -1 : 1));
  log.sort((a, b) => JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);
  return { cases, summary, log, streamed: streamed.sort(), phases: [phases[0], phases.length, phases.at(-1)] };
}
`;

const DENO_SCRIPT = `import * as ec from 'evalcore';
import { runOnce } from './common.mjs';
const out = await runOnce(ec);
out.runtime = 'deno ' + Deno.version.deno;
out.entry = import.meta.resolve('evalcore');
console.log(JSON.stringify(out));
`;

const work = mkdtempSync(join(tmpdir(), 'evalcore-run-loop-deno-'));
const denoProcess = denoRunner(DENO, work);
after(() => {
  denoProcess.kill();
  rmSync(work, { recursive: true, force: true });
});

const runDeno = (args, cwd) => denoProcess.run(args, cwd);

test('deno: evaluate() with a callback agent gives the same results as in Node', async (t) => {
  assert.ok(existsSync(DENO), `deno not found at ${DENO}: run scripts/setup.sh`);
  const project = join(work, 'deno');
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'deno-run-loop', private: true, type: 'module', dependencies: { evalcore: 'file:../pkg' } }));
  symlinkSync(PKG, join(project, 'node_modules', 'evalcore'), 'dir');
  writeFileSync(join(project, 'common.mjs'), COMMON);
  writeFileSync(join(project, 'run-loop.mjs'), DENO_SCRIPT);
  const stdout = await runDeno([
    'run', '--quiet', '--no-lock', '--no-config', '--node-modules-dir=manual', `--allow-read=${project},${PKG}`,
    'run-loop.mjs',
  ], project);
  const deno = JSON.parse(stdout);
  assert.match(deno.entry, /\/index\.js$/, `deno resolved evalcore to ${deno.entry}`);
  t.diagnostic(deno.runtime);

  // The same evaluation in this Node process.
  const { runOnce } = await import(join(project, 'common.mjs'));
  const node = await runOnce(ec);

  // What the agent saw in Deno.
  assert.equal(deno.log.length, 6, 'two runs × (two turns + one turn)');
  assert.ok(deno.log.every((l) => l.signal), 'the agent got a live AbortSignal');
  const weather = deno.log.filter((l) => l.evalId === 'weather');
  assert.deepEqual(weather.map((l) => [l.run, l.turnIndex, l.history]), [[0, 0, 0], [0, 1, 1], [1, 0, 0], [1, 1, 1]]);
  assert.ok(weather.every((l) => l.userId === 'u1' && l.appName === 'weather_app' && l.state.unit === 'C'));
  assert.deepEqual(deno.streamed, ['greeting#0', 'greeting#1', 'weather#0', 'weather#1']);
  assert.deepEqual(deno.phases, ['start', 6, 'done']);

  // The scores are what ADK computes, and equal Node's bit for bit.
  const w = deno.cases['weather#0'];
  assert.deepEqual(w.scores.find((s) => s[0] === 'tool_trajectory_avg_score'), ['tool_trajectory_avg_score', 1, 'PASSED']);
  const rome = ec.rouge1('Rome has rain today.', 'It is raining in Rome.').fmeasure;
  assert.deepEqual(w.per.map((p) => p[1]), [1, rome]);
  assert.equal(w.tools, 1);
  assert.equal(deno.cases['greeting#0'].status, 'PASSED');
  assert.equal(deno.cases['greeting#1'].status, 'FAILED');
  const greet = deno.summary.find((c) => c.eval_id === 'greeting');
  assert.deepEqual(greet.statuses, ['PASSED', 'FAILED']);
  assert.equal(greet.flipped, true);
  assert.deepEqual({ cases: deno.cases, summary: deno.summary, log: deno.log, streamed: deno.streamed, phases: deno.phases },
    { cases: node.cases, summary: node.summary, log: node.log, streamed: node.streamed, phases: node.phases });
});
