// `evalcore/server` in Node, Deno and Bun: the package ready at import (its Node entry), the
// handler, and a default `{ fetch }` whose configuration is the host's environment.
import '../../index.js';
import { createHandler } from './handler.js';
import { optionsFromEnv } from './config.js';

export { createHandler } from './handler.js';
export { DEFAULT_LIMITS, optionsFromEnv } from './config.js';
export { httpAgent } from './agents.js';

/** The process environment: `Deno.env` (needs --allow-env) or `process.env`. */
function hostEnv() {
  if (globalThis.Deno?.env) return globalThis.Deno.env.toObject();
  return globalThis.process?.env ?? {};
}

let fromHost = null;

export default {
  /**
   * A module-worker style fetch. `env` (a Workers-style object of strings) configures it when
   * given; otherwise (Deno.serve's second argument, or none) the host's environment does.
   */
  fetch(request, env, ctx) {
    let handler;
    try {
      if (env && typeof env === 'object' && !('remoteAddr' in env)) handler = handlerFor(env);
      else handler = fromHost ??= createHandler(optionsFromEnv(hostEnv()));
    } catch (e) {
      // A misconfigured server says which variable is wrong (never its value).
      return Response.json({ error: { code: 'config', path: e.path ?? '', message: e.message } }, { status: 500 });
    }
    return handler(request, env, ctx);
  },
};

const byEnv = new WeakMap();
function handlerFor(env) {
  let h = byEnv.get(env);
  if (h === undefined) {
    h = createHandler(optionsFromEnv(env));
    byEnv.set(env, h);
  }
  return h;
}
