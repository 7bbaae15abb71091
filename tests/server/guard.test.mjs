// Local servers that other web pages cannot use (issue 24, section 1), for `evalcore serve` as a
// real process: a Host that is not one of the server's names is refused on every route (DNS
// rebinding), a state-changing request from another origin's page is refused, a body that is
// not JSON is refused (no HTML form or "simple" fetch can send one), and what is configured
// (--allowed_hosts, EVALCORE_ALLOWED_HOSTS, EVALCORE_CORS_ORIGINS) opens exactly that. The rules
// themselves (guard.js) are checked directly too. The browser's side: tests/e2e/csrf.test.mjs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bodyTypeRefusal, hostName, hostPolicy, refusalOf } from '../../pkg/lib/server/guard.js';
import { listenHosts } from '../../pkg/lib/server/node.js';
import { guardMiddleware } from '../../pkg/lib/server/devtools.js';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { PKG, rawCall, startNode } from './support.mjs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const SET = { eval_set_id: 's', eval_cases: [{ eval_id: 'a', conversation: [] }] };
const VALIDATE = JSON.stringify({ evalSet: SET });

describe('the rules', () => {
  test('hostName: the name of an authority, without port and trailing dot; anything else is no name', () => {
    for (const [given, want] of [
      ['LocalHost:8000', 'localhost'], ['127.0.0.1', '127.0.0.1'], ['[::1]:80', '[::1]'], ['evals.example.com.', 'evals.example.com'],
      ['127.0.0.1:8000.evil.com', null], ['a b', null], ['evil.com:80:80', null], ['[::1', null], ['', null], ['x@127.0.0.1', null],
    ]) assert.equal(hostName(given), want, given);
  });

  test('refusalOf: Host on every method, Origin on state-changing ones, Sec-Fetch-Site without Origin', () => {
    const policy = { hosts: hostPolicy(['localhost', '127.0.0.1', '[::1]']), origins: ['https://app.example'] };
    const req = (method, headers) => ({ method, header: (n) => headers[n] ?? null });
    const code = (method, headers) => refusalOf(req(method, headers), policy)?.code ?? null;
    assert.equal(code('GET', { host: 'attacker.example:8000' }), 'host_not_allowed');
    assert.equal(code('GET', { host: 'localhost:8000, evil.test' }), 'host_not_allowed');
    assert.equal(code('GET', { host: '127.0.0.1:8000', origin: 'https://evil.example' }), null, 'a read: the page cannot see the answer');
    assert.equal(code('POST', { host: '127.0.0.1:8000', origin: 'https://evil.example' }), 'origin_not_allowed');
    assert.equal(code('POST', { host: '127.0.0.1:8000', origin: 'http://127.0.0.1:9999' }), 'origin_not_allowed', 'another port is another origin');
    assert.equal(code('POST', { host: '127.0.0.1:8000', origin: 'http://localhost:8000' }), 'origin_not_allowed', 'another name is another origin');
    assert.equal(code('POST', { host: '127.0.0.1:8000', origin: 'null' }), 'origin_not_allowed');
    assert.equal(code('DELETE', { host: '127.0.0.1:8000', 'sec-fetch-site': 'cross-site' }), 'origin_not_allowed');
    assert.equal(code('POST', { host: '127.0.0.1:8000', origin: 'http://127.0.0.1:8000' }), null);
    assert.equal(code('POST', { host: 'localhost', origin: 'https://localhost' }), null, 'behind a TLS proxy: the scheme differs, host and port agree');
    assert.equal(code('PUT', { host: '127.0.0.1:8000', origin: 'https://app.example' }), null, 'a listed origin');
    assert.equal(code('POST', { host: '127.0.0.1:8000' }), null, 'no Origin: not a browser page');
    assert.equal(refusalOf(req('POST', { host: 'anything.example', origin: 'http://anything.example' }), { hosts: null, origins: [] }), null, 'no host policy: same origin is enough');
    assert.equal(refusalOf(req('POST', { host: 'a.example', origin: 'http://b.example' }), { hosts: null, origins: [] })?.code, 'origin_not_allowed');
  });

  test('bodyTypeRefusal: a body must say it is JSON; no body needs no type', () => {
    const req = (headers) => ({ method: 'POST', header: (n) => headers[n] ?? null });
    assert.equal(bodyTypeRefusal(req({ 'content-length': '2', 'content-type': 'text/plain' }))?.status, 415);
    assert.equal(bodyTypeRefusal(req({ 'content-length': '2', 'content-type': 'application/x-www-form-urlencoded' }))?.code, 'unsupported_media_type');
    assert.equal(bodyTypeRefusal(req({ 'content-length': '2' }))?.code, 'unsupported_media_type');
    assert.equal(bodyTypeRefusal(req({ 'transfer-encoding': 'chunked', 'content-type': 'multipart/form-data; boundary=x' }))?.code, 'unsupported_media_type');
    assert.equal(bodyTypeRefusal(req({ 'content-length': '2', 'content-type': 'Application/JSON; charset=utf-8' })), null);
    assert.equal(bodyTypeRefusal(req({ 'content-length': '2', 'content-type': 'application/vnd.api+json' })), null);
    assert.equal(bodyTypeRefusal(req({ 'content-length': '0' })), null);
    assert.equal(bodyTypeRefusal(req({})), null);
  });

  test('listenHosts: loopback names and the address given; every interface and the machine\'s name for 0.0.0.0', () => {
    assert.deepEqual(listenHosts('127.0.0.1'), ['localhost', '127.0.0.1', '[::1]', '127.0.0.1']);
    assert.deepEqual(listenHosts('::1').at(-1), '[::1]');
    assert.ok(listenHosts('0.0.0.0').length > 3);
    assert.throws(() => hostPolicy(['ok.example', 'bad host']), /"bad host" is not a host name/);
    assert.equal(hostPolicy(['a.example', '*']), null);
  });
});

