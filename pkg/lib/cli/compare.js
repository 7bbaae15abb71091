//! `evalcore compare BASELINE CANDIDATE`, `evalcore calibrate LABELS RESULT...` and the
//! comparison `evalcore eval --baseline` runs: result files and folders read, the core's numbers
//! printed as text, Markdown, JSON or JUnit, GitHub Actions annotations, exit codes per --fail_on.
import { appendFileSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { calibrate, compareRuns } from '../wasm/compare.js';
import {
  calibrationText, comparisonAnnotations, comparisonJUnit, comparisonMarkdown, comparisonText, failsOn,
} from '../report/compare_report.js';
import { EvalError } from '../errors.js';
import { readRegularFile } from '../node/files.js';
import { jsonText } from '../report/workflow.js';
import { parseArgs, UsageError } from './args.js';

export const COMPARE_HELP = `Usage: evalcore compare BASELINE CANDIDATE [options]

Compares two sets of eval results with statistics: per metric the mean difference over the
cases scored on both sides with a 95% Student-t interval and a paired t-test (p-values
Holm-adjusted across metrics), pass/fail flips with an exact McNemar test, each case's change
(regressed, improved, unchanged, not comparable, added, removed) and a verdict: regressed,
improved or no significant change.

BASELINE, CANDIDATE   a result file (*.evalset_result.json, any shape ADK or evalcore writes)
                      or a folder of them: every run in it (its *.evalset_result.json files, or
                      else its *.json files)

Options:
  --fail_on WHEN      regressed (default): exit 1 when a case regressed or the verdict is
                      "regressed"; significant: only on the verdict; never: always exit 0
  --alpha A           significance level (default 0.05)
  --format FORMAT     text (default) | markdown (a pull-request comment) | json (compareRuns's
                      object) | junit (the numbers as properties)
  --output FILE       write the report to FILE (stdout keeps the text)
  -h, --help          this help

With GITHUB_ACTIONS=true it also prints ::error / ::warning annotations (to stderr when stdout
carries a json or junit report) and appends the Markdown report to $GITHUB_STEP_SUMMARY.

Exit status: 0, or 1 per --fail_on; 2 for usage errors and unreadable results.
`;

export const CALIBRATE_HELP = `Usage: evalcore calibrate LABELS RESULT... [options]

How far each LLM judge agrees with people: LABELS is a labels file (the viewer exports one;
docs/compare.md has its schema), RESULT the judged results it labels (files or folders). Per
metric (and rubric) and judge model: the number of labels, the agreement with a 95% Wilson
interval, Cohen's kappa and the confusion matrix; groups whose kappa is below the threshold
are flagged.

Options:
  --kappa_threshold K   flag groups with kappa below K (default 0.6)
  --judge_model MODEL   the model that judged RESULT, when its criteria do not name it (an
                        evalcore run's --judge PROVIDER:MODEL overrides the criteria's model)
  --fail_on WHEN        never (default) | flagged: exit 1 when a group is flagged
  --format FORMAT       text (default) | markdown | json (calibrate's object)
  --output FILE         write the report to FILE (stdout keeps the text)
  -h, --help            this help
`;

const COMPARE_FLAGS = {
  fail_on: ['regressed', 'significant', 'never'],
  alpha: 'string',
  format: ['text', 'markdown', 'json', 'junit'],
  output: 'string',
};

const CALIBRATE_FLAGS = {
  kappa_threshold: 'string',
  judge_model: 'string',
  fail_on: ['flagged', 'never'],
  format: ['text', 'markdown', 'json'],
  output: 'string',
};

/** A number flag within [lo, hi] (exclusive bounds where asked). */
export function numberFlag(value, name, lo, hi, command, open = false) {
  const n = Number(value);
  const inside = open ? n > lo && n < hi : n >= lo && n <= hi;
  if (value.trim() === '' || !Number.isFinite(n) || !inside) {
    throw new UsageError(`--${name} must be a number ${open ? 'between' : 'from'} ${lo} ${open ? 'and' : 'to'} ${hi}, found "${value}"`, command);
  }
  return n;
}

/**
 * The result files of a side: the file itself, or a folder's *.evalset_result.json files (else
 * its *.json files), sorted by name. Returns `[{ path, data }]` (data: the file's bytes).
 */
export function readResults(path, what, command) {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) throw new UsageError(`${what} not found: ${path}`, command);
  if (!st.isDirectory()) return [{ path, data: readRegularFile(path, what) }];
  const names = readdirSync(path).sort();
  let picked = names.filter((n) => n.endsWith('.evalset_result.json'));
  if (!picked.length) picked = names.filter((n) => n.endsWith('.json'));
  const files = picked.map((n) => join(path, n)).filter((p) => statSync(p, { throwIfNoEntry: false })?.isFile());
  if (!files.length) throw new UsageError(`${what} ${path}: a folder with no result files (*.evalset_result.json or *.json)`, command);
  return files.map((p) => ({ path: p, data: readRegularFile(p, what) }));
}

/** An error of the core about argument `$name[i]…` as one about the file it came from. */
function inFile(e, sides) {
  if (!(e instanceof EvalError)) return e;
  const m = /^\$(\w+)(?:\[(\d+)\])?(.*)$/.exec(e.path ?? '');
  const files = m ? sides[m[1]] : undefined;
  if (!files) return e;
  const file = files[m[2] === undefined ? 0 : Number(m[2])];
  if (!file) return e;
  return new EvalError(e.code, `$${m[3]}`, `${file.path}: ${e.message}`);
}

/** Writes `report` to `--output` or stdout; stdout then keeps `text`. */
function emit(report, text, opts, io) {
  if (opts.output === undefined) {
    io.stdout.write(report);
    return;
  }
  const out = resolve(opts.output);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, report);
  io.stdout.write(text);
  io.stderr.write(`wrote ${out}\n`);
}

