// The browser / worker (workerd) entry: nothing happens at import; call `await init(source)` or
// `initSync(bytesOrModule)` once, then use the same API as the Node entry.
import { isReady, notLoaded, start, startSync } from './lib/wasm/instance.js';

export * from './lib/wasm/api.js';
export { evaluate } from './lib/run/evaluate.js';

// The extras module (lib/wasm/extras.js and its own wasm: traces, comparison statistics, agents-cli
// datasets) is loaded by `initExtras` only, so a page that never needs it never fetches it.
let traces = null;

/** Loads the extras module and compiles its wasm (`source` as lib/wasm/extras.js takes it). */
export async function initExtras(source) {
  const [extras, t] = await Promise.all([import('./lib/wasm/extras.js'), import('./lib/wasm/traces.js')]);
  await extras.initExtras(source);
  traces = t;
}

/** The extras module under the name it had when it held only the trace import. */
export const initTraces = initExtras;

function tracesReady() {
  if (traces === null) throw notLoaded();
  return traces;
}

/** See lib/wasm/traces.js (after `await initExtras()`). */
export function loadTraces(input, options) {
  return tracesReady().loadTraces(input, options);
}

/** See lib/wasm/traces.js (after `await initExtras()`). */
export function tracesToEvalSet(input, options) {
  return tracesReady().tracesToEvalSet(input, options);
}

let pending = null;

/**
 * Instantiates the module from `source`: a `WebAssembly.Module` (workerd's wasm import), the
 * .wasm bytes, a `Response` / `Promise<Response>`, or a URL to fetch. Without `source` it
 * fetches `evalcore_core_bg.wasm` next to the glue (what bundlers expect). Idempotent.
 */
export function init(source) {
  if (isReady()) return Promise.resolve();
  if (pending === null) {
    const arg = source === undefined ? undefined
      : isWrapped(source, 'module_or_path') ? source : { module_or_path: source };
    pending = start(arg).catch((e) => { pending = null; throw e; });
  }
  return pending;
}

/** Instantiates the module synchronously from a `WebAssembly.Module` or the .wasm bytes. */
export function initSync(source) {
  if (isReady()) return;
  if (source === undefined || source === null) {
    throw new TypeError('evalcore: initSync needs the .wasm bytes or a WebAssembly.Module');
  }
  startSync(isWrapped(source, 'module') ? source : { module: source });
}

// wasm-bindgen's own `{module}` / `{module_or_path}` argument forms pass through unchanged.
function isWrapped(source, key) {
  return source !== null && typeof source === 'object' && Object.getPrototypeOf(source) === Object.prototype
    && key in source;
}
