//! The parts of an `evalcore eval` run that every way of running it shares (an agent module,
//! recorded traces, agents-cli grading): the judge from the flags, the eval sets selected, the
//! configs read and checked, and the run reported, saved and compared.
import { existsSync, mkdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import '../wasm/node_start.js';
import { evaluate } from '../run/evaluate.js';
import { formatReport, validateEvalConfig } from '../wasm/api.js';
import { addJudgeStats, judgeStatsLine } from '../health.js';
import { keyHeaders, keyVariables } from '../node/judge_env.js';
import { saveEvalSetResult, validatePathSegment } from '../node/history.js';
import { toHtml, toJson, toJUnit, toMarkdown } from '../report/reports.js';
import { shielded } from '../report/workflow.js';
import { UsageError } from './args.js';
import { readConfig, resolveConfigPath } from '../node/config.js';
import { evalSetPath, findEvalFiles, readEvalSetFile } from '../node/evalsets.js';
import { isRegularFile } from '../node/files.js';
import { failedCaseLines, healthLines } from './eval_report.js';
import { compareAfterEval } from './compare.js';
import { createProgress } from './progress.js';

const COMMAND = 'eval';

/** The Judge for the --judge flags, with the provider's API key from the environment. */
export function judgeFromFlags(opts, env = process.env) {
  if (opts.judge === undefined) {
    for (const f of ['judge_base_url', 'judge_cassette', 'judge_mode', 'judge_timeout', 'judge_retries', 'judge_media', 'dry_run']) {
      if (opts[f] !== undefined) throw new UsageError(`--${f} needs --judge PROVIDER:MODEL`, COMMAND);
    }
    return undefined;
  }
  const m = /^(gemini|openai|anthropic):(.+)$/.exec(opts.judge);
  if (!m) throw new UsageError(`--judge must be PROVIDER:MODEL with PROVIDER gemini, openai or anthropic, found "${opts.judge}"`, COMMAND);
  const judge = { provider: m[1], model: m[2].trim() };
  if (opts.judge_base_url !== undefined) judge.baseUrl = opts.judge_base_url;
  if (opts.judge_cassette !== undefined) judge.cassette = { path: resolve(opts.judge_cassette), mode: opts.judge_mode ?? 'auto' };
  else if (opts.judge_mode !== undefined) throw new UsageError('--judge_mode needs --judge_cassette FILE', COMMAND);
  if (opts.judge_timeout !== undefined) judge.timeoutMs = opts.judge_timeout * 1000;
  if (opts.judge_retries !== undefined) judge.maxRetries = opts.judge_retries;
  if (opts.judge_media) judge.media = true;
  if (opts.dry_run) judge.dryRun = true;
  const headers = keyHeaders(judge.provider, env);
  if (headers !== undefined) judge.headers = headers;
  return judge;
}

/**
 * Eval files under a folder argument: none when it is not a folder or names case ids
 * (`name:a,b` is an eval set id with its cases, as in ADK, even where a folder has that name).
 */
function folderFiles(key, ids) {
  const st = statSync(key, { throwIfNoEntry: false });
  if (!st || !st.isDirectory() || ids.length > 0) return [];
  return findEvalFiles(key);
}

/**
 * The eval sets to run: `[{ evalSet, evalIds, configPath }]`. Path mode when the first argument
 * is an existing file or a folder holding eval files (every argument must then be one of them;
 * a folder's files each use the test_config.json beside them, as AgentEvaluator does); otherwise
 * every argument is an id under the app folder. `configPath` is undefined where the run's one
 * config applies.
 */
export function collectEvalSets(selectors, appDir, warn) {
  const keys = [...selectors.keys()];
  const isFile = (p) => isRegularFile(p);
  // ADK decides on existence alone; a folder (often the app itself) is a set only when it
  // holds eval files.
  const fileMode = isFile(keys[0]) || folderFiles(keys[0], selectors.get(keys[0])).length > 0;
  const first = statSync(keys[0], { throwIfNoEntry: false });
  if (first && !first.isFile() && !first.isDirectory()) throw new UsageError(`eval set file ${keys[0]} is not a regular file`, COMMAND);
  const byPath = new Map();
  for (const [key, ids] of selectors) {
    let path;
    if (fileMode) {
      const inFolder = isFile(key) ? [] : folderFiles(key, ids);
      if (inFolder.length > 0) {
        for (const f of inFolder) {
          const p = realpathSync(f);
          if (!byPath.has(p)) byPath.set(p, { source: f, ids: [], configPath: besideConfig(p) });
        }
        continue;
      }
      if (!isFile(key)) {
        const st = statSync(key, { throwIfNoEntry: false });
        if (st?.isDirectory()) throw noEvalSets(key);
        throw new UsageError(st ? `eval set file ${key} is not a regular file or a folder with eval files` : `eval set file not found: ${key}`, COMMAND);
      }
      path = realpathSync(key);
    } else {
      notAnId(key, ids, appDir);
      path = evalSetPath(appDir, key);
      if (!isFile(path)) throw new UsageError(`eval set "${key}": ${path} is not a regular file`, COMMAND);
    }
    const entry = byPath.get(path);
    if (entry) entry.ids = [...new Set([...entry.ids, ...ids])];
    else byPath.set(path, { source: key, ids: [...ids] });
  }
  const sets = [];
  const seenIds = new Map();
  for (const [path, { source, ids, configPath }] of byPath) {
    const { evalSet } = readEvalSetFile(path);
    try {
      validatePathSegment(evalSet.eval_set_id, 'eval_set_id');
    } catch (e) {
      throw new UsageError(`${source}: its eval_set_id cannot name a result file: ${e.message}`, COMMAND);
    }
    if (seenIds.has(evalSet.eval_set_id)) {
      throw new UsageError(`${source} and ${seenIds.get(evalSet.eval_set_id)} have the same eval_set_id "${evalSet.eval_set_id}"`, COMMAND);
    }
    seenIds.set(evalSet.eval_set_id, source);
    let evalIds;
    if (ids.length > 0) {
      const known = new Set(evalSet.eval_cases.map((c) => c.eval_id));
      for (const id of ids) if (!known.has(id)) warn(`warning: eval set "${evalSet.eval_set_id}" has no eval case "${id}"`);
      evalIds = ids.filter((id) => known.has(id));
    }
    sets.push({ evalSet, evalIds, configPath });
  }
  return sets;
}

const noEvalSets = (folder) => new UsageError(`folder ${folder} has no eval sets: no *.evalset.json or *.test.json file under it`, COMMAND);

/**
 * Throws the UsageError for an argument that names no eval set file or folder and is not the id
 * of an eval set in the app folder: a folder without eval files says so, and a file name is not
 * looked up as an id (`x.evalset.json.evalset.json`).
 */
function notAnId(key, ids, appDir) {
  const st = statSync(key, { throwIfNoEntry: false });
  const asId = evalSetPath(appDir, key);
  if (isRegularFile(asId) && !/[\\/]/.test(key)) return;
  if (st?.isDirectory() && ids.length === 0) throw noEvalSets(key);
  if (/\.json$/i.test(key) || /[\\/]/.test(key)) {
    // The file the user probably meant: one of that name in the agent's folder.
    const same = findEvalFiles(appDir).find((f) => basename(f) === basename(key));
    const hint = same ? `; did you mean ${relative(process.cwd(), same)}?` : '';
    throw new UsageError(`eval set file not found: ${key} (from ${process.cwd()})${hint}`, COMMAND);
  }
  try {
    validatePathSegment(key, 'eval set id');
  } catch (e) {
    throw new UsageError(`eval set not found: ${key} is neither a file nor a valid eval set id (${e.message})`, COMMAND);
  }
  if (!existsSync(asId)) throw new UsageError(`eval set not found: no file ${key} and no eval set "${key}" at ${asId}`, COMMAND);
}

/** The test_config.json beside an eval file found in a folder, or null (ADK's defaults). */
function besideConfig(path) {
  const c = join(dirname(path), 'test_config.json');
  return existsSync(c) ? c : null;
}

function splitByRun(result) {
  const runs = new Map();
  for (const r of result.eval_case_results) {
    const run = Number.isInteger(r.run) ? r.run : 0;
    if (!runs.has(run)) runs.set(run, []);
    runs.get(run).push(r);
  }
  return [...runs.entries()].sort((a, b) => a[0] - b[0]);
}

/**
/**
 * Config warnings of validateEvalConfig, as lines naming the file; under --strict they are the
 * errors that stop the run (worded as such: nothing will be NOT_EVALUATED, nothing runs). A Python
 * metric that a --custom_metrics module computes in JS is no warning, nor a criterion it names.
 */
export function configWarnings({ source, options }, path, strict, customMetrics = undefined) {
  if (source === null || source === undefined) return [];
  const { errors, warnings } = validateEvalConfig(source, { ...options, strict });
  const given = Object.keys(customMetrics ?? {});
  const computed = (w) => given.some((name) => w.message.startsWith(`${name} is a Python function`) || w.message.startsWith(`unknown metric ${JSON.stringify(name)}`));
  return strict ? errors.filter((e) => !computed(e)).map((e) => `error: ${path}: ${e.path}: ${e.message}`)
    : warnings.filter((w) => !computed(w)).map((w) => `warning: ${path}: ${w.path}: ${w.message}`);
}

/** The metrics of --metrics a,b, or undefined. */
export function metricsFromFlag(value, command) {
  if (value === undefined) return undefined;
  const names = value.split(',').map((m) => m.trim()).filter((m) => m !== '');
  if (names.length === 0) throw new UsageError('--metrics needs metric names, separated by commas', command);
  return names;
}

/** The custom metric functions a --custom_metrics module exports, by name. */
export async function customMetricsFrom(path, command) {
  if (path === undefined) return undefined;
  const { pathToFileURL } = await import('node:url');
  if (!isRegularFile(path)) throw new UsageError(`--custom_metrics: ${path} is not a file`, command);
  const mod = await import(pathToFileURL(resolve(path)).href);
  const fns = Object.fromEntries(Object.entries(mod.default && typeof mod.default === 'object' ? mod.default : mod)
    .filter(([, f]) => typeof f === 'function'));
  if (Object.keys(fns).length === 0) throw new UsageError(`--custom_metrics: ${path} exports no functions`, command);
  return fns;
}

/** Refuses (or warns of) a judge that cannot answer before anything runs: a replay without its cassette, no key. */
export function checkJudge(judge, remote, opts, say) {
  if (judge?.cassette?.mode === 'replay' && !existsSync(judge.cassette.path)) {
    throw new UsageError(`--judge_cassette ${opts.judge_cassette}: no such file; --judge_mode replay answers only from a recorded `
      + 'cassette: record one first (--judge_mode auto, with the judge\'s key)', COMMAND);
  }
  if (!remote && judge && !judge.headers && !judge.baseUrl && judge.cassette?.mode !== 'replay' && !judge.dryRun) {
    // Under --strict a judge call that fails fails the run: say so before any turn.
    const missing = `no API key for the ${judge.provider} judge: set ${keyVariables(judge.provider)}`;
    if (opts.strict) throw new UsageError(`--judge ${opts.judge}: ${missing} (or --judge_base_url for a server that needs no key)`, COMMAND);
    say(`warning: ${missing}; until then its judge calls fail and judged metrics are NOT_EVALUATED (judge_error)`);
  }
}

/**
 * The run's configs: one for the run, or (folders, without --config_file_path) the one beside
 * each file. `configOf(set)` reads each once (`metrics`: --metrics). Their warnings are said
 * before the run; under --strict they stop it (`stop`).
 */
export function runConfigs(opts, sets, keys, say, { metrics, customMetrics } = {}) {
  const runConfigPath = resolveConfigPath(opts.config_file_path, keys, COMMAND);
  const configs = new Map();
  const configOf = (set) => {
    const path = opts.config_file_path === undefined && set.configPath !== undefined ? set.configPath : runConfigPath;
    if (!configs.has(path)) configs.set(path, { path, ...readConfig(path, { metrics }) });
    return configs.get(path);
  };
  for (const set of sets) configOf(set);
  if (sets.length === 0) configOf({});
  const warnings = [...configs.values()].flatMap((c) => configWarnings(c, c.path, opts.strict === true, customMetrics));
  for (const w of warnings) say(w);
  const stop = opts.strict === true && warnings.length > 0;
  if (stop) say(`error: --strict: the config has ${warnings.length} problem(s) that would leave metrics NOT_EVALUATED; nothing was run`);
  return { configOf, stop };
}

/**
 * What a run leaves, as `evalcore eval` leaves it: result files, the console output (or the
 * --format report), what could not be evaluated, judge counters, the --baseline comparison; then
 * the exit status. Shared by agent runs and `--traces` runs.
 */
export function reportRun(setResults, { opts, io, judge, appName, historyDir, numRuns, logLevel, baseline }) {
  const format = opts.format ?? 'text';
  const reportToStdout = format !== 'text' && opts.output === undefined;
  const say = (line) => io.stderr.write(`${line}\n`);
  let writeFailed = false;
  const written = [];
  if (!opts.no_save && !judge?.dryRun) {
    for (const result of setResults) {
      for (const [, cases] of splitByRun(result)) {
        try {
          written.push(saveEvalSetResult({ appName, evalSetId: result.eval_set_id, evalCaseResults: cases, historyDir, name: opts.run_name }).path);
        } catch (e) {
          writeFailed = true;
          say(`error: cannot write the results of ${result.eval_set_id} to ${historyDir}: ${e.message}`);
        }
      }
    }
  }

  if (opts.run_name !== undefined) for (const r of setResults) r.eval_set_result_name = opts.run_name;
  const caseResults = setResults.flatMap((r) => r.eval_case_results);
  const text = formatReport(caseResults, { detailed: opts.print_detailed_results === true });
  const report = format === 'text' ? text
    : format === 'json' ? toJson(setResults, { strict: opts.strict === true })
      : format === 'junit' ? toJUnit(setResults, { strict: opts.strict === true })
        : format === 'html' ? toHtml(setResults) : toMarkdown(setResults, { strict: opts.strict === true });
  // ADK's text shows prompts and answers as they are: under GitHub Actions no line of it is a command.
  io.stdout.write(reportToStdout ? report : shielded(text, io.env));
  // After the console output: a report file that cannot be written (exit 2) does not take it away.
  if (opts.output !== undefined) {
    const out = resolve(opts.output);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, report);
    written.push(out);
  }

  // What ADK's output leaves unsaid, on stderr: stdout stays ADK's text (or the report).
  for (const l of failedCaseLines(setResults, numRuns)) say(l);
  const { h, lines } = healthLines(setResults, { detailed: opts.print_detailed_results === true, debug: logLevel === 'DEBUG', judge, opts });
  for (const l of lines) say(l);
  // What the judges did (here, or the endpoints' with --remote), summed over the eval sets.
  const judged = setResults.reduce((s, r) => (r.judge_stats ? addJudgeStats(s, r.judge_stats) : s), null);
  if (judged !== null && judged.requests > 0 && !judge?.dryRun) say(judgeStatsLine(judged));
  if (judge?.dryRun) {
    const plans = setResults.map((r) => r.judge_plan).filter(Boolean);
    const calls = plans.reduce((n, p) => n + p.count, 0);
    const tokens = plans.reduce((n, p) => n + p.estimatedTokens, 0);
    say(`dry run: ${calls} judge call(s) would be sent (about ${tokens} prompt tokens); nothing was sent and no result file was written`);
  }
  for (const path of written) say(`wrote ${path}`);

  if (baseline !== null) {
    const code = compareAfterEval(baseline, setResults, opts, io, reportToStdout);
    if (caseResults.length === 0) return 1;
    if (opts.strict && h.count > 0) {
      say(`error: --strict: ${h.count} metric result(s) were NOT_EVALUATED`);
      return 1;
    }
    return writeFailed ? 2 : code;
  }
  const failed = caseResults.filter((r) => r.final_eval_status !== 'PASSED').length;
  if (failed > 0 || caseResults.length === 0) return 1;
  if (opts.strict && h.count > 0) {
    say(`error: --strict: ${h.count} metric result(s) were NOT_EVALUATED`);
    return 1;
  }
  return writeFailed ? 2 : 0;
}

