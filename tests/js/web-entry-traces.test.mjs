// The browser/worker entry: the trace module is not loaded until `initTraces` (a page that never
// reads traces never fetches it); before that, loadTraces says what to call.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as web from '../../pkg/web.js';

const pkg = new URL('../../pkg/', import.meta.url);

test('web entry: loadTraces needs initTraces first, then reads traces', async () => {
  web.initSync(readFileSync(new URL('wasm/evalcore_core_bg.wasm', pkg)));
  assert.throws(() => web.loadTraces('{"resourceSpans": []}'), (e) => e.code === 'not_initialised' && /initTraces/.test(e.message));
  await web.initTraces(readFileSync(new URL('wasm-traces/evalcore_traces_bg.wasm', pkg)));
  await web.initTraces(); // idempotent
  const { sessions } = web.loadTraces(readFileSync(new URL('../tests/data/traces/adk-js.otlp.json', pkg)));
  assert.equal(sessions[0].source, 'adk-js');
});
