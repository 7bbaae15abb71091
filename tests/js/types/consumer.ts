// Compiled with `tsc --noEmit` against the package as installed (scripts/check-types.sh): keeps
// pkg/index.d.ts honest. Uses no DOM and no Node types, like a library consumer might.
import {
  EvalError, coreVersion, evaluateInvocations, formatReport, getLimits, init, initSync, loadEvalConfig,
  loadEvalSet, prepareCase, rouge1, setLimits, validateEvalConfig, validateEvalSet,
} from 'evalcore';
import type {
  NotEvaluatedReason, Content, EvalCase, EvalCaseResult, EvalConfig, EvalConfigInput, EvalMetricResult, EvalSet, EvalStatus, Limits, MatchType, MetricName,
  Invocation, Judge, Part, PreparedCase, RougeScore, ArgPolicies, TrajectoryExplanation,
} from 'evalcore';

const part: Part = { text: 'What is the weather in Paris?' };
const content: Content = { role: 'user', parts: [part] };
const invocation: Invocation = {
  invocation_id: 'e-1',
  user_content: content,
  final_response: { role: 'model', parts: [{ text: 'Sunny.' }] },
  intermediate_data: { tool_uses: [{ name: 'get_weather', args: { city: 'Paris' } }] },
};
const evalCase: EvalCase = { eval_id: 'case_1', conversation: [invocation] };

const set: EvalSet = loadEvalSet({ eval_set_id: 'simple', eval_cases: [evalCase] });
const fromText: EvalSet = loadEvalSet('{"eval_set_id": "s", "eval_cases": []}', { id: 'x', sessionInput: { app_name: 'a', user_id: 'u' } });
const firstId: string = set.eval_cases[0].eval_id;
const validation: { ok: boolean; errors: EvalError[] } = validateEvalSet(fromText);
const firstPath: string | undefined = validation.errors[0]?.path;

const defaults: EvalConfig = loadEvalConfig();
const fromNull: EvalConfig = loadEvalConfig(null);
const threshold: number = loadEvalConfig({ criteria: { response_match_score: 0.8 } }).criteria.response_match_score.threshold;

// Configs are typed from the core's registry (pkg/criteria.d.ts): the numeric shorthand and each
// metric's own criterion class compile; a misspelt metric, field value or match type does not.
const typed: EvalConfigInput = {
  criteria: {
    tool_trajectory_avg_score: 1.0,
    response_match_score: { threshold: 0.8 },
    trajectory_precision: { threshold: 0.5, matchType: 'any_order', ignore_args: true },
    final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: 3, judge_model: 'gemini-2.5-flash' } },
    trajectory_single_tool_use: { threshold: 1, tool_name: 'roll_die' },
    tool_trajectory_f1: { threshold: 0.8, alignment: 'ordered', arg_policies: { '*': { request_id: 'ignore' } } },
    tool_parameter_match: {
      threshold: 0.5,
      argPolicies: {
        search: { query: { policy: 'rouge1', threshold: 0.6 }, rooms: { policy: 'numeric', abs_tol: 1 } },
        book: 'subset',
        log: { ts: { policy: 'regex', pattern: '\\d{4}-.*' }, '*': 'present' },
      },
    },
  },
};
const policies: ArgPolicies = { '*': { request_id: 'ignore' }, search: 'subset' };
function mismatchOf(m: EvalMetricResult): string[] {
  const why: TrajectoryExplanation | undefined = m.details?.trajectory;
  return why ? [...why.lines, ...why.expected.flatMap((e) => (e.args ?? []).map((a) => `${a.arg}: ${a.policy}`))] : [];
}
const subsetMatch: EvalConfigInput = { criteria: { tool_trajectory_avg_score: { threshold: 1, match_type: 'SUBSET' } } };
// @ts-expect-error rouge1 needs its threshold
const noRougeThreshold: EvalConfigInput = { criteria: { tool_parameter_match: { threshold: 1, arg_policies: { t: { q: { policy: 'rouge1' } } } } } };
// @ts-expect-error a misspelt policy does not compile
const typoPolicy: EvalConfigInput = { criteria: { tool_trajectory_avg_score: { threshold: 1, arg_policies: { t: 'ignored' } } } };
// @ts-expect-error SUBSET has no number (ADK's numbers are 0, 1, 2)
const subsetNumber: EvalConfigInput = { criteria: { tool_trajectory_avg_score: { threshold: 1, match_type: 3 } } };
const reloaded: EvalConfigInput = loadEvalConfig(typed);
const metricName: MetricName = 'hallucinations_v1';
const matchType: MatchType = 'IN_ORDER';
// @ts-expect-error a misspelt metric name does not compile
const typoMetric: EvalConfigInput = { criteria: { respone_match_score: 0.8 } };
// @ts-expect-error nor in object form
const typoMetricObject: EvalConfigInput = { criteria: { respone_match_score: { threshold: 0.8 } } };
// @ts-expect-error a misspelt match type does not compile
const typoMatch: EvalConfigInput = { criteria: { tool_trajectory_avg_score: { threshold: 1, match_type: 'INORDER' } } };
// @ts-expect-error judge_model_options takes only ADK's four fields
const typoJudge: EvalConfigInput = { criteria: { safety_v1: { threshold: 1, judge_model_options: { num_sample: 1 } } } };
// @ts-expect-error a criterion needs its threshold
const noThreshold: EvalConfigInput = { criteria: { response_match_score: {} } };
// A custom metric is named by its type parameter (inferred where customMetrics is given).
const custom: EvalConfigInput<'brevity'> = { criteria: { brevity: { threshold: 1, max_words: 3 }, response_match_score: 0.8 } };
const configText: string = JSON.stringify(custom);
const fromConfigText: EvalConfig = loadEvalConfig(configText, { strict: true });
const configReport: { ok: boolean; errors: EvalError[]; warnings: EvalError[] } = validateEvalConfig({ criterias: {} });
const limits: Limits = setLimits({ maxReplyBytes: 64 * 1024 * 1024 });
const limitsNow: number = getLimits().maxParseBytes;

