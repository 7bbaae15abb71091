// A module worker that runs the eval-set scenario (tests/js/support/store-scenario.mjs) against
// the KV namespace `KV` or the R2 bucket `R2`, through evalcore/server's workerd entry, and
// answers the transcript and what the store holds afterwards. `?store=kv|r2`; `?many=N` puts N
// keys under `many/` (and one deeper) and answers what list('many/') gives, to cross the
// bindings' 1000-key pages.
import { evalSetsManager, kvStore, r2Store } from 'evalcore/server';
import { storeContents, storeScenario } from './scenario.js';

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const kind = url.searchParams.get('store');
    const store = kind === 'kv' ? kvStore(env.KV) : kind === 'r2' ? r2Store(env.R2) : null;
    if (store === null) return new Response('store=kv or store=r2', { status: 400 });
    const many = Number(url.searchParams.get('many') ?? 0);
    if (many > 0) {
      const keys = Array.from({ length: many }, (_, i) => `many/k${String(i).padStart(5, '0')}`);
      for (let i = 0; i < keys.length; i += 50) await Promise.all(keys.slice(i, i + 50).map((k) => store.put(k, new TextEncoder().encode(k))));
      await store.put('many/deeper/x', new Uint8Array([1]));
      return Response.json(await store.list('many/'));
    }
    const transcript = await storeScenario(evalSetsManager, store);
    return Response.json({ transcript, contents: await storeContents(store) });
  },
};
