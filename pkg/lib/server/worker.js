// `evalcore/server` in workerd (Cloudflare Workers): the .wasm comes in as a module workerd
// compiled at load, the handler is configured from the worker's `env` bindings. With runs bound
// (docs/runs.md) the worker is also its queue's consumer, and exports the two Durable Object
// classes runs use.
import { DurableObject } from 'cloudflare:workers';
import '../wasm/workerd_start.js';
import { createHandler } from './handler.js';
import { envHandlers } from './config.js';
import { JudgePaceObject, RunObject } from './runs/objects.js';
import { workersRuns } from './runs/workers.js';

export { createHandler } from './handler.js';
export { DEFAULT_LIMITS, optionsFromEnv } from './config.js';
export { httpAgent } from './agents.js';
export { memoryStore } from '../store/store.js';
export { kvStore, r2Store } from '../store/workers.js';
export { evalSetsManager } from '../store/manager.js';
export { devUiRoutes } from './devui.js';

/** One Durable Object per run: its ledger, progress, queue feeding and result (wrangler.toml: EVALCORE_RUN). */
export class EvalcoreRun extends RunObject(DurableObject) {}
/** One Durable Object per judge key: the pace every consumer shares (wrangler.toml: EVALCORE_JUDGE_PACE). */
export class EvalcoreJudgePace extends JudgePaceObject(DurableObject) {}

// A deployed worker is reached by its own names, which it cannot know: any Host, unless
// EVALCORE_ALLOWED_HOSTS lists them (docs/security.md). Origins are checked either way.
const handlerFor = envHandlers(createHandler, { runs: workersRuns() });

export default {
  /** The module worker: configured from `env` (EVALCORE_TOKEN, EVALCORE_JUDGE, keys, limits). */
  fetch(request, env, ctx) {
    return handlerFor(env && typeof env === 'object' ? env : {})(request, env, ctx);
  },
  /** The runs' queue consumer (and the dead-letter queue's): units of work scored, results kept. */
  queue(batch, env, ctx) {
    const runs = handlerFor(env && typeof env === 'object' ? env : {}).runs;
    if (!runs) throw new Error('evalcore: the worker\'s configuration is broken (its fetch answers say why); the batch is retried');
    return runs.queue(batch, env, ctx);
  },
};