const score: RougeScore = rouge1('the cat sat', 'the cat');
const f: number = score.fmeasure;
// @ts-expect-error rouge1 takes strings
rouge1(1, 2);

const judge: Judge = { provider: 'gemini', model: 'gemini-2.5-flash', headers: { 'x-goog-api-key': 'k' } };
// @ts-expect-error unknown provider
const badJudge: Judge = { provider: 'mistral', model: 'm' };
// @ts-expect-error judge options are the core's (camelCase): a misspelt one does not compile
const badJudgeOption: Judge = { provider: 'openai', model: 'm', timeout: 5000 };
const replayJudge: Judge = { provider: 'openai', model: 'm', cassette: { path: 'c.json', mode: 'replay' }, fetch: async () => ({ ok: true, status: 200, text: async () => '' }) };

async function main(): Promise<void> {
  await init();
  initSync();
  const result: EvalCaseResult = await evaluateInvocations({
    evalCase, actual: [invocation], config: defaults, judge, evalSetId: 'simple', includeInvocations: true,
  });
  const status: EvalStatus = result.final_eval_status;
  const metric: EvalMetricResult = result.overall_eval_metric_results[0];
  const s: number | null = metric.score;
  const t: number | null = metric.threshold;
  // Absent only when the caller asked for `perInvocation: false`.
  const perInvocation: EvalMetricResult[] = result.eval_metric_result_per_invocation?.[0]?.eval_metric_results ?? [];
  if (status === 'PASSED' || status === 'FAILED' || status === 'NOT_EVALUATED' || status === 'INFORMATIONAL') {
    // exhaustive
  }
  // @ts-expect-error statuses are names, not ADK's integers
  const wrong: EvalStatus = 1;
  // The data model is generated from the core's schema types (pkg/model.d.ts).
  const ids: string[] = result.eval_metric_result_per_invocation?.map((p) => p.actual_invocation?.invocation_id ?? '') ?? [];
  // @ts-expect-error an eval set names its cases
  const noCases: EvalSet = { eval_set_id: 'x' };
  // @ts-expect-error a Part's fields are genai's (snake_case)
  const camelPart: Part = { functionCall: { name: 'f' } };
  // @ts-expect-error a result's status is one of four names
  const badResult: EvalCaseResult = { ...result, final_eval_status: 'OK' };

  const prepared: PreparedCase = prepareCase({ evalCase: JSON.stringify(evalCase), actual: [invocation], evalSetId: 'simple' });
  const again: EvalCaseResult = prepared.evaluate({ criteria: { response_match_score: 0.5 } }, { includeInvocations: false });
  // @ts-expect-error a misspelt metric does not compile where a config is taken either
  prepared.evaluate({ criteria: { response_match_scor: 0.5 } });
  // Custom metric names come from customMetrics; a name in criteria that is in neither does not compile.
  await evaluate({
    evalSet: set, agent: () => 'Sunny.', config: { criteria: { brevity: 1, response_match_score: 0.5 } },
    customMetrics: { brevity: () => 1 },
  });
  await evaluate({
    evalSet: set, agent: () => 'Sunny.',
    // @ts-expect-error `brevty` is neither a known metric nor one of customMetrics
    config: { criteria: { brevty: 1 } },
    customMetrics: { brevity: () => 1 },
  });
  prepared.free();

  const report: string = formatReport([result, again], { detailed: true });
  const report2: string = formatReport({ eval_case_results: [result] });
  try {
    loadEvalSet('{');
  } catch (e) {
    if (e instanceof EvalError) {
      const code: string = e.code;
      // The codes are a closed union generated from the core's vocabulary (pkg/error_codes.d.ts).
      const known: ErrorCode[] = [e.code, 'schema', 'agent_reply', 'too_many_requests', 'http_502'];
      // @ts-expect-error not a code evalcore raises
      const unknown: ErrorCode = 'no_such_code';
      const reason: NotEvaluatedReason = 'needs_judge';
      void [known, unknown, reason];
      const path: string = e.path;
      const message: string = e.message;
      const asError: Error = e;
      void [code, path, message, asError];
    }
  }
  void [s, t, perInvocation, wrong, report, report2];
}

