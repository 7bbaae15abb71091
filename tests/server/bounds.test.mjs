// The endpoint stays bounded and keeps to itself (issue 24, section 2), on a real Node http
// server on 127.0.0.1 (createHandler + serveNode, in this process so agents can be functions):
// answers no larger than maxAnswerBytes (or streamed), identifiers bounded, slow clients holding
// no slot and cut at their deadlines, a stream outliving every server timeout, no secret in a log
// line, no client-chosen URI sent to the judge, `__proto__` an unknown metric, a client that
// leaves logged as 499, and evalIds.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { createHandler } from '../../pkg/lib/server/index.js';
import { serveNode } from '../../pkg/lib/server/node.js';
import { requestOf, writeResponse } from '../../pkg/lib/server/node.js';
import { startJudgeServer } from '../js/support/judge-server.mjs';
import { call, callNdjson } from './support.mjs';

const KEY = 'sk-bounds-secret-7c2f0a9e';
const TOKEN = 'tok-bounds-4e8a1d';
const VALID = '{"reasoning": "The answers agree.", "is_the_agent_response_valid": "valid"}';
const JUDGED = { criteria: { final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: 1 } } } };

const caseOf = (id, text = 'hi', answer = 'hello') => ({
  eval_id: id,
  conversation: [{ invocation_id: `${id}-1`, user_content: { role: 'user', parts: [{ text }] }, final_response: { role: 'model', parts: [{ text: answer }] } }],
});
const setOf = (n, prefix = 'c', setId = 'bounds') => ({ eval_set_id: setId, eval_cases: Array.from({ length: n }, (_, i) => caseOf(`${prefix}${i}`, `question ${i}`, `answer ${i}`)) });
const recorded = (set) => structuredClone(Object.fromEntries(set.eval_cases.map((c) => [c.eval_id, [{ invocation_id: 'a', user_content: c.conversation[0].user_content, final_response: c.conversation[0].final_response }]])));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let judge;
const logs = [];
const open = [];

async function serve(options = {}, timeouts = {}) {
  const s = await serveNode(createHandler({
    judge: { provider: 'openai', model: 'judge-model', baseUrl: judge.baseUrl, headers: { authorization: `Bearer ${KEY}` } },
    log: (e) => logs.push(e),
    ...options,
  }), { port: 0, timeouts });
  open.push(s);
  return s;
}

/** A raw HTTP/1.1 exchange: writes `head` (and `body` parts, `gapMs` apart), resolves with what came back and when the socket closed. */
function raw(url, head, { body = [], gapMs = 0 } = {}) {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d) => { text += d; });
    socket.on('error', () => {});
    socket.on('close', () => resolve({ text, ms: Date.now() - t0, status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0) }));
    socket.on('connect', async () => {
      socket.write(head);
      for (const part of body) {
        await sleep(gapMs);
        if (socket.destroyed) return;
        socket.write(part);
      }
    });
    setTimeout(() => reject(new Error(`no close after 20 s; got ${text.slice(0, 200)}`)), 20_000).unref();
  });
}

before(async () => {
  judge = await startJudgeServer();
});
after(async () => {
  await Promise.all(open.map((s) => s.close()));
  await judge.close();
});

