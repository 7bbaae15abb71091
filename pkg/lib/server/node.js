//! Node's http server in front of the fetch handler: each request becomes a `Request` (its
//! signal aborted when the client goes away), each `Response` is written back as it streams.
//! Its timeouts are set on purpose (docs/security.md): headers must come within
//! headersTimeoutMs, a body within the handler's bodyTimeoutMs (per route: a streamed run's
//! control lines have none), so Node's own request timeout, which would cut a long stream, is off.
import { createServer } from 'node:http';
import { hostname, networkInterfaces } from 'node:os';
import { LOOPBACK_HOSTS } from './guard.js';

/** The timeouts of a Node server evalcore runs, in milliseconds. */
export const NODE_TIMEOUTS = Object.freeze({
  // Receiving a whole request: off where routes set their own deadlines (the endpoint: a
  // streamed run's body stays open); servers whose bodies are small set one.
  requestTimeoutMs: 0,
  // From the connection (or the previous request on it) to the end of the headers.
  headersTimeoutMs: 20_000,
  // An idle kept-alive connection.
  keepAliveTimeoutMs: 5_000,
  // A response the client stops reading: the connection is closed after this long without progress.
  drainTimeoutMs: 60_000,
});

/** A Node http server with NODE_TIMEOUTS, each overridable. */
export function timedServer(listener, timeouts = {}) {
  const t = { ...NODE_TIMEOUTS, ...timeouts };
  const server = createServer({
    requestTimeout: t.requestTimeoutMs,
    headersTimeout: t.headersTimeoutMs,
    keepAliveTimeout: t.keepAliveTimeoutMs,
    // How often Node looks for connections past headersTimeout (its default, 30 s, would let
    // one wait up to 50 s).
    connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(t.headersTimeoutMs / 4))),
  }, listener);
  server.drainTimeoutMs = t.drainTimeoutMs;
  return server;
}

/**
 * The host names a server listening on `host` answers to: the loopback names, and `host`
 * itself; on every interface (0.0.0.0, ::), each interface's address and the machine's name.
 */
export function listenHosts(host) {
  const h = String(host ?? '').trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === '' || h === '0.0.0.0' || h === '::') {
    const addresses = Object.values(networkInterfaces()).flat().filter(Boolean).map((a) => (a.family === 'IPv6' || String(a.family) === '6' ? `[${a.address.split('%')[0]}]` : a.address));
    const name = hostname().toLowerCase();
    return [...LOOPBACK_HOSTS, ...addresses, name, `${name}.local`];
  }
  return [...LOOPBACK_HOSTS, h.includes(':') ? `[${h}]` : h];
}

/**
 * Serves `handler` on `host:port` (port 0: a free one) with `timeouts` (NODE_TIMEOUTS).
 * Resolves to `{ url, server, close() }` once listening.
 */
export async function serveNode(handler, { port = 8787, host = '127.0.0.1', timeouts = {} } = {}) {
  const server = timedServer((req, res) => {
    bridge(handler, req, res).catch((e) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 'internal', path: '', message: `evalcore server: ${e?.message ?? e}` } }));
      } else {
        res.destroy();
      }
    });
  }, timeouts);
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
  const drainMs = res.socket?.server?.drainTimeoutMs ?? NODE_TIMEOUTS.drainTimeoutMs;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await drained(res, drainMs);
      if (res.destroyed) break;
    }
  } finally {
    if (!res.destroyed) res.end();
  }
}

/** Waits until `res` can take more; a client that reads nothing for `ms` loses its connection. */
function drained(res, ms) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    const timer = setTimeout(() => {
      res.destroy(new Error(`the client read nothing for ${ms / 1000} s`));
      done();
    }, ms);
    // A guard, not work: it keeps no process alive (a server stopping with a reader stalled).
    timer.unref?.();
    res.once('drain', done);
    res.once('close', done);
  });
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
