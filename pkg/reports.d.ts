// Types of `evalcore/reports`: JUnit XML, JSON and Markdown reports over eval results.
// Data types (EvalSetResult, RunSummary, ...) are the main entry's.

import type { Content, EvalCaseResult, EvalSetResult, EvalStatus, FunctionCall, Invocation, RunSummary } from './index.js';

/**
 * What the report functions take: one EvalSetResult, several (e.g. one per run or per set), or
 * case results, in any shape `loadEvalSetResult` reads (ADK's files, camelCase, integer statuses).
 * Input that is not results throws `EvalError` (code `schema`, with the path of what is wrong).
 */
export type ResultsInput = EvalSetResult | EvalSetResult[] | EvalCaseResult[];

export interface JUnitOptions {
  /** The `<testsuites name>` (default "evalcore"). */
  name?: string;
  /** A case with a NOT_EVALUATED metric fails (`<failure type="NOT_EVALUATED">`) even when ADK's rule passes it. */
  strict?: boolean;
}

/**
 * JUnit XML: one `<testsuite>` per eval set, one `<testcase>` per eval case (per case and run
 * when there are several runs). FAILED → `<failure type="FAILED">`, NOT_EVALUATED →
 * `<failure type="NOT_EVALUATED">` (it fails `adk eval` too), an agent error → `<error>`.
 * Each suite's `<properties>` count the NOT_EVALUATED metric results
 * (`evalcore.not_evaluated_metrics`, `evalcore.not_evaluated.<reason>`).
 */
export declare function toJUnit(results: ResultsInput, options?: JUnitOptions): string;

/** NOT_EVALUATED metric results (a case can pass with some under ADK's rule), in all and per reason. */
export interface NotEvaluatedCounts {
  not_evaluated_metrics: number;
  not_evaluated_reasons: Record<string, number>;
}

export interface JsonReport {
  /**
   * Every case PASSED and at least one ran: what `evalcore eval`'s exit code 0 means (with
   * `strict`, also no NOT_EVALUATED metric result).
   */
  ok: boolean;
  summary: NotEvaluatedCounts & {
    total: number;
    passed: number;
    failed: number;
    not_evaluated: number;
    eval_sets: (NotEvaluatedCounts & { eval_set_id: string; runs: number; total: number; passed: number; failed: number; not_evaluated: number })[];
  };
  eval_set_results: unknown[];
}

/** What a run could not do, from its results: see `runHealth`. */
export interface RunHealth {
  /**
   * NOT_EVALUATED metric results: case-level ones, and the invocations a metric could not
   * evaluate in a case it scored on the others (the case result's `not_evaluated_invocations`).
   */
  count: number;
  /** Case-level metric results that were evaluated (not informational). */
  evaluated: number;
  /** Case runs the agent (or the simulated user) could not complete. */
  agentErrors: number;
  byReason: { reason: string; count: number; metrics: string[]; example: string | null }[];
  /** One per NOT_EVALUATED result; `invocation` is the 0-based index (null for a case-level result), `of` the case's invocations when known. */
  items: { evalId: string; run: number; label: string; metric: string; invocation: number | null; of: number | null; reason: string; error: string | null }[];
  caseErrors: { evalId: string; run: number; label: string; code: string; message: string; turn?: number | null; stack?: string | null }[];
  /** All of it as a few lines of text (empty when there is nothing to say). */
  lines: string[];
  /** The NOT_EVALUATED part on one line ('' when none). */
  summary: string;
}

/** What results (in the core's model, e.g. what `evaluate` returns) could not evaluate, and why. */
export declare function runHealth(results: EvalSetResult | EvalSetResult[] | EvalCaseResult[]): RunHealth;

/** A {@link JsonReport} as pretty JSON text. */
export declare function toJson(results: ResultsInput, options?: { indent?: number; strict?: boolean }): string;

export interface MarkdownOptions {
  /** The heading's name (default "evalcore"). */
  title?: string;
  /** At most this many collapsible failure blocks (default 20). */
  maxDetails?: number;
  /** A NOT_EVALUATED metric result turns the verdict to ❌. */
  strict?: boolean;
}

/**
 * A pull-request comment: the verdict, eval sets with pass/fail counts, per set a table of cases
 * (failing first) with each metric's score against its threshold, and a collapsible block per
 * failing case.
 */
export declare function toMarkdown(results: ResultsInput, options?: MarkdownOptions): string;

/** Results grouped per eval set, each case with its run. */
export declare function groupResults(results: ResultsInput): {
  evalSetId: string;
  runs: number;
  cases: { evalId: string; run: number; result: EvalCaseResult }[];
  runSummary: RunSummary | null;
}[];

/** One invocation of a case next to what was expected, with its metric results. */
export interface InvocationView {
  prompt: string;
  /** null when the case has no expected invocation (conversation scenarios). */
  expectedResponse: string | null;
  actualResponse: string;
  expectedToolCalls: string[] | null;
  actualToolCalls: string[];
  metrics: {
    metric_name: string;
    score: number | null;
    threshold: number | null;
    eval_status: EvalStatus;
    /** A trajectory metric's explanation of this invocation (`details.trajectory.lines`); empty when it scored 1. */
    mismatch?: string[];
  }[];
}

