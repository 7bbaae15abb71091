// Attacks from real pages in Chromium on the local servers (issue 24, section 1). A page served
// by a second loopback server (another origin and another site: http://localhost:P2 against
// http://127.0.0.1:P1) submits an HTML form with a text/plain JSON body and sends no-cors
// fetches, as any site the developer visits could, to `evalcore web` (evalcore's eval routes
// and @google/adk-devtools' own session and run routes) and to `evalcore serve`: nothing is
// created, no agent runs, and the servers log the refusals. Then DNS rebinding, played by
// Chromium's resolver (`rebind.test` mapped to 127.0.0.1): the rebound page gets 403 from every
// server and cannot read a byte.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir } from './fixtures.mjs';
import { startCli } from '../server/support.mjs';
import { CHROMIUM, playwright } from './helpers.mjs';

const APP = 'adk_agent';
let browser, web, serve, view, attacker, evalsDir;

/** `evalcore ARGS` on a free port: the URL it printed first, its origin, its output. */
async function start(args) {
  const s = await startCli(args);
  return { ...s, origin: new URL(s.url).origin };
}

/** The attacker's page: a text/plain form aimed at `action`, and no-cors fetches at `targets`. */
function attackPage(action, targets) {
  // The form's one field makes the body `{"eval_set": {"eval_set_id": "csrf_form", "pad": "="}}`.
  const name = '{"eval_set": {"eval_set_id": "csrf_form", "pad": "';
  return `<!doctype html><meta charset="utf-8"><title>cat pictures</title>
<iframe name="sink"></iframe>
<form id="f" method="POST" enctype="text/plain" action="${action}" target="sink"><input name='${name}' value='"}}'></form>
<script>
window.results = [];
const targets = ${JSON.stringify(targets)};
(async () => {
  for (const t of targets) {
    try {
      await fetch(t.url, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: t.body });
      window.results.push('sent');
    } catch (e) {
      window.results.push('failed: ' + e.message);
    }
  }
  document.getElementById('f').submit();
  window.done = true;
})();
</script>`;
}

before(async () => {
  assert.ok(existsSync(join(ROOT, 'examples', 'adk_agent', 'node_modules', '@google', 'adk-devtools')), 'run scripts/setup.sh');
  evalsDir = tempDir('csrf');
  web = await start(['web', join(ROOT, 'examples'), '--evals_dir', evalsDir]);
  serve = await start(['serve', '--agent', `hello=${join(ROOT, 'examples', 'hello_world', 'agent.mjs')}`]);
  view = await start(['view', join(ROOT, 'examples', 'hello_world'), '--no-open']);
  let page = '';
  attacker = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page);
  });
  await new Promise((r) => attacker.listen(0, '127.0.0.1', r));
  attacker.setPage = (html) => { page = html; };
  attacker.origin = `http://localhost:${attacker.address().port}`;
  browser = await playwright().chromium.launch({ executablePath: CHROMIUM, args: ['--host-resolver-rules=MAP rebind.test 127.0.0.1'] });
});
after(async () => {
  await browser?.close();
  await Promise.all([web, serve, view].map((s) => s?.stop()));
  attacker?.closeAllConnections();
  attacker?.close();
  if (evalsDir) rmSync(evalsDir, { recursive: true, force: true });
});

test('a cross-site form and text/plain fetches change nothing in `evalcore web` and run nothing in `evalcore serve`', async () => {
  const session = { appName: APP, userId: 'victim', sessionId: 'csrf', newMessage: { role: 'user', parts: [{ text: 'roll a die' }] } };
  attacker.setPage(attackPage(`${web.origin}/dev/apps/${APP}/eval-sets`, [
    { url: `${web.origin}/dev/apps/${APP}/eval-sets`, body: '{"eval_set": {"eval_set_id": "csrf_fetch"}}' },
    { url: `${web.origin}/apps/${APP}/eval_sets/csrf_legacy`, body: '' },
    { url: `${web.origin}/apps/${APP}/users/victim/sessions`, body: '{}' },
    { url: `${web.origin}/run_sse`, body: JSON.stringify(session) },
    { url: `${serve.origin}/v1/evaluate`, body: JSON.stringify({ evalSet: { eval_set_id: 's', eval_cases: [{ eval_id: 'c', conversation: [{ invocation_id: 'i', user_content: { role: 'user', parts: [{ text: 'hi' }] } }] }] }, agent: 'hello' }) },
  ]));
  const page = await browser.newPage();
  const answered = page.waitForResponse((r) => r.url().startsWith(`${web.origin}/dev/apps/${APP}/eval-sets`) && r.request().resourceType() === 'document');
  await page.goto(`${attacker.origin}/`);
  await page.waitForFunction(() => window.done === true);
  const formAnswer = await answered;
  assert.equal(formAnswer.status(), 403, 'the form post is refused');
  // Each fetch reached the server (its log below); the answers of `evalcore web` are not even
  // visible to the page as opaque responses (Cross-Origin-Resource-Policy: same-origin).
  const results = await page.evaluate(() => window.results);
  assert.equal(results.length, 5);
  assert.deepEqual(results.slice(0, 4), Array(4).fill('failed: Failed to fetch'), 'blocked by Cross-Origin-Resource-Policy');
  await page.close();
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual(readdirSync(evalsDir), [], 'no eval set was written');
  const sessions = await (await fetch(`${web.url}/apps/${APP}/users/victim/sessions`)).json();
  assert.deepEqual(sessions.sessions, [], 'no session was created');
  const webLog = web.output();
  assert.equal((webLog.match(/ 403 origin_not_allowed/g) ?? []).length, 5, webLog);
  assert.match(serve.output(), /POST \/v1\/evaluate 403 origin_not_allowed/);
  assert.doesNotMatch(serve.output(), /POST \/v1\/evaluate 200/, 'no agent ran');
});

test('DNS rebinding: a page whose name now points at 127.0.0.1 gets 403 from every server and reads nothing', async () => {
  for (const target of [web, serve, view]) {
    const port = new URL(target.url).port;
    const page = await browser.newPage();
    const res = await page.goto(`http://rebind.test:${port}/`);
    assert.equal(res.status(), 403, `${target.url}`);
    const read = await page.evaluate(async () => {
      const paths = ['/list-apps', '/healthz', '/files/0/x.json', '/www/index.html'];
      const out = [];
      for (const p of paths) {
        const r = await fetch(p);
        out.push([r.status, (await r.text()).includes('host_not_allowed')]);
      }
      return out;
    });
    assert.ok(read.every(([status, refused]) => status === 403 && refused), JSON.stringify(read));
    await page.close();
  }
});
