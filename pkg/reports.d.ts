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
  /** NOT_EVALUATED case-level metric results. */
  count: number;
  /** Case-level metric results that were evaluated (not informational). */
  evaluated: number;
  /** Case runs the agent (or the simulated user) could not complete. */
  agentErrors: number;
  byReason: { reason: string; count: number; metrics: string[]; example: string | null }[];
  items: { evalId: string; run: number; label: string; metric: string; reason: string; error: string | null }[];
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
