//! Eval set files as the CLI and AgentEvaluator meet them: any shape `loadEvalSet` accepts
//! (current schema, @iqai/adk's camelCase sets, legacy `*.test.json` turn list, legacy named
//! list), with legacy ids taken from the file name; migration; and the eval sets ADK keeps at
//! `<agents_dir>/<app>/<id>.evalset.json`.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import '../wasm/node_start.js';
import { EvalError, loadEvalSet } from '../wasm/api.js';
import { adkEvalSetText } from '../wasm/adk_text.js';
import { EVAL_SET_FILE_SUFFIX, loadEvalSetBytes, startsWithList } from '../store/adk_layout.js';
import { readConfig } from './config.js';
import { inFile, isRegularFile, readJsonFile, readRegularFile } from './files.js';

export { inFile, readJsonFile };

const SUFFIXES = [EVAL_SET_FILE_SUFFIX, '.test.json', '.json'];

/** A set id for a legacy file: its name without the suffix, reduced to `[A-Za-z0-9_-]`. */
export function idFromFileName(path) {
  let name = basename(path);
  for (const s of SUFFIXES) {
    if (name.toLowerCase().endsWith(s)) {
      name = name.slice(0, -s.length);
      break;
    }
  }
  const id = name.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
  return id === '' ? undefined : id;
}

/**
 * Loads an eval set file in any shape. Returns `{ evalSet, legacy }`; `legacy` is true for the
 * list shapes, which take `sessionInput` as their cases' initial session. Error messages name
 * the file.
 */
export function readEvalSetFile(path, { sessionInput } = {}) {
  // The file's bytes go to the core as they are: it bounds and parses them (no JS parse first).
  const bytes = readRegularFile(path, 'eval set file');
  return inFile(path, () => loadEvalSetBytes(bytes, { legacyId: idFromFileName(path), sessionInput }));
}

/** `<appDir>/<id>.evalset.json`, where ADK's LocalEvalSetsManager keeps eval set `id`. */
export function evalSetPath(appDir, id) {
  return join(appDir, id + EVAL_SET_FILE_SUFFIX);
}

/** Every `*.test.json` and `*.evalset.json` under `dir` (recursively, sorted, node_modules and dot folders skipped). */
export function findEvalFiles(dir) {
  const found = [];
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(p);
      } else if (/\.(test|evalset)\.json$/i.test(entry.name) && isRegularFile(p)) found.push(p);
    }
  };
  walk(dir);
  return found;
}

/**
 * The initial session of legacy data from a JSON file `{app_name, user_id, state}`, as ADK's
 * AgentEvaluator builds it: missing keys become `""` / `{}`; an empty object means none.
 */
export function readSessionFile(path) {
  const value = readJsonFile(path, 'initial session file');
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new EvalError('schema', '$', `initial session file ${path}: expected an object {app_name, user_id, state}`);
  }
  if (Object.keys(value).length === 0) return undefined;
  return { app_name: value.app_name ?? value.appName ?? '', user_id: value.user_id ?? value.userId ?? '', state: value.state ?? {} };
}

/**
 * Migrates `oldPath` to `newPath` (its folder is created) and returns the eval set. Legacy data
 * is checked as ADK's migration checks it, against the criteria of the `test_config.json` beside
 * it (else ADK's defaults), and its one case takes `oldPath` as its eval id, as in ADK. A file
 * already in the current schema, or in @iqai/adk's, is written in ADK's form and then takes no
 * initial session (as in ADK).
 */
export function migrateFile(oldPath, newPath, initialSessionFile) {
  if (!oldPath || !newPath) throw new EvalError('schema', '', 'one of the old or new eval data file paths is empty');
  const sessionInput = initialSessionFile ? readSessionFile(initialSessionFile) : undefined;
  const configPath = join(dirname(oldPath), 'test_config.json');
  const hasConfig = existsSync(configPath);
  const { config } = readConfig(hasConfig ? configPath : null);
  const bytes = readRegularFile(oldPath, 'eval set file');
  const legacy = startsWithList(bytes);
  const evalSet = inFile(oldPath, () => {
    if (!legacy) return loadEvalSet(bytes);
    const options = {
      id: idFromFileName(oldPath), caseId: oldPath, criteria: Object.keys(config.criteria),
      criteriaSource: hasConfig ? configPath : "ADK's defaults, as no test_config.json is beside the file",
    };
    if (sessionInput !== undefined) options.sessionInput = sessionInput;
    return loadEvalSet(bytes, options);
  });
  if (!legacy && sessionInput !== undefined) {
    throw new EvalError('schema', '', `${oldPath} is already an eval set: its initial session belongs in the file, not in --initial_session_file`);
  }
  mkdirSync(dirname(resolve(newPath)), { recursive: true });
  writeFileSync(newPath, adkEvalSetText(evalSet));
  return evalSet;
}
