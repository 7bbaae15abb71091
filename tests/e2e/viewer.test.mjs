// The viewer in Chromium on a real run of the hello_world example (two runs, its eval set and
// config): opening files every way, the run matrix, filters, keyboard, a case, comparison.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync, copyFileSync } from 'node:fs';
import { join, basename } from 'node:path';
import { helloRun, tempDir } from './fixtures.mjs';
import { launch, serve, open, shot, tableRows } from './helpers.mjs';

let browser, hello, server;

before(async () => {
  hello = helloRun();
  browser = await launch();
  server = await serve([...hello.results, hello.evalSet, hello.config]);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('URL parameters open two runs, the eval set and the config; the run matrix shows every case', async () => {
  const { page, log } = await open(browser, server.url);
  const rows = await tableRows(page);
  assert.deepEqual(rows.map((r) => r.slice(0, 2)).sort(), [
    ['check_listed_numbers', 'FAILED'], ['greeting', 'PASSED'], ['roll_and_check', 'PASSED'], ['roll_twice_then_check', 'PASSED'],
  ]);
  // Sorted by status, worst first; the metric columns hold the core's scores.
  assert.equal(rows[0][0], 'check_listed_numbers');
  assert.equal(rows[0][2], '0');
  assert.equal(rows[0][3], '0.833');
  const headers = await page.$$eval('[role=columnheader]', (hs) => hs.map((x) => x.textContent.replace(/[▲▼]/g, '').trim()));
  assert.deepEqual(headers, ['eval id', 'status', 'tool_trajectory_avg_score', 'response_match_score', 'tokens', 'seconds']);
  assert.equal(await page.locator('.chart').count(), 2, 'one score histogram per metric');
  assert.match(await page.locator('.cards').first().innerText(), /4\s+cases[\s\S]*3\s+passed[\s\S]*1\s+failed/i);
  await shot(page, 'run-hello-world');
  // The run as a self-contained HTML report (what `evalcore eval --format html` writes).
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-html')]);
  assert.match(download.suggestedFilename(), /\.report\.html$/);
  const html = readFileSync(await download.path(), 'utf8');
  assert.match(html, /<h1><span class="verdict FAILED">FAILED<\/span> evalcore: 3 of 4 eval cases passed<\/h1>/);
  assert.doesNotMatch(html, /<script/i);
  const report = await browser.newPage({ viewport: { width: 1000, height: 600 } });
  await report.setContent(html);
  // The verdict is a word on a badge, readable without an emoji font.
  assert.equal(await report.locator('h1 .verdict').innerText(), 'FAILED');
  assert.equal(await report.locator('h1 .verdict').evaluate((el) => getComputedStyle(el).backgroundColor), 'rgb(207, 34, 46)');
  await shot(report, 'report-html-verdict');
  await report.close();
  // Files view: the config's criteria and the eval set's cases, read by the package.
  await page.click('#tabs a[data-view=files]');
  await page.locator('table.files tbody tr').nth(3).waitFor();
  const files = await page.locator('table.files tbody tr').allInnerTexts();
  assert.equal(files.length, 4);
  assert.match(files[2], /eval set\s+hello_world: 4 cases/);
  assert.match(files[3], /config[\s\S]*tool_trajectory_avg_score threshold 1[\s\S]*response_match_score threshold 0.5/);
  assert.deepEqual(log.errors, []);
  assert.ok(log.requests.every((u) => u.startsWith(server.origin)), 'no request leaves the origin');
  await page.close();
});

test('filters: status, metric with a score range, regex text, and the count of shown cases', async () => {
  const { page } = await open(browser, server.url);
  await page.selectOption('#f-status', 'FAILED');
  assert.deepEqual((await tableRows(page)).map((r) => r[0]), ['check_listed_numbers']);
  await page.selectOption('#f-status', '');
  await page.selectOption('#f-metric', 'response_match_score');
  await page.fill('#f-min', '0.8');
  await page.fill('#f-max', '0.9');
  await page.waitForFunction(() => document.getElementById('shown')?.textContent.startsWith('2 of'));
  assert.deepEqual((await tableRows(page)).map((r) => r[0]).sort(), ['check_listed_numbers', 'roll_and_check']);
  await page.fill('#f-min', '');
  await page.fill('#f-max', '');
  await page.waitForFunction(() => document.getElementById('shown')?.textContent.startsWith('4 of'));
  await page.fill('#f-text', 'roll.*(twice|6-sided)');
  await page.waitForFunction(() => document.getElementById('shown')?.textContent.startsWith('2 of'));
  assert.deepEqual((await tableRows(page)).map((r) => r[0]).sort(), ['roll_and_check', 'roll_twice_then_check']);
  await page.fill('#f-text', '(unclosed');
  await page.waitForSelector('.filters .error');
  assert.match(await page.locator('.filters .error').innerText(), /invalid regex/);
  await shot(page, 'run-filtered');
  // Sorting by a metric column, lowest first after two clicks.
  await page.fill('#f-text', '');
  await page.waitForFunction(() => document.getElementById('shown')?.textContent.startsWith('4 of'));
  await page.click('[role=columnheader]:has-text("response_match_score")');
  await page.click('[role=columnheader]:has-text("response_match_score")');
  assert.equal((await tableRows(page))[0][0], 'greeting');
  await page.close();
});

test('repeated runs merged: flips column and the flips-only filter', async (t) => {
  const dir = tempDir('flaky');
  const [a, b] = hello.results.map((p) => JSON.parse(readFileSync(p, 'utf8')));
  // The second run of "greeting" failed its response match: a status flip across runs.
  const second = typeof b === 'string' ? JSON.parse(b) : b;
  const g = second.eval_case_results.find((c) => c.eval_id === 'greeting');
  g.final_eval_status = 2;
  g.overall_eval_metric_results.find((m) => m.metric_name === 'response_match_score').eval_status = 2;
  g.overall_eval_metric_results.find((m) => m.metric_name === 'response_match_score').score = 0.2;
  writeFileSync(join(dir, 'run1.evalset_result.json'), JSON.stringify(a));
  writeFileSync(join(dir, 'run2.evalset_result.json'), JSON.stringify(second));
  const s = await serve([join(dir, 'run1.evalset_result.json'), join(dir, 'run2.evalset_result.json')]);
  t.after(() => s.close());
  const { page } = await open(browser, s.url);
  const choice = await page.$eval('#run-pick', (sel) => [...sel.options].find((o) => o.value.startsWith('set:')).value);
  await page.selectOption('#run-pick', choice);
  await page.check('#f-flips');
  const rows = await tableRows(page);
  assert.deepEqual(rows.map((r) => r[0]), ['greeting']);
  assert.equal(rows[0][1], 'FAILED');
  assert.match(rows[0][3], /±/, 'the score spread across runs is shown');
  assert.match(await page.locator('.cards').first().innerText(), /1\s+flaky/);
  await shot(page, 'run-flaky');
  await page.close();
});

test('keyboard: rows are focusable, arrows move, Enter opens the case; the case page shows the overlap and the trajectory diff', async () => {
  const { page } = await open(browser, server.url);
  await page.click('[role=columnheader]:has-text("eval id")');
  await page.locator('[role=row][aria-rowindex="2"]').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('End');
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-rowindex')), '5');
  await page.keyboard.press('Home');
  assert.match(await page.evaluate(() => document.activeElement.textContent), /^check_listed_numbers/);
  await page.keyboard.press('Enter');
  await page.waitForSelector('article.case');
  assert.match(await page.locator('article.case h2').innerText(), /check_listed_numbers\s+FAILED/);
  // ROUGE-1 overlap marks from the core: "prime" is in both texts, "Among" only in the actual one.
  await page.locator('.pair section:nth-child(2) mark').first().waitFor();
  const marksActual = await page.locator('.pair section:nth-child(2) mark').allInnerTexts();
  assert.ok(marksActual.includes('prime') && marksActual.includes('7'), marksActual.join(','));
  assert.ok(!marksActual.includes('Among'));
  assert.match(await page.locator('.pair section:nth-child(2) h4').innerText(), /ROUGE-1 F 0.833/);
  // check_prime called with [4, 7] where [4, 7, 9] was expected.
  assert.match(await page.locator('table.trajectory tbody tr').first().innerText(), /arguments differ\s+check_prime/);
  await page.click('details summary:has-text("Events")');
  assert.match(await page.locator('ol.trace').innerText(), /check_prime/);
  await shot(page, 'case-check-listed-numbers');
  await page.click('text=← all cases');
  await page.waitForSelector('[role=table][aria-label=Cases]');
  await page.close();
});

test('file picker, folder input, drag and drop, and bad files reported with code, path and message', async (t) => {
  const empty = await serve([]);
  t.after(() => empty.close());
  const { page, log } = await open(browser, empty.url);
  assert.match(await page.locator('main').innerText(), /Open eval results/);
  // A folder laid out like .adk/eval_history, with a broken file beside the results.
  const dir = tempDir('folder');
  const history = join(dir, '.adk', 'eval_history');
  mkdirSync(history, { recursive: true });
  for (const p of hello.results) copyFileSync(p, join(history, basename(p)));
  await page.setInputFiles('#open-folder', history);
  await page.waitForFunction(() => /Loaded 2 files/.test(document.getElementById('notice').textContent));
  assert.equal((await tableRows(page)).length, 4);
  // The picker: an eval set with an error, and text that is not JSON.
  const badSet = JSON.parse(readFileSync(hello.evalSet, 'utf8'));
  badSet.eval_cases[1].conversation[0].user_content = 42;
  await page.setInputFiles('#open-files', [
    { name: 'broken.evalset.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(badSet)) },
    { name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"eval_cases": [') },
  ]);
  await page.waitForFunction(() => /2 with errors/.test(document.getElementById('notice').textContent));
  await page.click('#tabs a[data-view=files]');
  await page.locator('tr.bad').nth(1).waitFor();
  const bad = await page.locator('tr.bad').allInnerTexts();
  assert.equal(bad.length, 2);
  assert.match(bad[0], /broken\.evalset\.json[\s\S]*schema at \$\.eval_cases\[1\]\.conversation\[0\]\.user_content:\s+invalid type/);
  assert.match(bad[1], /notes\.json[\s\S]*invalid_json/);
  // Drag and drop of a config onto the page.
  const config = readFileSync(hello.config, 'utf8');
  const dt = await page.evaluateHandle((text) => {
    const d = new DataTransfer();
    d.items.add(new File([text], 'test_config.json', { type: 'application/json' }));
    return d;
  }, config);
  await page.dispatchEvent('main', 'drop', { dataTransfer: dt });
  await page.waitForFunction(() => /Loaded 1 file/.test(document.getElementById('notice').textContent));
  assert.match(await page.locator('table.files tbody tr').last().innerText(), /test_config\.json\s+config/);
  await shot(page, 'files-with-errors');
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('compare: a candidate with a regression, a new and a removed case; regressions first', async (t) => {
  const dir = tempDir('compare');
  const base = JSON.parse(readFileSync(hello.results[0], 'utf8'));
  const cand = structuredClone(typeof base === 'string' ? JSON.parse(base) : base);
  const baseObj = typeof base === 'string' ? JSON.parse(base) : base;
  const r = cand.eval_case_results.find((c) => c.eval_id === 'roll_and_check');
  const m = r.overall_eval_metric_results.find((x) => x.metric_name === 'response_match_score');
  m.score = 0.25; m.eval_status = 2; r.final_eval_status = 2;
  const greeting = cand.eval_case_results.findIndex((c) => c.eval_id === 'greeting');
  const added = structuredClone(cand.eval_case_results[greeting]);
  added.eval_id = 'brand_new';
  cand.eval_case_results.splice(greeting, 1, added);
  writeFileSync(join(dir, 'a_base.evalset_result.json'), JSON.stringify(baseObj));
  writeFileSync(join(dir, 'b_cand.evalset_result.json'), JSON.stringify(cand));
  const s = await serve([join(dir, 'a_base.evalset_result.json'), join(dir, 'b_cand.evalset_result.json')]);
  t.after(() => s.close());
  const { page } = await open(browser, `${s.url}#compare`);
  await page.selectOption('#base-pick', '0');
  await page.selectOption('#cand-pick', '1');
  const rows = await tableRows(page, 'Comparison');
  assert.deepEqual(rows.map((x) => [x[0], x[1]]), [
    ['roll_and_check', 'regressed'], ['brand_new', 'added'], ['greeting', 'removed'],
    ['check_listed_numbers', 'same'], ['roll_twice_then_check', 'same'],
  ]);
  assert.match(rows[0][2], /PASSED\s*→\s*FAILED/);
  assert.equal(rows[0][4], '-0.607');
  assert.match(await page.locator('.cards').innerText(), /1\s+regressed[\s\S]*0\s+improved[\s\S]*2\s+unchanged[\s\S]*1\s+new[\s\S]*1\s+removed/);
  await shot(page, 'compare-regression');
  await page.close();
});

test('ADK\'s own result files: a google-adk 2.13 file and the same as ADK 1.x wrote it (double-encoded)', async (t) => {
  const { ROOT } = await import('./fixtures.mjs');
  const adk = join(ROOT, 'tools', 'adk-results', 'hello_world.adk-2.13.evalset_result.json');
  const dir = tempDir('adk');
  const v1 = join(dir, 'hello_world_v1.evalset_result.json');
  writeFileSync(v1, JSON.stringify(readFileSync(adk, 'utf8')));
  const s = await serve([adk, v1]);
  t.after(() => s.close());
  const { page, log } = await open(browser, `${s.url}#compare`);
  // Both read by loadEvalSetResult: the same run twice, so nothing changed between them.
  assert.match(await page.locator('.cards').innerText(), /0\s+regressed[\s\S]*0\s+improved[\s\S]*4\s+unchanged[\s\S]*0\s+new[\s\S]*0\s+removed/);
  await page.click('#tabs a[data-view=run]');
  const rows = await tableRows(page);
  assert.deepEqual(rows.map((r) => [r[0], r[1]]).sort(), [
    ['check_listed_numbers', 'FAILED'], ['greeting', 'PASSED'], ['roll_and_check', 'PASSED'], ['roll_twice_then_check', 'PASSED'],
  ]);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('a conversation-scenario case (no expected invocations): the simulated user\'s turns are shown as such', async (t) => {
  const dir = tempDir('scenario');
  const result = JSON.parse(readFileSync(hello.results[0], 'utf8'));
  const r = result.eval_case_results.find((c) => c.eval_id === 'roll_twice_then_check');
  for (const inv of r.eval_metric_result_per_invocation) inv.expected_invocation = null;
  r.overall_eval_metric_results = r.overall_eval_metric_results.filter((m) => m.eval_status === 4 || m.eval_status === 'INFORMATIONAL');
  for (const inv of r.eval_metric_result_per_invocation) inv.eval_metric_results = [];
  writeFileSync(join(dir, 'scenario.evalset_result.json'), JSON.stringify(result));
  const s = await serve([join(dir, 'scenario.evalset_result.json')]);
  t.after(() => s.close());
  const { page, log } = await open(browser, `${s.url}#case/roll_twice_then_check`);
  await page.waitForSelector('article.case');
  await page.locator('section.invocation h3').first().waitFor();
  const invs = await page.locator('section.invocation h3').allInnerTexts();
  assert.deepEqual(invs, ['Invocation 1 (simulated user)', 'Invocation 2 (simulated user)', 'Invocation 3 (simulated user)']);
  assert.match(await page.locator('section.invocation .user h4').first().innerText(), /Simulated user/);
  assert.match(await page.locator('section.invocation .pair').first().innerText(), /Expected response\s+\(none\)/);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('media parts: images shown inline from their bytes (URL-safe base64, as result files hold them), other media named', async (t) => {
  const { COLOURS, png, wav } = await import('../js/support/media.mjs');
  const dir = tempDir('media');
  const result = JSON.parse(readFileSync(hello.results[0], 'utf8'));
  const r = result.eval_case_results.find((c) => c.eval_id === 'greeting');
  const image = png(COLOURS.green, 6, 3);
  const inv = r.eval_metric_result_per_invocation[0];
  inv.actual_invocation.user_content.parts.push({ inline_data: { mime_type: 'image/png', data: image.toString('base64url') } });
  inv.actual_invocation.final_response.parts.push({ inline_data: { mime_type: 'audio/wav', data: wav(50).toString('base64url') } },
    { inline_data: { mime_type: 'image/svg+xml', data: Buffer.from('<svg onload="alert(1)"/>').toString('base64url') } });
  writeFileSync(join(dir, 'media.evalset_result.json'), JSON.stringify(result));
  const s = await serve([join(dir, 'media.evalset_result.json')]);
  t.after(() => s.close());
  const { page, log } = await open(browser, `${s.url}#case/greeting`);
  await page.waitForSelector('article.case section.invocation .user figure.media img');
  const img = page.locator('section.invocation .user figure.media img').first();
  await page.waitForFunction(() => document.querySelector('figure.media img')?.complete);
  assert.deepEqual(await img.evaluate((el) => [el.naturalWidth, el.naturalHeight]), [6, 3]);
  assert.equal(await page.locator('section.invocation .user figcaption').first().innerText(), `image/png, ${image.length.toLocaleString('en-US')} bytes`);
  const named = await page.locator('section.invocation .pair div.media').allInnerTexts();
  assert.ok(named.some((x) => /^\[inline_data: audio\/wav, [\d,]+ bytes\]$/.test(x)), named.join(' | '));
  // An SVG is named, never rendered (it could carry script).
  assert.ok(named.some((x) => x.startsWith('[inline_data: image/svg+xml')), named.join(' | '));
  assert.equal(await page.locator('img[src^="data:image/svg"]').count(), 0);
  await shot(page, 'case-media');
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('the case view marks the argument that differs, explained by the core from the file\'s own invocations', async (t) => {
  // ADK's result files carry no explanation: the page scores the trajectory again to get one.
  const raw = JSON.parse(readFileSync(hello.results[0], 'utf8'));
  assert.ok(!JSON.stringify(raw).includes('"trajectory"'), 'the file has no details.trajectory');
  const { page, log } = await open(browser, `${server.url}#case/check_listed_numbers`);
  await page.waitForSelector('table.trajectory mark.arg-diff');
  const row = page.locator('table.trajectory tbody tr').first();
  assert.match(await row.innerText(), /arguments differ\s+check_prime/);
  assert.deepEqual(await row.locator('mark.arg-diff').allInnerTexts(), ['"nums": [4,7,9]', '"nums": [4,7]']);
  assert.equal(await page.locator('table.trajectory tr.why td:nth-child(2)').innerText(), 'nums [exact] differs: expected [4,7,9], actual [4,7]');
  assert.equal(await page.locator('p.explained').innerText(), 'As tool_trajectory_avg_score paired the calls (match type EXACT).');
  await shot(page, 'case-explained');
  assert.deepEqual(log.errors, []);
  await page.close();

  // An explanation is shown only when it explains the score in the file: a score the page
  // cannot reproduce (another criterion, an edited file) keeps the plain diff.
  const dir = tempDir('unexplained');
  const edited = structuredClone(raw);
  const c = edited.eval_case_results.find((x) => x.eval_id === 'check_listed_numbers');
  c.eval_metric_result_per_invocation[0].eval_metric_results.find((m) => m.metric_name === 'tool_trajectory_avg_score').score = 0.5;
  writeFileSync(join(dir, 'edited.evalset_result.json'), JSON.stringify(edited));
  const s = await serve([join(dir, 'edited.evalset_result.json')]);
  t.after(() => s.close());
  const other = await open(browser, `${s.url}#case/check_listed_numbers`);
  await other.page.waitForSelector('table.trajectory');
  await other.page.evaluate(() => new Promise((r) => setTimeout(r, 200)));
  assert.equal(await other.page.locator('mark.arg-diff').count(), 0);
  assert.match(await other.page.locator('table.trajectory tbody tr').first().innerText(), /arguments differ\s+check_prime/);
  await other.page.close();
});

/** The Files view after opening `files` ({name, text}) with the picker on an empty viewer. */
async function openedFiles(t, files, notice) {
  const empty = await serve([]);
  t.after(() => empty.close());
  const { page, log } = await open(browser, empty.url);
  await page.setInputFiles('#open-files', files.map(({ name, text }) => ({ name, mimeType: 'application/json', buffer: Buffer.from(text) })));
  await page.waitForFunction((re) => new RegExp(re).test(document.getElementById('notice').textContent), notice.source);
  await page.click('#tabs a[data-view=files]');
  await page.locator('table.files tbody tr').nth(files.length - 1).waitFor();
  return { page, log };
}

test('a config with only warnings loads, marked as such, its warnings beside it', async (t) => {
  const { page, log } = await openedFiles(t, [{ name: 'test_config.json', text: '{"criteria": {"response_match_scor": 0.5, "tool_trajectory_avg_score": 1}}' }],
    /Loaded 1 file .*1 with warnings \(see Files\)/);
  const config = page.locator('table.files tbody tr.warned');
  assert.match(await config.innerText(), /test_config\.json\s+config\s+loaded with 1 warning[\s\S]*response_match_scor threshold 0\.5[\s\S]*schema at \$\.criteria\.response_match_scor: unknown metric/);
  await shot(page, 'files-config-with-warnings');
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('text that is not JSON says line and column, and shows the line with a caret', async (t) => {
  const { page, log } = await openedFiles(t, [{ name: 'broken.evalset.json', text: '{\n  "eval_set_id": "broken",\n  "eval_cases": [\n    {"eval_id": "a", "conversation": [] oops}\n  ]\n}\n' }],
    /Loaded 1 file .*1 with errors/);
  const broken = page.locator('table.files tbody tr.bad');
  // The position is the core's (its invalid_json message); the line is read from the file here.
  assert.match(await broken.innerText(), /broken\.evalset\.json[\s\S]*invalid_json: .* at line 4,? column \d+/);
  const excerpt = await broken.locator('.excerpt').innerText();
  const [text, caret] = excerpt.split('\n');
  assert.equal(text, '    {"eval_id": "a", "conversation": [] oops}');
  assert.match(caret, /^ +\^ line 4, column \d+$/);
  assert.equal(text[caret.indexOf('^')], 'o', 'the caret points at the first byte the parser refused');
  await shot(page, 'files-invalid-json');
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('the extras module: the empty page never fetches it; a legacy file or an agents-cli dataset loads it once', async (t) => {
  const empty = await serve([]);
  t.after(() => empty.close());
  const { page, log } = await open(browser, empty.url);
  const extras = () => log.requests.filter((u) => u.endsWith('/wasm-extras/evalcore_extras_bg.wasm'));
  assert.deepEqual(extras(), []);
  const legacy = [{ query: 'What is 2+2?', expected_tool_use: [], reference: '4' }];
  const dataset = readFileSync(new URL('../data/agents_cli/single-turn-responses.json', import.meta.url));
  await page.setInputFiles('#open-files', [
    { name: 'old.test.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(legacy)) },
    { name: 'dataset.json', mimeType: 'application/json', buffer: dataset },
  ]);
  await page.waitForFunction(() => /Loaded 2 files/.test(document.getElementById('notice').textContent));
  await page.click('#tabs a[data-view=files]');
  const rows = (await page.locator('table.files tbody tr').allInnerTexts()).join('\n');
  assert.match(rows, /old\.test\.json\s+eval set/);
  assert.match(rows, /dataset\.json\s+eval set/);
  assert.equal(extras().length, 1);
  assert.deepEqual(log.errors, []);
  await page.close();
});
