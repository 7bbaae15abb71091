// The browser-side view (lib "dom"): the platform's fetch is a valid Judge.fetch and init
// accepts what a page has at hand (a fetch Response, a URL, bytes, a compiled module).
import { init, initSync, evaluateInvocations } from 'evalcore/web';
import type { Judge } from 'evalcore';

const judge: Judge = { provider: 'openai', model: 'gpt-4o-mini', fetch: globalThis.fetch, baseUrl: 'http://127.0.0.1:8080' };
const bound: Judge = { provider: 'anthropic', model: 'claude', fetch: (input, options) => fetch(input, options) };

async function start(bytes: Uint8Array, module: WebAssembly.Module): Promise<void> {
  await init(fetch('/evalcore_core_bg.wasm'));
  await init(new URL('https://example.invalid/evalcore_core_bg.wasm'));
  await init(bytes);
  initSync(module);
  initSync(bytes.buffer);
  await evaluateInvocations({ evalCase: {}, actual: [], judge });
}
void [bound, start];

// evalcore/server: the handler is a fetch handler; a module worker's default export.
import server, { createHandler, optionsFromEnv, DEFAULT_LIMITS } from 'evalcore/server';
import { metricsInfo } from 'evalcore';
const handler = createHandler({ ...optionsFromEnv({ EVALCORE_TOKEN: 't' }), limits: { maxCases: DEFAULT_LIMITS.maxCases + 1 }, agents: { echo: async (turn) => turn.text, remote: { url: 'http://127.0.0.1:9/turn' } } });
const answered: Promise<Response> = handler(new Request('http://127.0.0.1/healthz'));
const viaWorker: Promise<Response> = server.fetch(new Request('http://127.0.0.1/v1/metrics'), {});
const judged: boolean = metricsInfo().some((m) => m.needs_judge);
void [answered, viaWorker, judged];

// Runs kept in a folder (evalcore serve --runs_dir), and a run's status as the API answers it.
import { localRuns } from 'evalcore/server';
import type { RunStatus } from 'evalcore/server';
const withRuns = createHandler({ runs: localRuns({ dir: 'runs', maxAttempts: 2 }), judgeCallsPerMinute: 600, limits: { maxRunCases: 500, runConcurrency: 4 } });
const runStatus = (v: RunStatus): string => `${v.id} ${v.status} ${v.counts.scored}/${v.counts.cases}`;
void [withRuns.runs, runStatus];
// @ts-expect-error localRuns needs its folder
localRuns({});

// Eval-set management: a manager over any Store; the handler exposes one for its `store`.
import { evalSetsManager, fsStore, kvStore, memoryStore, r2Store } from 'evalcore/server';
import type { EvalSetsManager, KvNamespaceLike, R2BucketLike, Store } from 'evalcore/server';
import type { EvalCase, EvalSet, EvalSetResult } from 'evalcore';
declare const kv: KvNamespaceLike;
declare const bucket: R2BucketLike;
const stores: Store[] = [memoryStore(), fsStore('agents'), kvStore(kv), r2Store(bucket)];
const managed: EvalSetsManager = evalSetsManager(stores[0]!, { now: () => Date.now() / 1000 });
const withStore = createHandler({ store: memoryStore() });
// /v1/traces: sessions scored with the server's reference-free criteria, records in a store.
const tracing = createHandler({ traces: { config: { criteria: { safety_v1: 0.8 } }, store: r2Store(bucket) }, limits: { traceIdleMs: 60_000, maxSessionSpans: 5_000 } });
// @ts-expect-error traceIdleMs is a number of ms
createHandler({ limits: { traceIdleMs: '1m' } });
void tracing;
async function manage(): Promise<void> {
  const ids: string[] = await managed.listEvalSets('app');
  const created: EvalSet = await managed.createEvalSet('app', 'set_1');
  const maybe: EvalSet | null = await managed.getEvalSet('app', 'set_1');
  const oneCase: EvalCase | null = await managed.getEvalCase('app', 'set_1', 'c1');
  await managed.addEvalCase('app', 'set_1', { eval_id: 'c1', conversation: [] });
  await managed.updateEvalCase('app', 'set_1', { eval_id: 'c1', conversation: [] });
  await managed.deleteEvalCase('app', 'set_1', 'c1');
  const saved: EvalSetResult = await managed.saveEvalSetResult('app', 'set_1', []);
  const back: EvalSetResult | null = await managed.getEvalSetResult('app', saved.eval_set_result_id);
  const results: string[] = await managed.listEvalSetResults('app');
  const viaHandler: EvalSetsManager | null = withStore.evalSets;
  const bytes: Uint8Array | null = await stores[0]!.get('app/set_1.evalset.json');
  // @ts-expect-error a Store takes bytes, not text
  await stores[0]!.put('k', 'text');
  void [ids, created, maybe, oneCase, back, results, viaHandler, bytes];
}
void manage;

// ADK's dev UI eval routes: a fetch-style handler (null for other paths), a Node middleware,
// and devtools' server with them in front.
import { devUiMiddleware, devUiRoutes, startDevUi } from 'evalcore/server';
const devUi = devUiRoutes({
  evalSets: managed,
  agentFor: async () => async (turn) => turn.text,
  sessionService: { getSession: async () => null },
});
async function devUiUse(): Promise<void> {
  const maybeAnswer: Response | null = await devUi(new Request('http://127.0.0.1/dev/apps/a/eval_sets'));
  const middleware = devUiMiddleware(devUi);
  const started = await startDevUi({ agentsDir: 'agents', port: 0, evalsDir: 'evals' });
  const url: string = started.url;
  await started.stop();
  // @ts-expect-error agentFor is required
  devUiRoutes({ evalSets: managed, sessionService: { getSession: async () => null } });
  void [maybeAnswer, middleware, url];
}
void devUiUse;

// With DOM types the turn's signal is the standard AbortSignal: it passes to an API that takes one.
import type { Agent as TurnAgent } from 'evalcore';
const takesSignal = (signal: AbortSignal): boolean => signal.aborted;
const signalAgent: TurnAgent = (turn) => String(takesSignal(turn.signal));
void signalAgent;
