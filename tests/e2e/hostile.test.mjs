// Hostile files: texts holding <script>, <img onerror>, javascript: links and SVG handlers, in
// every field the viewer shows, plus a 5 MB response. Nothing executes, no markup appears, the
// page stays responsive; the Content-Security-Policy blocks inline and foreign scripts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { hostileResult, writeAll, PWN } from './fixtures.mjs';
import { launch, serve, open, shot, tableRows } from './helpers.mjs';

let browser, server;

before(async () => {
  const files = writeAll('hostile', {
    'hostile.evalset_result.json': hostileResult(),
    // An eval set and a config whose errors quote hostile text back.
    'evil.evalset.json': JSON.stringify({ eval_set_id: PWN[0], eval_cases: [{ eval_id: PWN[1], conversation: PWN[2] }] }),
    'evil_config.json': JSON.stringify({ criteria: { [PWN[1]]: 0.5, response_match_score: PWN[0] } }),
  });
  browser = await launch();
  server = await serve(files);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** Nothing ran, no element came from data, and the page answers at once. */
async function clean(page) {
  const state = await page.evaluate(() => ({
    pwned: window.__pwned ?? null,
    scripts: document.scripts.length,
    imgs: document.images.length,
    jsLinks: [...document.querySelectorAll('a')].filter((a) => !/^#|^blob:/.test(a.getAttribute('href') || '#')).length,
    svgsWithHandlers: [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).length,
  }));
  assert.deepEqual(state, { pwned: null, scripts: 1, imgs: 0, jsLinks: 0, svgsWithHandlers: 0 });
  const t0 = Date.now();
  await page.evaluate(() => 1);
  assert.ok(Date.now() - t0 < 1000, 'the page answers');
}

test('hostile texts are shown as text in the run, the case pages and the files list', async () => {
  const { page, log } = await open(browser, server.url);
  await clean(page);
  const rows = await tableRows(page);
  assert.equal(rows.length, PWN.length);
  assert.deepEqual(rows.map((r) => r[0]).sort(), PWN.map((p, i) => `${p}#${i}`).sort());
  // The hostile metric name is a column header, as text.
  assert.ok((await page.locator('[role=columnheader]').allInnerTexts()).some((x) => x.includes('<script>')));
  await shot(page, 'hostile-run');
  let sawBig = false;
  for (let i = 0; i < PWN.length; i++) {
    await page.locator(`[role=row][aria-rowindex="${i + 2}"]`).click();
    await page.waitForSelector('article.case');
    const title = await page.locator('article.case h2').innerText();
    assert.ok(PWN.some((p) => title.includes(p)), title);
    await clean(page);
    if ((await page.locator('button.more').count()) > 0) {
      // The 5 MB response: shown in part, with a button for more, and more works.
      const before = (await page.locator('.pair section:nth-child(2) .text').innerText()).length;
      assert.ok(before < 10_000, `${before} characters rendered at first`);
      await page.locator('.pair section:nth-child(2) button.more').click();
      const after = (await page.locator('.pair section:nth-child(2) .text').innerText()).length;
      assert.ok(after > before);
      await shot(page, 'hostile-5mb-case');
      sawBig = true;
    }
    await page.goBack();
    await page.waitForSelector('[role=table][aria-label=Cases]');
  }
  assert.ok(sawBig, 'the 5 MB response was opened');
  await page.click('#tabs a[data-view=files]');
  const files = await page.locator('table.files tbody').innerText();
  assert.match(files, /evil\.evalset\.json\s+error/);
  assert.match(files, /evil_config\.json\s+error/);
  await clean(page);
  await shot(page, 'hostile-files');
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('the Content-Security-Policy: only self and wasm-unsafe-eval scripts; injected inline scripts do not run', async () => {
  const res = await fetch(server.url);
  const csp = res.headers.get('content-security-policy');
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'(;|$)/);
  assert.doesNotMatch(csp, /unsafe-inline|script-src[^;]*'unsafe-eval'/);
  // Network: the page's origin, HTTPS (a judge endpoint the user types in) and judges on this machine.
  assert.match(csp, /connect-src 'self' https: http:\/\/127\.0\.0\.1:\* http:\/\/localhost:\*;/);
  assert.match(csp, /default-src 'self';.*object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'/);
  const { page } = await open(browser, server.url);
  const meta = await page.getAttribute('meta[http-equiv=Content-Security-Policy]', 'content');
  assert.match(meta, /script-src 'self' 'wasm-unsafe-eval';/);
  const blocked = await page.evaluate(() => new Promise((resolve) => {
    const seen = [];
    document.addEventListener('securitypolicyviolation', (e) => seen.push(e.violatedDirective));
    const s = document.createElement('script');
    s.textContent = 'window.__pwned = "inline"';
    document.body.appendChild(s);
    const a = document.createElement('img');
    a.setAttribute('src', 'https://example.invalid/x.png');
    document.body.appendChild(a);
    setTimeout(() => resolve({ pwned: window.__pwned ?? null, seen }), 300);
  }));
  assert.equal(blocked.pwned, null);
  assert.ok(blocked.seen.some((d) => d.startsWith('script-src')), JSON.stringify(blocked.seen));
  assert.ok(blocked.seen.some((d) => d.startsWith('img-src')), JSON.stringify(blocked.seen));
  await page.close();
});

test('URL parameters open same-origin files only', async () => {
  const { page, log } = await open(browser, `${server.origin}/www/index.html?file=${encodeURIComponent('https://example.invalid/x.json')}&file=/files/hostile.evalset_result.json`);
  await page.click('#tabs a[data-view=files]');
  const text = await page.locator('table.files').innerText();
  assert.match(text, /not_same_origin/);
  assert.match(text, /hostile\.evalset_result\.json\s+result/, 'the same-origin file is opened');
  assert.ok(log.requests.every((u) => u.startsWith(server.origin)), log.requests.join('\n'));
  await page.close();
});