const version: string = coreVersion();
import { coreMemory, setMemoryCeiling, type CoreMemory, type ErrorCode } from "evalcore";
const mem: CoreMemory = coreMemory();
const memBytes: number = mem.bytes + mem.ceiling + mem.replacements;
setMemoryCeiling(64 * 2 ** 20);
const trapCode: ErrorCode = "trap";
void [firstId, firstPath, fromNull, threshold, f, badJudge, main, version];

// The run loop, judges and custom metrics.
import { evaluate, planJudgeCalls, type Agent, type EvalSetResult, type JudgePlan, type CustomMetric } from "evalcore";
const agent: Agent = async (turn) => {
  const n: number = turn.turnIndex;
  return n > 0 ? turn.text : { finalResponse: "4", toolCalls: [{ name: "roll_die", args: { sides: 6 } }] };
};
const lengthMetric: CustomMetric = ({ actualInvocations }) => ({ score: actualInvocations.length, eval_status: "PASSED" });
async function runIt(): Promise<void> {
  const signal = { aborted: false, addEventListener() {}, removeEventListener() {} };
  const r: EvalSetResult = await evaluate({
    evalSet: { eval_set_id: "s", eval_cases: [] }, agent, numRuns: 2, concurrency: 2, signal,
    judge: { provider: "openai", model: "m", baseUrl: "http://127.0.0.1:1", cassette: { path: "c.json", mode: "auto" }, maxCalls: 10, media: true, maxMediaBytes: 5_000_000 },
    customMetrics: { length: lengthMetric },
    onProgress: (p) => { const d: number = p.casesDone; void d; },
  });
  const flipped: boolean | undefined = r.run_summary?.cases[0]?.flipped;
  const plan: JudgePlan = await planJudgeCalls({ evalCase: {}, actual: [], judge: { provider: "gemini", model: "gemini-2.5-flash" } });
  void flipped; void plan.count;
  // Recorded replies, scored here or sharded over evaluation endpoints.
  const sharded: EvalSetResult = await evaluate({
    evalSet: { eval_set_id: "s", eval_cases: [] }, actual: { a: [] },
    remote: { endpoints: ["https://evals.example.workers.dev"], shards: 8, token: "t", perEndpoint: 2 },
    onProgress: (p) => { const s: number | undefined = p.shardsDone; void s; },
  });
  void sharded;
}
void runIt;

// Subpaths: adapters, AgentEvaluator, reports, result files.
import { fromFunction, fromOpenAIMessages } from "evalcore/adapters";
import { fromAdkAgent } from "evalcore/adk";
import { AgentEvaluator } from "evalcore/testing";
import { toJUnit, toMarkdown } from "evalcore/reports";
import { readEvalSetResult, createEvalSetResult, validateRunName } from "evalcore/history";
// A run's label (`--run_name`) as its eval_set_result_name.
const labelled: EvalSetResult = createEvalSetResult("app", "set", [], { timestamp: 1, name: validateRunName("prompt v2") });
void labelled;
const fnAgent: Agent = fromFunction(async (text: string) => ({ text: `echo ${text}`, toolCalls: [{ name: "roll_die", args: { sides: 6 } }] }));
const logAgent: Agent = fromOpenAIMessages(async () => [{ role: "assistant", content: "done" }]);
declare const someAdkAgent: Parameters<typeof fromAdkAgent>[0];
const adkAgent: Agent = fromAdkAgent(someAdkAgent);
async function suite(): Promise<void> {
  await AgentEvaluator.evaluate(fnAgent, "tests/fixtures", { numRuns: 2 });
  const r: EvalSetResult = await evaluate({ evalSet: "{}", agent: logAgent });
  const xml: string = toJUnit([r]);
  const md: string = toMarkdown([r]);
  void xml; void md; void adkAgent; void readEvalSetResult;
}
void suite;

