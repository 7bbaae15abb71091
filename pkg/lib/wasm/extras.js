// The extras module (pkg/wasm-extras/, src/wasm/extras.rs): what is not on the scoring path —
// the trace import, run comparison's statistics, agents-cli datasets — in a second wasm module,
// so the main one keeps to its size ceiling (STYLE.md §15). The Node entry gives it the file's
// bytes and its glue, and it is compiled on first use; the browser/worker entry needs
// `await initExtras(source?)` once, which imports this file then (so a page that never needs it
// never loads it). An instance that traps, or holds more memory than the main module's ceiling
// after a call, is replaced by a fresh one.
import { EvalError } from '../errors.js';
import { coreMemory, getLimits } from './api.js';
import { notLoaded, setExtrasCall } from './instance.js';
import { extras } from './exports.js';

let compiled = null; // WebAssembly.Module
let glue = null; // the live instance's glue
let readSource = null; // the Node entry's reader of the .wasm bytes
let createGlue = null; // the module's glue factory (scripts/glue-factory.mjs)

/**
 * @internal The Node entry and the worker's: the glue, and how to get the module (its bytes, or a
 * `WebAssembly.Module` workerd compiled) when first needed.
 */
export function setExtrasSource(read, glueFactory) {
  readSource = read;
  createGlue = glueFactory;
}

/**
 * Compiles the extras module (browser, worker): `source` is a `WebAssembly.Module`, the .wasm
 * bytes, a `Response` or a URL; without it, `evalcore_extras_bg.wasm` next to its glue is
 * fetched. The Node entry needs no call. Idempotent.
 */
export async function initExtras(source) {
  if (createGlue === null) createGlue = (await import('../../wasm-extras/evalcore_extras_factory.js')).createGlue;
  if (compiled !== null) return;
  let s = source ?? new URL('../../wasm-extras/evalcore_extras_bg.wasm', import.meta.url);
  if (s instanceof WebAssembly.Module) {
    compiled = s;
    return;
  }
  if (typeof s === 'string' || s instanceof URL) s = await fetch(s);
  if (s && typeof s.arrayBuffer === 'function') s = await s.arrayBuffer();
  compiled = await WebAssembly.compile(s);
}

function live() {
  if (glue !== null) return glue;
  if (createGlue === null || (compiled === null && readSource === null)) {
    throw notLoaded();
  }
  if (compiled === null) {
    let src;
    try {
      src = readSource();
    } catch (e) {
      throw new EvalError('not_initialised', '', `evalcore: the extras module (traces, run comparison, agents-cli and legacy shapes) could not be read: ${e instanceof Error ? e.message : String(e)}; reinstall the package`, { cause: e });
    }
    compiled = src instanceof WebAssembly.Module ? src : new WebAssembly.Module(src);
  }
  const g = createGlue((exports) => exports);
  g.initSync({ module: compiled });
  glue = g;
  return g;
}

/** @internal The extras module's linear memory in bytes (0 before its first use), for benches. */
export function extrasMemory() {
  const ex = glue && glue.rawExports();
  return ex && ex.memory ? ex.memory.buffer.byteLength : 0;
}

/** The main module's limits and memory ceiling, when it is initialised (else the defaults). */
function mainSettings() {
  try {
    return [getLimits(), coreMemory().ceiling];
  } catch {
    return [null, 64 * 2 ** 20];
  }
}

/** `fn(glue)` on the live instance; the main module's limits and memory ceiling apply here too. */
export function callExtras(fn) {
  const g = live();
  const [limits, ceiling] = mainSettings();
  try {
    if (limits !== null) extras.on.setLimitsJson(g, JSON.stringify(limits));
    return fn(g);
  } catch (e) {
    glue = null;
    throw new EvalError('trap', '', `evalcore: the extras module trapped (${e instanceof Error ? e.message : String(e)}); `
      + 'it was replaced, so the next call works', { cause: e });
  } finally {
    const ex = glue && glue.rawExports();
    if (ex && ex.memory && ex.memory.buffer.byteLength > ceiling) glue = null;
  }
}

// The API's functions reach this module through instance.js, so importing them loads nothing.
setExtrasCall(callExtras);
