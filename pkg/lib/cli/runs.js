//! `evalcore runs submit|status|wait|result|cancel|list --remote URL`: runs that outlive the
//! client (docs/runs.md). A CI job submits a run and leaves; any later job waits for it (its
//! progress on stderr, re-attaching when the connection breaks) and exits as `evalcore eval`
//! would on the result.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import '../wasm/node_start.js';
import { formatReport } from '../wasm/api.js';
import { judgeStatsLine, runHealth } from '../health.js';
import { writeEvalSetResult } from '../node/history.js';
import { toHtml, toJson, toJUnit, toMarkdown } from '../report/reports.js';
import { jsonText, shielded, textLine } from '../report/workflow.js';
import { runsClient } from '../run/runs_client.js';
import { readConfig, resolveConfigPath } from '../node/config.js';
import { readEvalSetFile } from '../node/evalsets.js';
import { readActual } from '../node/actual.js';
import { parseArgs, UsageError } from './args.js';
import { createProgress } from './progress.js';
import { parseSelectors } from './selectors.js';

const COMMAND = 'runs';

export const HELP = `Usage: evalcore runs <submit|status|wait|result|cancel|list> ... --remote URL

Runs kept by an evaluation endpoint (evalcore serve --runs_dir, or the Workers deployment):
the run lives on the server, so the client may leave and come back (docs/runs.md).

  submit EVAL_SET[:id,id] --remote URL (--actual FILE | --agent NAME)
         [--config_file_path F] [--num_runs N] [--name LABEL] [--idempotency_key K]
                 submits a run; prints its id on stdout. --actual: recorded invocations
                 ({"eval_id": [invocations]}, or a result file whose actual invocations are
                 scored again); --agent: an agent the server runs. The same --idempotency_key
                 gives the same run back (a CI retry submits nothing twice)
  status ID --remote URL [--json]
                 its status, counts and judge counters
  wait ID --remote URL [--strict] [--print_detailed_results] [--results_dir DIR]
         [--format text|json|junit|markdown|html] [--output FILE]
                 follows the run to its end (progress on stderr), prints its result as
                 \`evalcore eval\` does and exits as it would: 0 when every case PASSED, 1
                 otherwise (with --strict also on any NOT_EVALUATED metric), 1 for a run that
                 failed or was cancelled
  result ID --remote URL [--output FILE]
                 its EvalSetResult as JSON (in the eval set's order)
  cancel ID --remote URL
                 cancels it: no judge call of it starts a second later
  list --remote URL [--limit N]
                 the runs, newest first

EVALCORE_REMOTE_TOKEN is sent as the endpoint's bearer token.
`;

const FLAGS = {
  submit: { remote: 'string', actual: 'string', agent: 'string', config_file_path: 'string', num_runs: 'int', name: 'string', idempotency_key: 'string' },
  status: { remote: 'string', json: 'bool' },
  wait: { remote: 'string', strict: 'bool', print_detailed_results: 'bool', results_dir: 'string', format: ['text', 'json', 'junit', 'markdown', 'html'], output: 'string' },
  result: { remote: 'string', output: 'string' },
  cancel: { remote: 'string' },
  list: { remote: 'string', limit: 'int' },
};

/** Runs `evalcore runs ...`; resolves to the exit code. */
export async function runRuns(argv, io) {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h') {
    (sub === undefined ? io.stderr : io.stdout).write(HELP);
    return sub === undefined ? 2 : 0;
  }
  if (!Object.hasOwn(FLAGS, sub)) throw new UsageError(`unknown subcommand "${sub}" (expected ${Object.keys(FLAGS).join(', ')})`, COMMAND);
  const { positionals, options, help } = parseArgs(rest, FLAGS[sub], `${COMMAND} ${sub}`);
  if (help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (options.remote === undefined) throw new UsageError('--remote URL is required (the endpoint that keeps the runs)', `${COMMAND} ${sub}`);
  const client = clientOf(options.remote, io, `${COMMAND} ${sub}`);
  if (sub === 'submit') return submit(positionals, options, client, io);
  if (sub === 'list') return list(positionals, options, client, io);
  if (positionals.length !== 1) throw new UsageError(`takes one run id, found ${positionals.length}`, `${COMMAND} ${sub}`);
  const [id] = positionals;
  switch (sub) {
    case 'status': return status(id, options, client, io);
    case 'wait': return wait(id, options, client, io);
    case 'result': return result(id, options, client, io);
    default: return cancel(id, client, io);
  }
}

