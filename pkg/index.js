// The Node / Deno / Bun entry: instantiates the wasm synchronously from the file next to this
// one at import time (no top-level await), so `import { rouge1 } from 'evalcore'` is ready.
import './lib/wasm/node_start.js';

export * from './lib/wasm/api.js';
export { evaluate } from './lib/run/evaluate.js';
export { initExtras } from './lib/wasm/extras.js';
export { loadTraces, tracesToEvalSet } from './lib/wasm/traces.js';

/** Already loaded on first use; kept so code written for the web entry runs unchanged. */
export { initExtras as initTraces } from './lib/wasm/extras.js';

/** Already initialised at import; kept so code written for the web entry runs unchanged. */
export async function init() {}

/** Already initialised at import; kept so code written for the web entry runs unchanged. */
export function initSync() {}
