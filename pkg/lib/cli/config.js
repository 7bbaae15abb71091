//! The eval config of a run: `--config_file_path`, else `test_config.json` beside the one eval
//! set file given (ADK 2.x, SPEC §5.2), else ADK's defaults; and ADK's
//! `Using evaluation criteria: ...` line (the pydantic repr of the config).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadEvalConfig } from '../../index.js';
import { pythonFloat } from '../adk_json.js';
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

function pyStr(s) {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return quote + out + quote;
}

/** A JSON value as Python's repr prints the parsed value. */
export function pyRepr(v) {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : pythonFloat(v);
  if (typeof v === 'string') return pyStr(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  return `{${Object.entries(v).map(([k, x]) => `${pyStr(k)}: ${pyRepr(x)}`).join(', ')}}`;
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
    if (!isObject(given)) return `${pyStr(name)}: ${pythonFloat(c.threshold)}`;
    const fields = [`threshold=${pythonFloat(c.threshold)}`,
      `include_intermediate_responses_in_final=${pyRepr(Boolean(c.include_intermediate_responses_in_final))}`];
    for (const [k, v] of Object.entries(given)) if (!CRITERION_FIELDS.has(k)) fields.push(`${k}=${pyRepr(v)}`);
    return `${pyStr(name)}: BaseCriterion(${fields.join(', ')})`;
  });
  const field = (snake, camel) => {
    const v = isObject(raw) ? raw[snake] ?? raw[camel] : undefined;
    return `${snake}=${pyRepr(v ?? null)}`;
  };
  return `Using evaluation criteria: criteria={${items.join(', ')}} ${field('custom_metrics', 'customMetrics')} `
    + `${field('user_simulator_config', 'userSimulatorConfig')} ${field('live_model_config', 'liveModelConfig')}`;
}
