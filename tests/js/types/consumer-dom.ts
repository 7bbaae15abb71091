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