export declare function invocationView(entry: {
  actual_invocation?: Invocation | null;
  expected_invocation?: Invocation | null;
  eval_metric_results?: unknown[];
}): InvocationView;

/**
 * An {@link InvocationView} as text lines (prompt, responses, tool calls), then `metrics`
 * (default: the view's) as `name: STATUS (score S, threshold T)`.
 */
export declare function invocationLines(view: InvocationView, metrics?: InvocationView['metrics']): string[];

/** Why a case did not pass: its deciding metrics, then the invocations they failed on. */
export declare function explainCase(result: EvalCaseResult): string;

/** The text parts of a Content joined with newlines. */
export declare function contentText(content: Content | null | undefined): string;

/** The tool calls of an invocation (either intermediate-data shape). */
export declare function toolCalls(invocation: Invocation | null | undefined): FunctionCall[];

/** `name(key=value, ...)`. */
export declare function formatToolCall(call: FunctionCall): string;

/** A score for people: up to 4 decimals, `n/a` for none. */
export declare function formatScore(score: number | null | undefined): string;

/**
 * XML text content, escaped: line breaks as character references (a text never starts a line),
 * `##[` with its `[` as one (a CI runner reads no workflow command in it), and characters XML 1.0
 * cannot hold written as `\uXXXX`.
 */
export declare function escapeXmlText(text: string): string;

/** An XML attribute value, escaped (quotes, newlines and tabs as character references). */
export declare function escapeXmlAttr(text: string): string;

export interface HtmlOptions {
  /** The heading's name (default "evalcore"). */
  title?: string;
  /** At most this many cases that did not pass are written out in full (default 200). */
  maxDetails?: number;
  /** A line under the heading (e.g. when and from what the report was made). */
  generated?: string | null;
}

/**
 * A self-contained HTML report (no scripts, no outside requests): the verdict, per eval set a
 * case x metric table, failing cases first, and per failing case its metrics and invocations.
 */
export declare function toHtml(results: ResultsInput, options?: HtmlOptions): string;

// ---------------------------------------------------------------------------------------------
// Comparing runs (docs/compare.md; the numbers exactly as ../shared/COMPARE.md defines them)

/** One result in any shape `loadEvalSetResult` reads: JSON text, the file's bytes or the value. */
export type ResultSource = string | Uint8Array | ArrayBuffer | EvalSetResult | object;

export interface CompareOptions {
  /** Significance level (default 0.05); a metric is significant when its Holm-adjusted p-value is below it. */
  alpha?: number;
}

export type CaseChange = 'added' | 'removed' | 'not_comparable' | 'regressed' | 'improved' | 'unchanged';
export type CaseSideStatus = 'PASSED' | 'FAILED' | 'NOT_EVALUATED' | null;

/**
 * Why something on a side was not scored: a NOT_EVALUATED metric (its `details.reason` and
 * `details.error`) or a case the agent could not complete (its error's code and message).
 */
export interface ComparisonNote {
  side: 'baseline' | 'candidate';
  /** Which of the case's runs on that side (0-based). */
  run: number;
  /** null for the case's agent error. */
  metric_name: string | null;
  reason: string | null;
  error: string | null;
}

export interface ComparisonCase {
  eval_id: string;
  change: CaseChange;
  /** NOT_EVALUATED when any run is, PASSED when every run passed, else FAILED; null when absent. */
  baseline_status: CaseSideStatus;
  candidate_status: CaseSideStatus;
  /** Per listed metric with a score on at least one side: the means over PASSED/FAILED runs. */
  metrics: Record<string, {
    baseline: number | null;
    candidate: number | null;
    /** candidate − baseline; null when either is. */
    delta: number | null;
    baseline_status: EvalStatus | null;
    candidate_status: EvalStatus | null;
  }>;
  eval_set_id: string;
  baseline_runs: number;
  candidate_runs: number;
  /** Present when something was not scored. */
  notes?: ComparisonNote[];
}

export interface ComparisonMetric {
  metric_name: string;
  /** Cases scored on both sides. */
  n: number;
  baseline_mean: number;
  candidate_mean: number;
  mean_delta: number;
  /** mean ± t(0.975, n − 1) · sd / √n; the mean itself when n = 1 or every difference is equal. */
  ci95: [number, number];
  /** Two-sided paired t-test (scipy.stats.ttest_rel). */
  p_value: number;
  /** Holm–Bonferroni across the listed metrics. */
  p_adjusted: number;
  significant: boolean;
  threshold: number | null;
  /** Kept cases whose score rose / fell. */
  higher: number;
  lower: number;
}

