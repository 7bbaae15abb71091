//! `evalcore eval --traces FILE... [EVAL_SET]...`: recorded sessions scored instead of an agent's
//! run, against the eval cases they match (evaluate({traces, evalSet})) or on their own; then the
//! result files, console output, reports and exit status `evalcore eval` gives.
import { basename, dirname, resolve } from 'node:path';
import { evalHistoryDir, validatePathSegment, validateRunName } from '../node/history.js';
import { loadTraceFiles, looksLikeTraces } from '../node/trace_files.js';
import { UsageError } from './args.js';
import { criteriaLine } from './config.js';
import { readBaseline } from './compare.js';
import { checkJudge, collectEvalSets, customMetricsFrom, judgeFromFlags, metricsFromFlag, reportRun, runConfigs, runSets } from './eval_run.js';
import { parseSelectors } from './selectors.js';
import { warningLines } from './traces.js';

const COMMAND = 'eval';
const AGENT_FLAGS = ['num_runs', 'agent_timeout', 'remote', 'shards', 'log_level', 'detach', 'actual', 'server_agent', 'idempotency_key'];
const TOO_MANY = 10;

/** The arguments split into trace files (by their content) and eval sets. */
function splitArgs(positionals, traces) {
  const files = [...traces];
  const sets = [];
  for (const p of positionals) (looksLikeTraces(p) ? files : sets).push(p);
  return { files, sets };
}

/** The app the results are filed under: the sessions' one service name, else the results' folder. */
function appNameOf(sessions, dir) {
  const names = new Set(sessions.map((s) => s.app_name).filter((n) => typeof n === 'string' && n !== ''));
  const candidates = names.size === 1 ? [[...names][0], basename(dir)] : [basename(dir)];
  for (const name of [...candidates, 'traces']) {
    try {
      return validatePathSegment(name, 'app_name');
    } catch {
      // The next candidate.
    }
  }
  return 'traces';
}

/** What matched and what did not, for stderr (stdout stays `adk eval`'s text). */
function matchLines(setResults, sessions, againstSets) {
  const lines = [];
  const matched = new Set();
  for (const r of setResults) {
    for (const m of r.traces?.matched ?? []) matched.add(m.session_id);
    const cases = r.traces?.unmatched_cases ?? [];
    if (cases.length > 0) {
      lines.push(`${cases.length} case(s) of ${r.eval_set_id} matched no recorded session (FAILED, no_session): ${cases.slice(0, TOO_MANY).join(', ')}${cases.length > TOO_MANY ? ', ...' : ''}`);
    }
  }
  const left = againstSets ? sessions.filter((s) => !matched.has(s.session_id)) : [];
  if (left.length > 0) {
    lines.push(`${left.length} recorded session(s) matched no eval case and were not scored: ${left.slice(0, TOO_MANY).map((s) => s.session_id).join(', ')}${left.length > TOO_MANY ? ', ...' : ''}`);
  }
  return lines;
}

/** Runs `evalcore eval --traces ...` (flags already parsed by runEval); returns the exit code. */
export async function runEvalTraces(positionals, opts, io) {
  for (const f of AGENT_FLAGS) {
    if (opts[f] !== undefined) throw new UsageError(`--${f} is for agent runs; with --traces no agent runs`, COMMAND);
  }
  if (opts.no_save && opts.results_dir !== undefined) throw new UsageError('--no_save and --results_dir exclude each other', COMMAND);
  if (opts.run_name !== undefined) validateRunName(opts.run_name);
  const say = (line) => io.stderr.write(`${line}\n`);
  const { files, sets: setArgs } = splitArgs(positionals, opts.traces);
  const judge = judgeFromFlags(opts, io.env);
  checkJudge(judge, null, opts, say);
  const baseline = readBaseline(opts, COMMAND);

  const loaded = loadTraceFiles(files, opts.session ? { sessionIds: opts.session } : undefined);
  for (const line of warningLines(loaded.warnings)) say(line);
  if (opts.session) {
    const found = new Set(loaded.sessions.map((s) => s.session_id));
    const absent = opts.session.filter((id) => !found.has(id));
    if (absent.length > 0) throw new UsageError(`--session: the traces have no session ${absent.map((a) => JSON.stringify(a)).join(', ')}`, COMMAND);
  }
  const selectors = setArgs.length > 0 ? parseSelectors(setArgs) : new Map();
  const sets = setArgs.length > 0 ? collectEvalSets(selectors, process.cwd(), say) : [];
  const metrics = metricsFromFlag(opts.metrics, COMMAND);
  const customMetrics = await customMetricsFrom(opts.custom_metrics, COMMAND);
  const { configOf, stop } = runConfigs(opts, sets, [...selectors.keys()], say, { metrics, customMetrics });
  if (stop) return 1;
  const baseDir = setArgs.length > 0 && sets.length > 0 ? dirname(resolve([...selectors.keys()][0])) : process.cwd();
  const historyDir = opts.results_dir !== undefined ? resolve(opts.results_dir) : evalHistoryDir(baseDir);
  const appName = appNameOf(loaded.sessions, opts.results_dir !== undefined ? historyDir : baseDir);

  const format = opts.format ?? 'text';
  const info = format !== 'text' && opts.output === undefined ? io.stderr : io.stdout;
  const first = configOf(sets[0] ?? {});
  info.write(`${criteriaLine(first.config, first.raw)}\n`);
  if (loaded.sessions.length === 0) {
    say('the traces hold no session (no invocation, agent or model span): nothing to score');
    return 1;
  }
  const targets = sets.length > 0 ? sets : [{ evalSet: null, evalIds: undefined }];
  const { results: setResults, interrupted } = await runSets(targets, {
    io, runs: 1, judge, customMetrics, concurrency: opts.concurrency,
    label: (set) => (set.evalSet ? set.evalSet.eval_set_id : 'traces'),
    argsOf: (set) => {
      const args = { traces: loaded, config: configOf(set).config, appName };
      if (set.evalSet) args.evalSet = set.evalSet;
      return args;
    },
  });
  if (interrupted) {
    say('interrupted: no result files written');
    return 130;
  }
  for (const line of matchLines(setResults, loaded.sessions, sets.length > 0)) say(line);
  return reportRun(setResults, { opts, io, judge, appName, historyDir, numRuns: 1, logLevel: 'WARNING', baseline });
}
