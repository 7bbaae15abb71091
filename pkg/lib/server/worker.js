// `evalcore/server` in workerd (Cloudflare Workers): the .wasm comes in as a module workerd
// compiled at load, the handler is configured from the worker's `env` bindings.
import wasmModule from '../../wasm/evalcore_core_bg.wasm';
import extrasModule from '../../wasm-extras/evalcore_extras_bg.wasm';
import { createGlue as extrasGlue } from '../../wasm-extras/evalcore_extras_factory.js';
import { initSync } from '../../web.js';
import { setExtrasSource } from '../extras.js';
import { createHandler } from './handler.js';
import { envHandlers } from './config.js';

initSync(wasmModule);
// The extras module (legacy and agents-cli shapes an endpoint may be sent) is instantiated on
// first use only.
setExtrasSource(() => extrasModule, extrasGlue);

export { createHandler } from './handler.js';
export { DEFAULT_LIMITS, optionsFromEnv } from './config.js';
export { httpAgent } from './agents.js';
export { memoryStore } from '../store/store.js';
export { kvStore, r2Store } from '../store/workers.js';
export { evalSetsManager } from '../store/manager.js';
export { devUiRoutes } from './devui.js';

// A deployed worker is reached by its own names, which it cannot know: any Host, unless
// EVALCORE_ALLOWED_HOSTS lists them (docs/security.md). Origins are checked either way.
const handlerFor = envHandlers(createHandler);

export default {
  /** The module worker: configured from `env` (EVALCORE_TOKEN, EVALCORE_JUDGE, keys, limits). */
  fetch(request, env, ctx) {
    return handlerFor(env && typeof env === 'object' ? env : {})(request, env, ctx);
  },
};
