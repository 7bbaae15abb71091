//! The session records a TraceSessions Durable Object keeps, wherever they are stored (R2, KV or
//! its own storage): a directory of them in the object's storage (`k:<key>` -> when it expires,
//! `e:<when>:<key>` in the order they expire), so a listing page reads its own records and no
//! others, and a record older than `traceRetentionMs` is deleted by the object's alarm (KV's own
//! expirationTtl too). Only the object writes records, so the directory has every one.
import { RESULTS_PREFIX } from './trace_results.js';

/** Records deleted by one alarm at most (a later alarm deletes the rest). */
const EXPIRE_PER_ALARM = 1000;
/** Records one storage call deletes (with their directory entries: 128 keys, the most one call takes). */
const PER_CALL = 64;

const at13 = (ms) => String(Math.max(0, Math.floor(ms))).padStart(13, '0');

/**
 * The records over `store` (a Store) with their directory in `storage` (the object's): `store`
 * to read and write them through (a write is filed in the directory), `page(after, n)` for
 * listRecords, `expire(now)` deleting what is due, `nextExpiry()` (ms, or null), `backfill()`
 * filing records written before the directory was kept.
 */
export function recordDirectory(storage, store, retentionMs) {
  let next;
  const readNext = async () => {
    const first = [...(await storage.list({ prefix: 'e:', limit: 1 })).keys()][0];
    next = first === undefined ? null : Number(first.slice(2, 15));
    return next;
  };
  async function file(key, now) {
    const old = await storage.get(`k:${key}`);
    const until = now + retentionMs;
    if (typeof old === 'number') await storage.delete(`e:${at13(old)}:${key}`);
    await storage.put({ [`k:${key}`]: until, [`e:${at13(until)}:${key}`]: 1 });
    if (next === undefined) await readNext();
    else if (next === null || until < next) next = until;
  }
  return {
    store: {
      ...store,
      async put(key, bytes) {
        await store.put(key, bytes);
        if (key.startsWith(RESULTS_PREFIX)) await file(key, Date.now());
      },
    },
    async page(after, n) {
      const prefix = `k:${RESULTS_PREFIX}`;
      const got = await storage.list({ prefix, limit: n, ...(after === null ? {} : { startAfter: `${prefix}${after}` }) });
      return [...got.keys()].map((k) => k.slice(2));
    },
    async expire(now) {
      const due = [...(await storage.list({ prefix: 'e:', end: `e:${at13(now + 1)}`, limit: EXPIRE_PER_ALARM })).keys()];
      for (const e of due) await store.delete(e.slice(16));
      for (let i = 0; i < due.length; i += PER_CALL) {
        const part = due.slice(i, i + PER_CALL);
        await storage.delete([...part, ...part.map((e) => `k:${e.slice(16)}`)]);
      }
      await readNext();
      return due.length;
    },
    nextExpiry: () => (next === undefined ? readNext() : next),
    async backfill() {
      if ((await storage.get('k:filed')) === true) return;
      const now = Date.now();
      for (const key of await store.list(RESULTS_PREFIX)) if ((await storage.get(`k:${key}`)) === undefined) await file(key, now);
      await storage.put('k:filed', true);
    },
  };
}
