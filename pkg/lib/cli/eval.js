//! `evalcore eval AGENT_MODULE EVAL_SET[:id,id]...`: `adk eval` for JS agents — ADK's
//! selection syntax, config discovery, console output, result files and exit codes.
import { resolve } from 'node:path';
import { evalHistoryDir, validatePathSegment, validateRunName } from '../node/history.js';
import { loadAgent, resolveAgentPath, appLocation } from '../node/agent.js';
import { parseArgs, UsageError } from './args.js';
import { criteriaLine } from './config.js';
import { BASELINE_FLAGS, readBaseline } from './compare.js';
import { parseSelectors } from './selectors.js';
import { checkJudge, collectEvalSets, customMetricsFrom, judgeFromFlags, metricsFromFlag, reportRun, runConfigs, runSets } from './eval_run.js';
export { judgeFromFlags } from './eval_run.js';

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
  const agentTimeoutMs = (opts.agent_timeout ?? DEFAULT_AGENT_TIMEOUT_S) * 1000;
  const { results: setResults, interrupted } = await runSets(sets, {
    io, runs: numRuns, judge, customMetrics, concurrency: opts.concurrency,
    label: (set) => set.evalSet.eval_set_id,
    argsOf: (set) => {
      const args = { evalSet: set.evalSet, agent, config: configOf(set).config, numRuns, appName, agentTimeoutMs };
      if (remote) args.remote = remote;
      return args;
    },
  });
  if (interrupted) {
    const done = setResults.reduce((n, r) => n + r.eval_case_results.length, 0);
    say(`interrupted: ${done} case run(s) had completed; no result files written`);
    return 130;
  }

  return reportRun(setResults, { opts, io, judge, appName, historyDir, numRuns, logLevel, baseline });
}
