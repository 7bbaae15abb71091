//! `evalcore/testing`: ADK's AgentEvaluator for JS test runners (node:test, vitest, jest).
//! Runs eval sets `numRuns` times, judges each metric on its score averaged over every
//! invocation of every run (SPEC §4.6: the core's run summary, computed by the core for results
//! that have none), and fails with node:assert's AssertionError whose message says which metric
//! missed its threshold and on what.
import { AssertionError } from 'node:assert';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import '../wasm/node_start.js';
import { EvalError, formatReport, loadEvalConfig, loadEvalSet, loadEvalSetResult } from '../wasm/api.js';
import { evaluate } from '../run/evaluate.js';
import { pythonFloat } from '../wasm/adk_text.js';
import { loadAgent } from '../node/agent.js';
import { readConfig } from '../node/config.js';
import { findEvalFiles, migrateFile, readEvalSetFile, readSessionFile } from '../node/evalsets.js';
import { runHealth } from '../health.js';
import { textLine } from '../report/workflow.js';
import { formatScore, invocationLines, invocationView } from '../report/reports.js';

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
/** A number as ADK's failure lines print it (Python's float repr). */
const py = (v) => (typeof v === 'number' ? pythonFloat(v) : 'None');

/** An Agent callback from what a test passes: a callback, an @google/adk agent, or a module path. */
async function toAgent(agent) {
  if (typeof agent === 'function') return agent;
  if (typeof agent === 'string') return (await loadAgent(agent, 'AgentEvaluator')).agent;
  if (agent !== null && typeof agent === 'object') {
    const { fromAdkAgent } = await import('../adapters/adk.js');
    return fromAdkAgent(agent);
  }
  throw new EvalError('schema', '', `AgentEvaluator: expected an Agent callback, an @google/adk agent or an agent module path, found ${agent === null ? 'null' : typeof agent}`);
}

function readConfigFile(path, strict) {
  if (!existsSync(path)) throw new EvalError('not_found', '', `AgentEvaluator: config file not found: ${path}`);
  return readConfig(path, { strict }).config;
}

/**
 * `config`, else `configPath`, else `test_config.json` beside the eval file, else ADK's defaults.
 * With `strict`, a config warning (a misspelt metric, a key ADK ignores) is an EvalError.
 */
function configFor(file, opts) {
  const strict = opts.strict === true;
  if (opts.config !== undefined && opts.config !== null) return loadEvalConfig(opts.config, { strict });
  if (opts.configPath !== undefined) return readConfigFile(opts.configPath, strict);
  if (file === undefined) return loadEvalConfig();
  const beside = join(dirname(file), 'test_config.json');
  return existsSync(beside) ? readConfigFile(beside, strict) : loadEvalConfig();
}

// ---------------------------------------------------------------------------------------------
// Verdicts

/** ` (reason: error; ...)` of a metric's NOT_EVALUATED results across a case's runs, each once. */
function whyNotEvaluated(runs, metricName) {
  const why = new Set();
  for (const r of runs) {
    for (const m of r.overall_eval_metric_results ?? []) {
      if (m.metric_name === metricName && m.eval_status === 'NOT_EVALUATED') {
        why.add([m.details?.reason, m.details?.error].filter(Boolean).join(': ') || 'no reason given');
      }
    }
  }
  return why.size === 0 ? '' : ` (${[...why].join('; ')})`;
}

/**
 * Under `strict`: what ADK's verdict on a metric left out, the runs and invocations it could not
 * evaluate (runHealth's items of the case and metric), as one failure line; null when none.
 */
function strictLine(items, m, evalId) {
  const mine = items.filter((it) => it.metric === m.metric_name);
  if (mine.length === 0) return null;
  const runs = mine.filter((it) => it.invocation === null).length;
  const turns = mine.length - runs;
  const count = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const where = [runs > 0 ? `in ${count(runs, 'run')}` : null, turns > 0 ? `on ${count(turns, 'invocation')}` : null].filter(Boolean).join(' and ');
  const each = mine.map((it) => `run ${it.run + 1}${it.invocation === null ? '' : `, invocation ${it.invocation + 1}${it.of ? ` of ${it.of}` : ''}`}: `
    + `${it.reason}${it.error ? `: ${it.error}` : ''}`);
  return `${m.metric_name} for ${evalId} was not evaluated ${where} (${each.join('; ')}); strict: true fails what ADK's verdict leaves out.`;
}

const pad = (s, n) => (s.length >= n ? `${s} ` : s + ' '.repeat(n - s.length));

