// Node's http server in front of the fetch handler: each request becomes a `Request` (its
// signal aborted when the client goes away), each `Response` is written back as it streams.
import { createServer } from 'node:http';

/**
 * Serves `handler` on `host:port` (port 0: a free one). Resolves to `{ url, server, close() }`
 * once listening.
 */
export async function serveNode(handler, { port = 8787, host = '127.0.0.1' } = {}) {
  const server = createServer((req, res) => {
    bridge(handler, req, res).catch((e) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 'internal', path: '', message: `evalcore server: ${e?.message ?? e}` } }));
      } else {
        res.destroy();
      }
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address();
  const shown = addr.family === 'IPv6' || addr.address.includes(':') ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${shown}:${addr.port}`,
    server,
    close: () => new Promise((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve());
    }),
  };
}

async function bridge(handler, req, res) {
  const request = requestOf(req, res);
  const response = await handler(request, undefined, { waitUntil() {} });
  await writeResponse(response, req, res, request.signal);
}

/**
 * A Node request as a fetch `Request` whose signal aborts when the client goes away. Its body is
 * read only when the Request's body is (a middleware that passes a request on must not call this).
 */
export function requestOf(req, res) {
  const abort = new AbortController();
  // 'close' on the response before it finished: the client went away.
  res.on('close', () => {
    if (!res.writableFinished) abort.abort(new Error('the client disconnected'));
  });
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url}`, {
    method: req.method,
    headers,
    body: hasBody ? bodyStream(req) : undefined,
    duplex: hasBody ? 'half' : undefined,
    signal: abort.signal,
  });
  requests.set(req, request);
  return request;
}

// Each Node request's fetch Request, and the bodies a handler cancelled (read no further).
const requests = new WeakMap();
const cancelled = new WeakSet();

/** Writes a fetch `Response` to a Node response, streaming its body until `signal` aborts. */
export async function writeResponse(response, req, res, signal) {
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const out = {};
  response.headers.forEach((v, k) => { out[k] = v; });
  // A body the handler still reads while it answers (a sharded run's control lines) is left to it.
  const reading = requests.get(req)?.body?.locked === true && !cancelled.has(req);
  if (hasBody && !req.complete && !reading) {
    // Answered before the body was read (a refused length, a 401): the rest is discarded and
    // the connection closed after the response, instead of being left paused.
    out.connection = 'close';
    req.removeAllListeners('data');
    req.resume();
  }
  res.writeHead(response.status, out);
  if (response.body === null || req.method === 'HEAD') {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  signal.addEventListener('abort', () => reader.cancel(signal.reason).catch(() => {}), { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise((resolve) => { res.once('drain', resolve); res.once('close', resolve); });
      if (res.destroyed) break;
    }
  } finally {
    if (!res.destroyed) res.end();
  }
}

/**
 * The request body as a web stream. Cancelling it (a body over the limit) discards the rest
 * instead of destroying the socket, so the client still reads the 413.
 */
function bodyStream(req) {
  return new ReadableStream({
    start(controller) {
      // After a cancel the controller refuses every call: nothing here may throw into the emitter.
      const guard = (f) => {
        try {
          f();
        } catch {
          // cancelled
        }
      };
      req.on('data', (chunk) => guard(() => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if (controller.desiredSize <= 0) req.pause();
      }));
      req.on('end', () => guard(() => controller.close()));
      req.on('error', (e) => guard(() => controller.error(e)));
    },
    pull() {
      req.resume();
    },
    cancel() {
      cancelled.add(req);
      req.removeAllListeners('data');
      req.resume();
    },
  }, { highWaterMark: 1 << 20, size: (chunk) => chunk.byteLength });
}