export interface Comparison {
  cases: ComparisonCase[];
  metrics: ComparisonMetric[];
  pass_fail: {
    n: number;
    baseline_passed: number;
    candidate_passed: number;
    /** Passed in the baseline, not in the candidate. */
    b: number;
    /** The reverse. */
    c: number;
    /** Exact two-sided binomial (McNemar) test on b and c; 1 when b + c = 0. */
    p_value: number;
  };
  verdict: 'regressed' | 'improved' | 'no_significant_change';
  alpha: number;
  runs: { baseline: number; candidate: number };
  eval_set_ids: { baseline: string[]; candidate: string[] };
}

/**
 * Compares a baseline with a candidate, each one result or an array of results (several runs
 * of one eval set). Bad input throws `EvalError` with a path such as `$candidate[1].eval_case_results[0]`.
 */
export declare function compareRuns(baseline: ResultSource | ResultSource[], candidate: ResultSource | ResultSource[], options?: CompareOptions): Comparison;

/** The comparison for the console. */
export declare function comparisonText(comparison: Comparison, options?: { maxCases?: number }): string;
/** A pull-request comment: the verdict, significant metrics with intervals, regressed cases with why, the rest collapsed. */
export declare function comparisonMarkdown(comparison: Comparison, options?: { title?: string; maxCases?: number }): string;
/** JUnit XML: the numbers as properties; a test per metric, one for pass/fail flips, one per case. */
export declare function comparisonJUnit(comparison: Comparison, options?: { name?: string }): string;
/** GitHub Actions `::error` / `::warning` lines: errors for what fails the job under `failOn` (default "regressed"). */
export declare function comparisonAnnotations(comparison: Comparison, options?: { failOn?: 'regressed' | 'significant' | 'never'; maxCases?: number }): string;

// ---------------------------------------------------------------------------------------------
// Judges against people

/** A person's verdict on one judged verdict (docs/compare.md: the labels file, version 1). */
export interface JudgeLabel {
  eval_set_id: string;
  eval_id: string;
  /** Which run of the case (evalcore's `run`; absent: run 0 or a result without one). */
  run?: number | null;
  /** 0 for the case's first invocation. */
  invocation_index: number;
  /** The labelled invocation's id: results holding another invocation there are not what was labelled. */
  invocation_id?: string | null;
  metric_name: string;
  /** A rubric's verdict rather than the invocation's. */
  rubric_id?: string | null;
  /** What the judge said when the person labelled (needed by "agree" and "disagree"). */
  judge_verdict?: 'pass' | 'fail' | null;
  label: 'agree' | 'disagree' | 'pass' | 'fail';
  note?: string | null;
  [extra: string]: unknown;
}

export interface JudgeLabels {
  kind: 'evalcore.labels';
  version: 1;
  labels: JudgeLabel[];
  [extra: string]: unknown;
}

export interface CalibrateOptions {
  /** Groups whose Cohen's kappa is below this are flagged (default 0.6). */
  kappaThreshold?: number;
  /** The model that judged the results, when their criteria do not name it. */
  judgeModel?: string;
}

export interface CalibrationGroup {
  metric_name: string;
  rubric_id: string | null;
  judge_model: string;
  n: number;
  agreement: number;
  /** Wilson's 95% interval of the agreement. */
  agreement_ci95: [number, number];
  /** null when undefined (the judge and the person each gave one and the same verdict throughout). */
  kappa: number | null;
  confusion: { judge_pass_human_pass: number; judge_pass_human_fail: number; judge_fail_human_pass: number; judge_fail_human_fail: number };
  flagged: boolean;
  flag_reason: string | null;
}

export interface Calibration {
  metrics: CalibrationGroup[];
  kappa_threshold: number;
  /** Labels read, and how many were counted. */
  labels: number;
  used: number;
  /** Labels not counted: `unmatched`, `stale` (another invocation now), `ambiguous` or `not_evaluated`. */
  skipped: { path: string; reason: 'unmatched' | 'stale' | 'ambiguous' | 'not_evaluated'; message: string }[];
}

/** How far each judge agrees with people's labels, per metric (and rubric) and judge model. */
export declare function calibrate(labels: string | Uint8Array | ArrayBuffer | JudgeLabels, results: ResultSource | ResultSource[], options?: CalibrateOptions): Calibration;

/** A calibration as console text, or with `markdown` as a Markdown table. */
export declare function calibrationText(calibration: Calibration, options?: { markdown?: boolean }): string;

/** A metric's course over runs (see {@link runTrend}). */
export interface RunTrend {
  /** The results, oldest first (by `creation_timestamp`). */
  runs: { eval_set_result_id: string; eval_set_id: string; creation_timestamp: number | null; cases: number; passed: number;
    /** Share of cases that passed, with Wilson's 95% interval. */
    pass_rate: number | null; pass_rate_ci95: [number | null, number | null] }[];
  /** Per metric, a point per run (null where the run has no score): the mean case score and its 95% Student-t interval. */
  metrics: { metric_name: string; points: ({ run: number; n: number; mean: number; ci95: [number, number] } | null)[] }[];
}

/** Each result as one run of a trend: per metric the mean case score with a 95% interval, and the pass rate with Wilson's. */
export declare function runTrend(results: ResultSource | ResultSource[]): RunTrend;