/** The runs client of `--remote URL` (one URL) with EVALCORE_REMOTE_TOKEN. */
export function clientOf(remote, io, command) {
  const url = remote.trim();
  if (!/^https?:\/\/[^/\s]+/.test(url) || url.includes(',')) throw new UsageError(`--remote must be one http(s) URL, found "${remote}"`, command);
  return runsClient(url, { token: io.env?.EVALCORE_REMOTE_TOKEN || null });
}

/**
 * The body of a run: the eval set (with the cases `file:a,b` selects), its config and what is
 * scored. Shared with `evalcore eval --detach`.
 */
export function runBody({ evalSet, evalIds, config, actual, agent, numRuns, name }) {
  return {
    evalSet,
    ...(config === null ? {} : { config }),
    ...(actual === undefined ? {} : { actual }),
    ...(agent === undefined ? {} : { agent }),
    ...(evalIds === undefined ? {} : { evalIds }),
    ...(numRuns === undefined ? {} : { numRuns }),
    ...(name === undefined ? {} : { name }),
  };
}

async function submit(positionals, options, client, io) {
  const command = `${COMMAND} submit`;
  if (positionals.length !== 1) throw new UsageError(`takes one EVAL_SET file (with :id,id to select cases), found ${positionals.length}`, command);
  if ((options.actual === undefined) === (options.agent === undefined)) {
    throw new UsageError('give --actual FILE (recorded invocations) or --agent NAME (an agent the server runs), one of them', command);
  }
  if (options.num_runs !== undefined && options.agent === undefined) throw new UsageError('--num_runs applies to --agent runs; recorded invocations are one run', command);
  const [[file, ids]] = [...parseSelectors(positionals)];
  const { evalSet } = readEvalSetFile(file);
  const unknown = ids.filter((id) => !evalSet.eval_cases.some((c) => c.eval_id === id));
  if (unknown.length > 0) throw new UsageError(`eval set "${evalSet.eval_set_id}" has no eval case ${unknown.map((id) => `"${id}"`).join(', ')}`, command);
  const { raw } = readConfig(resolveConfigPath(options.config_file_path, [file], command));
  const body = runBody({
    evalSet, evalIds: ids.length > 0 ? ids : undefined, config: raw,
    actual: options.actual === undefined ? undefined : readActual(options.actual), agent: options.agent,
    numRuns: options.num_runs, name: options.name,
  });
  const run = await client.submit(body, { idempotencyKey: options.idempotency_key ?? null });
  io.stdout.write(`${run.id}\n`);
  io.stderr.write(`${run.replayed ? 'already submitted' : 'submitted'}: run ${run.id} (${run.status}) on ${client.origin}; follow it with: evalcore runs wait ${run.id} --remote ${client.origin}\n`);
  return 0;
}

/** A run's status in one line. */
export function statusLine(v) {
  const c = v.counts;
  const parts = [`${v.id}${v.name ? ` (${v.name})` : ''}: ${v.status}`, `${c.scored + c.dead_letter} of ${c.cases} cases in`,
    `${c.passed} passed, ${c.failed} failed, ${c.not_evaluated} not evaluated${c.dead_letter ? `, ${c.dead_letter} dead-lettered` : ''}`];
  if (v.error) parts.push(`${v.error.code}: ${v.error.message}`);
  return parts.join('; ');
}

async function status(id, options, client, io) {
  const v = await client.status(id);
  if (options.json) io.stdout.write(`${jsonText(v)}\n`);
  else {
    io.stdout.write(`${statusLine(v)}\n`);
    if (v.judge_stats?.requests > 0) io.stdout.write(`${judgeStatsLine(v.judge_stats)}\n`);
  }
  return 0;
}

async function cancel(id, client, io) {
  const v = await client.cancel(id);
  io.stdout.write(`${statusLine(v)}\n`);
  return 0;
}