/** The comparison in `format`. */
function render(cmp, format) {
  if (format === 'json') return `${jsonText(cmp)}\n`;
  if (format === 'junit') return comparisonJUnit(cmp);
  if (format === 'markdown') return comparisonMarkdown(cmp);
  return comparisonText(cmp);
}

/** In GitHub Actions: annotations, and the Markdown report in the step summary. */
function github(cmp, failOn, machineStdout, io) {
  const env = io.env ?? {};
  if (env.GITHUB_ACTIONS !== 'true') return;
  const lines = comparisonAnnotations(cmp, { failOn });
  if (lines) (machineStdout ? io.stderr : io.stdout).write(lines);
  if (env.GITHUB_STEP_SUMMARY) {
    try {
      appendFileSync(env.GITHUB_STEP_SUMMARY, comparisonMarkdown(cmp));
    } catch (e) {
      io.stderr.write(`warning: cannot append to GITHUB_STEP_SUMMARY (${env.GITHUB_STEP_SUMMARY}): ${e.message}\n`);
    }
  }
}

/** Compares read sides and reports; returns the exit code per --fail_on. */
function compareAndReport(baseline, candidate, opts, io, command, { machineStdout } = {}) {
  const alpha = opts.alpha === undefined ? undefined : numberFlag(opts.alpha, 'alpha', 0, 1, command, true);
  let cmp;
  try {
    cmp = compareRuns(baseline.map((f) => f.data), candidate.map((f) => f.data), alpha === undefined ? undefined : { alpha });
  } catch (e) {
    throw inFile(e, { baseline, candidate });
  }
  const failOn = opts.fail_on ?? 'regressed';
  const format = opts.format ?? 'text';
  emit(render(cmp, format), comparisonText(cmp), opts, io);
  github(cmp, failOn, machineStdout ?? (opts.output === undefined && (format === 'json' || format === 'junit')), io);
  return failsOn(cmp, failOn);
}

/** Runs `evalcore compare`; returns the exit code. */
export async function runCompare(argv, io) {
  const command = 'compare';
  const { positionals, options: opts, help } = parseArgs(argv, COMPARE_FLAGS, command);
  if (help) {
    io.stdout.write(COMPARE_HELP);
    return 0;
  }
  if (positionals.length !== 2) {
    throw new UsageError(`expected BASELINE and CANDIDATE (a result file or a folder of them each), found ${positionals.length} argument(s)`, command);
  }
  const baseline = readResults(positionals[0], 'baseline', command);
  const candidate = readResults(positionals[1], 'candidate', command);
  return compareAndReport(baseline, candidate, opts, io, command);
}

/** The flags `evalcore eval` takes for --baseline. */
export const BASELINE_FLAGS = {
  baseline: 'string',
  fail_on: COMPARE_FLAGS.fail_on,
  alpha: 'string',
  compare_format: COMPARE_FLAGS.format,
  compare_output: 'string',
};

/** `evalcore eval --baseline`: the baseline's files, read before the run (a bad path stops it). */
export function readBaseline(opts, command) {
  if (opts.baseline === undefined) {
    for (const f of ['fail_on', 'alpha', 'compare_format', 'compare_output']) {
      if (opts[f] !== undefined) throw new UsageError(`--${f} needs --baseline FILE|DIR`, command);
    }
    return null;
  }
  if (opts.alpha !== undefined) numberFlag(opts.alpha, 'alpha', 0, 1, command, true);
  return readResults(opts.baseline, 'baseline', command);
}

/**
 * After `evalcore eval --baseline`: the run's results compared with the baseline, the report
 * on stdout (stderr when stdout carries a machine report) or in --compare_output; returns the
 * exit code per --fail_on.
 */
export function compareAfterEval(baseline, results, opts, io, stdoutIsMachine) {
  const candidate = results.map((r, i) => ({ path: `the run's result ${i + 1} (${r.eval_set_id})`, data: r }));
  const out = stdoutIsMachine && opts.compare_output === undefined ? { ...io, stdout: io.stderr } : io;
  return compareAndReport(baseline, candidate, { ...opts, format: opts.compare_format, output: opts.compare_output }, out, 'eval', { machineStdout: stdoutIsMachine });
}

/** Runs `evalcore calibrate`; returns the exit code. */
export async function runCalibrate(argv, io) {
  const command = 'calibrate';
  const { positionals, options: opts, help } = parseArgs(argv, CALIBRATE_FLAGS, command);
  if (help) {
    io.stdout.write(CALIBRATE_HELP);
    return 0;
  }
  if (positionals.length < 2) throw new UsageError('expected LABELS and one or more RESULT files or folders', command);
  const [labelsPath, ...resultPaths] = positionals;
  const labels = { path: labelsPath, data: readRegularFile(labelsPath, 'labels file') };
  const results = resultPaths.flatMap((p) => readResults(p, 'result', command));
  const options = {};
  if (opts.kappa_threshold !== undefined) options.kappaThreshold = numberFlag(opts.kappa_threshold, 'kappa_threshold', -1, 1, command);
  if (opts.judge_model !== undefined) options.judgeModel = opts.judge_model;
  let cal;
  try {
    cal = calibrate(labels.data, results.map((f) => f.data), options);
  } catch (e) {
    throw inFile(e, { labels: [labels], results });
  }
  const format = opts.format ?? 'text';
  const report = format === 'json' ? `${jsonText(cal)}\n` : calibrationText(cal, { markdown: format === 'markdown' });
  emit(report, calibrationText(cal), opts, io);
  return opts.fail_on === 'flagged' && cal.metrics.some((g) => g.flagged) ? 1 : 0;
}
