//! `evalcore eval AGENT_MODULE EVAL_SET[:id,id]...`: `adk eval` for JS agents — ADK's
//! selection syntax, config discovery, console output, result files and exit codes.
import { existsSync, mkdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { evaluate, formatReport, validateEvalConfig } from '../../index.js';
import { addJudgeStats, judgeStatsLine, runHealth } from '../health.js';
import { keyHeaders, keyVariables } from '../judge_env.js';
import { evalHistoryDir, saveEvalSetResult, validatePathSegment, validateRunName } from '../history.js';
import { toHtml, toJson, toJUnit, toMarkdown } from '../reports.js';
import { loadAgent, resolveAgentPath, appLocation } from '../node/agent.js';
import { parseArgs, UsageError } from './args.js';
import { criteriaLine } from './config.js';
import { readConfig, resolveConfigPath } from '../node/config.js';
import { evalSetPath, findEvalFiles, readEvalSetFile } from '../node/evalsets.js';
import { isRegularFile } from '../node/files.js';
import { failedCaseLines, healthLines } from './eval_report.js';
import { createProgress } from './progress.js';
import { BASELINE_FLAGS, compareAfterEval, readBaseline } from './compare.js';
import { parseSelectors } from './selectors.js';

export const FLAGS = {
  config_file_path: 'string',
  print_detailed_results: 'bool',
  num_runs: 'int',
  judge: 'string',
  judge_base_url: 'string',
  judge_cassette: 'string',
  judge_mode: ['record', 'replay', 'auto'],
  results_dir: 'string',
  format: ['text', 'json', 'junit', 'markdown', 'html'],
  output: 'string',
  concurrency: 'int',
  log_level: ['DEBUG', 'INFO', 'WARNING', 'ERROR', 'CRITICAL'],
  strict: 'bool',
  agent_timeout: 'seconds',
  judge_timeout: 'seconds',
  judge_retries: 'count',
  judge_media: 'bool',
  dry_run: 'bool',
  no_save: 'bool',
  remote: 'string',
  shards: 'int',
  run_name: 'string',
  detach: 'bool',
  actual: 'string',
  server_agent: 'string',
  idempotency_key: 'string',
  traces: 'list',
  session: 'list',
  config: 'string',
  ...BASELINE_FLAGS,
  metrics: 'string',
  custom_metrics: 'string',
};

/** Default --agent_timeout: a turn that never answers fails its case instead of hanging the run. */
export const DEFAULT_AGENT_TIMEOUT_S = 300;

export const HELP = `Usage: evalcore eval AGENT_MODULE EVAL_SET[:id,id,...]... [options]
       evalcore eval --traces FILE [--traces FILE]... [EVAL_SET[:id,id,...]]... [options]

Runs an agent on eval sets and scores it as \`adk eval\` does (google-adk 2.13).

AGENT_MODULE   a .js/.mjs file (or a folder with agent.mjs / agent.js / index.js) exporting
               \`agent\` (an evalcore Agent callback), \`default\`, \`rootAgent\` / \`root_agent\`
               (an @google/adk agent) or \`getAgent()\`. Its folder is the app: eval set ids are
               looked up as <folder>/<id>.evalset.json and results go to <folder>/.adk/eval_history/.
EVAL_SET       an eval set file (current schema, legacy *.test.json list, legacy named list,
               agents-cli's EvaluationDataset: its user turns are played to the agent), a
               folder (every *.test.json / *.evalset.json under it, each with the
               test_config.json beside it, as AgentEvaluator finds them) or, when the first one
               is neither, eval set ids. \`file.json:a,b\` runs only cases a and b (ids are
               trimmed); naming a set twice merges the lists.

With --traces, no agent runs: the recorded sessions in the trace files (OpenTelemetry: OTLP/JSON,
JSON lines, protobuf, possibly gzipped; more trace files may follow as arguments) are scored.
Against an eval set, each session is scored against the case whose eval_id is its session id,
else the case whose user turns it repeats (several sessions of one case are its runs); cases no
session matched fail (no_session) and sessions that matched no case are listed on stderr.
Without an eval set, each session is its own case (eval_id = session id) and only metrics that
need no expected invocation can score (judged quality, hallucinations, safety, rubrics,
efficiency); the others are NOT_EVALUATED (missing_expected). Results go to --results_dir
(default: the first eval set's folder, else the current one, under .adk/eval_history).
  --traces FILE               a trace file (repeat for more)
  --session ID                only this recorded session (repeat for more)

Options:
  --config_file_path PATH     eval config (also --config): ADK's (JSON) or agents-cli's
                              (metrics_to_run and custom_metrics, YAML or JSON); default:
                              test_config.json beside the one eval set file given, else an
                              eval_config.yaml beside it or one folder up (agents-cli's layout),
                              else ADK's default criteria
  --metrics A,B               run only these metrics (agents-cli's --metrics: replaces
                              metrics_to_run; with an ADK config, keeps these criteria)
  --custom_metrics MODULE     a .js/.mjs module whose exports are custom metric functions, by
                              metric name (what a Python custom_function becomes in JS)
  --print_detailed_results    print every case's metrics and invocations
  --num_runs N                run every case N times (default 1)
  --run_name LABEL            a label for this run, kept in the result files as
                              eval_set_result_name (ADK reads it) and shown by \`evalcore view\`
  --concurrency N             eval cases in flight (default 4)
  --judge PROVIDER:MODEL      LLM judge for judged metrics (gemini, openai, anthropic); the API
                              key comes from GEMINI_API_KEY / GOOGLE_API_KEY, OPENAI_API_KEY or
                              ANTHROPIC_API_KEY
  --judge_base_url URL        the judge provider's API base URL
  --judge_cassette FILE       record / replay judge calls in FILE
  --judge_mode MODE           record | replay | auto (default auto) for --judge_cassette
  --judge_timeout SECONDS     per judge call (default 60)
  --judge_retries N           retries of a judge call on 408/429/5xx and network errors
                              (default 6); a judge that refuses the connection twice is not
                              called again in the run
  --judge_media               show the judge the images, audio and documents of the user turn
                              and the responses (default: text only, as ADK)
  --dry_run                   send no judge call: count the calls the run would make
  --remote URL[,URL...]       score on these evaluation endpoints (evalcore serve, the Workers
                              module worker): the agent's turns run here, then the cases are
                              split into shards, scored and judged by the endpoints (their
                              EVALCORE_JUDGE), and merged into the result a local run gives;
                              EVALCORE_REMOTE_TOKEN is sent as their bearer token. --judge then
                              only drives simulated users
  --shards N                  split the cases into N shards (default: 2 per endpoint)
  --detach                    with --remote URL (one endpoint that keeps runs: evalcore serve
                              --runs_dir, or the Workers deployment): submit each eval set as a
                              run the server carries out, print its id and exit; collect it later
                              with \`evalcore runs wait ID --remote URL\` (docs/runs.md). Needs what
                              the server can score without this process: --actual FILE (recorded
                              invocations, or a result file whose actual invocations are scored
                              again) or --server_agent NAME (an agent the server runs); the
                              AGENT_MODULE argument then only names the app folder
  --idempotency_key KEY       with --detach: submitting again with the same key (a retried CI
                              job) gives back the same runs instead of new ones
  --agent_timeout SECONDS     longest wait for one agent turn (default ${DEFAULT_AGENT_TIMEOUT_S}; 0: none); a turn
                              that takes longer fails its case (agent_timeout)
  --strict                    fail the run (exit 1) on any NOT_EVALUATED metric or config
                              warning, not only on FAILED cases
  --results_dir DIR           where result files go (default <agent folder>/.adk/eval_history)
  --no_save                   write no result files
  --format FORMAT             text (default) | json | junit | markdown | html
  --output FILE               write the --format report to FILE (stdout keeps the text output)
  --baseline FILE|DIR         after the run, compare its results with these (evalcore compare):
                              the exit status then says whether the run is worse than the
                              baseline beyond chance (see --fail_on), not whether every case passed
  --fail_on WHEN              with --baseline: regressed (default) | significant | never
  --alpha A                   with --baseline: significance level (default 0.05)
  --compare_format FORMAT     with --baseline: text (default) | markdown | json | junit
  --compare_output FILE       with --baseline: write the comparison there (else it follows the
                              console output, on stderr when stdout carries a --format report)
  --log_level LEVEL           @google/adk's log level: DEBUG, INFO, WARNING (default), ERROR,
                              CRITICAL; its log lines go to stderr. DEBUG also prints the stack
                              of what an agent threw
  -h, --help                  this help

The console output is \`adk eval\`'s; on stderr evalcore adds config warnings before the run,
then what could not be evaluated (NOT_EVALUATED metrics with their reasons, cases the agent
could not complete) and where the results went.

Exit status: 0 when every case PASSED, 1 when any case did not (a case whose status is
NOT_EVALUATED counts as failed; with --strict so does any NOT_EVALUATED metric) or nothing
ran, 2 for usage errors (a bad flag, a missing or invalid file, an agent module without an
agent), 70 when evalcore itself failed (an internal error, printed with its stack: please
report it), 130 when interrupted. With --baseline: 1 when the comparison fails per --fail_on
(or nothing ran), else 0.
`;

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

/** The `remote` option of evaluate() for --remote / --shards; the token from EVALCORE_REMOTE_TOKEN. */
export function remoteFromFlags(opts, judge, env) {
  if (opts.remote === undefined) {
    if (opts.shards !== undefined) throw new UsageError('--shards needs --remote URL[,URL...]', COMMAND);
    return undefined;
  }
  const endpoints = opts.remote.split(',').map((u) => u.trim()).filter((u) => u !== '');
  if (endpoints.length === 0) throw new UsageError('--remote needs one or more endpoint URLs, separated by commas', COMMAND);
  for (const u of endpoints) {
    if (!/^https?:\/\/[^/\s]+/.test(u)) throw new UsageError(`--remote: "${u}" is not an http(s) URL`, COMMAND);
  }
  if (judge?.dryRun) throw new UsageError('--dry_run counts local judge calls; with --remote the endpoints judge', COMMAND);
  if (judge?.cassette) throw new UsageError('--judge_cassette records local judge calls; with --remote the endpoints judge', COMMAND);
  const remote = { endpoints };
  if (opts.shards !== undefined) remote.shards = opts.shards;
  if (env.EVALCORE_REMOTE_TOKEN) remote.token = env.EVALCORE_REMOTE_TOKEN;
  return remote;
}

/** Whether the run is detached (`--detach`), its flags checked. */
function detachFlags(opts) {
  if (!opts.detach) {
    for (const f of ['actual', 'server_agent', 'idempotency_key']) {
      if (opts[f] !== undefined) throw new UsageError(`--${f} goes with --detach (a run the endpoint carries out)`, COMMAND);
    }
    return false;
  }
  if (opts.remote === undefined) throw new UsageError('--detach needs --remote URL (an endpoint that keeps runs)', COMMAND);
  if ((opts.actual === undefined) === (opts.server_agent === undefined)) {
    throw new UsageError('--detach needs what the endpoint can score without this process: --actual FILE (recorded invocations) or --server_agent NAME (an agent the server runs), one of them', COMMAND);
  }
  for (const f of ['judge', 'judge_cassette', 'judge_mode', 'shards', 'dry_run', 'results_dir', 'no_save', 'output', 'format', 'run_name', 'concurrency', 'baseline', 'custom_metrics']) {
    if (opts[f] !== undefined) throw new UsageError(`--${f} does not go with --detach: the endpoint runs and judges it; \`evalcore runs wait\` prints and saves the result`, COMMAND);
  }
  if (opts.num_runs !== undefined && opts.server_agent === undefined) throw new UsageError('--num_runs applies to --server_agent runs; recorded invocations are one run', COMMAND);
  return true;
}

/** `--detach`: each eval set submitted as a run; its id printed. */
async function detach(sets, configOf, opts, io) {
  const { clientOf, runBody } = await import('./runs.js');
  const { readActual } = await import('../node/actual.js');
  const client = clientOf(opts.remote, io, COMMAND);
  const actual = opts.actual === undefined ? undefined : readActual(opts.actual);
  for (const set of sets) {
    const { evalSet, evalIds } = set;
    if (evalIds !== undefined && evalIds.length === 0) continue;
    const ids = new Set(evalSet.eval_cases.map((c) => c.eval_id));
    const mine = actual === undefined ? undefined : Object.fromEntries(Object.entries(actual).filter(([id]) => ids.has(id)));
    const body = runBody({ evalSet, evalIds, config: configOf(set).raw, actual: mine, agent: opts.server_agent, numRuns: opts.num_runs });
    const key = opts.idempotency_key === undefined ? null : `${opts.idempotency_key}:${evalSet.eval_set_id}`;
    const run = await client.submit(body, { idempotencyKey: key });
    io.stdout.write(`${run.id}\n`);
    io.stderr.write(`${run.replayed ? 'already submitted' : 'submitted'}: ${evalSet.eval_set_id} as run ${run.id} on ${client.origin}; collect it with: evalcore runs wait ${run.id} --remote ${client.origin}\n`);
  }
  return 0;
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

/** Runs `evalcore eval`; returns the exit code. */
export async function runEval(argv, io) {
  const { positionals, options: opts, help } = parseArgs(argv, FLAGS, COMMAND);
  if (help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (opts.config !== undefined) {
    if (opts.config_file_path !== undefined) throw new UsageError('--config and --config_file_path name the same file: give one', COMMAND);
    opts.config_file_path = opts.config;
  }
  if (opts.traces !== undefined) return (await import('./eval_traces.js')).runEvalTraces(positionals, opts, io);
  for (const f of ['session']) if (opts[f] !== undefined) throw new UsageError(`--${f} needs --traces FILE`, COMMAND);
  if (positionals.length < 1) throw new UsageError('missing AGENT_MODULE', COMMAND);
  if (positionals.length < 2) throw new UsageError('missing EVAL_SET: give at least one eval set file, folder or id', COMMAND);
  if (opts.no_save && opts.results_dir !== undefined) throw new UsageError('--no_save and --results_dir exclude each other', COMMAND);
  if (opts.run_name !== undefined) validateRunName(opts.run_name);
  const [agentArg, ...setArgs] = positionals;
  const format = opts.format ?? 'text';
  const judge = judgeFromFlags(opts, io.env);
  const detached = detachFlags(opts);
  const remote = detached ? undefined : remoteFromFlags(opts, judge, io.env ?? {});
  const logLevel = opts.log_level ?? 'WARNING';
  const say = (line) => io.stderr.write(`${line}\n`);
  checkJudge(judge, remote, opts, say);

  const baseline = readBaseline(opts, COMMAND);
  const modulePath = resolveAgentPath(agentArg, COMMAND);
  const { appDir, appName } = appLocation(modulePath);
  const metrics = metricsFromFlag(opts.metrics, COMMAND);
  const customMetrics = await customMetricsFrom(opts.custom_metrics, COMMAND);
  const selectors = parseSelectors(setArgs);
  const sets = collectEvalSets(selectors, appDir, say);
  const historyDir = opts.results_dir !== undefined ? resolve(opts.results_dir) : evalHistoryDir(appDir);
  validatePathSegment(appName, 'app_name');
  const { configOf, stop } = runConfigs(opts, sets, [...selectors.keys()], say, { metrics, customMetrics });
  if (stop) return 1;

  if (detached) return detach(sets, configOf, opts, io);

  const { agent } = await loadAgent(modulePath, COMMAND, { logLevel, logStream: io.stderr });

  // stdout carries the text output, or only the report when one is asked for without --output.
  const reportToStdout = format !== 'text' && opts.output === undefined;
  const info = reportToStdout ? io.stderr : io.stdout;
  const first = sets.length > 0 ? configOf(sets[0]) : configOf({});
  info.write(`${criteriaLine(first.config, first.raw)}\n`);

  const numRuns = opts.num_runs ?? 1;
  const progress = createProgress(io.stderr, { runs: numRuns, env: io.env ?? {} });
  const controller = new AbortController();
  const onSignal = () => controller.abort(new Error('interrupted'));
  io.onInterrupt?.(onSignal);
  const agentTimeoutMs = (opts.agent_timeout ?? DEFAULT_AGENT_TIMEOUT_S) * 1000;

  const setResults = [];
  try {
    for (const [i, set] of sets.entries()) {
      const { evalSet, evalIds } = set;
      if (evalIds !== undefined && evalIds.length === 0) continue; // only unknown ids were named
      progress.setLabel(sets.length > 1 ? `${evalSet.eval_set_id} (${i + 1}/${sets.length})` : evalSet.eval_set_id);
      const args = {
        evalSet, agent, config: configOf(set).config, numRuns, appName, agentTimeoutMs,
        signal: controller.signal, onProgress: (p) => progress.update(p),
      };
      if (judge) args.judge = judge;
      if (remote) args.remote = remote;
      if (customMetrics) args.customMetrics = customMetrics;
      if (opts.concurrency !== undefined) args.concurrency = opts.concurrency;
      if (evalIds !== undefined) args.evalIds = evalIds;
      try {
        setResults.push(await evaluate(args));
      } catch (e) {
        if (e?.name !== 'AbortError' || !controller.signal.aborted) throw e;
        if (e.partialResult) setResults.push(e.partialResult);
        break;
      }
    }
  } finally {
    progress.done();
    io.offInterrupt?.(onSignal);
  }
  if (controller.signal.aborted) {
    const done = setResults.reduce((n, r) => n + r.eval_case_results.length, 0);
    say(`interrupted: ${done} case run(s) had completed; no result files written`);
    return 130;
  }

  return reportRun(setResults, { opts, io, judge, appName, historyDir, numRuns, logLevel, baseline });
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
  io.stdout.write(reportToStdout ? report : text);
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
