// Data for the viewer's browser tests, made by the tests themselves: a real run of the
// hello_world example through `evalcore eval`, a baseline/candidate pair with a regression, a
// hostile result file, and a 10,000-case run, all in ADK's result-file shape.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = join(ROOT, 'pkg', 'bin', 'evalcore.js');

export function tempDir(tag) {
  return mkdtempSync(join(tmpdir(), `evalcore-e2e-${tag}-`));
}

/**
 * Runs hello_world twice (`--num_runs 2`) with the recorded agent: returns the folder, the eval
 * set, the config and the two result files in .adk/eval_history.
 */
export function helloRun() {
  const dir = tempDir('hello');
  cpSync(join(ROOT, 'examples', 'hello_world'), dir, { recursive: true, filter: (p) => !p.includes('.adk') });
  try {
    execFileSync(process.execPath, [CLI, 'eval', join(dir, 'agent.mjs'), join(dir, 'hello_world.evalset.json'),
      '--config_file_path', join(dir, 'test_config.json'), '--num_runs', '2'], { cwd: dir, stdio: 'pipe' });
  } catch (e) {
    // Exit 1: a case failed on purpose (check_listed_numbers); the result files are written.
    if (e.status !== 1) throw e;
  }
  const history = join(dir, '.adk', 'eval_history');
  const results = readdirSync(history).sort().map((f) => join(history, f));
  return { dir, history, evalSet: join(dir, 'hello_world.evalset.json'), config: join(dir, 'test_config.json'), results };
}

/** `evalcore eval ARGS` as a child that does not block this process (a judge here answers it). */
function evalcore(args, { cwd, env = {} }) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'eval', ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    child.stdout.resume();
    child.once('error', reject);
    // Exit 1: a case failed on purpose (check_listed_numbers); the result files are written.
    child.once('exit', (code) => (code === 0 || code === 1 ? resolve() : reject(new Error(`evalcore eval exited ${code}: ${err}`))));
  });
}

/**
 * hello_world run once with a judged metric beside its own (final_response_match_v2), judged by
 * the OpenAI-compatible judge at `judgeUrl`, and once more with `--run_name`: `{dir, judged,
 * labelled}` (the two result files).
 */
export async function judgedRuns(judgeUrl) {
  const dir = tempDir('judged');
  cpSync(join(ROOT, 'examples', 'hello_world'), dir, { recursive: true, filter: (p) => !p.includes('.adk') });
  const config = join(dir, 'judged_config.json');
  writeFileSync(config, JSON.stringify({ criteria: { tool_trajectory_avg_score: 1, response_match_score: 0.5, final_response_match_v2: 0.5 } }));
  const base = [join(dir, 'agent.mjs'), join(dir, 'hello_world.evalset.json'), '--config_file_path', config];
  const judge = ['--judge', 'openai:judge-model-1', '--judge_base_url', judgeUrl];
  const history = join(dir, '.adk', 'eval_history');
  await evalcore([...base, ...judge], { cwd: dir, env: { OPENAI_API_KEY: 'sk-test-judge' } });
  const [judged] = readdirSync(history);
  await evalcore([...base, ...judge, '--run_name', 'prompt v2'], { cwd: dir, env: { OPENAI_API_KEY: 'sk-test-judge' } });
  const labelled = readdirSync(history).find((f) => f !== judged);
  return { dir, judged: join(history, judged), labelled: join(history, labelled) };
}

const text = (t) => ({ role: 'model', parts: [{ text: t }] });
const user = (t) => ({ role: 'user', parts: [{ text: t }] });

