//! Recorded agent replies from a file, for a run scored elsewhere (`--actual FILE`): a JSON
//! object mapping eval ids to invocation lists (what `evaluate({actual})` takes), or a result
//! file (evalcore's or ADK's) whose cases' actual invocations are taken, so a past run can be
//! scored again under another config without running the agent.
import '../wasm/node_start.js';
import { EvalError, loadEvalSetResult } from '../wasm/api.js';
import { inFile, readJsonFile } from './files.js';

/** `{eval_id: invocations}` from `path`; an EvalError naming the file when it is neither shape. */
export function readActual(path) {
  // Parsed by the core, under its limits (readJsonFile names the file in an error).
  const value = readJsonFile(path, 'recorded invocations file');
  return inFile(path, () => {
    // ADK 1.x writes a result file as a JSON string holding the JSON.
    if (typeof value === 'string' || (value !== null && typeof value === 'object' && Array.isArray(value.eval_case_results ?? value.evalCaseResults))) {
      return actualOfResult(loadEvalSetResult(value));
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new EvalError('schema', '$', 'expected {"eval_id": [invocations, ...]} or an eval set result file');
    }
    for (const [id, v] of Object.entries(value)) {
      if (!Array.isArray(v)) throw new EvalError('schema', `$[${JSON.stringify(id)}]`, `the recorded invocations of "${id}" must be a list`);
    }
    return value;
  });
}

/** The actual invocations of each case of a result (one run only: which run to take is the user's). */
function actualOfResult(result) {
  const out = {};
  for (const [i, r] of result.eval_case_results.entries()) {
    if (Object.hasOwn(out, r.eval_id)) {
      throw new EvalError('schema', `$.eval_case_results[${i}]`, `the result holds case "${r.eval_id}" more than once (several runs): give one run's result`);
    }
    const per = r.eval_metric_result_per_invocation ?? [];
    if (per.length === 0 || per.some((p) => !p.actual_invocation)) {
      throw new EvalError('schema', `$.eval_case_results[${i}]`, `case "${r.eval_id}" has no recorded invocations in this result (was it saved without them?)`);
    }
    out[r.eval_id] = per.map((p) => p.actual_invocation);
  }
  return out;
}
