//! The eval config of a run: `--config_file_path`, else `test_config.json` beside the one eval
//! set file given (ADK 2.x, SPEC §5.2), else ADK's defaults; and ADK's
//! `Using evaluation criteria: ...` line (the pydantic repr of the config; Python's text of
//! each value comes from the core).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadEvalConfig } from '../../index.js';
import { pythonFloat, pythonRepr } from '../adk_text.js';
import { UsageError } from './args.js';
import { inFile } from './evalsets.js';
import { isRegularFile, readRegularFile } from '../node/files.js';

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The config file a run uses, or null for the defaults. An explicit path must exist (ADK
 * silently falls back to the defaults; a typo should not pass unnoticed). Discovery applies only
 * when exactly one eval set was named and it is a file.
 */
export function resolveConfigPath(explicit, evalSetArgs, command) {
  if (explicit !== undefined) {
    if (!existsSync(explicit)) throw new UsageError(`config file not found: ${explicit}`, command);
    if (!isRegularFile(explicit)) throw new UsageError(`config file ${explicit} is not a regular file`, command);
    return explicit;
  }
  if (evalSetArgs.length !== 1 || !isRegularFile(evalSetArgs[0])) return null;
  const candidate = join(dirname(evalSetArgs[0]), 'test_config.json');
  // A test_config.json that is not a regular file is read anyway, to say so (a FIFO is never opened).
  return existsSync(candidate) ? candidate : null;
}

/** `{ config, raw }`: the normalised EvalConfig and the file's own JSON (null for defaults). */
export function readConfig(path) {
  if (path === null) return { config: loadEvalConfig(), raw: null };
  const bytes = readRegularFile(path, 'config file');
  const config = inFile(path, () => loadEvalConfig(bytes));
  let raw = null;
  try {
    // Only after the core accepted (and so bounded) the same bytes.
    raw = JSON.parse(bytes.toString('utf8'));
  } catch {
    // loadEvalConfig accepted it, so this cannot fail; the repr then falls back to the config.
  }
  return { config, raw };
}

// ---------------------------------------------------------------------------------------------
// Python repr

/** A JSON value as Python's repr prints the parsed value (the core's `repr`). */
export function pyRepr(v) {
  return pythonRepr(v ?? null);
}

const CRITERION_FIELDS = new Set(['threshold', 'include_intermediate_responses_in_final', 'includeIntermediateResponsesInFinal']);

/**
 * ADK's `Using evaluation criteria: <EvalConfig>` text: criteria as ADK prints them (a number
 * shorthand as a float, an object as `BaseCriterion(threshold=..., ...)`), the other fields as
 * Python values of the file's JSON.
 */
export function criteriaLine(config, raw) {
  const rawCriteria = isObject(raw) && isObject(raw.criteria) ? raw.criteria : {};
  const items = Object.entries(config.criteria ?? {}).map(([name, c]) => {
    const given = rawCriteria[name];
    if (!isObject(given)) return `${pyRepr(name)}: ${pythonFloat(c.threshold)}`;
    const fields = [`threshold=${pythonFloat(c.threshold)}`,
      `include_intermediate_responses_in_final=${pyRepr(Boolean(c.include_intermediate_responses_in_final))}`];
    for (const [k, v] of Object.entries(given)) if (!CRITERION_FIELDS.has(k)) fields.push(`${k}=${pyRepr(v)}`);
    return `${pyRepr(name)}: BaseCriterion(${fields.join(', ')})`;
  });
  const field = (snake, camel) => {
    const v = isObject(raw) ? raw[snake] ?? raw[camel] : undefined;
    return `${snake}=${pyRepr(v ?? null)}`;
  };
  return `Using evaluation criteria: criteria={${items.join(', ')}} ${field('custom_metrics', 'customMetrics')} `
    + `${field('user_simulator_config', 'userSimulatorConfig')} ${field('live_model_config', 'liveModelConfig')}`;
}
