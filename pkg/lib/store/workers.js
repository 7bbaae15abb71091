//! Stores over Cloudflare Workers bindings, through their documented JS APIs: a KV namespace
//! (`env.MY_KV`) and an R2 bucket (`env.MY_BUCKET`). Keys are checked as every store checks them,
//! and mean the same: ADK's layout under the namespace or the bucket. KV is eventually
//! consistent across locations (a write is seen at once where it was made); R2 is strongly
//! consistent.
import { EvalError } from '../errors.js';
import { checkedStore } from './store.js';

function checkBinding(binding, who, functions) {
  if (binding === null || typeof binding !== 'object') {
    throw new EvalError('config', '', `${who}: expected the binding object (env.NAME from wrangler.toml), found ${binding === null ? 'null' : typeof binding}`);
  }
  for (const f of functions) {
    if (typeof binding[f] !== 'function') throw new EvalError('config', '', `${who}: the binding has no ${f}() function; is it the right kind of binding?`);
  }
  return binding;
}

/** Lists every page of a cursor-based listing; a page without a cursor ends it. */
async function allPages(listPage, done) {
  const pages = [];
  let cursor;
  for (;;) {
    const page = await listPage(cursor);
    pages.push(page);
    if (done(page) || typeof page.cursor !== 'string' || page.cursor === '' || page.cursor === cursor) return pages;
    cursor = page.cursor;
  }
}

/** A Store over a Workers KV namespace binding. */
export function kvStore(namespace) {
  checkBinding(namespace, 'kvStore', ['get', 'put', 'delete', 'list']);
  return checkedStore({
    get: async (key) => {
      const value = await namespace.get(key, { type: 'arrayBuffer' });
      return value === null || value === undefined ? null : new Uint8Array(value);
    },
    put: (key, bytes) => namespace.put(key, bytes),
    delete: (key) => namespace.delete(key),
    // KV has no delimiter: every key under the prefix comes; checkedStore keeps one level.
    list: async (prefix) => (await allPages(
      (cursor) => namespace.list(cursor === undefined ? { prefix } : { prefix, cursor }),
      (page) => page.list_complete === true,
    )).flatMap((p) => p.keys ?? []).map((k) => k.name),
  });
}

/** A Store over a Workers R2 bucket binding. */
export function r2Store(bucket) {
  checkBinding(bucket, 'r2Store', ['get', 'put', 'delete', 'list']);
  return checkedStore({
    get: async (key) => {
      const object = await bucket.get(key);
      return object === null || object === undefined ? null : new Uint8Array(await object.arrayBuffer());
    },
    put: (key, bytes) => bucket.put(key, bytes),
    delete: (key) => bucket.delete(key),
    list: async (prefix) => (await allPages(
      (cursor) => bucket.list(cursor === undefined ? { prefix, delimiter: '/' } : { prefix, delimiter: '/', cursor }),
      (page) => page.truncated !== true,
    )).flatMap((p) => p.objects ?? []).map((o) => o.key),
  });
}
