//! Where a run's data lives in a Store (an R2 bucket on Workers, the runs folder on Node), and
//! the JSON in and out of it. Keys, under `runs/<id>/`:
//!   input/head.json        the run's head (config, eval set without cases, places of the cases,
//!                          where its chunks are)
//!   input/<tag>/<k>.json   chunk k of the cases and their recorded invocations, written by the
//!                          submission `tag` (two submissions with one Idempotency-Key never mix)
//!   cases/<unit>.<tag>.json  one case result; `tag` names the attempt that wrote it, so two
//!                          deliveries of one message never overwrite each other: the ledger
//!                          keeps the first and the other is deleted
//!   result/head.json       the assembled result's fields (written once the run has ended)
//! and `index/<inverted time>-<id>`, empty, so listing the runs newest first is one listing.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A run's prefix in the store. */
export const runPrefix = (id) => `runs/${id}/`;

const pad = (k) => String(k).padStart(6, '0');

/** The index key that lists `id` created at `createdMs` newest first. */
export const indexKey = (id, createdMs) => `index/${String(9_999_999_999_999 - createdMs).padStart(13, '0')}-${id}`;

/** The run id of an index key, or null. */
export function idOfIndexKey(key) {
  const m = /^index\/\d{13}-(r_[0-9a-f]{24})$/.exec(key);
  return m ? m[1] : null;
}

/** A tag for one attempt at a unit (8 random hex digits). */
export function attemptTag() {
  return [...crypto.getRandomValues(new Uint8Array(4))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The run data of `store`. Chunks and heads are read once per process and kept (they never
 * change once written); `cacheLimit` bounds how many.
 */
export function runFiles(store, { cacheLimit = 8 } = {}) {
  const cache = new Map();
  const getJson = async (key) => {
    const bytes = await store.get(key);
    return bytes === null ? null : JSON.parse(decoder.decode(bytes));
  };
  const putJson = (key, value) => store.put(key, encoder.encode(JSON.stringify(value)));
  const cached = async (key) => {
    if (cache.has(key)) return cache.get(key);
    const value = getJson(key);
    cache.set(key, value);
    if (cache.size > cacheLimit) cache.delete(cache.keys().next().value);
    try {
      return await value;
    } catch (e) {
      cache.delete(key);
      throw e;
    }
  };
  return {
    store,
    /** Where a submission's chunks go: `runs/<id>/input/<tag>/`. */
    chunkPrefix: (id, tag) => `${runPrefix(id)}input/${tag}/`,
    putChunk: (prefix, k, chunk) => putJson(`${prefix}${pad(k)}.json`, chunk),
    async removeChunks(prefix) {
      for (const key of await store.list(prefix)) await store.delete(key);
    },
    /** The head, once the chunks it names are all written: a head that exists means the whole input does. */
    putHead: (id, head) => putJson(`${runPrefix(id)}input/head.json`, head),
    head: (id) => cached(`${runPrefix(id)}input/head.json`),
    chunkOf: (head, k) => cached(`${head.chunkPrefix}${pad(k)}.json`),
    /** Stores a case result's bytes; resolves to its key. */
    async putCase(id, unit, tag, bytes) {
      const key = `${runPrefix(id)}cases/${unit}.${tag}.json`;
      await store.put(key, bytes);
      return key;
    },
    getBytes: (key) => store.get(key),
    remove: (key) => store.delete(key),
    listCases: (id) => store.list(`${runPrefix(id)}cases/`),
    putResultHead: (id, value) => putJson(`${runPrefix(id)}result/head.json`, value),
    resultHead: (id) => getJson(`${runPrefix(id)}result/head.json`),
    putIndex: (id, createdMs) => store.put(indexKey(id, createdMs), new Uint8Array(0)),
    getJson,
    putJson,
  };
}

export const caseBytes = (result) => encoder.encode(JSON.stringify(result));