describe('answers and identifiers are bounded', () => {
  test('a long eval_set_id is refused (413 too_large at its path), not repeated into every case of the answer', async () => {
    const s = await serve();
    const set = setOf(100, 'c', 'x'.repeat(5000));
    const a = await call(s.url, '/v1/evaluate', { body: { evalSet: set, actual: recorded(set) } });
    assert.equal(a.status, 413, a.text.slice(0, 300));
    assert.equal(a.body.error.code, 'too_large');
    assert.equal(a.body.error.path, '$.evalSet.eval_set_id');
    assert.match(a.body.error.message, /5000 bytes, over `maxIdBytes` \(1024/);
    const longCase = setOf(2);
    longCase.eval_cases[1].eval_id = 'y'.repeat(2000);
    const b = await call(s.url, '/v1/evaluate', { body: { evalSet: longCase, actual: recorded(longCase) } });
    assert.equal(b.status, 413, b.text.slice(0, 300));
    assert.equal(b.body.error.path, '$.evalSet.eval_cases[1].eval_id');
  });

  test('the answer grows with the request, not faster: 100 cases with ids at the limit', async () => {
    const s = await serve();
    const set = setOf(100, 'c', 's'.repeat(1024));
    set.eval_cases.forEach((c, i) => { c.eval_id = `${i}-${'e'.repeat(1000)}`; });
    const body = JSON.stringify({ evalSet: set, actual: recorded(set), config: { criteria: { response_match_score: 0.5 } } });
    const a = await call(s.url, '/v1/evaluate', { raw: body });
    assert.equal(a.status, 200, a.text.slice(0, 300));
    const ratio = a.text.length / body.length;
    assert.ok(ratio < 4, `answer ${a.text.length} bytes for a ${body.length}-byte request (${ratio.toFixed(1)}x)`);
    assert.equal(a.headers['content-length'], String(Buffer.byteLength(a.text)));
  });

  test('past maxAnswerBytes a JSON answer is a 413 answer_too_large saying to stream; the stream sends it line by line', async () => {
    const s = await serve({ limits: { maxAnswerBytes: 20_000 } });
    const set = setOf(40);
    const a = await call(s.url, '/v1/evaluate', { body: { evalSet: set, actual: recorded(set) } });
    assert.equal(a.status, 413, a.text.slice(0, 300));
    assert.equal(a.body.error.code, 'answer_too_large');
    assert.match(a.body.error.message, /more than 20000 bytes \(maxAnswerBytes\); ask for it as a stream \(Accept: application\/x-ndjson/);
    const streamed = await callNdjson(s.url, '/v1/evaluate', { evalSet: set, actual: recorded(set) });
    assert.equal(streamed.status, 200);
    assert.equal(streamed.lines.filter((l) => l.eval_id).length, 40);
    assert.equal(streamed.lines.at(-1).summary.counts.cases, 40);
    assert.ok(streamed.text.length > 20_000);
    // Under the limit it is answered whole.
    const small = setOf(2);
    assert.equal((await call(s.url, '/v1/evaluate', { body: { evalSet: small, actual: recorded(small) } })).status, 200);
  });

  test('a stream whose reader reads nothing scores no further: the run waits for it (the handler, no socket buffers between)', async () => {
    judge.script(() => VALID);
    const handler = createHandler({ judge: { provider: 'openai', model: 'judge-model', baseUrl: judge.baseUrl }, limits: { caseConcurrency: 1 } });
    const set = setOf(60);
    const padded = recorded(set);
    for (const v of Object.values(padded)) v[0].final_response.parts[0].text = `answer ${'z'.repeat(100_000)}`;
    const before = judge.requests.length;
    const res = await handler(new Request('http://127.0.0.1/v1/evaluate', {
      method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
      body: JSON.stringify({ evalSet: set, actual: padded, config: JUDGED }),
    }));
    assert.equal(res.status, 200);
    await sleep(1500);
    // The stream holds about 1 MiB: ten or so 100 KB lines, not 60.
    const scoredWhileStalled = judge.requests.length - before;
    assert.ok(scoredWhileStalled <= 15, `${scoredWhileStalled} of 60 cases scored while nothing was read`);
    const lines = (await res.text()).split('\n').filter(Boolean);
    assert.equal(lines.length, 61, '60 case lines and the summary');
    assert.equal(JSON.parse(lines.at(-1)).summary.counts.passed, 60);
    assert.equal(judge.requests.length - before, 60);
  });
});

describe('slow clients', () => {
  test('a client still sending its body holds no slot (maxConcurrent 1: another request runs)', async () => {
    const s = await serve({ limits: { maxConcurrent: 1, bodyTimeoutMs: 2_000 } });
    const set = setOf(1);
    const body = JSON.stringify({ evalSet: set, actual: recorded(set) });
    const slow = raw(s.url, `POST /v1/evaluate HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
    await sleep(200);
    const fast = await call(s.url, '/v1/evaluate', { body: { evalSet: set, actual: recorded(set) } });
    assert.equal(fast.status, 200, fast.text);
    const cut = await slow;
    assert.equal(cut.status, 408, cut.text);
    assert.match(cut.text, /"code":"body_timeout"/);
  });

  test('a body that does not arrive within bodyTimeoutMs is a 408 body_timeout and its connection closes', async () => {
    const s = await serve({ limits: { bodyTimeoutMs: 500 } });
    const got = await raw(s.url, 'POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{"config":',
      { body: Array.from({ length: 40 }, () => ' '), gapMs: 100 });
    assert.equal(got.status, 408, got.text);
    assert.match(got.text, /did not arrive within 0.5 s \(bodyTimeoutMs\)/);
    assert.ok(got.ms < 3_000, `closed after ${got.ms} ms`);
  });

  test('headers that do not arrive within headersTimeoutMs: the connection is closed', async () => {
    const s = await serve({}, { headersTimeoutMs: 400 });
    const got = await raw(s.url, 'POST /v1/evaluate HTTP/1.1\r\nHost: 127.0.0.1\r\n', { body: ['x-a: 1\r\n', 'x-b: 2\r\n', 'x-c: 3\r\n'], gapMs: 300 });
    assert.ok(got.ms < 3_000, `closed after ${got.ms} ms`);
    assert.ok(got.status === 408 || got.status === 0, got.text);
  });

  test('node: a client that stops reading a stream loses its connection after drainTimeoutMs, and its run stops', async () => {
    const s = await serve({ limits: { caseConcurrency: 1 } }, { drainTimeoutMs: 500 });
    const set = setOf(80);
    const padded = recorded(set);
    for (const v of Object.values(padded)) v[0].final_response.parts[0].text = `answer ${'z'.repeat(100_000)}`;
    const body = JSON.stringify({ evalSet: set, actual: padded, config: { criteria: { response_match_score: 0.0 } } });
    const { port } = new URL(s.url);
    logs.length = 0;
    const t0 = Date.now();
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(`POST /v1/evaluate HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\naccept: application/x-ndjson\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`);
      socket.write(body);
      // Reads the first bytes of the answer, then nothing more (a paused socket learns of no reset).
      socket.once('data', () => socket.pause());
    });
    socket.on('error', () => {});
    try {
      const connections = () => new Promise((r) => s.server.getConnections((_, n) => r(n)));
      while ((logs.length === 0 || (await connections()) > 0) && Date.now() - t0 < 15_000) await sleep(50);
      assert.deepEqual(logs.map((e) => [e.status, e.code]), [[499, 'client_closed']], 'the run stopped, logged as the client leaving');
      assert.equal(await connections(), 0, 'the server dropped the connection');
      assert.ok(Date.now() - t0 < 15_000);
    } finally {
      socket.destroy();
    }
  });

  test('a long stream is not cut: the control body stays open past every deadline, Node\'s request timeout is off', async () => {
    judge.script(() => ({ text: VALID, delayMs: 400 }));
    const timeouts = { headersTimeoutMs: 300, keepAliveTimeoutMs: 300 };
    const s = await serve({ limits: { bodyTimeoutMs: 300, caseConcurrency: 1 } }, timeouts);
    assert.equal(s.server.requestTimeout, 0);
    const run = async (url) => {
      const set = setOf(5);
      let close;
      const closed = new Promise((r) => { close = r; });
      const body = new ReadableStream({
        async start(c) {
          c.enqueue(new TextEncoder().encode(`${JSON.stringify({ evalSet: set, actual: recorded(set), config: JUDGED })}\n`));
          await closed;
          c.close();
        },
      });
      const t0 = Date.now();
      try {
        const res = await fetch(`${url}/v1/evaluate`, {
          method: 'POST', duplex: 'half', body, headers: { 'content-type': 'application/x-ndjson', accept: 'application/x-ndjson' },
        });
        const text = await res.text();
        return { status: res.status, lines: text.split('\n').filter(Boolean).map((l) => JSON.parse(l)), ms: Date.now() - t0 };
      } catch (e) {
        return { error: e.cause?.code ?? e.message, ms: Date.now() - t0 };
      } finally {
        close();
      }
    };
    const ours = await run(s.url);
    assert.equal(ours.status, 200, JSON.stringify(ours));
    assert.ok(ours.ms > 1_800, `the run took ${ours.ms} ms, past every deadline of this server`);
    assert.equal(ours.lines.at(-1).summary?.counts.passed, 5, JSON.stringify(ours.lines.at(-1)));
    // The same handler behind Node's own request timeout (shortened from its 300 s default):
    // the stream is cut, which is what the server's setting prevents.
    const handler = createHandler({ judge: { provider: 'openai', model: 'judge-model', baseUrl: judge.baseUrl }, limits: { caseConcurrency: 1 } });
    const plain = createServer({ requestTimeout: 1_000, connectionsCheckingInterval: 200 }, (req, res) => {
      const request = requestOf(req, res);
      handler(request).then((response) => writeResponse(response, req, res, request.signal)).catch(() => res.destroy());
    });
    await new Promise((r) => plain.listen(0, '127.0.0.1', r));
    try {
      const cut = await run(`http://127.0.0.1:${plain.address().port}`);
      assert.ok(cut.error !== undefined || cut.lines.at(-1).summary === undefined, `Node's default would have cut it: ${JSON.stringify(cut).slice(0, 300)}`);
    } finally {
      plain.closeAllConnections();
      await new Promise((r) => plain.close(r));
    }
  });
});

describe('what leaves the server', () => {
  test('the log: no query string, no token or key in a path, a client that leaves is 499 client_closed', async () => {
    const s = await serve({ token: TOKEN, limits: { caseConcurrency: 1 }, agents: { slow: async (turn) => { await sleep(200); return `answer ${turn.evalId}`; } } });
    logs.length = 0;
    await call(s.url, `/v1/metrics?key=${KEY}&x=1`, { method: 'GET', headers: { authorization: `Bearer ${TOKEN}` } });
    await call(s.url, `/v1/${TOKEN}/evaluate`, { method: 'GET' });
    await call(s.url, `/v1/${encodeURIComponent(KEY)}`, { method: 'GET' });
    await call(s.url, '/healthz%0a200%20forged', { method: 'GET' });
    const controller = new AbortController();
    const left = fetch(`${s.url}/v1/evaluate`, {
      method: 'POST', signal: controller.signal, headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ evalSet: setOf(10), agent: 'slow' }),
    }).catch((e) => e.name);
    await sleep(400);
    controller.abort();
    assert.equal(await left, 'AbortError');
    const streamController = new AbortController();
    const res = await fetch(`${s.url}/v1/evaluate`, {
      method: 'POST', signal: streamController.signal, headers: { 'content-type': 'application/json', accept: 'application/x-ndjson', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ evalSet: setOf(10), agent: 'slow' }),
    });
    await res.body.getReader().read();
    streamController.abort();
    const deadline = Date.now() + 5_000;
    while (logs.length < 6 && Date.now() < deadline) await sleep(50);
    const text = JSON.stringify(logs);
    assert.ok(!text.includes(KEY) && !text.includes(TOKEN), text);
    assert.deepEqual(logs.slice(0, 4).map((e) => [e.path, e.status]), [
      ['/v1/metrics?[redacted]', 200], ['/v1/[redacted]/evaluate', 404], ['/v1/[redacted]', 404], ['/healthz\\x0a200 forged', 404],
    ]);
    const aborted = logs.slice(4).map((e) => [e.method, e.path, e.status, e.code]);
    assert.deepEqual(aborted, [['POST', '/v1/evaluate', 499, 'client_closed'], ['POST', '/v1/evaluate', 499, 'client_closed']]);
  });

  test('file_data URIs of a client reach the judge only where judge.mediaUris allows', async () => {
    judge.script(() => VALID);
    const withUri = (uri) => {
      const set = setOf(1);
      const actual = recorded(set);
      actual.c0[0].final_response.parts.push({ file_data: { file_uri: uri, mime_type: 'image/png' } });
      return { evalSet: set, actual, config: JUDGED };
    };
    const media = { provider: 'openai', model: 'judge-model', baseUrl: judge.baseUrl, media: true };
    const closed = await serve({ judge: media });
    const before = judge.requests.length;
    const refused = await call(closed.url, '/v1/evaluate', { body: withUri('http://169.254.169.254/latest/meta-data/iam.png') });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.error.code, 'media_uri_refused');
    assert.equal(refused.body.error.path, '$.actual.c0[0].final_response.parts[1].file_data.file_uri');
    assert.equal(judge.requests.length, before, 'no judge call');
    const camel = withUri('https://x.example/a.png');
    camel.actual.c0[0].final_response.parts[1] = { fileData: { fileUri: 'https://x.example/a.png', mimeType: 'image/png' } };
    assert.equal((await call(closed.url, '/v1/evaluate', { body: camel })).body.error?.path, '$.actual.c0[0].final_response.parts[1].fileData.fileUri');
    const listed = await serve({ judge: { ...media, mediaUris: ['https://cdn.example.com/evals/'] } });
    const ok = await call(listed.url, '/v1/evaluate', { body: withUri('https://cdn.example.com/evals/cat.png') });
    assert.equal(ok.status, 200, ok.text);
    assert.ok(JSON.stringify(judge.requests.at(-1).body).includes('https://cdn.example.com/evals/cat.png'), 'the listed URI is sent');
    for (const uri of ['https://cdn.example.com/evals/../private/x.png', 'https://cdn.example.com.evil.test/evals/x.png', 'https://cdn.example.com/other/x.png']) {
      assert.equal((await call(listed.url, '/v1/evaluate', { body: withUri(uri) })).body.error?.code, 'media_uri_refused', uri);
    }
    // Without media the judge reads text only: a URI is never sent, so nothing is refused.
    const textOnly = await serve();
    assert.equal((await call(textOnly.url, '/v1/evaluate', { body: withUri('http://169.254.169.254/x.png') })).status, 200);
    assert.throws(() => createHandler({ judge: { ...media, mediaUris: ['cdn.example.com'] } }), /judge.mediaUris\[0\]/);
  });

  test('"__proto__" is an unknown metric like any other name (NOT_EVALUATED, reason unknown_metric), not a prototype', async () => {
    const s = await serve();
    const set = setOf(1);
    const metricsOf = async (criteria) => {
      const a = await call(s.url, '/v1/evaluate', { raw: `{"evalSet": ${JSON.stringify(set)}, "actual": ${JSON.stringify(recorded(set))}, "config": {"criteria": ${criteria}}}` });
      assert.equal(a.status, 200, a.text);
      return a.body.eval_case_results[0].overall_eval_metric_results.filter((m) => m.eval_status !== 'INFORMATIONAL')
        .map((m) => [m.metric_name, m.eval_status, m.details?.reason ?? null]);
    };
    assert.deepEqual(await metricsOf('{"no_such_metric": 0.5}'), [['no_such_metric', 'NOT_EVALUATED', 'unknown_metric']]);
    assert.deepEqual(await metricsOf('{"__proto__": 0.5}'), [['__proto__', 'NOT_EVALUATED', 'unknown_metric']]);
    assert.deepEqual(await metricsOf('{"response_match_score": 0.5, "__proto__": {"threshold": 1}}'),
      [['response_match_score', 'PASSED', null], ['__proto__', 'NOT_EVALUATED', 'unknown_metric']]);
    const ids = setOf(1, '__proto__');
    const id = await call(s.url, '/v1/evaluate', { raw: `{"evalSet": ${JSON.stringify(ids)}, "actual": {"__proto__0": ${JSON.stringify(recorded(set).c0)}}}` });
    assert.equal(id.status, 200, id.text);
    const route = await call(s.url, '/__proto__', { method: 'GET' });
    assert.equal(route.status, 404, route.text);
  });
});