/** A deterministic pseudo-random sequence (no Math.random: the tests must not vary). */
function lcg(seed) {
  let x = seed >>> 0;
  return () => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const metric = (name, threshold, score, status, details = {}) => ({
  metric_name: name, threshold, criterion: { threshold }, score, eval_status: status,
  details: { rubric_scores: null, ...details },
});

/**
 * An ADK 2.x result file with `n` cases of `turns` invocations each: case i passes or fails
 * by a fixed rule, some are NOT_EVALUATED with a reason. Returns the JSON text.
 */
export function bigResult(n, turns = 3, { id = 'big', seed = 7, regressEvery = 0 } = {}) {
  const rnd = lcg(seed);
  const cases = [];
  for (let i = 0; i < n; i++) {
    const evalId = `case-${String(i).padStart(5, '0')}`;
    const invs = [];
    let sum = 0;
    for (let t = 0; t < turns; t++) {
      const score = Math.round(rnd() * 1000) / 1000;
      sum += score;
      const expected = `Turn ${t + 1} of ${evalId}: the answer is ${i % 97} apples.`;
      const actual = score > 0.5 ? expected : `I think the answer might be ${i % 89} pears.`;
      invs.push({
        actual_invocation: {
          invocation_id: `${evalId}-a${t}`, user_content: user(`Question ${t + 1} for ${evalId}?`), final_response: text(actual),
          intermediate_data: { invocation_events: [{ author: 'agent', content: { role: 'model', parts: [{ function_call: { name: 'lookup', args: { q: i, t } } }] } }] },
          creation_timestamp: 1763713600 + i,
        },
        expected_invocation: {
          invocation_id: `${evalId}-e${t}`, user_content: user(`Question ${t + 1} for ${evalId}?`), final_response: text(expected),
          intermediate_data: { tool_uses: [{ name: 'lookup', args: { q: i, t } }], intermediate_responses: [] }, creation_timestamp: 1763713600 + i,
        },
        eval_metric_results: [metric('response_match_score', 0.6, score, score >= 0.6 ? 1 : 2)],
      });
    }
    const mean = sum / turns;
    let rms = metric('response_match_score', 0.6, mean, mean >= 0.6 ? 1 : 2);
    if (regressEvery && i % regressEvery === 0) rms = metric('response_match_score', 0.6, 0.1, 2);
    const traj = i % 50 === 7
      ? metric('tool_trajectory_avg_score', 1, null, 3, { reason: 'the agent made no tool calls to compare' })
      : metric('tool_trajectory_avg_score', 1, 1, 1);
    const overall = [traj, rms];
    const final = overall.some((m) => m.eval_status === 2) ? 2 : overall.some((m) => m.eval_status === 3) ? 3 : 1;
    cases.push({
      eval_set_file: id, eval_set_id: id, eval_id: evalId, final_eval_status: final, eval_metric_results: null,
      overall_eval_metric_results: overall, eval_metric_result_per_invocation: invs, session_id: `s-${i}`, user_id: 'user',
    });
  }
  return JSON.stringify({ eval_set_result_id: `${id}_1763713600.0`, eval_set_result_name: `${id}_1763713600.0`, eval_set_id: id,
    eval_case_results: cases, creation_timestamp: 1763713600 });
}

export const PWN = [
  '<script>window.__pwned = "script"</script>',
  '<img src=x onerror="window.__pwned = \'img\'">',
  'javascript:window.__pwned="link"',
  '<a href="javascript:window.__pwned=\'a\'">click</a>',
  '"><svg onload="window.__pwned=\'svg\'">',
];

/** A result file whose every text is hostile, and one response of 5 MB. */
export function hostileResult() {
  const big = 'A'.repeat(5 * 1024 * 1024);
  const cases = PWN.map((p, i) => ({
    eval_set_id: `hostile${PWN[0]}`, eval_id: `${p}#${i}`, final_eval_status: 2, eval_metric_results: null,
    overall_eval_metric_results: [
      metric(p, 0.5, 0.2, 2, { rationale: p, reason: p, rubric_scores: [{ rubric_id: p, rationale: p, score: 0 }] }),
      metric('response_match_score', 0.8, 0.1, 2),
    ],
    eval_metric_result_per_invocation: [{
      actual_invocation: { invocation_id: p, user_content: user(p), final_response: text(i === 0 ? big : p),
        intermediate_data: { invocation_events: [{ author: p, content: { role: 'model', parts: [{ function_call: { name: p, args: { [p]: p } } }, { text: p }] } }] } },
      expected_invocation: { invocation_id: p, user_content: user(p), final_response: text(`${p} ${p}`),
        intermediate_data: { tool_uses: [{ name: p, args: { x: p } }] } },
      eval_metric_results: [metric(p, 0.5, 0.2, 3, { error: p })],
    }],
    session_id: p, user_id: p,
  }));
  return JSON.stringify({ eval_set_result_id: PWN[1], eval_set_result_name: PWN[2], eval_set_id: `hostile${PWN[0]}`, eval_case_results: cases, creation_timestamp: 1 });
}

/** Writes `files` ({name: text}) into a fresh folder; returns the paths in order. */
export function writeAll(tag, files) {
  const dir = tempDir(tag);
  mkdirSync(dir, { recursive: true });
  return Object.entries(files).map(([name, body]) => {
    const p = join(dir, name);
    writeFileSync(p, body);
    return p;
  });
}

export function read(p) {
  return readFileSync(p, 'utf8');
}