function metricTable(metrics) {
  const rows = [['metric', 'threshold', 'score', 'status']];
  for (const m of metrics) {
    const verdict = m.passed === true ? 'PASSED' : m.passed === false ? 'FAILED' : 'NOT_EVALUATED';
    const score = m.invocation_mean ?? null;
    const spread = m.case_scores && m.case_scores.length > 1 && m.stddev ? ` (runs ${m.case_scores.map(formatScore).join(', ')})` : '';
    rows.push([m.metric_name, formatScore(m.threshold), `${formatScore(score)}${spread}`, verdict]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)) + 2);
  return rows.map((r) => `    ${r.map((c, i) => (i === r.length - 1 ? c : pad(c, widths[i]))).join('')}`);
}

/** The failing invocations of a case across its runs; identical ones are listed once with their runs. */
function invocationBlocks(caseResults, failingMetrics) {
  const blocks = new Map();
  for (const r of caseResults) {
    const per = r.eval_metric_result_per_invocation ?? [];
    per.forEach((entry, i) => {
      const view = invocationView(entry);
      const bad = view.metrics.filter((m) => failingMetrics.has(m.metric_name) && m.eval_status !== 'PASSED');
      if (bad.length === 0) return;
      const { metrics, ...what } = view;
      const key = JSON.stringify([i, what, bad]);
      if (!blocks.has(key)) blocks.set(key, { index: i, of: per.length, view, bad, runs: [] });
      blocks.get(key).runs.push((r.run ?? 0) + 1);
    });
  }
  const lines = [];
  for (const b of blocks.values()) {
    lines.push(`    ${b.runs.length > 1 ? `runs ${b.runs.join(', ')}` : `run ${b.runs[0]}`}, invocation ${b.index + 1} of ${b.of}`);
    lines.push(...invocationLines(b.view, b.bad).map((l) => `      ${l}`));
  }
  return lines;
}

/**
 * The failures of one EvalSetResult as AgentEvaluator judges them: per case, every metric that
 * is not informational and did not pass on its averaged score, and every run the agent could not
 * complete; with `strict`, also every metric that passed on what it evaluated but could not
 * evaluate a run or an invocation. Returns `{ failures: string[], failedCases, totalCases, report }`.
 */
export function judgeEvalSetResult(input, { source, strict = false } = {}) {
  // The core's model: statuses as names, and its run summary when the result has none.
  const result = loadEvalSetResult({ eval_set_result_id: '', ...input }, { runSummary: true });
  const byCase = new Map();
  for (const r of result.eval_case_results ?? []) {
    if (!byCase.has(r.eval_id)) byCase.set(r.eval_id, []);
    byCase.get(r.eval_id).push(r);
  }
  const summaries = new Map((result.run_summary?.cases ?? []).map((c) => [c.eval_id, c]));
  const failures = [];
  const sections = [];
  const health = strict ? runHealth(result) : null;
  for (const [evalId, runs] of byCase) {
    const caseFailures = [];
    const metrics = (summaries.get(evalId)?.metrics ?? []).filter((m) => !m.informational);
    const left = strict ? health.items.filter((it) => it.evalId === evalId) : [];
    const strictFailing = new Set();
    for (const m of metrics) {
      if (m.passed === false) {
        caseFailures.push(`${m.metric_name} for ${evalId} Failed. Expected ${py(m.threshold)}, but got ${py(m.invocation_mean)}.`);
      } else if (m.passed !== true) {
        caseFailures.push(`${m.metric_name} for ${evalId} was not evaluated: no score was produced, so the threshold of ${py(m.threshold)} was never checked${whyNotEvaluated(runs, m.metric_name)}.`);
      } else if (strict && m.not_evaluated > 0) {
        const line = strictLine(left, m, evalId);
        if (line !== null) {
          caseFailures.push(line);
          strictFailing.add(m.metric_name);
        }
      }
    }
    for (const r of runs) {
      if (r.final_eval_status === 'FAILED' && (r.overall_eval_metric_results ?? []).length === 0) {
        const why = isObject(r.error) ? `${r.error.code ?? 'error'}: ${r.error.message ?? ''}` : 'no metric results';
        caseFailures.push(`${evalId} run ${(r.run ?? 0) + 1}: the agent did not complete the conversation (${why})`);
      }
    }
    if (caseFailures.length === 0) continue;
    failures.push(...caseFailures);
    const failing = new Set([...metrics.filter((m) => m.passed !== true).map((m) => m.metric_name), ...strictFailing]);
    const lines = [`  ✗ ${evalId}`];
    if (metrics.length > 0) lines.push(...metricTable(metrics));
    // Beside the table: why a metric was not evaluated, and why a run could not be completed.
    for (const f of caseFailures) if (/the agent did not complete| was not evaluated[: ]/.test(f)) lines.push(`    ${f}`);
    const blocks = invocationBlocks(runs, failing);
    if (blocks.length > 0) lines.push('  what failed:', ...blocks);
    sections.push(lines.join('\n'));
  }
  const numRuns = result.run_summary?.num_runs ?? 1;
  const where = source ? ` (${source}${numRuns > 1 ? `, ${numRuns} runs` : ''})` : numRuns > 1 ? ` (${numRuns} runs)` : '';
  const head = `${sections.length} of ${byCase.size} eval case${byCase.size === 1 ? '' : 's'} failed in ${result.eval_set_id}${where}`;
  return { failures, failedCases: sections.length, totalCases: byCase.size, report: [head, '', ...sections].join('\n') };
}

