//! `evalcore grade DATASET...`: agents-cli's `eval grade`, locally and with any judge — the
//! traces of agents-cli EvaluationDatasets scored with its config's metrics, written as an
//! evalcore result file and a self-contained HTML report, with agents-cli's summary per metric.
import { closeSync, mkdirSync, openSync, readdirSync, renameSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import '../wasm/node_start.js';
import { evaluate } from '../run/evaluate.js';
import { loadEvaluationDataset } from '../wasm/api.js';
import { addJudgeStats, judgeStatsLine, runHealth } from '../health.js';
import { toHtml } from '../report/report_html.js';
import { parseArgs, UsageError } from './args.js';
import { configWarnings, customMetricsFrom, judgeFromFlags, metricsFromFlag } from './eval_run.js';
import { agentsCliConfigNear, readConfig } from '../node/config.js';
import { idFromFileName } from '../node/evalsets.js';
import { inFile, isRegularFile, readRegularFile } from '../node/files.js';
import { createProgress } from './progress.js';
import { textLine } from '../report/workflow.js';

const COMMAND = 'grade';

export const FLAGS = {
  config: 'string',
  metrics: 'string',
  output: 'string',
  custom_metrics: 'string',
  judge: 'string',
  judge_base_url: 'string',
  judge_cassette: 'string',
  judge_mode: ['record', 'replay', 'auto'],
  judge_timeout: 'seconds',
  judge_retries: 'count',
  judge_media: 'bool',
  dry_run: 'bool',
  concurrency: 'int',
  strict: 'bool',
};

export const HELP = `Usage: evalcore grade [DATASET...] [options]

Scores the traces of agents-cli EvaluationDatasets (what \`agents-cli eval generate\` and
\`eval dataset synthesize\` write, or any case with complete agent_data turns or responses) like
\`agents-cli eval grade\`, locally, with any judge: agents-cli's metrics are judged here with
evalcore's own prompts and rubrics (\`evalcore metrics\` lists them), custom LLM metrics with
their prompt_template.

DATASET        a dataset file, or a folder of them (every *.json in it); default:
               artifacts/traces/ (agents-cli's). Cases without a trace (inference input) are
               listed and skipped: run them with \`evalcore eval AGENT DATASET\`.

Options:
  --config PATH               agents-cli's eval config (metrics_to_run, custom_metrics; YAML or
                              JSON) or ADK's; default: tests/eval/eval_config.yaml or
                              eval/eval_config.yaml (agents-cli's), else an eval_config.yaml
                              beside the dataset or one folder up
  --metrics A,B               the metrics to run (replaces the config's metrics_to_run)
  --output DIR                where results_<time>.json and .html go (default
                              artifacts/grade_results)
  --custom_metrics MODULE     a .js/.mjs module exporting custom metric functions by name (for
                              what agents-cli writes as a Python custom_function)
  --judge PROVIDER:MODEL      the judge (gemini, openai, anthropic); API key from
                              GEMINI_API_KEY / GOOGLE_API_KEY, OPENAI_API_KEY or ANTHROPIC_API_KEY
  --judge_base_url URL, --judge_cassette FILE, --judge_mode MODE, --judge_timeout SECONDS,
  --judge_retries N, --judge_media, --dry_run
                              as for \`evalcore eval\`
  --concurrency N             cases scored at once (default 4)
  --strict                    exit 1 on any NOT_EVALUATED metric or config warning too
  -h, --help                  this help

Thresholds: a metric passes at its best score (1.0) unless the config's custom_metrics entry
for it gives a \`threshold\`; a custom LLM metric without one is INFORMATIONAL (its score is
reported, it passes or fails nothing).

Exit status: 0 when no graded case FAILED or has a metric that could not be evaluated (a case
whose metrics are all informational passes nothing and fails nothing), 1 otherwise or when
nothing was graded, 2 for usage errors.
`;

/** agents-cli's default locations, from the project root (the working directory). */
const DEFAULT_TRACES = join('artifacts', 'traces');
const DEFAULT_OUTPUT = join('artifacts', 'grade_results');
const DEFAULT_CONFIGS = [join('tests', 'eval', 'eval_config.yaml'), join('eval', 'eval_config.yaml')];

/** The dataset files of the arguments: files as given, folders' *.json (sorted). */
function datasetFiles(args) {
  const files = [];
  for (const a of args.length > 0 ? args : [DEFAULT_TRACES]) {
    const st = statSync(a, { throwIfNoEntry: false });
    if (!st) throw new UsageError(args.length > 0 ? `dataset not found: ${a}` : `no DATASET given and no ${DEFAULT_TRACES}/ here (agents-cli's traces folder)`, COMMAND);
    if (st.isDirectory()) {
      const found = readdirSync(a).filter((n) => n.toLowerCase().endsWith('.json')).sort().map((n) => join(a, n)).filter(isRegularFile);
      if (found.length === 0) throw new UsageError(`no *.json dataset in ${a}`, COMMAND);
      files.push(...found);
    } else if (st.isFile()) files.push(a);
    else throw new UsageError(`dataset ${a} is not a regular file or a folder`, COMMAND);
  }
  return files;
}

/** Every dataset file read and merged into one eval set (as agents-cli merges trace files). */
function readDatasets(files) {
  const cases = [];
  const actual = {};
  const grading = [];
  const inference = [];
  const from = new Map();
  for (const f of files) {
    const d = inFile(f, () => loadEvaluationDataset(readRegularFile(f, 'dataset'), { id: idFromFileName(f) }));
    for (const c of d.eval_set.eval_cases) {
      if (from.has(c.eval_id)) throw new UsageError(`${f} and ${from.get(c.eval_id)} both have an eval case "${c.eval_id}"`, COMMAND);
      from.set(c.eval_id, f);
      cases.push(c);
    }
    Object.assign(actual, d.actual);
    grading.push(...d.grading);
    inference.push(...d.inference.map((id) => ({ id, file: f })));
  }
  const id = files.length === 1 ? idFromFileName(files[0]) ?? 'dataset' : 'traces';
  return { evalSet: { eval_set_id: id, eval_cases: cases }, actual, grading, inference };
}

/** The config to grade with: --config, agents-cli's default locations, or one near the datasets. */
function configPath(opts, files) {
  if (opts.config !== undefined) {
    if (!isRegularFile(opts.config)) throw new UsageError(`config file not found: ${opts.config}`, COMMAND);
    return opts.config;
  }
  const found = DEFAULT_CONFIGS.find(isRegularFile);
  if (found) return found;
  return files.length > 0 ? agentsCliConfigNear(resolve(files[0], '..')) : null;
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const stdev = (xs) => {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
};
const fmt = (x) => x.toFixed(4);

/**
 * agents-cli's summary per metric (its AggregatedMetricResult: cases total, valid, in error,
 * mean and standard deviation of the scores, pass rate), from the case-level metric results.
 */
export function summaryLines(caseResults) {
  const by = new Map();
  for (const r of caseResults) {
    for (const m of r.overall_eval_metric_results ?? []) {
      // ADK's always-on efficiency metrics (informational, no criterion) are not graded metrics.
      if (m.eval_status === 'INFORMATIONAL' && !m.criterion) continue;
      if (!by.has(m.metric_name)) by.set(m.metric_name, []);
      by.get(m.metric_name).push(m);
    }
  }
  const lines = ['', 'Evaluation Summary'];
  for (const [name, ms] of by) {
    const valid = ms.filter((m) => typeof m.score === 'number');
    const scores = valid.map((m) => m.score);
    lines.push('', `${textLine(name)}:`, `  num_cases_total: ${ms.length}`, `  num_cases_valid: ${valid.length}`, `  num_cases_error: ${ms.length - valid.length}`);
    if (scores.length > 0) lines.push(`  mean_score: ${fmt(mean(scores))}`);
    if (scores.length > 1) lines.push(`  stdev_score: ${fmt(stdev(scores))}`);
    const judged = valid.filter((m) => m.eval_status === 'PASSED' || m.eval_status === 'FAILED');
    if (judged.length > 0) lines.push(`  pass_rate: ${fmt(judged.filter((m) => m.eval_status === 'PASSED').length / judged.length)}`);
  }
  return [...lines, ''];
}

/** `YYYYMMDD_HHMMSS`, agents-cli's timestamp for its result files (local time). */
function stamp(d = new Date()) {
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}_${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}

/**
 * The result file as `JSON.stringify(result, null, 2)` writes it, a case at a time (the text of
 * tens of thousands of cases need not be one string), under a temporary name until it is whole.
 */
function writeResultFile(path, result) {
  const tmp = `${path}.partial`;
  const fd = openSync(tmp, 'w');
  const json = (v, indent) => JSON.stringify(v, null, 2).replace(/\n/g, `\n${indent}`);
  try {
    const keys = Object.keys(result).filter((k) => result[k] !== undefined);
    writeSync(fd, '{\n');
    keys.forEach((k, i) => {
      const comma = i < keys.length - 1 ? ',' : '';
      const cases = result[k];
      if (k !== 'eval_case_results' || !Array.isArray(cases) || cases.length === 0) {
        writeSync(fd, `  ${JSON.stringify(k)}: ${json(cases, '  ')}${comma}\n`);
        return;
      }
      writeSync(fd, '  "eval_case_results": [\n');
      cases.forEach((c, j) => writeSync(fd, `    ${json(c, '    ')}${j < cases.length - 1 ? ',' : ''}\n`));
      writeSync(fd, `  ]${comma}\n`);
    });
    writeSync(fd, '}\n');
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/** Runs `evalcore grade`; returns the exit code. */
export async function runGrade(argv, io) {
  const { positionals, options: opts, help } = parseArgs(argv, FLAGS, COMMAND);
  if (help) {
    io.stdout.write(HELP);
    return 0;
  }
  const say = (line) => io.stderr.write(`${line}\n`);
  const judge = judgeFromFlags(opts, io.env);
  const metrics = metricsFromFlag(opts.metrics, COMMAND);
  const customMetrics = await customMetricsFrom(opts.custom_metrics, COMMAND);
  const files = datasetFiles(positionals);
  const path = configPath(opts, files);
  if (path === null && metrics === undefined) {
    throw new UsageError(`no metrics: give --metrics a,b or --config FILE (agents-cli's ${DEFAULT_CONFIGS[0]} is not here)`, COMMAND);
  }
  const cfg = readConfig(path, { metrics });
  const warnings = configWarnings(cfg, path, customMetrics);
  for (const w of warnings) say(w);
  if (opts.strict && warnings.length > 0) {
    say(`error: --strict: the config has ${warnings.length} warning(s); nothing was graded`);
    return 1;
  }
  const { evalSet, actual, grading, inference } = readDatasets(files);
  io.stdout.write(`Loaded ${evalSet.eval_cases.length} eval case(s) from ${files.length} file(s); grading ${grading.length} with: ${textLine(Object.keys(cfg.config.criteria).join(', '))}\n`);
  if (inference.length > 0) {
    say(`${inference.length} case(s) have no trace to grade (inference input; run them with \`evalcore eval AGENT DATASET\`): ${textLine(inference.map((c) => c.id).join(', '))}`);
  }
  if (judge && !judge.headers && !judge.baseUrl && judge.cassette?.mode !== 'replay' && !judge.dryRun) {
    say(`warning: no API key for the ${judge.provider} judge in the environment; judged metrics will be NOT_EVALUATED`);
  }
  if (grading.length === 0) {
    say('error: nothing to grade: no case has a trace');
    return 1;
  }
  const progress = createProgress(io.stderr, { runs: 1, env: io.env ?? {} });
  const args = { evalSet, actual, config: cfg.config, evalIds: grading, onProgress: (p) => progress.update(p) };
  if (judge) args.judge = judge;
  if (customMetrics) args.customMetrics = customMetrics;
  if (opts.concurrency !== undefined) args.concurrency = opts.concurrency;
  let result;
  try {
    result = await evaluate(args);
  } finally {
    progress.done();
  }
  const cases = result.eval_case_results;
  for (const l of summaryLines(cases)) io.stdout.write(`${l}\n`);
  const h = runHealth([result]);
  for (const l of h.lines) say(textLine(l));
  if (result.judge_stats?.requests > 0 && !judge?.dryRun) say(judgeStatsLine(addJudgeStats(null, result.judge_stats)));
  if (judge?.dryRun) {
    const p = result.judge_plan;
    say(`dry run: ${p?.count ?? 0} judge call(s) would be sent (about ${p?.estimatedTokens ?? 0} prompt tokens); nothing was sent and no result file was written`);
  } else {
    const out = resolve(opts.output ?? DEFAULT_OUTPUT);
    mkdirSync(out, { recursive: true });
    const base = join(out, `results_${stamp()}`);
    writeResultFile(`${base}.json`, result);
    writeFileSync(`${base}.html`, toHtml([result], { title: `evalcore grade ${basename(files[0])}${files.length > 1 ? ` (+${files.length - 1})` : ''}`, generated: `graded with ${path ?? '--metrics'} on ${new Date().toISOString()}` }));
    say(`Saved full results to ${base}.json`);
    say(`Saved HTML results to ${base}.html`);
  }
  // A case fails the run when it FAILED or something in it could not be evaluated; one whose
  // metrics are all informational (custom LLM metrics without a threshold) only reports scores.
  const failing = (r) => r.final_eval_status === 'FAILED' || (r.final_eval_status === 'NOT_EVALUATED'
    && (r.error || (r.overall_eval_metric_results ?? []).some((m) => m.eval_status === 'NOT_EVALUATED')));
  if (cases.some(failing) || cases.length === 0) return 1;
  if (opts.strict && h.count > 0) {
    say(`error: --strict: ${h.count} metric result(s) were NOT_EVALUATED`);
    return 1;
  }
  return 0;
}
