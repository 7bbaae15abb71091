//! The eval config of a run: `--config_file_path`, else `test_config.json` beside the one eval
//! set file given (ADK 2.x, SPEC §5.2), else agents-cli's `eval_config.yaml` beside it or one
//! folder up, else ADK's defaults; read through the core. agents-cli's YAML configs are parsed
//! here (the `yaml` package, Node only) and converted by the core like its JSON ones.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import '../wasm/node_start.js';
import { EvalError, getLimits, loadEvalConfig } from '../wasm/api.js';
import { UsageError } from '../errors.js';
import { inFile, isRegularFile, readRegularFile } from './files.js';

// The `yaml` package is loaded when a YAML file is first read: a JSON config (ADK's) never loads it.
let yamlPackage = null;
const yaml = () => (yamlPackage ??= createRequire(import.meta.url)('yaml'));

/** agents-cli's config file names, as its scaffold writes them. */
const AGENTS_CLI_CONFIGS = ['eval_config.yaml', 'eval_config.yml', 'eval_config.json'];

/** Whether a path names a YAML file. */
export const isYamlPath = (path) => /\.ya?ml$/i.test(path);

// Far deeper than any config, and within the core's limit for JSON (serde_json's 128 levels):
// the value read goes on to the core as JSON, inside the request that carries it.
const MAX_YAML_DEPTH = 64;

/**
 * Where the first collection deeper than MAX_YAML_DEPTH starts (`{ line, col }`), or null: found
 * on the syntax tree, which the `yaml` package builds without recursion, walked with a stack of
 * our own. Its composer recurses per level, so a file thousands deep would exhaust the stack.
 */
function tooDeep(text) {
  const Y = yaml();
  const lines = new Y.LineCounter();
  for (const doc of new Y.Parser(lines.addNewLine).parse(text)) {
    const todo = [[doc.value, 1]];
    while (todo.length > 0) {
      const [node, depth] = todo.pop();
      if (!Array.isArray(node?.items)) continue;
      if (depth > MAX_YAML_DEPTH) return lines.linePos(node.offset);
      for (const item of node.items) for (const n of [item.key, item.value]) if (n) todo.push([n, depth + 1]);
    }
  }
  return null;
}

/**
 * A YAML file's value. Aliases are bounded (a "billion laughs" file is refused), so is nesting
 * (to 64 levels), keys must be unique, and the text is held to the core's
 * maxTextBytes like any JSON it reads; an error says where, as `line L, column C`.
 */
export function parseYaml(bytes, what = 'YAML') {
  const { maxTextBytes } = getLimits();
  if (bytes.byteLength > maxTextBytes) {
    throw new EvalError('too_large', '', `${what}: ${bytes.byteLength} bytes are over the limit of ${maxTextBytes} (raise maxTextBytes with setLimits)`);
  }
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    const deep = tooDeep(text);
    if (deep) throw new EvalError('invalid_yaml', '', `invalid YAML at line ${deep.line}, column ${deep.col}: nested deeper than ${MAX_YAML_DEPTH} levels`);
    return yaml().parse(text, { maxAliasCount: 100, uniqueKeys: true, prettyErrors: true }) ?? null;
  } catch (e) {
    if (e instanceof EvalError) throw e;
    if (e instanceof yaml().YAMLParseError) {
      const at = e.linePos?.[0];
      const where = at ? ` at line ${at.line}, column ${at.col}` : '';
      throw new EvalError('invalid_yaml', '', `invalid YAML${where}: ${e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`, { cause: e });
    }
    if (e instanceof TypeError) throw new EvalError('invalid_yaml', '', `${what} is not UTF-8 text`, { cause: e });
    if (e instanceof ReferenceError || /alias/i.test(String(e?.message))) {
      throw new EvalError('invalid_yaml', '', `invalid YAML: ${e.message}`, { cause: e });
    }
    throw e;
  }
}

/** Whether a config value is agents-cli's (`metrics_to_run`, or `custom_metrics` as a list). */
export function isAgentsCliConfig(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !('criteria' in v)
    && ('metrics_to_run' in v || Array.isArray(v.custom_metrics));
}

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
  if (existsSync(candidate)) return candidate;
  return agentsCliConfigNear(dirname(evalSetArgs[0]));
}

/**
 * Whether a config in a file not named .yaml/.yml was written as YAML anyway: a first line
 * that reads as YAML (`criteria:`, `---`, a `# comment`) rather than JSON (`{`).
 */
function looksLikeYaml(bytes) {
  const first = bytes.subarray(0, 4096).toString('utf8').replace(/^\uFEFF/, '').split('\n').find((l) => l.trim() !== '') ?? '';
  return /^(---|#|[A-Za-z_][\w-]*\s*:(\s|$))/.test(first.trim());
}

function yamlError(e) {
  e.message = 'the config is YAML in a file not named .yaml: evalcore reads YAML configs by their .yaml/.yml name '
    + '(agents-cli\'s eval_config.yaml); ADK\'s test_config.json is JSON, '
    + `e.g. {"criteria": {"tool_trajectory_avg_score": 1.0, "response_match_score": 0.8}} (JSON parser: ${e.message})`;
  return e;
}

/**
 * agents-cli's config for datasets in `dir`: `eval_config.yaml` (or .yml, .json) in `dir` or one
 * folder up (its scaffold keeps datasets in tests/eval/datasets/ and the config in tests/eval/).
 */
export function agentsCliConfigNear(dir) {
  for (const d of [dir, dirname(dir)]) {
    for (const name of AGENTS_CLI_CONFIGS) {
      const p = join(d, name);
      if (existsSync(p)) return p;
    }
  }
  return null;
}

/**
 * `{ config, raw, source, options }`: the normalised EvalConfig, the JSON its criteria line is
 * printed from (the file's own for ADK's configs, the converted one for agents-cli's; null for
 * defaults), the value read from the file (for validateEvalConfig's warnings, with `options`).
 * `metrics` (the CLI's --metrics) selects the metrics to run. With `strict`, a config warning is
 * an EvalError too.
 */
export function readConfig(path, { strict = false, metrics } = {}) {
  const options = metrics === undefined ? {} : { metrics };
  if (path === null) {
    if (metrics === undefined) return { config: loadEvalConfig(), raw: null, source: null, options };
    const config = loadEvalConfig(null, { strict, metrics });
    return { config, raw: config, source: null, options };
  }
  const bytes = readRegularFile(path, 'config file');
  if (isYamlPath(path)) {
    const source = inFile(path, () => parseYaml(bytes, 'config file'));
    const config = inFile(path, () => loadEvalConfig(source, { strict, ...options }));
    return { config, raw: isAgentsCliConfig(source) ? config : source, source, options };
  }
  const config = inFile(path, () => {
    try {
      return loadEvalConfig(bytes, { strict, ...options });
    } catch (e) {
      throw e?.code === 'invalid_json' && looksLikeYaml(bytes) ? yamlError(e) : e;
    }
  });
  let source = null;
  try {
    // Only after the core accepted (and so bounded) the same bytes.
    source = JSON.parse(bytes.toString('utf8'));
  } catch {
    // loadEvalConfig accepted it, so this cannot fail; the repr then falls back to the config.
  }
  const converted = isAgentsCliConfig(source) || metrics !== undefined;
  return { config, raw: converted ? config : source, source, options };
}

