// `evalcore web` as a real process over examples/ (its @google/adk agent, @google/adk-devtools'
// express server): every route of the app (devtools' own chat, sessions and UI as well as
// evalcore's eval routes) refuses a foreign Host, and nothing that changes state (a session, an
// eval set, an agent run) is done for a page of another origin or for a body that is not JSON.
// The log (devtools' request lines and evalcore's) shows no query string and no known secret.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, rawCall, startCli } from './support.mjs';

const APP = 'adk_agent';
const KEY = 'sk-web-secret-91b3c7d2e4';
let web;
let evalsDir;

before(async () => {
  assert.ok(existsSync(join(ROOT, 'examples', 'adk_agent', 'node_modules', '@google', 'adk-devtools')), 'examples/adk_agent needs its dependencies: run scripts/setup.sh');
  evalsDir = mkdtempSync(join(tmpdir(), 'evalcore-web-'));
  web = await startCli(['web', join(ROOT, 'examples'), '--evals_dir', evalsDir, '--allowed_hosts', 'dev.example'], { EVALCORE_JUDGE: 'openai:judge', OPENAI_API_KEY: KEY });
});
after(async () => {
  await web?.stop();
  if (evalsDir) rmSync(evalsDir, { recursive: true, force: true });
});

const own = () => `127.0.0.1:${new URL(web.url).port}`;
const json = (body) => ({ body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

test('DNS rebinding: every route, devtools\' and evalcore\'s, refuses a Host that is not the server\'s', async () => {
  const port = new URL(web.url).port;
  const routes = [
    ['GET', '/dev-ui/'], ['GET', '/list-apps'], ['GET', `/apps/${APP}/users/u/sessions`], ['POST', `/apps/${APP}/users/u/sessions`, '{}'],
    ['POST', '/run', JSON.stringify({ appName: APP, userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'hi' }] } })],
    ['GET', `/dev/apps/${APP}/eval_sets`], ['POST', `/dev/apps/${APP}/eval-sets`, JSON.stringify({ evalSet: { evalSetId: 'rebound' } })],
  ];
  for (const [method, path, body] of routes) {
    const r = await rawCall(web.url, path, { method, body, headers: { host: `rebound.attacker.example:${port}`, 'content-type': 'application/json' } });
    assert.equal(r.status, 403, `${method} ${path}: ${r.text.slice(0, 200)}`);
    assert.equal(r.body.error.code, 'host_not_allowed');
    assert.equal(r.body.detail, r.body.error.message);
  }
  assert.equal((await rawCall(web.url, '/list-apps', { headers: { host: `localhost:${port}` } })).status, 200);
  assert.equal((await rawCall(web.url, '/list-apps', { headers: { host: 'dev.example' } })).status, 200, '--allowed_hosts');
  assert.deepEqual(readdirSync(evalsDir), [], 'nothing was written');
});

test('cross-site: a form or text/plain POST from another page changes nothing, on devtools\' routes and evalcore\'s', async () => {
  const host = own();
  const attacks = [
    [`/dev/apps/${APP}/eval-sets`, '{"eval_set": {"eval_set_id": "csrf"}}'],
    [`/apps/${APP}/eval_sets/csrf_legacy`, ''],
    [`/apps/${APP}/users/u/sessions`, '{}'],
    ['/run_sse', JSON.stringify({ appName: APP, userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'hi' }] } })],
  ];
  for (const [path, body] of attacks) {
    for (const headers of [
      { origin: 'https://evil.example', 'content-type': 'text/plain;charset=UTF-8' },
      { origin: 'http://localhost:1', 'content-type': 'application/x-www-form-urlencoded' },
      { origin: 'null', 'content-type': 'text/plain' },
      { 'sec-fetch-site': 'cross-site', 'content-type': 'text/plain' },
    ]) {
      const r = await rawCall(web.url, path, { method: 'POST', body, headers: { host, ...headers } });
      assert.equal(r.status, 403, `${path} ${JSON.stringify(headers)}: ${r.text.slice(0, 200)}`);
      assert.equal(r.body.error.code, 'origin_not_allowed');
    }
    if (body !== '') {
      const untyped = await rawCall(web.url, path, { method: 'POST', body, headers: { host, 'content-type': 'text/plain' } });
      assert.equal(untyped.status, 415, `${path}: ${untyped.text.slice(0, 200)}`);
    }
  }
  const sessions = await rawCall(web.url, `/apps/${APP}/users/u/sessions`, { headers: { host } });
  assert.deepEqual(sessions.body.sessions, [], 'no session was created');
  assert.deepEqual(readdirSync(evalsDir), [], 'no eval set was written');
  // The UI's own requests: JSON from its own origin.
  const made = await rawCall(web.url, `/dev/apps/${APP}/eval-sets`, { method: 'POST', ...json({ evalSet: { evalSetId: 'mine' } }), headers: { host, origin: `http://${host}`, 'content-type': 'application/json' } });
  assert.equal(made.status, 200, made.text);
  assert.ok(existsSync(join(evalsDir, APP, 'mine.evalset.json')));
  const session = await rawCall(web.url, `/apps/${APP}/users/u/sessions`, { method: 'POST', body: '{}', headers: { host, origin: `http://${host}`, 'content-type': 'application/json' } });
  assert.equal(session.status, 200, session.text);
  const answer = await rawCall(web.url, '/list-apps', { headers: { host } });
  assert.equal(answer.headers['cross-origin-resource-policy'], 'same-origin');
  assert.equal(answer.headers['x-content-type-options'], 'nosniff');
});

test('the log: devtools\' request lines and evalcore\'s carry no query string and no secret', async () => {
  const host = own();
  await rawCall(web.url, `/list-apps?token=${KEY}&other=1`, { headers: { host } });
  await rawCall(web.url, `/dev/apps/${APP}/eval_sets?key=${KEY}`, { headers: { host } });
  await rawCall(web.url, `/dev/apps/${KEY}/eval_sets`, { headers: { host } });
  await rawCall(web.url, `/dev/apps/${APP}/eval-sets?x=${KEY}`, { method: 'POST', body: 'x', headers: { host, origin: 'https://evil.example', 'content-type': 'text/plain' } });
  await new Promise((r) => setTimeout(r, 300));
  const text = web.output();
  assert.ok(!text.includes(KEY), text.split('\n').filter((l) => l.includes(KEY)).join('\n'));
  assert.match(text, /GET \/list-apps\?\[redacted\]/);
  assert.match(text, new RegExp(`GET /dev/apps/${APP}/eval_sets\\?\\[redacted\\] 200 `));
  assert.match(text, /GET \/dev\/apps\/\[redacted\]\/eval_sets \d{3} /);
  assert.match(text, new RegExp(`POST /dev/apps/${APP}/eval-sets\\?\\[redacted\\] 403 origin_not_allowed`));
});
