//! The storage interface eval-set management runs on, and its in-memory implementation.
//!
//! A Store holds bytes under '/'-separated keys, asynchronously:
//!   get(key) -> Uint8Array | null     put(key, bytes) -> void     delete(key) -> void
//!   list(prefix) -> sorted keys that start with `prefix` and have no '/' after it
//! `list` is one folder level, like a directory listing: `list('app/')` gives `app/x.evalset.json`
//! but not `app/.adk/eval_history/...`, and `list('app/x')` the keys of `app/` whose name starts
//! with `x`. Keys are checked the same way by every store, so none can leave its root.
import { EvalError } from '../errors.js';

/** The longest key a store takes (Workers KV's limit is 512 bytes; R2's 1024). */
export const MAX_KEY_BYTES = 512;

const encoder = new TextEncoder();

function badKey(key, why) {
  const show = JSON.stringify(key) ?? String(key);
  return new EvalError('invalid_path', '', `store key ${show.length > 200 ? `${show.slice(0, 200)}...` : show} ${why}`);
}

/**
 * Throws EvalError `invalid_path` unless `key` is '/'-separated non-empty segments with no NUL,
 * no backslash, no `.`/`..` segment, no leading `/` and no drive letter (`C:`). With
 * `{ prefix: true }`, `''` and a trailing `/` are allowed too (a folder, for `list`).
 */
export function checkKey(key, { prefix = false } = {}) {
  if (typeof key !== 'string') throw badKey(key, 'must be a string');
  if (key === '') {
    if (prefix) return key;
    throw badKey(key, 'must not be empty');
  }
  if (key.includes('\0')) throw badKey(key, 'must not contain null bytes');
  if (key.includes('\\')) throw badKey(key, "must not contain '\\' (keys are '/'-separated)");
  if (key.startsWith('/')) throw badKey(key, "must be relative (no leading '/')");
  if (/^[A-Za-z]:/.test(key)) throw badKey(key, 'must not be drive-qualified');
  if (encoder.encode(key).length > MAX_KEY_BYTES) throw badKey(key, `is longer than ${MAX_KEY_BYTES} bytes`);
  const segments = key.split('/');
  if (prefix && segments[segments.length - 1] === '') segments.pop();
  for (const s of segments) {
    if (s === '') throw badKey(key, "must not contain an empty segment ('//' or a trailing '/')");
    if (s === '.' || s === '..') throw badKey(key, "must not contain '.' or '..' segments");
  }
  return key;
}

function isKey(key) {
  try {
    checkKey(key);
    return true;
  } catch {
    return false;
  }
}

/** Whether `key` is listed by `list(prefix)`: it starts with `prefix` and has no '/' after it. */
export function listedBy(prefix, key) {
  return key.startsWith(prefix) && !key.includes('/', prefix.length);
}

/** `bytes` checked to be a Uint8Array (what every store's `put` takes). */
export function checkBytes(bytes, key) {
  if (!(bytes instanceof Uint8Array)) {
    throw new EvalError('schema', '', `store put ${JSON.stringify(key)}: expected the value as a Uint8Array, found ${bytes === null ? 'null' : typeof bytes}`);
  }
  return bytes;
}

/** Throws EvalError `config` unless `store` has the four Store functions. */
export function checkStore(store, who) {
  if (store === null || typeof store !== 'object') {
    throw new EvalError('config', '', `${who}: expected a Store {get, put, delete, list}, found ${store === null ? 'null' : typeof store}`);
  }
  for (const f of ['get', 'put', 'delete', 'list']) {
    if (typeof store[f] !== 'function') throw new EvalError('config', '', `${who}: the store has no ${f}() function (a Store has get, put, delete, list)`);
  }
  return store;
}

/**
 * A Store from raw operations on keys already checked: every key and value is checked here, and
 * what `list` gives is cut to one folder level and sorted, so each store means the same by them.
 */
export function checkedStore(raw, extra = {}) {
  return {
    ...extra,
    async get(key) {
      checkKey(key);
      return raw.get(key);
    },
    async put(key, bytes) {
      checkKey(key);
      await raw.put(key, checkBytes(bytes, key));
    },
    async delete(key) {
      checkKey(key);
      await raw.delete(key);
    },
    async list(prefix) {
      checkKey(prefix, { prefix: true });
      // A name no key can address (a file `a\\b` on disk) is left out: it could not be read.
      return (await raw.list(prefix)).filter((k) => listedBy(prefix, k) && isKey(k)).sort();
    },
  };
}

/** A Store in this process's memory (tests, a short-lived server). Values are copied in and out. */
export function memoryStore() {
  const values = new Map();
  return checkedStore({
    get: (key) => values.get(key)?.slice() ?? null,
    put: (key, bytes) => { values.set(key, bytes.slice()); },
    delete: (key) => { values.delete(key); },
    list: () => [...values.keys()],
  });
}