// The framework adapters type-check without the frameworks: their objects are taken structurally.
import { fromAiSdk, fromLangGraph, fromMastra, fromOpenAIAgents } from "evalcore/adapters";
import type { AbortSignalLike, FunctionReply, Step, Timings } from "evalcore/adapters";
const aiAgent: Agent = fromAiSdk(async ({ messages, signal, telemetry, turn }) => {
  void messages; void signal; void telemetry; void turn.evalId;
  return { steps: [{ content: [{ type: "text", text: "hi" }], usage: { inputTokens: 1 } }], response: { messages: [] } };
}, { author: "weather_agent", maxConversations: 10, instructions: "Report the weather.", tools: { get_weather: { description: "The weather", inputSchema: {} } } });
const oaAgent: Agent = fromOpenAIAgents({ name: "triage" }, { runConfig: {}, continueWith: "agent" });
const lgAgent: Agent = fromLangGraph({ invoke: async () => ({ messages: [] }) }, { threads: false, config: { recursionLimit: 5 }, agents: [{ name: "weather_agent", tools: [{ name: "get_weather" }] }] });
const maAgent: Agent = fromMastra({ name: "helper", generate: async () => ({ steps: [] }) }, { generateOptions: { maxSteps: 3 } });
const steps: Step[] = [{ text: "Looking.", toolCalls: [{ name: "get_weather", args: { city: "Paris" }, error: "down" }], usage: { inputTokens: 10, outputTokens: 3, reasoningTokens: 1 }, model: "m" }];
const timings: Timings = { model: [[0, 10]], tool: [[10, 12]] };
const fullReply: FunctionReply = { text: "Done.", steps, usage: undefined, model: "m", timings, agents: [{ instructions: "Be brief.", tools: [{ name: "get_weather", parameters: { type: "object" } }] }] };
const stepAgent: Agent = fromFunction(async (_text, turn) => {
  const s: AbortSignalLike = turn.signal!;
  void s;
  return fullReply;
});
void aiAgent; void oaAgent; void lgAgent; void maAgent; void stepAgent;

// Result files through the core's model: text, bytes or a value; statuses as names.
import { loadEvalSetResult } from 'evalcore';
const readBack: EvalSetResult = loadEvalSetResult('{"eval_set_result_id": "r", "eval_set_id": "s", "eval_case_results": []}', { runSummary: true });
const firstStatus: EvalStatus | undefined = readBack.eval_case_results[0]?.final_eval_status;
// @ts-expect-error the option is a boolean
loadEvalSetResult('{}', { runSummary: 'yes' });
void firstStatus;

// The viewer's additions: rouge1Spans (the ROUGE-1 highlight) and the HTML report.
import { rouge1Spans } from 'evalcore';
import type { RougeSpan } from 'evalcore';
import { toHtml } from 'evalcore/reports';
const spans = rouge1Spans('the cat', 'a cat');
const firstSpan: RougeSpan | undefined = spans.candidate.spans[0];
const aligned: boolean = spans.reference.aligned;
const page: string = toHtml(readBack, { title: 'run', maxDetails: 5, generated: null });
// @ts-expect-error rouge1Spans takes strings
rouge1Spans(1, 'a');
void firstSpan; void aligned; void page;

