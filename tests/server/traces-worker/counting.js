// The module worker of index.js, its TraceSessions object counting the values it reads from its
// storage (`/reads` on the object itself answers the count): what a test of a listing page's
// reads looks at.
import { TraceSessions as Counted } from 'evalcore/server/traces';

export { default } from 'evalcore/server/traces';

/** `state` whose storage counts each value get() and list() return. */
function counting(state, reads) {
  const storage = new Proxy(state.storage, {
    get(target, name) {
      const f = target[name];
      if (name === 'get') {
        return async (...args) => {
          const v = await target.get(...args);
          reads.values += v instanceof Map ? v.size : v === undefined ? 0 : 1;
          return v;
        };
      }
      if (name === 'list') {
        return async (...args) => {
          const m = await target.list(...args);
          reads.values += m.size;
          return m;
        };
      }
      return typeof f === 'function' ? f.bind(target) : f;
    },
  });
  return new Proxy(state, {
    get: (target, name) => (name === 'storage' ? storage : typeof target[name] === 'function' ? target[name].bind(target) : target[name]),
  });
}

export class TraceSessions extends Counted {
  constructor(state, env) {
    const reads = { values: 0 };
    super(counting(state, reads), env);
    this.reads = reads;
  }

  async fetch(request) {
    if (new URL(request.url).pathname === '/reads') return Response.json(this.reads);
    return super.fetch(request);
  }
}
