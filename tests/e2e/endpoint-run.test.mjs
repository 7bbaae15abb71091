// The viewer opens a run kept by an evaluation endpoint by its URL (`?run=<endpoint>/v1/runs/ID`):
// a real `evalcore serve --runs_dir` with a token and the viewer's origin in its CORS list, the
// token asked for in the page (never in the URL), the result fetched and shown.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serve, open, shot, tableRows } from './helpers.mjs';
import { startCli, workDir, removeWork } from '../server/support.mjs';
import { corpus } from '../server/shard-support.mjs';
import { readEvents } from '../server/runs-support.mjs';

const TOKEN = 'viewer-runs-token-42';
let browser;
let viewer;
let endpoint;
let work;
let runId;

before(async () => {
  browser = await launch();
  viewer = await serve([]);
  work = workDir();
  endpoint = await startCli(['serve', '--runs_dir', work, '--quiet'], { EVALCORE_TOKEN: TOKEN, EVALCORE_CORS_ORIGINS: viewer.origin });
  const { evalSet, actual } = corpus(6, 'viewer_run');
  const res = await fetch(`${endpoint.url}/v1/runs`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ evalSet, actual, config: { criteria: { response_match_score: 0.6 } }, name: 'nightly' }),
  });
  runId = (await res.json()).id;
  await readEvents((path, init) => fetch(endpoint.url + path, { ...init, headers: { authorization: `Bearer ${TOKEN}` } }), runId);
});

after(async () => {
  await browser?.close();
  await viewer?.close();
  await endpoint?.stop();
  if (work) removeWork(work);
});

test('?run=URL asks for the endpoint\'s token, then shows the run', async () => {
  const url = `${viewer.origin}/www/index.html?run=${encodeURIComponent(`${endpoint.url}/v1/runs/${runId}`)}`;
  const { page, log } = await open(browser, url);
  const input = page.locator('#run-token');
  await input.waitFor();
  assert.match(await page.locator('#notice').innerText(), new RegExp(`${endpoint.url.replace(/[.:/]/g, '\\$&')} needs its token`));
  await input.fill(TOKEN);
  await page.click('.token-form button[type=submit]');
  const rows = await tableRows(page);
  assert.equal(rows.length, 6);
  assert.match(await page.locator('.run-label, #run-pick').first().innerText(), /nightly/);
  await shot(page, 'run-from-endpoint');
  // The token went to the endpoint only, in a header; nothing else left the page's origin.
  assert.ok(log.requests.every((u) => u.startsWith(viewer.origin) || u.startsWith(`${endpoint.url}/v1/runs/${runId}/result`)), log.requests.join('\n'));
  assert.ok(log.requests.every((u) => !u.includes(TOKEN)));
  assert.deepEqual(log.errors.filter((e) => !/401/.test(e)), []);
  await page.close();
});

test('?run= that is not a run\'s URL is listed as an error, and nothing is fetched', async () => {
  const url = `${viewer.origin}/www/index.html?run=${encodeURIComponent('javascript:alert(1)')}&run=${encodeURIComponent(`${endpoint.url}/etc/passwd`)}`;
  const { page, log } = await open(browser, url);
  await page.click('#tabs a[data-view=files]');
  const files = await page.locator('table.files tbody tr').allInnerTexts();
  assert.equal(files.length, 2);
  for (const f of files) assert.match(f, /not_a_run/);
  assert.ok(log.requests.every((u) => u.startsWith(viewer.origin)));
  await page.close();
});