// Comparing runs and calibrating judges (evalcore/reports).
import { calibrate, calibrationText, compareRuns, comparisonAnnotations, comparisonJUnit, comparisonMarkdown, comparisonText, runTrend } from 'evalcore/reports';
import type { Comparison, ComparisonMetric, Calibration, JudgeLabels, RunTrend } from 'evalcore/reports';
const cmp: Comparison = compareRuns([readBack, readBack], '{"eval_set_result_id": "b", "eval_set_id": "s", "eval_case_results": []}', { alpha: 0.01 });
const worst: ComparisonMetric | undefined = cmp.metrics.find((m) => m.significant && m.mean_delta < 0);
const gate: boolean = cmp.verdict === 'regressed' || cmp.cases.some((c) => c.change === 'regressed');
const reports: string[] = [comparisonText(cmp), comparisonMarkdown(cmp, { title: 'PR' }), comparisonJUnit(cmp), comparisonAnnotations(cmp, { failOn: 'significant' })];
const labels: JudgeLabels = { kind: 'evalcore.labels', version: 1, labels: [{ eval_set_id: 's', eval_id: 'c', invocation_index: 0, metric_name: 'final_response_match_v2', judge_verdict: 'pass', label: 'agree' }] };
const cal: Calibration = calibrate(labels, [readBack], { kappaThreshold: 0.7, judgeModel: 'gemini-2.5-flash' });
const flagged: boolean = cal.metrics.some((g) => g.flagged && (g.kappa === null || g.kappa < cal.kappa_threshold));
const trend: RunTrend = runTrend([readBack, readBack]);
// @ts-expect-error alpha is a number
compareRuns(readBack, readBack, { alpha: '0.05' });
// @ts-expect-error a label says agree, disagree, pass or fail
const badLabel: JudgeLabels = { kind: 'evalcore.labels', version: 1, labels: [{ eval_set_id: 's', eval_id: 'c', invocation_index: 0, metric_name: 'm', label: 'maybe' }] };
void worst; void gate; void reports; void flagged; void trend; void calibrationText; void badLabel;

// Traces: OTLP in (text, bytes, objects, several at once), ADK sessions out.
import { initExtras, initTraces, loadTraces, tracesToEvalSet } from 'evalcore';
import type { LoadedTraces, TraceMissing, TraceSession, TraceSpan } from 'evalcore';
const loadedTraces: LoadedTraces = loadTraces(['{"resourceSpans": []}', new Uint8Array(0)], { sessionIds: ['s'] });
const session: TraceSession | undefined = loadedTraces.sessions[0];
const gaps: TraceMissing[] = session?.missing ?? [];
const fromTraces = tracesToEvalSet({ resourceSpans: [] }, { evalSetId: 'prod', text: true });
const setText: string | undefined = fromTraces.text;
const tracesReady: Promise<void> = initTraces();
// @ts-expect-error tracesToEvalSet needs evalSetId or addTo
tracesToEvalSet('{}', {});
const addedTo = tracesToEvalSet('{}', { addTo: '{"eval_set_id": "prod", "eval_cases": []}' });
const addedIds: string[] = [...addedTo.added, ...addedTo.skipped];
const traceSpans: TraceSpan[] | undefined = loadTraces('{}', { timeline: true, traceIds: ['0af7651916cd43dd8448eb211c80319c'] }).sessions[0]?.timelines?.[0];
const scoredTraces = evaluate({ traces: loadedTraces, config: { criteria: { safety_v1: 0.8 } }, sessionIds: ['s'] });
scoredTraces.then((r) => { const unmatched: string[] = r.traces.unmatched_cases; void unmatched; });
// @ts-expect-error evaluate({ traces }) runs no agent
evaluate({ traces: loadedTraces, agent: async () => 'x' });
const extrasReady: Promise<void> = initExtras(new Uint8Array(0));
void gaps; void setText; void tracesReady; void addedIds; void traceSpans; void extrasReady;

// agents-cli: datasets read and written, its config as loadEvalConfig takes it.
import { loadEvaluationDataset, toEvaluationDataset } from 'evalcore';
import type { AgentsCliConfigInput, LoadedDataset, EvaluationDataset } from 'evalcore';
const dataset: LoadedDataset = loadEvaluationDataset('{"eval_cases": []}', { id: 'traces' });
const toGrade: string[] = dataset.grading;
const written: EvaluationDataset = toEvaluationDataset({ evalSet: dataset.eval_set, actual: dataset.actual });
const fromRun: EvaluationDataset = toEvaluationDataset({ evalSet: dataset.eval_set, result: readBack });
const agentsCli: AgentsCliConfigInput = {
  metrics_to_run: ['multi_turn_task_success', 'helpfulness'],
  custom_metrics: [{ name: 'helpfulness', prompt_template: 'Rate {response}', judge_model_sampling_count: 3, threshold: 3 }],
};
const converted = loadEvalConfig(agentsCli, { metrics: ['helpfulness'] });
// @ts-expect-error metrics_to_run lists names
loadEvalConfig({ metrics_to_run: [1] });
void toGrade; void written; void fromRun; void converted;
