// The Node / Deno / Bun entry: instantiates the wasm synchronously from the file next to this
// one at import time (no top-level await), so `import { rouge1 } from 'evalcore'` is ready.
import { readFileSync } from 'node:fs';
import { startSync } from './lib/instance.js';
import { setExtrasSource } from './lib/extras.js';
import { createGlue as extrasGlue } from './wasm-extras/evalcore_extras_factory.js';

startSync({ module: readFileSync(new URL('./wasm/evalcore_core_bg.wasm', import.meta.url)) });
// The extras module (traces, comparison statistics, agents-cli datasets) is read and compiled
// on its first use only.
setExtrasSource(() => readFileSync(new URL('./wasm-extras/evalcore_extras_bg.wasm', import.meta.url)), extrasGlue);

export * from './lib/api.js';
export { evaluate } from './lib/evaluate.js';
export { initExtras } from './lib/extras.js';
export { loadTraces, tracesToEvalSet } from './lib/traces.js';

/** Already loaded on first use; kept so code written for the web entry runs unchanged. */
export { initExtras as initTraces } from './lib/extras.js';

/** Already initialised at import; kept so code written for the web entry runs unchanged. */
export async function init() {}

/** Already initialised at import; kept so code written for the web entry runs unchanged. */
export function initSync() {}
