// Types of `evalcore/reports`: JUnit XML, JSON and Markdown reports over eval results.
// Self-contained apart from the data types of the main entry.

import type { Content, EvalCaseResult, EvalSetResult, EvalStatus, FunctionCall, Invocation } from './index.js';

/** One metric of one case over several runs, as the core's `run_summary` reports it. */
export interface RunSummaryMetric {
  metric_name: string;
  threshold: number | null;
  informational: boolean;
  /** The case-level score of each run (null where a run produced none). */
  case_scores: (number | null)[];
  min: number | null;
  mean: number | null;
  max: number | null;
  stddev: number | null;
  /** ADK AgentEvaluator's score: the mean of every invocation's score over every run (SPEC §4.6). */
  invocation_mean: number | null;
  lower_is_better: boolean;
  /** null: informational, or no score to judge. */
  passed: boolean | null;
}

export interface RunSummaryCase {
  eval_id: string;
  /** The case's final status in each run. */
  statuses: EvalStatus[];
  /** True when the runs did not all end with the same status. */
  flipped: boolean;
  metrics: RunSummaryMetric[];
}

export interface RunSummary {
  num_runs: number;
  cases: RunSummaryCase[];
}

/** An EvalSetResult as `evaluate` returns it: case results may carry their run and an agent error. */
export type EvalSetResultWithRuns = EvalSetResult & {
  run_summary?: RunSummary;
  eval_case_results: (EvalCaseResult & { run?: number; error?: { code: string; message: string } })[];
};

/** What the report functions take: one EvalSetResult, several (e.g. one per run or per set), or case results. */
export type ResultsInput = EvalSetResultWithRuns | EvalSetResultWithRuns[] | EvalCaseResult[];

export interface JUnitOptions {
  /** The `<testsuites name>` (default "evalcore"). */
  name?: string;
}

/**
 * JUnit XML: one `<testsuite>` per eval set, one `<testcase>` per eval case (per case and run
 * when there are several runs). FAILED → `<failure type="FAILED">`, NOT_EVALUATED →
 * `<failure type="NOT_EVALUATED">` (it fails `adk eval` too), an agent error → `<error>`.
 */
export declare function toJUnit(results: ResultsInput, options?: JUnitOptions): string;

export interface JsonReport {
  /** Every case PASSED and at least one ran: what `evalcore eval`'s exit code 0 means. */
  ok: boolean;
  summary: {
    total: number;
    passed: number;
    failed: number;
    not_evaluated: number;
    eval_sets: { eval_set_id: string; runs: number; total: number; passed: number; failed: number; not_evaluated: number }[];
  };
  eval_set_results: unknown[];
}

/** A {@link JsonReport} as pretty JSON text. */
export declare function toJson(results: ResultsInput, options?: { indent?: number }): string;

export interface MarkdownOptions {
  /** The heading's name (default "evalcore"). */
  title?: string;
  /** At most this many collapsible failure blocks (default 20). */
  maxDetails?: number;
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
  metrics: { metric_name: string; score: number | null; threshold: number | null; eval_status: EvalStatus }[];
}

export declare function invocationView(entry: {
  actual_invocation?: Invocation | null;
  expected_invocation?: Invocation | null;
  eval_metric_results?: unknown[];
}): InvocationView;

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

/** XML text content, escaped (characters XML 1.0 cannot hold are written as `\uXXXX`). */
export declare function escapeXmlText(text: string): string;

/** An XML attribute value, escaped (quotes, newlines and tabs as character references). */
export declare function escapeXmlAttr(text: string): string;
