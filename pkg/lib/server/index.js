// `evalcore/server` in Node, Deno and Bun: the wasm module ready at import, the
// handler, and a default `{ fetch }` whose configuration is the host's environment.
import '../wasm/node_start.js';
import { createHandler } from './handler.js';
import { envHandlers } from './config.js';
import { LOOPBACK_HOSTS } from './guard.js';

export { createHandler } from './handler.js';
export { DEFAULT_LIMITS, optionsFromEnv } from './config.js';
export { httpAgent } from './agents.js';
export { memoryStore } from '../store/store.js';
export { fsStore } from '../store/fs.js';
export { kvStore, r2Store } from '../store/workers.js';
export { evalSetsManager } from '../store/manager.js';
export { devUiRoutes } from './devui.js';
export { devUiMiddleware, startDevUi } from './devtools.js';
export { localRuns } from './runs/local.js';

/** The process environment: `Deno.env` (needs --allow-env) or `process.env`. */
function hostEnv() {
  if (globalThis.Deno?.env) return globalThis.Deno.env.toObject();
  return globalThis.process?.env ?? {};
}

// Deno.serve and Bun.serve listen on this machine: only its own names, unless
// EVALCORE_ALLOWED_HOSTS says more (a deployment's name, or *).
const handlerFor = envHandlers(createHandler, { allowedHosts: LOOPBACK_HOSTS });

export default {
  /**
   * A module-worker style fetch. `env` (a Workers-style object of strings) configures it when
   * given; otherwise (Deno.serve's second argument, or none) the host's environment does.
   */
  fetch(request, env, ctx) {
    const given = env && typeof env === 'object' && !('remoteAddr' in env);
    return handlerFor(given ? env : hostEnv())(request, env, ctx);
  },
};
