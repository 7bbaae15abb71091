// Shared fixtures and comparison rules for the JS tests (node:test). Not a test file itself.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const PKG = join(ROOT, 'pkg');
export const WASM_FILE = join(PKG, 'wasm', 'evalcore_core_bg.wasm');
/** The extras module (traces, comparison statistics, legacy and agents-cli shapes). */
export const EXTRAS_WASM_FILE = join(PKG, 'wasm-extras', 'evalcore_extras_bg.wasm');
/**
 * The shared folder beside the repository (CI clones main with shared/ next to it). Only the
 * ADK corpus is read from there, and its tests skip without it; the vectors and oracles we
 * generated are copied into DATA by scripts/refresh-test-data.sh.
 */
export const SHARED = process.env.EVALCORE_SHARED ?? resolve(ROOT, '..', 'shared');
export const DATA = join(ROOT, 'tests', 'data');

export function readJsonl(path) {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
}

/** SPEC-adk.md §1.11: the minimal valid eval set. */
export const MINIMAL_SET = Object.freeze({
  eval_set_id: 'simple',
  eval_cases: [{
    eval_id: 'case_1',
    conversation: [{
      invocation_id: 'e-1',
      user_content: { role: 'user', parts: [{ text: 'What is the weather in Paris?' }] },
      final_response: { role: 'model', parts: [{ text: 'It is sunny in Paris.' }] },
      intermediate_data: { tool_uses: [{ name: 'get_weather', args: { city: 'Paris' } }] },
    }],
    session_input: { app_name: 'weather_app', user_id: 'u1', state: {} },
  }],
});

export const clone = (v) => JSON.parse(JSON.stringify(v));

/**
 * The CLI (pkg/bin/evalcore.js) as a child process, asynchronously, so that a loopback server of
 * this process can answer it: `{ code, stdout, stderr }`. No colour, no debug stacks; `env` adds
 * to (or overrides) the environment; killed after two minutes.
 */
export function cliAsync(args, { cwd, env = {} } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(PKG, 'bin', 'evalcore.js'), ...args], { cwd, env: { ...process.env, EVALCORE_DEBUG: '', NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A loopback port nobody listens on (free now; a server may take it, or a test may find it refused). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** An actual invocation (ADK 2.x event shape) answering MINIMAL_SET's single turn. */
export function actualFor(text = 'It is sunny in Paris.', calls = [{ name: 'get_weather', args: { city: 'Paris' } }]) {
  return [{
    invocation_id: 'a-1',
    user_content: { role: 'user', parts: [{ text: 'What is the weather in Paris?' }] },
    final_response: { role: 'model', parts: [{ text }] },
    intermediate_data: {
      invocation_events: [{
        author: 'root_agent',
        content: { role: 'model', parts: calls.map((c) => ({ function_call: c })) },
      }],
    },
  }];
}

const fmt = (v) => (Object.is(v, -0) ? '-0.0' : JSON.stringify(v));

/** Exact comparison of a metric entry (oracle form) with one the package returned. */
function compareMetric(exp, got, where, out) {
  if (got === null || typeof got !== 'object') {
    out.push(`${where}: expected a metric result, got ${fmt(got)}`);
    return;
  }
  if (got.metric_name !== exp.metric_name) {
    out.push(`${where}.metric_name: expected ${fmt(exp.metric_name)}, got ${fmt(got.metric_name)}`);
    return; // the remaining fields would only repeat the order mismatch
  }
  if (got.eval_status !== exp.eval_status) {
    out.push(`${where}(${exp.metric_name}).eval_status: expected ${exp.eval_status}, got ${fmt(got.eval_status)}`);
  }
  for (const key of ['score', 'threshold']) {
    if (!Object.is(got[key], exp[key])) {
      out.push(`${where}(${exp.metric_name}).${key}: expected ${fmt(exp[key])}, got ${fmt(got[key])}`);
    }
  }
  if (exp.details) {
    for (const [group, fields] of Object.entries(exp.details)) {
      const g = got.details?.[group];
      if (fields === null) {
        if (g !== null && g !== undefined) out.push(`${where}(${exp.metric_name}).details.${group}: expected null`);
        continue;
      }
      for (const [field, value] of Object.entries(fields)) {
        if (!Object.is(g?.[field], value)) {
          out.push(`${where}(${exp.metric_name}).details.${group}.${field}: expected ${fmt(value)}, got ${fmt(g?.[field])}`);
        }
      }
    }
  }
}

function compareList(expList, gotList, where, out) {
  if (!Array.isArray(gotList)) {
    out.push(`${where}: expected a list, got ${fmt(gotList)}`);
    return;
  }
  if (gotList.length !== expList.length) {
    out.push(`${where}: expected ${expList.length} metrics [${expList.map((m) => m.metric_name)}], got ${gotList.length} [${gotList.map((m) => m?.metric_name)}]`);
  }
  const n = Math.min(expList.length, gotList.length);
  for (let i = 0; i < n; i++) compareMetric(expList[i], gotList[i], `${where}[${i}]`, out);
}

/**
 * Compares an EvalCaseResult with a case_oracles.jsonl `expected_result` by the rules of
 * case_oracles.md: statuses by name, scores and thresholds exactly (Object.is), metric order,
 * one per-invocation list per actual invocation. Returns the list of differences.
 */
export function compareCaseResult(expected, got) {
  const out = [];
  if (got?.final_eval_status !== expected.final_eval_status) {
    out.push(`final_eval_status: expected ${expected.final_eval_status}, got ${fmt(got?.final_eval_status)}`);
  }
  compareList(expected.overall, got?.overall_eval_metric_results, 'overall', out);
  const per = got?.eval_metric_result_per_invocation;
  if (!Array.isArray(per) || per.length !== expected.per_invocation.length) {
    out.push(`per_invocation: expected ${expected.per_invocation.length} invocations, got ${Array.isArray(per) ? per.length : fmt(per)}`);
  } else {
    expected.per_invocation.forEach((list, i) => compareList(list, per[i]?.eval_metric_results, `per_invocation[${i}]`, out));
  }
  return out;
}

/** The EvalError code an oracle `error` line should map to (its category; wording is ADK's). */
export function expectedErrorCode(error) {
  if (error.startsWith('ValidationError')) return 'schema';
  if (/Inferences should match conversations/.test(error)) return 'count_mismatch';
  if (/rubric/i.test(error)) return 'duplicate_id';
  return null;
}
