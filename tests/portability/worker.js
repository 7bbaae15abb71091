// workerd side of the portability check: the browser/worker entry initialised from the wasm
// module workerd compiled at load (initSync); POST `{rouge, cases}` (the two JSONL texts), get the
// numbers back.
import wasmModule from './evalcore/wasm/evalcore_core_bg.wasm';
import * as api from './evalcore/web.js';
import * as hooks from './evalcore/lib/wasm/test_hooks.js';
import { trapCheck } from './trap-check.mjs';
import { parseVectors, runVectors } from './vectors.mjs';

export default {
  async fetch(request) {
    if (request.method !== 'POST') return new Response('evalcore portability worker', { status: 200 });
    api.initSync(wasmModule);
    const { rouge, cases } = await request.json();
    const out = await runVectors(api, parseVectors(rouge, cases));
    out.runtime = `workerd ${navigator.userAgent}`;
    out.trap = await trapCheck(api, hooks);
    return Response.json(out);
  },
};