async function list(positionals, options, client, io) {
  if (positionals.length > 0) throw new UsageError('takes no arguments', `${COMMAND} list`);
  const { runs } = await client.list({ limit: options.limit ?? 20 });
  for (const v of runs) io.stdout.write(`${v.created}  ${statusLine(v)}\n`);
  return 0;
}

async function result(id, options, client, io) {
  const r = await client.result(id);
  const text = `${jsonText(r)}\n`;
  if (options.output === undefined) io.stdout.write(text);
  else {
    mkdirSync(dirname(resolve(options.output)), { recursive: true });
    writeFileSync(resolve(options.output), text);
    io.stderr.write(`wrote ${resolve(options.output)}\n`);
  }
  return 0;
}

async function wait(id, options, client, io) {
  const say = (line) => io.stderr.write(`${line}\n`);
  const first = await client.status(id);
  const progress = createProgress(io.stderr, { runs: first.num_runs ?? 1, env: io.env ?? {} });
  progress.setLabel(first.name ?? id);
  const tally = { casesDone: first.counts.scored + first.counts.dead_letter, casesTotal: first.counts.cases, passed: first.counts.passed, failed: first.counts.failed, notEvaluated: first.counts.not_evaluated };
  const controller = new AbortController();
  const onSignal = () => controller.abort(new Error('interrupted'));
  io.onInterrupt?.(onSignal);
  let summary;
  try {
    summary = await client.follow(id, {
      after: first.events ?? 0,
      signal: controller.signal,
      onEvent: (line) => {
        tally.casesDone++;
        if (line.final_eval_status === 'PASSED') tally.passed++;
        else if (line.final_eval_status === 'FAILED') tally.failed++;
        else tally.notEvaluated++;
        progress.update({ phase: 'case', run: line.run ?? 0, ...tally });
      },
      onReattach: (n, e) => say(`the run's events broke off (${e?.message ?? e}); re-attaching (${n})`),
    });
  } catch (e) {
    if (controller.signal.aborted) {
      say(`stopped following run ${id}; it goes on on the server (evalcore runs wait ${id} --remote ${client.origin})`);
      return 130;
    }
    throw e;
  } finally {
    progress.done();
    io.offInterrupt?.(onSignal);
  }
  return report(summary, await client.result(id), options, io);
}

/** The result as `evalcore eval` prints it; the exit code it would give (and 1 for a failed or cancelled run). */
function report(summary, r, options, io) {
  const say = (line) => io.stderr.write(`${line}\n`);
  const format = options.format ?? 'text';
  const { dead_letter: dead, ...result } = r;
  const strict = options.strict === true;
  const text = formatReport(result.eval_case_results, { detailed: options.print_detailed_results === true });
  const out = format === 'text' ? text : format === 'json' ? toJson([result], { strict }) : format === 'junit' ? toJUnit([result], { strict })
    : format === 'html' ? toHtml([result]) : toMarkdown([result], { strict });
  io.stdout.write(format !== 'text' && options.output === undefined ? out : shielded(text, io.env));
  if (options.output !== undefined) {
    mkdirSync(dirname(resolve(options.output)), { recursive: true });
    writeFileSync(resolve(options.output), out);
    say(`wrote ${resolve(options.output)}`);
  }
  const h = runHealth(result);
  for (const l of h.lines) say(textLine(l));
  if (result.judge_stats?.requests > 0) say(judgeStatsLine(result.judge_stats));
  if (options.results_dir !== undefined) say(`wrote ${writeEvalSetResult(result, resolve(options.results_dir))}`);
  if (summary.status !== 'done') {
    for (const d of dead ?? []) say(`  dead letter: ${d.eval_id}${d.run ? ` (run ${d.run + 1})` : ''}: ${d.error?.code}: ${d.error?.message}`);
    say(`error: run ${summary.id} ${summary.status === 'cancelled' ? 'was cancelled' : `failed${summary.error ? `: ${summary.error.message}` : ''}`} (${summary.counts.scored} of ${summary.counts.cases} cases scored)`);
    return 1;
  }
  const failed = result.eval_case_results.filter((c) => c.final_eval_status !== 'PASSED').length;
  if (failed > 0 || result.eval_case_results.length === 0) return 1;
  if (strict && h.count > 0) {
    say(`error: --strict: ${h.count} metric result(s) were NOT_EVALUATED`);
    return 1;
  }
  return 0;
}
