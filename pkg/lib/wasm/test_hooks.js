// Test hooks, not API (not shipped in the npm package): deterministic traps for the tests of
// trap recovery (tests/js/trap.test.mjs) and the fuzzer's self-check (tests/fuzz/).
import { callAsync } from './instance.js';
import { main } from './exports.js';

/**
 * Makes the wasm instance trap after growing its heap by `mib` MiB, as an abort or an
 * out-of-memory inside the core would. `{async: true}` traps inside a future instead, where the
 * executor polls it (as a trap in the run loop does); the returned promise rejects with `trap`.
 */
export function __trapForTesting(mib = 0, options) {
  if (options && options.async) return callAsync((g) => main.on.__trapForTestingAsync(g, mib));
  return main.__trapForTesting(mib);
}
