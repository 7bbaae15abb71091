// The wasm instance the package talks to: made from one compiled module, replaced by a fresh one
// when it traps or when a finished call left it holding more memory than the ceiling.
//
// A trap (`WebAssembly.RuntimeError`: `unreachable` after a Rust abort, out of memory) unwinds
// the Rust frames without cleaning up, so the instance is never entered again. Every raw export
// is guarded: the first exception out of one marks its instance dead, rejects the async calls
// running on it, and the next call gets a fresh instance (a new copy of the glue, see
// scripts/glue-factory.mjs). A trap inside the executor's microtasks, where nobody could catch
// it, is swallowed there and reported through the async call it belonged to.
import { createGlue } from '../../wasm/evalcore_core_factory.js';
import { EvalError } from '../errors.js';

/** Default ceiling: after a call, an idle instance holding more linear memory is replaced. */
export const DEFAULT_MEMORY_CEILING = 64 * 2 ** 20;

let compiled = null;
let current = null;
let replacements = 0;
let ceiling = DEFAULT_MEMORY_CEILING;
// Public sync calls on the stack: a trap under one is thrown to it, not swallowed.
let syncDepth = 0;
// What a swallowed call returns to the glue: reads as "no error, null pointer, length 0" both as
// a number and as a multi-value array, so the glue's code after the call finishes quietly.
const DEAD = Object.freeze([0, 0, 0, 0]);

function causeText(e) {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}

class Generation {
  constructor() {
    this.trap = null;     // the EvalError of its trap, once dead
    this.depth = 0;       // nested raw export calls (the host calls back into wasm)
    this.busy = 0;        // async calls in flight
    this.handles = 0;     // live PreparedCase objects
    this.waiters = new Set();
    this.deathHooks = [];
    this.glue = createGlue((exports) => this.#guard(exports));
  }

  /** `hook()` runs once when this instance dies (at once if it is dead already). */
  onDeath(hook) {
    if (this.trap !== null) hook();
    else this.deathHooks.push(hook);
  }

  #guard(exports) {
    const out = {};
    for (const [name, f] of Object.entries(exports)) {
      if (typeof f !== 'function') {
        out[name] = f;
        continue;
      }
      const gen = this;
      out[name] = function guarded(...args) {
        if (gen.trap !== null) {
          // Dead: a late promise callback or finalizer of the old glue. Never enter it again.
          if (syncDepth > 0) throw gen.trap;
          return DEAD;
        }
        gen.depth++;
        try {
          return f.apply(this, args);
        } catch (e) {
          if (gen.trap === null) gen.#die(e);
          // Inner frames: let it unwind the outer wasm frames as the trap itself would.
          if (gen.depth > 1 || syncDepth > 0) throw e;
          return DEAD;
        } finally {
          gen.depth--;
        }
      };
    }
    return out;
  }

  #die(e) {
    this.trap = new EvalError('trap', '', `evalcore: the wasm instance trapped (${causeText(e)}); `
      + 'it was replaced by a fresh instance, so the next call works', { cause: e });
    if (current === this) current = null;
    for (const reject of this.waiters) reject(this.trap);
    this.waiters.clear();
    for (const hook of this.deathHooks.splice(0)) {
      try {
        hook();
      } catch {
        // A hook only ends timers; nothing of the dead instance may stop the others.
      }
    }
  }

  memoryBytes() {
    const ex = this.glue.rawExports();
    return ex && ex.memory ? ex.memory.buffer.byteLength : 0;
  }
}

function trapError(gen) {
  return new EvalError('trap', '', gen.trap.message, { cause: gen.trap.cause });
}

/** Instantiates the first instance synchronously (Node entry, web `initSync`). */
export function startSync(source) {
  const gen = new Generation();
  gen.glue.initSync(source);
  compiled = gen.glue.module();
  current = gen;
}

/** Instantiates the first instance from any source wasm-bindgen's `init` takes (web `init`). */
export async function start(source) {
  const gen = new Generation();
  await gen.glue.init(source);
  compiled = gen.glue.module();
  current = gen;
}

export function isReady() {
  return compiled !== null;
}

/** The live instance, made fresh when the last one died or was retired. */
export function instance() {
  if (compiled === null) {
    throw new EvalError('not_initialised', '',
      'evalcore: the wasm module is not initialised; call `await init()` or `initSync(bytes)` '
      + 'first (the browser/worker entry does not initialise itself)');
  }
  if (current === null) {
    const gen = new Generation();
    try {
      gen.glue.initSync({ module: compiled });
    } catch (cause) {
      // The host could not give a fresh instance its memory; the next call tries again.
      throw new EvalError('trap', '', `evalcore: a fresh wasm instance could not be made (${causeText(cause)})`, { cause });
    }
    current = gen;
    replacements++;
    for (const hook of freshHooks) hook(gen.glue);
  }
  return current;
}