function fail(results, judged) {
  const failing = judged.filter((j) => j.failures.length > 0);
  // A test runner prints the message where CI reads workflow commands: every line of it as
  // console text (ids and reasons are data; `err.failures` keeps them as they are).
  const message = `AgentEvaluator: ${failing.map((j) => j.report).join('\n\n')}`.split('\n').map(textLine).join('\n');
  const err = new AssertionError({ message });
  err.failures = failing.flatMap((j) => j.failures);
  err.results = results;
  return err;
}

// ---------------------------------------------------------------------------------------------

/** ADK raises when an eval set has no cases: a run with nothing in it must not pass. */
function checkHasCases(evalSet, source) {
  if (evalSet.eval_cases.length > 0) return;
  const where = source ? ` (${source})` : '';
  throw new EvalError('schema', '$.eval_cases', `AgentEvaluator: eval set ${JSON.stringify(evalSet.eval_set_id)}${where} has no eval cases, `
    + 'so nothing was evaluated and there is no pass or fail to report; add cases to it (`evalcore eval_set add_eval_case`, '
    + 'or write them into the file), or check that the file or object given is the eval set you meant');
}

async function runSet(agentFn, evalSet, config, opts, source) {
  checkHasCases(evalSet, source);
  const args = { evalSet, agent: agentFn, config, numRuns: opts.numRuns ?? 2 };
  for (const k of ['judge', 'concurrency', 'evalIds', 'customMetrics', 'signal', 'onProgress', 'onCaseResult', 'agentTimeoutMs']) {
    if (opts[k] !== undefined) args[k] = opts[k];
  }
  const result = await evaluate(args);
  if (opts.printDetailedResults) (opts.log ?? ((s) => process.stdout.write(s)))(formatReport(result, { detailed: true }));
  return { result, judged: judgeEvalSetResult(result, { source, strict: opts.strict === true }) };
}

export class AgentEvaluator {
  /**
   * Evaluates `agent` on one eval file or every `*.test.json` / `*.evalset.json` under a folder
   * (recursively), each with the `test_config.json` beside it (or `configPath` / `config`).
   * Resolves to the EvalSetResults; rejects with an AssertionError listing the failures.
   */
  static async evaluate(agent, pathOrDir, opts = {}) {
    if (typeof pathOrDir !== 'string' || !existsSync(pathOrDir)) {
      throw new EvalError('not_found', '', `AgentEvaluator.evaluate: no such file or folder: ${String(pathOrDir)}`);
    }
    const files = statSync(pathOrDir).isDirectory() ? findEvalFiles(pathOrDir) : [pathOrDir];
    if (files.length === 0) {
      throw new EvalError('not_found', '', `AgentEvaluator.evaluate: no *.test.json or *.evalset.json files under ${pathOrDir}, so there is nothing to evaluate`);
    }
    checkRuns(opts.numRuns);
    const agentFn = await toAgent(agent);
    const sessionInput = opts.initialSessionFile ? readSessionFile(opts.initialSessionFile) : undefined;
    const results = [];
    const judged = [];
    for (const file of files) {
      const { evalSet } = readEvalSetFile(file, { sessionInput });
      const { result, judged: j } = await runSet(agentFn, evalSet, configFor(file, opts), opts, file);
      results.push(result);
      judged.push(j);
    }
    if (judged.some((j) => j.failures.length > 0)) throw fail(results, judged);
    return results;
  }

  /** Evaluates `agent` on an eval set (object, JSON text or bytes, any shape loadEvalSet takes). */
  static async evaluateEvalSet(agent, evalSet, opts = {}) {
    checkRuns(opts.numRuns);
    const set = loadEvalSet(evalSet);
    const { result, judged } = await runSet(await toAgent(agent), set, configFor(undefined, opts), opts);
    if (judged.failures.length > 0) throw fail([result], [judged]);
    return result;
  }

  /** ADK's `migrate_eval_data_to_new_schema`: legacy eval data to a full eval set file. */
  static async migrateEvalDataToNewSchema(oldEvalDataFile, newEvalDataFile, initialSessionFile) {
    return migrateFile(oldEvalDataFile, newEvalDataFile, initialSessionFile);
  }
}

function checkRuns(n) {
  if (n !== undefined && (!Number.isInteger(n) || n < 1)) {
    throw new EvalError('schema', '', `AgentEvaluator: numRuns must be an integer of at least 1, found ${String(n)}`);
  }
}