/**
 * `evaluate` over each eval set in turn, with a progress line and Ctrl-C: `{results, interrupted}`
 * (an interrupted run keeps what the set it stopped in had scored). `argsOf(set)` gives what the
 * way of running adds (the eval set, an agent or traces, its config); `label(set)` names it.
 */
export async function runSets(sets, { io, runs, label, argsOf, judge, customMetrics, concurrency }) {
  const progress = createProgress(io.stderr, { runs, env: io.env ?? {} });
  const controller = new AbortController();
  const onSignal = () => controller.abort(new Error('interrupted'));
  io.onInterrupt?.(onSignal);
  const results = [];
  try {
    for (const [i, set] of sets.entries()) {
      if (set.evalIds !== undefined && set.evalIds.length === 0) continue; // only unknown ids were named
      progress.setLabel(sets.length > 1 ? `${label(set)} (${i + 1}/${sets.length})` : label(set));
      const args = { ...argsOf(set), signal: controller.signal, onProgress: (p) => progress.update(p) };
      if (set.evalIds !== undefined) args.evalIds = set.evalIds;
      if (judge) args.judge = judge;
      if (customMetrics) args.customMetrics = customMetrics;
      if (concurrency !== undefined) args.concurrency = concurrency;
      try {
        results.push(await evaluate(args));
      } catch (e) {
        if (e?.name !== 'AbortError' || !controller.signal.aborted) throw e;
        if (e.partialResult) results.push(e.partialResult);
        break;
      }
    }
  } finally {
    progress.done();
    io.offInterrupt?.(onSignal);
  }
  return { results, interrupted: controller.signal.aborted };
}
