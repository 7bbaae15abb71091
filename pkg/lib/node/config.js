//! The eval config of a run: `--config_file_path`, else `test_config.json` beside the one eval
//! set file given (ADK 2.x, SPEC §5.2), else ADK's defaults; read through the core.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadEvalConfig } from '../../index.js';
import { UsageError } from '../errors.js';
import { inFile, isRegularFile, readRegularFile } from './files.js';

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

/**
 * Whether a config that is not JSON was written as YAML: a .yaml/.yml name, or a first line
 * that reads as YAML (`criteria:`, `---`, a `# comment`) rather than JSON (`{`).
 */
function looksLikeYaml(path, bytes) {
  if (/\.ya?ml$/i.test(path)) return true;
  const first = bytes.subarray(0, 4096).toString('utf8').replace(/^\uFEFF/, '').split('\n').find((l) => l.trim() !== '') ?? '';
  return /^(---|#|[A-Za-z_][\w-]*\s*:(\s|$))/.test(first.trim());
}

function yamlError(e) {
  e.message = 'the config is YAML, but eval configs are JSON (as in ADK): write it as test_config.json, '
    + `e.g. {"criteria": {"tool_trajectory_avg_score": 1.0, "response_match_score": 0.8}} (JSON parser: ${e.message})`;
  return e;
}

/**
 * `{ config, raw }`: the normalised EvalConfig and the file's own JSON (null for defaults). With
 * `strict`, a config warning is an EvalError too.
 */
export function readConfig(path, { strict = false } = {}) {
  if (path === null) return { config: loadEvalConfig(), raw: null };
  const bytes = readRegularFile(path, 'config file');
  const config = inFile(path, () => {
    try {
      return loadEvalConfig(bytes, { strict });
    } catch (e) {
      throw e?.code === 'invalid_json' && looksLikeYaml(path, bytes) ? yamlError(e) : e;
    }
  });
  let raw = null;
  try {
    // Only after the core accepted (and so bounded) the same bytes.
    raw = JSON.parse(bytes.toString('utf8'));
  } catch {
    // loadEvalConfig accepted it, so this cannot fail; the repr then falls back to the config.
  }
  return { config, raw };
}

