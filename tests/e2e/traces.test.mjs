// Trace files in the viewer (Chromium): OTLP/JSON lines, OTLP/JSON and protobuf exported by the
// real frameworks open directly; each session shows its turns and each invocation's spans as a
// timeline whose bars are the spans loadTraces gives in Node (kinds, order, times); the sessions
// become an eval set to edit. The trace module loads only when a trace file is opened.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './fixtures.mjs';
import { launch, serve, open, shot } from './helpers.mjs';
import { loadTraces } from '../../pkg/index.js';

const data = (name) => join(ROOT, 'tests', 'data', 'traces', name);
let browser;
const servers = [];
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); for (const s of servers) await s.close(); });

test('OTLP files open directly: sessions, turns and each invocation\'s spans as a timeline', async () => {
  const files = [data('adk-py-v1.otlp.jsonl'), data('ai-sdk-genai.otlp.pb'), data('adk-js.otlp.json')];
  const server = await serve(files);
  servers.push(server);
  const { page, log } = await open(browser, server.url);
  assert.equal(await page.getAttribute('main', 'data-view'), 'traces', 'trace files alone open on the Traces view');
  await page.waitForSelector('#traces .session');
  const sessions = await page.$$eval('#traces .session', (els) => els.map((e) => e.dataset.session));
  const want = files.flatMap((f) => loadTraces(readFileSync(f), { timeline: true }).sessions);
  assert.deepEqual(sessions, want.map((s) => s.session_id));

  // The first session's first turn: one bar per span, of the kind and at the times the package gives.
  // (querySelector's first match: `:first-of-type` would match a first session in every file)
  const first = '#traces .session >> nth=0 >> .invocation >> nth=0';
  const bars = await page.locator(first).locator('svg.timeline g.span').evaluateAll(
    (gs) => gs.map((g) => ({ kind: [...g.classList].find((c) => c.startsWith('k-')).slice(2), label: g.getAttribute('aria-label') })));
  const spans = want[0].timelines[0];
  assert.equal(bars.length, spans.length);
  bars.forEach((b, i) => {
    assert.equal(b.kind, spans[i].kind);
    assert.ok(b.label.startsWith(`${spans[i].name} (${spans[i].kind}`), b.label);
  });
  assert.ok(bars.some((b) => b.kind === 'model') && bars.some((b) => b.kind === 'tool'));
  const split = await page.locator(first).locator('.split').innerText();
  assert.match(split, new RegExp(`model ${want[0].invocations[0].model_duration}`.replace('.', '\\.')));
  assert.match(await page.locator(first).innerText(), /Roll a 6-sided die\./);
  await shot(page, 'traces-timeline');

  // The Files view says what each file is; the sessions become an eval set opened to edit.
  await page.click('#tabs a[data-view=files]');
  assert.match(await page.innerText('main'), /1 recorded session, 4 invocations/);
  await page.click('#tabs a[data-view=traces]');
  await page.locator('#traces .trace-file >> nth=0').locator('.make-evalset').click();
  await page.waitForFunction(() => location.hash.startsWith('#edit/'));
  assert.match(await page.innerText('main'), /session-v1/);
  assert.deepEqual(log.errors, []);
  assert.ok(log.requests.every((u) => u.startsWith(server.origin)), log.requests.join('\n'));
  assert.ok(log.requests.some((u) => u.includes('/wasm-extras/')), 'the extras module (the trace import) was loaded');
  await page.close();
});

test('what the agent said beside its tool calls shows in each turn, in order with the calls', async () => {
  // ADK Python's trace: in turn 3 the root agent says something as it transfers to another.
  const file = data('adk-py-v1.otlp.jsonl');
  const server = await serve([file]);
  servers.push(server);
  const { page, log } = await open(browser, server.url);
  await page.waitForSelector('#traces .session');
  const [session] = loadTraces(readFileSync(file), { timeline: true }).sessions;
  // Every turn's steps as the imported events hold them: text parts said, function calls called.
  const want = session.invocations.map((inv) => inv.intermediate_data.invocation_events.flatMap((ev) => (ev.content?.parts ?? []).flatMap((p) => (
    typeof p.text === 'string' ? [`${ev.author} said: ${p.text}`] : p.function_call ? [`${ev.author} ${p.function_call.name} ${JSON.stringify(p.function_call.args)}`] : []))));
  assert.ok(want[2].includes('dice_agent said: Let me hand you to the prime expert.'), JSON.stringify(want[2]));
  const turns = page.locator('#traces .session >> nth=0 >> .invocation');
  assert.equal(await turns.count(), session.invocations.length);
  for (let k = 0; k < want.length; k++) {
    const shown = await turns.nth(k).locator('ol.steps > li').evaluateAll((lis) => lis.map((li) => li.textContent.replace(/\s+/g, ' ').trim()));
    assert.deepEqual(shown, want[k], `turn ${k + 1}`);
  }
  // The text comes before the transfer it was said with, and the final response stays apart.
  const third = await turns.nth(2).innerText();
  assert.ok(third.indexOf('Let me hand you to the prime expert.') < third.indexOf('transfer_to_agent'), third);
  assert.match(third, /Final response:\s+7 is prime; 9 is not\./);
  await shot(page, 'traces-said');
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('a page without trace files never loads the trace module; a broken trace file says where it broke', async () => {
  const server = await serve([join(ROOT, 'tests', 'data', 'traces', 'adk-py-v1.oracle.json')]);
  servers.push(server);
  const { page, log } = await open(browser, server.url);
  assert.ok(!log.requests.some((u) => u.includes('wasm-extras') || u.includes('/www/traces.js')), log.requests.join('\n'));
  await page.close();
  const bad = join(ROOT, 'tests', 'e2e', 'artifacts');
  const { mkdirSync, writeFileSync } = await import('node:fs');
  mkdirSync(bad, { recursive: true });
  writeFileSync(join(bad, 'broken.otlp.jsonl'), '{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": 7}]}]}]}\n{"resourceSpans": [');
  const s2 = await serve([join(bad, 'broken.otlp.jsonl')]);
  servers.push(s2);
  const { page: p2 } = await open(browser, s2.url);
  await p2.click('#tabs a[data-view=files]');
  assert.match(await p2.innerText('main'), /error/);
  await p2.close();
});
