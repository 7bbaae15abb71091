// The browser-side view (lib "dom"): the platform's fetch is a valid Judge.fetch and init
// accepts what a page has at hand (a fetch Response, a URL, bytes, a compiled module).
import { init, initSync, evaluateInvocations } from 'evalcore/web';
import type { Judge } from 'evalcore';

const judge: Judge = { provider: 'openai', model: 'gpt-4o-mini', fetch: globalThis.fetch, baseUrl: 'http://127.0.0.1:8080' };
const bound: Judge = { provider: 'anthropic', model: 'claude', fetch: (input, options) => fetch(input, options) };

async function start(bytes: Uint8Array, module: WebAssembly.Module): Promise<void> {
  await init(fetch('/evalcore_core_bg.wasm'));
  await init(new URL('https://example.invalid/evalcore_core_bg.wasm'));
  await init(bytes);
  initSync(module);
  initSync(bytes.buffer);
  await evaluateInvocations({ evalCase: {}, actual: [], judge });
}
void [bound, start];

// evalcore/server: the handler is a fetch handler; a module worker's default export.
import server, { createHandler, optionsFromEnv, DEFAULT_LIMITS } from 'evalcore/server';
import { metricsInfo } from 'evalcore';
const handler = createHandler({ ...optionsFromEnv({ EVALCORE_TOKEN: 't' }), limits: { maxCases: DEFAULT_LIMITS.maxCases + 1 }, agents: { echo: async (turn) => turn.text, remote: { url: 'http://127.0.0.1:9/turn' } } });
const answered: Promise<Response> = handler(new Request('http://127.0.0.1/healthz'));
const viaWorker: Promise<Response> = server.fetch(new Request('http://127.0.0.1/v1/metrics'), {});
const judged: boolean = metricsInfo().some((m) => m.needs_judge);
void [answered, viaWorker, judged];