describe('evalIds', () => {
  test('recorded: only the cases named are scored (and need invocations); an unknown id is a 400 at its index', async () => {
    const s = await serve();
    const set = setOf(4);
    const actual = recorded(set);
    delete actual.c0;
    const a = await call(s.url, '/v1/evaluate', { body: { evalSet: set, actual, evalIds: ['c3', 'c1'] } });
    assert.equal(a.status, 200, a.text);
    assert.deepEqual(a.body.eval_case_results.map((r) => r.eval_id), ['c1', 'c3'], 'in the eval set\'s order');
    const unknown = await call(s.url, '/v1/evaluate', { body: { evalSet: set, actual, evalIds: ['c1', 'nope'] } });
    assert.equal(unknown.status, 400);
    assert.deepEqual([unknown.body.error.code, unknown.body.error.path], ['schema', '$.evalIds[1]']);
    assert.match(unknown.body.error.message, /no case "nope"/);
    const missing = await call(s.url, '/v1/evaluate', { body: { evalSet: set, actual, evalIds: ['c0'] } });
    assert.equal(missing.body.error.path, '$.actual.c0');
    assert.equal((await call(s.url, '/v1/evaluate', { body: { evalSet: set, actual, evalIds: 'c1' } })).body.error.path, '$.evalIds');
    const streamed = await callNdjson(s.url, '/v1/evaluate', { evalSet: set, actual, evalIds: ['c2'] });
    assert.deepEqual(streamed.lines.filter((l) => l.eval_id).map((l) => l.eval_id), ['c2']);
    // maxCases counts the cases scored.
    const few = await serve({ limits: { maxCases: 2 } });
    assert.equal((await call(few.url, '/v1/evaluate', { body: { evalSet: set, actual, evalIds: ['c1', 'c2'] } })).status, 200);
  });

  test('agent: only the cases named are run', async () => {
    const turns = [];
    const s = await serve({ agents: { echo: async (turn) => { turns.push(turn.evalId); return `answer ${turn.evalId.slice(1)}`; } } });
    const a = await call(s.url, '/v1/evaluate', { body: { evalSet: setOf(5), agent: 'echo', evalIds: ['c4', 'c2'] } });
    assert.equal(a.status, 200, a.text);
    assert.deepEqual(turns.sort(), ['c2', 'c4']);
    assert.deepEqual(a.body.eval_case_results.map((r) => r.eval_id).sort(), ['c2', 'c4']);
  });
});
