// What the sharded-run tests share (shard.test.mjs, pacing.test.mjs): a corpus of recorded
// replies, a judge verdict that depends on the prompt only (every instance and the local run
// agree), result file texts compared line by line, and `evalcore eval` as a child process.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { formatEvalSetResult } from '../../pkg/lib/node/history.js';
import { requestText } from '../js/support/judge-server.mjs';
import { PKG } from './support.mjs';

export const CONFIG = { criteria: { response_match_score: 0.6, final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: 1 } } } };

/** N cases with one or two turns; the recorded replies differ from the expected ones in places. */
export function corpus(n, setId = 'shard_set') {
  const evalCases = [];
  const actual = {};
  for (let i = 0; i < n; i++) {
    const id = `case_${String(i).padStart(3, '0')}`;
    const turns = 1 + (i % 2);
    const conv = [];
    const got = [];
    for (let t = 0; t < turns; t++) {
      const user = { role: 'user', parts: [{ text: `Where is order ${i}-${t}?` }] };
      conv.push({ invocation_id: `${id}-e${t}`, user_content: user, final_response: { role: 'model', parts: [{ text: `Order ${i}-${t} ships on day ${(i + t) % 7}` }] } });
      got.push({ invocation_id: `${id}-a${t}`, user_content: user, final_response: { role: 'model', parts: [{ text: `Order ${i}-${t} ships on day ${(i * t + 2) % 5} from the depot` }] } });
    }
    evalCases.push({ eval_id: id, conversation: conv });
    actual[id] = got;
  }
  return { evalSet: { eval_set_id: setId, eval_cases: evalCases }, actual };
}

/** The judge's verdict, a function of the prompt only: every instance gets the same answer. */
export function verdict(rec) {
  const text = requestText(rec.wire ?? 'openai', rec.body ?? {});
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) >>> 0;
  const valid = h % 3 !== 0;
  return { text: JSON.stringify({ reasoning: `checked (${h % 97})`, is_the_agent_response_valid: valid ? 'valid' : 'invalid' }) };
}

/**
 * What two runs of an agent measure differently (its sessions, timings, a stack trace), set
 * alike: what is left is what the scoring decided.
 */
export function unmeasured(result) {
  const o = JSON.parse(JSON.stringify(result, (k, v) => (
    k === 'session_id' || k === 'stack' ? 'x' : k === 'duration' || k === 'creation_timestamp' || k === 'total_seconds' ? 0 : v)));
  const timed = (m) => m.metric_name === 'invocation_duration_v1';
  for (const c of o.eval_case_results) {
    for (const m of [...c.overall_eval_metric_results, ...c.eval_metric_result_per_invocation.flatMap((p) => p.eval_metric_results)]) if (timed(m)) m.score = 0;
  }
  for (const c of o.run_summary?.cases ?? []) {
    for (const m of c.metrics) if (timed(m)) Object.assign(m, { case_scores: [], min: 0, max: 0, mean: 0, stddev: 0, invocation_mean: 0 });
  }
  return o;
}

/** `evalcore eval ...` as a child process (async: the loopback judge lives in this process). */
export function cli(args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(PKG, 'bin', 'evalcore.js'), ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Two result file texts are equal; else the first line that differs, with the lines before it. */
export function sameText(got, want, what) {
  if (got === want) return;
  const [g, w] = [got.split('\n'), want.split('\n')];
  const i = g.findIndex((line, k) => line !== w[k]);
  assert.fail(`${what}: line ${i + 1} differs:\n${w.slice(Math.max(0, i - 12), i).join('\n')}\n- ${w[i]}\n+ ${g[i]}`);
}

/** The ADK result file text of a result, with the id and time stamp that differ per run fixed. */
export const fileText = (r) => formatEvalSetResult({ ...r, eval_set_result_id: 'x', eval_set_result_name: 'x', creation_timestamp: 1 });
