// Whether the wasm instance is ready: the Node entry sets it at import, the web entry in init().

let ready = false;

export function markReady() {
  ready = true;
}

export function isReady() {
  return ready;
}

export function ensureReady() {
  if (!ready) {
    throw new Error(
      'evalcore: the wasm module is not initialised; call `await init()` or `initSync(bytes)` ' +
      'first (the browser/worker entry does not initialise itself)',
    );
  }
}