describe('evalcore serve', () => {
  let server;
  let other;
  before(async () => {
    server = await startNode({ EVALCORE_CORS_ORIGINS: 'https://app.example' }, null, ['--quiet']);
    other = await startNode({ EVALCORE_ALLOWED_HOSTS: 'evals.example' }, null, ['--quiet', '--allowed_hosts', 'proxy.example,[::1]']);
  });
  after(async () => {
    await server?.stop();
    await other?.stop();
  });

  test('DNS rebinding: a Host that is not the server\'s is refused on every route, reads included', async () => {
    const { port } = new URL(server.url);
    for (const [method, path, body] of [['GET', '/healthz'], ['GET', '/v1/metrics'], ['POST', '/v1/validate', VALIDATE], ['GET', '/nope']]) {
      const r = await rawCall(server.url, path, { method, body, headers: { host: `rebound.attacker.example:${port}`, 'content-type': 'application/json' } });
      assert.equal(r.status, 403, `${method} ${path}: ${r.text}`);
      assert.equal(r.body.error.code, 'host_not_allowed');
      assert.match(r.body.error.message, /answers requests for localhost, 127\.0\.0\.1, \[::1\].*--allowed_hosts, EVALCORE_ALLOWED_HOSTS/);
    }
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
      assert.equal((await rawCall(server.url, '/healthz', { headers: { host } })).status, 200, host);
    }
  });

  test('--allowed_hosts and EVALCORE_ALLOWED_HOSTS add names; a bad name is a usage error', async () => {
    for (const host of ['proxy.example', 'evals.example:443', '[::1]:1']) {
      assert.equal((await rawCall(other.url, '/healthz', { headers: { host } })).status, 200, host);
    }
    assert.equal((await rawCall(other.url, '/healthz', { headers: { host: 'other.example' } })).status, 403);
    const bad = spawnSync(process.execPath, [join(PKG, 'bin', 'evalcore.js'), 'serve', '--port', '0', '--allowed_hosts', 'ok.example,bad host'], { encoding: 'utf8' });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /^evalcore serve: --allowed_hosts: "bad host" is not a host name/);
    const env = spawnSync(process.execPath, [join(PKG, 'bin', 'evalcore.js'), 'serve', '--port', '0'], { encoding: 'utf8', env: { PATH: process.env.PATH, EVALCORE_ALLOWED_HOSTS: 'a/b' } });
    assert.equal(env.status, 2);
    assert.match(env.stderr, /EVALCORE_ALLOWED_HOSTS must be \* or host names/);
  });

  test('cross-site: a form or text/plain POST is refused, with or without Origin; JSON from the page\'s own origin or a CORS origin passes', async () => {
    const { port } = new URL(server.url);
    const host = `127.0.0.1:${port}`;
    const form = await rawCall(server.url, '/v1/validate', { method: 'POST', body: 'evalSet=x', headers: { host, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(form.status, 403, form.text);
    assert.equal(form.body.error.code, 'origin_not_allowed');
    const plain = await rawCall(server.url, '/v1/evaluate', { method: 'POST', body: VALIDATE, headers: { host, origin: 'http://localhost:1234', 'content-type': 'text/plain;charset=UTF-8' } });
    assert.equal(plain.status, 403, plain.text);
    // Without an Origin (not a browser page), a body still has to say it is JSON.
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=b', undefined]) {
      const r = await rawCall(server.url, '/v1/validate', { method: 'POST', body: VALIDATE, headers: { host, ...(type ? { 'content-type': type } : {}) } });
      assert.equal(r.status, 415, `${type}: ${r.text}`);
      assert.equal(r.body.error.code, 'unsupported_media_type');
    }
    const own = await rawCall(server.url, '/v1/validate', { method: 'POST', body: VALIDATE, headers: { host, origin: `http://${host}`, 'content-type': 'application/json' } });
    assert.equal(own.status, 200, own.text);
    const listed = await rawCall(server.url, '/v1/validate', { method: 'POST', body: VALIDATE, headers: { host, origin: 'https://app.example', 'content-type': 'application/json' } });
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.headers['access-control-allow-origin'], 'https://app.example');
    const tool = await rawCall(server.url, '/v1/validate', { method: 'POST', body: VALIDATE, headers: { host, 'content-type': 'application/json' } });
    assert.equal(tool.status, 200, 'curl and other clients send no Origin');
  });
});

test('evalcore web\'s guard: a body still arriving after its deadline loses its connection; a quick one reaches the route', async () => {
  const lines = [];
  const guard = guardMiddleware({ hosts: hostPolicy(['127.0.0.1']), log: (l) => lines.push(l), bodyTimeoutMs: 400 });
  const server = createServer((req, res) => guard(req, res, () => {
    let n = 0;
    req.on('data', (d) => { n += d.length; });
    req.on('end', () => res.end(String(n)));
  }));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  try {
    const quick = await rawCall(`http://127.0.0.1:${port}`, '/x', { method: 'POST', body: '{"a":1}', headers: { host: '127.0.0.1', 'content-type': 'application/json' } });
    assert.deepEqual([quick.status, quick.text], [200, '7']);
    const t0 = Date.now();
    const closed = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write('POST /x HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{');
        const drip = setInterval(() => socket.write(' '), 100);
        socket.on('close', () => { clearInterval(drip); resolve(Date.now() - t0); });
      });
      socket.on('error', () => {});
    });
    assert.ok(closed >= 350 && closed < 3000, `closed after ${closed} ms`);
    assert.match(lines.join('\n'), /POST \/x 408 body_timeout/);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});