const freshHooks = [];

/**
 * `hook(glue)` runs on every replacement instance before its first call: the settings the core
 * keeps per instance (its parse limits) are given to the fresh one too.
 */
export function onFreshInstance(hook) {
  freshHooks.push(hook);
}

function retireIfLarge(gen) {
  if (gen === current && gen.trap === null && syncDepth === 0 && gen.busy === 0 && gen.handles === 0
    && gen.memoryBytes() > ceiling) {
    current = null;
  }
}

/**
 * `fn(glue, generation)` on the live instance. A trap during it throws an EvalError `trap` (the instance is
 * already replaced); other errors pass through.
 */
export function callSync(fn) {
  const gen = instance();
  syncDepth++;
  let out;
  try {
    out = fn(gen.glue, gen);
  } catch (e) {
    if (gen.trap !== null) throw trapError(gen);
    throw e;
  } finally {
    syncDepth--;
  }
  if (gen.trap !== null) throw trapError(gen);
  retireIfLarge(gen);
  return out;
}

/**
 * `start(glue, generation)` returns the promise of an async export; resolves to its value, or rejects with
 * an EvalError `trap` as soon as the instance traps (its own promise then never settles).
 */
export async function callAsync(start) {
  const gen = instance();
  gen.busy++;
  let reject;
  const trapped = new Promise((_, r) => { reject = r; });
  // A trap in the export's synchronous start rejects this before the race below is reached:
  // it must not surface as an unhandled rejection (which ends a Node process).
  trapped.catch(() => {});
  gen.waiters.add(reject);
  try {
    const pending = callSync(() => start(gen.glue, gen));
    if (gen.trap !== null) throw trapError(gen);
    return await Promise.race([pending, trapped]);
  } catch (e) {
    if (gen.trap !== null) throw trapError(gen);
    throw e;
  } finally {
    gen.busy--;
    gen.waiters.delete(reject);
    retireIfLarge(gen);
  }
}

/** Throws `trap` when `gen` (a PreparedCase's own instance) is dead. */
export function checkAlive(gen) {
  if (gen.trap !== null) {
    throw new EvalError('trap', '', 'evalcore: this PreparedCase was made by a wasm instance that trapped '
      + `(${causeText(gen.trap.cause)}); prepare the case again`, { cause: gen.trap.cause });
  }
}

/** Runs `fn(glue)` on the generation `gen` (a PreparedCase's own instance). */
export function callOn(gen, fn) {
  checkAlive(gen);
  syncDepth++;
  try {
    return fn(gen.glue);
  } catch (e) {
    if (gen.trap !== null) throw trapError(gen);
    throw e;
  } finally {
    syncDepth--;
    if (gen.trap === null) retireIfLarge(gen);
  }
}

/**
 * `{ bytes, ceiling, replacements }`: the live instance's linear memory (what the next call
 * starts from), the ceiling, and how many times an instance was replaced (traps and retirements).
 */
export function coreMemory() {
  const gen = instance();
  return { bytes: gen.memoryBytes(), ceiling, replacements };
}

/**
 * After a call, an instance holding more than `bytes` of linear memory (wasm memory never
 * shrinks) is replaced when nothing uses it (no async call in flight, no live PreparedCase),
 * so the memory goes back to the host. `Infinity` keeps the instance whatever it holds.
 */
export function setMemoryCeiling(bytes) {
  if (typeof bytes !== 'number' || Number.isNaN(bytes) || bytes < 0) {
    throw new EvalError('schema', '', `setMemoryCeiling: expected a number of bytes >= 0, found ${typeof bytes === 'number' ? bytes : typeof bytes}`);
  }
  ceiling = bytes;
}

// The extras module (lib/wasm/extras.js) registers its caller when it is imported: the Node entry
// imports it at start, the browser/worker entry's `initExtras` on first use.
let extrasCall = null;

/** @internal lib/wasm/extras.js's caller of its raw exports. */
export function setExtrasCall(call) {
  extrasCall = call;
}

/**
 * `fn(glue)` on the extras module (the trace import, comparison statistics, agents-cli
 * datasets); EvalError `not_initialised`, naming `initExtras`, while it is not loaded.
 */
export function callExtras(fn) {
  if (extrasCall === null) throw notLoaded();
  return extrasCall(fn);
}

/** @internal The error of a call that needs the extras module before it is loaded. */
export function notLoaded() {
  return new EvalError('not_initialised', '', 'evalcore: traces, run comparison and agents-cli datasets are read by a '
    + 'second wasm module: call `await initExtras()` once first (the Node entry loads it by itself)');
}
