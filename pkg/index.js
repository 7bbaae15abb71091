// The Node / Deno / Bun entry: instantiates the wasm synchronously from the file next to this
// one at import time (no top-level await), so `import { rouge1 } from 'evalcore'` is ready.
import { readFileSync } from 'node:fs';
import { startSync } from './lib/instance.js';
import { setTracesSource } from './lib/traces.js';
import { createGlue as tracesGlue } from './wasm-traces/evalcore_traces_factory.js';

startSync({ module: readFileSync(new URL('./wasm/evalcore_core_bg.wasm', import.meta.url)) });
// The trace import's module is read and compiled on its first use only.
setTracesSource(() => readFileSync(new URL('./wasm-traces/evalcore_traces_bg.wasm', import.meta.url)), tracesGlue);

export * from './lib/api.js';
export { evaluate } from './lib/evaluate.js';
export { initTraces, loadTraces, tracesToEvalSet } from './lib/traces.js';

/** Already initialised at import; kept so code written for the web entry runs unchanged. */
export async function init() {}

/** Already initialised at import; kept so code written for the web entry runs unchanged. */
export function initSync() {}
