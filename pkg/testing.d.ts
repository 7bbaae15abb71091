// Types of `evalcore/testing` (Node only): ADK's AgentEvaluator for node:test, vitest and jest.

import type {
  AbortSignalLike, Agent, ConfigArg, CustomMetric, EvalCaseResult, EvalSet, EvalSetResult, JsonInput, Judge, Progress,
} from './index.js';

/** An Agent callback, an `@google/adk` agent / App / Runner (wrapped with `fromAdkAgent`), or the path of an agent module. */
export type AgentInput = Agent | object | string;

export interface AgentEvaluatorOptions<Custom extends string = never> {
  /** Runs of every case (default 2, as ADK). */
  numRuns?: number;
  /** A config file used for every eval file instead of the `test_config.json` beside it. */
  configPath?: string;
  /** A config object or JSON text (wins over `configPath`). */
  config?: ConfigArg<NoInfer<Custom>>;
  /** The LLM judge for judged metrics. */
  judge?: Judge;
  /** Eval cases in flight. */
  concurrency?: number;
  /** Run only these cases. */
  evalIds?: string[];
  /** Initial session (`{app_name, user_id, state}` JSON file) for legacy `*.test.json` data. */
  initialSessionFile?: string;
  /** Print ADK's detailed output of every eval set (default false). */
  printDetailedResults?: boolean;
  /** Where detailed output goes (default process.stdout). */
  log?: (text: string) => void;
  /** Custom metric functions, as `evaluate` takes them. */
  customMetrics?: Record<Custom, CustomMetric>;
  signal?: AbortSignalLike;
  onProgress?: (progress: Progress) => void;
  onCaseResult?: (result: EvalCaseResult) => void;
  /** Longest wait for one agent turn, in milliseconds (default: none); a slower turn fails its case. */
  agentTimeoutMs?: number;
  /**
   * A config warning (a misspelt metric, a key ADK ignores) is an EvalError instead of a silent
   * NOT_EVALUATED, and a metric that passed on what it evaluated fails when it could not evaluate
   * a run or an invocation (ADK's verdict leaves those out).
   */
  strict?: boolean;
}

/** The AssertionError AgentEvaluator throws: its message is the readable summary. */
export interface AgentEvaluatorFailure extends Error {
  name: 'AssertionError';
  code: 'ERR_ASSERTION';
  /** One line per failure, as ADK lists them. */
  failures: string[];
  /** Every EvalSetResult of the call, the passing ones too. */
  results: EvalSetResult[];
}

export declare class AgentEvaluator {
  /**
   * Evaluates `agent` on one eval file, or on every `*.test.json` / `*.evalset.json` under a
   * folder (recursively), each with the `test_config.json` beside it. Every case runs `numRuns`
   * times; a metric passes on its score averaged over every invocation of every run (as ADK's
   * AgentEvaluator). Resolves to the results; rejects with an {@link AgentEvaluatorFailure}.
   */
  static evaluate<Custom extends string = never>(agent: AgentInput, pathOrDir: string, options?: AgentEvaluatorOptions<Custom>): Promise<EvalSetResult[]>;

  /** The same for one eval set (object, JSON text or bytes, in any shape `loadEvalSet` takes). */
  static evaluateEvalSet<Custom extends string = never>(agent: AgentInput, evalSet: EvalSet | JsonInput, options?: AgentEvaluatorOptions<Custom>): Promise<EvalSetResult>;

  /** Legacy eval data (`*.test.json`) to an eval set file in the current schema, written in full. */
  static migrateEvalDataToNewSchema(oldEvalDataFile: string, newEvalDataFile: string, initialSessionFile?: string): Promise<EvalSet>;
}

/** AgentEvaluator's verdict on one EvalSetResult, without throwing. */
export declare function judgeEvalSetResult(
  result: EvalSetResult,
  /** `strict`: also fail a metric for the runs and invocations it could not evaluate. */
  options?: { source?: string; strict?: boolean },
): { failures: string[]; failedCases: number; totalCases: number; report: string };
