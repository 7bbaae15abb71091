// `evalcore/server` in workerd (Cloudflare Workers): the .wasm comes in as a module workerd
// compiled at load, the handler is configured from the worker's `env` bindings.
import wasmModule from '../../wasm/evalcore_core_bg.wasm';
import { initSync } from '../../web.js';
import { createHandler } from './handler.js';
import { optionsFromEnv } from './config.js';

initSync(wasmModule);

export { createHandler } from './handler.js';
export { DEFAULT_LIMITS, optionsFromEnv } from './config.js';
export { httpAgent } from './agents.js';

const byEnv = new WeakMap();

export default {
  /** The module worker: configured from `env` (EVALCORE_TOKEN, EVALCORE_JUDGE, keys, limits). */
  fetch(request, env, ctx) {
    const key = env && typeof env === 'object' ? env : {};
    let handler = byEnv.get(key);
    if (handler === undefined) {
      try {
        handler = createHandler(optionsFromEnv(key));
      } catch (e) {
        // A misconfigured worker says which variable is wrong (never its value).
        return Response.json({ error: { code: 'config', path: e.path ?? '', message: e.message } }, { status: 500 });
      }
      byEnv.set(key, handler);
    }
    return handler(request, env, ctx);
  },
};
