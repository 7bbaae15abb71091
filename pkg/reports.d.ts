// Types of `evalcore/reports`: JUnit XML, JSON and Markdown reports over eval results.
// Data types (EvalSetResult, RunSummary, ...) are the main entry's.

import type { Content, EvalCaseResult, EvalSetResult, EvalStatus, FunctionCall, Invocation, RunSummary } from './index.js';

/** What the report functions take: one EvalSetResult, several (e.g. one per run or per set), or case results. */
export type ResultsInput = EvalSetResult | EvalSetResult[] | EvalCaseResult[];

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

/** XML text content, escaped (characters XML 1.0 cannot hold are written as `\uXXXX`). */
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
