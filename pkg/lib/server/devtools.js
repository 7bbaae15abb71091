//! The dev UI's eval routes beside @google/adk-devtools' own server (Node): an express-style
//! middleware in front of its routes, a guard in front of everything (the chat and sessions run
//! the agent, so no route of the app answers a foreign Host or Origin), and `startDevUi`, which
//! runs that server (the UI bundle, chat, sessions) with evalcore answering the Eval tab.
//! @google/adk-devtools and @google/adk are loaded from the agents' folder (where the user
//! installed them), never bundled with evalcore.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EvalError } from '../errors.js';
import { fromAdkAgent } from '../adapters/adk.js';
import { evalSetsManager } from '../store/manager.js';
import { fsStore } from '../store/fs.js';
import { devUiRoutes, matchDevUiRoute } from './devui.js';
import { NODE_TIMEOUTS, listenHosts, requestOf, writeResponse } from './node.js';
import { bodyTypeRefusal, hostPolicy, nodeHeaders, refusalOf } from './guard.js';
import { CLIENT_CLOSED, loggedPath, loggedText } from './log.js';
import { redactor } from './http.js';
import { secretsOf } from './config.js';

/**
 * The ESM entry of package `name` as Node would find it from `fromDir` (the nearest
 * node_modules/<name> up the tree, its `exports["."]` import entry), or null.
 */
export function findPackageEntry(name, fromDir) {
  for (let dir = resolve(fromDir); ; dir = dirname(dir)) {
    const root = join(dir, 'node_modules', ...name.split('/'));
    const manifest = join(root, 'package.json');
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
      const dot = typeof pkg.exports === 'object' && pkg.exports !== null ? pkg.exports['.'] ?? pkg.exports : undefined;
      const entry = typeof dot === 'string' ? dot
        : dot && typeof dot === 'object' ? (dot.import ?? dot.default ?? dot.node)
          : pkg.module ?? pkg.main ?? 'index.js';
      return pathToFileURL(join(root, typeof entry === 'string' ? entry : 'index.js')).href;
    }
    if (dirname(dir) === dir) return null;
  }
}

/**
 * Where @google/adk-devtools is installed for the agents of `dir`: found from `dir` itself, else
 * from one of its agent folders, else from the working folder. @google/adk is then taken from
 * where devtools finds it, so the chat, the agents and the evals share one copy.
 */
async function loadDevtools(dir) {
  const subdirs = () => {
    try {
      return readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isDirectory() && d.name !== 'node_modules' && !d.name.startsWith('.'))
        .map((d) => join(dir, d.name)).sort();
    } catch {
      return [];
    }
  };
  for (const from of [dir, ...subdirs(), process.cwd()]) {
    const url = findPackageEntry('@google/adk-devtools', from);
    if (url === null) continue;
    const root = fileURLToPath(url).split(`${sep}node_modules${sep}@google${sep}adk-devtools${sep}`)[0];
    const adkUrl = findPackageEntry('@google/adk', root);
    if (adkUrl === null) break;
    return { devtools: await import(url), adk: await import(adkUrl) };
  }
  throw new EvalError('unsupported', '', `cannot find @google/adk-devtools and @google/adk for the agents in ${dir}: install them where the agents are (npm install @google/adk @google/adk-devtools)`);
}

/** Time a client of `evalcore web` has to send its request body (small JSON, sent at once). */
const DEV_UI_BODY_TIMEOUT_MS = 60_000;

/** A line for a request answered: `METHOD path status [code] Nms`, the path as a log shows it. */
const requestLine = (req, status, code, t0, redact) => `${req.method} ${loggedPath(req.originalUrl ?? req.url, redact)} ${status}${code ? ` ${code}` : ''} ${Date.now() - t0}ms`;

/**
 * Express-style middleware (`(req, res, next)`) answering the eval routes with `handle`
 * (devUiRoutes); every other request goes on untouched, its body unread. With `log(line)`, each
 * request it answers is logged (a client that left as 499 client_closed).
 */
export function devUiMiddleware(handle, { log = null, redact = (t) => t } = {}) {
  return (req, res, next) => {
    const path = (req.originalUrl ?? req.url).split('?')[0];
    if (matchDevUiRoute(req.method, path) === null) {
      next();
      return;
    }
    const t0 = Date.now();
    const request = requestOf(req, res);
    const done = (status, code) => log?.(requestLine(req, request.signal.aborted ? CLIENT_CLOSED : status, request.signal.aborted ? 'client_closed' : code, t0, redact));
    handle(request)
      .then(async (response) => {
        if (response === null) return next();
        await writeResponse(response, req, res, request.signal);
        done(response.status, response.headers.get('x-evalcore-error') ?? undefined);
        return undefined;
      })
      .catch((e) => {
        done(500, 'internal');
        if (res.headersSent) {
          res.destroy();
          return;
        }
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ detail: String(e?.message ?? e), error: { code: 'internal', path: '', message: String(e?.message ?? e) } }));
      });
  };
}

/**
 * Express-style middleware that refuses, for every route of the app behind it, a Host outside
 * `hosts` (a host policy, null for any), a state-changing request from another origin than the
 * page's own (or `origins`), and a body that is not JSON; and marks every answer
 * same-origin-only (Cross-Origin-Resource-Policy), so no other page can embed one.
 */
export function guardMiddleware({ hosts, origins = [], log = null, redact = (t) => t, bodyTimeoutMs = DEV_UI_BODY_TIMEOUT_MS }) {
  const policy = { hosts, origins };
  return (req, res, next) => {
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('cross-origin-resource-policy', 'same-origin');
    const headers = nodeHeaders(req);
    const refused = refusalOf(headers, policy) ?? bodyTypeRefusal(headers);
    if (refused === null) {
      // A body still arriving after bodyTimeoutMs: the connection is dropped (the routes behind
      // read bodies whole, and a slow client would hold one for Node's five minutes).
      if (!req.complete) {
        const timer = setTimeout(() => {
          if (!req.complete) {
            log?.(requestLine(req, 408, 'body_timeout', Date.now() - bodyTimeoutMs, redact));
            req.socket.destroy();
          }
        }, bodyTimeoutMs);
        const clear = () => clearTimeout(timer);
        req.once('end', clear);
        res.once('close', clear);
      }
      next();
      return;
    }
    log?.(requestLine(req, refused.status, refused.code, Date.now(), redact));
    // The body is not read: the connection closes after the answer.
    res.writeHead(refused.status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', connection: 'close' });
    res.end(JSON.stringify({ detail: refused.message, error: { code: refused.code, path: '', message: refused.message } }));
    req.resume();
  };
}

/**
 * The logger @google/adk-devtools' server logs with (its request lines, its errors): each line
 * to `log`, without query strings or known secrets. `LogLevel` is @google/adk's.
 */
function serverLogger(log, redact, LogLevel) {
  let level = LogLevel?.INFO ?? 1;
  const at = (value, name) => (...messages) => {
    if (level > value) return;
    log(`${name}: [ADK API Server] ${loggedText(messages.join(' '), redact)}`);
  };
  const levels = { debug: LogLevel?.DEBUG ?? 0, info: LogLevel?.INFO ?? 1, warn: LogLevel?.WARN ?? 2, error: LogLevel?.ERROR ?? 3 };
  const logger = {
    setLogLevel(l) {
      level = l;
    },
    log(l, ...messages) {
      const name = Object.keys(levels).find((k) => levels[k] === l) ?? 'info';
      at(l, name.toUpperCase())(...messages);
    },
  };
  for (const [name, value] of Object.entries(levels)) logger[name] = at(value, name.toUpperCase());
  return logger;
}

/**
 * Runs @google/adk-devtools' server for the agents in `agentsDir` (its dev UI at /dev-ui, chat,
 * sessions) with the eval routes answered by evalcore: eval sets and results kept by the
 * eval-set manager over `evalsDir` (default `agentsDir`, ADK's layout), evals run through
 * `fromAdkAgent` in the server's own session service. Agents are imported as they are (no
 * bundling step). Every route answers only the Host names of `host` (listenHosts) and
 * `allowedHosts` (`*`: any), and changes nothing for a page of another origin. Resolves to
 * `{ url, server, stop() }` once listening; devtools' banner and request log go to `log`
 * (default stderr, without query strings or secrets) so that a caller's first line can be the URL.
 */
export async function startDevUi({
  agentsDir, host = '127.0.0.1', port = 8000, evalsDir, judge, allowedHosts = [], log = (line) => process.stderr.write(`${line}\n`),
} = {}) {
  if (typeof agentsDir !== 'string' || agentsDir === '') throw new EvalError('config', 'agentsDir', 'startDevUi: agentsDir must be a folder');
  const hosts = hostPolicy(listenHosts(host), allowedHosts, 'startDevUi: allowedHosts');
  const dir = resolve(agentsDir);
  const { devtools, adk } = await loadDevtools(dir);
  // What the log must never show: the judge's key, devtools' A2A token.
  const redact = redactor([...secretsOf({ judge }), ...(process.env.ADK_A2A_AUTH_TOKEN ? [process.env.ADK_A2A_AUTH_TOKEN] : [])].filter((x) => x.length >= 4));
  const say = (line) => log(loggedText(line, redact));
  const sessionService = new adk.InMemorySessionService();
  const server = new devtools.AdkApiServer({
    agentsDir: dir,
    host,
    port,
    sessionService,
    serveDebugUI: true,
    agentFileLoadOptions: { compile: false, bundle: false },
    logger: serverLogger(log, redact, adk.LogLevel),
  });
  // The loader the devtools server made for agentsDir (the one its chat runs); no public getter.
  const loader = server.agentLoader;
  if (!loader || typeof loader.getAgentFile !== 'function') {
    throw new EvalError('unsupported', '', 'startDevUi: this @google/adk-devtools has no agentLoader on its server; evalcore needs 2.0.0');
  }
  const agents = new Map();
  const agentFor = async (app) => {
    if (!agents.has(app)) {
      let loaded;
      try {
        loaded = await (await loader.getAgentFile(app)).load();
      } catch (e) {
        throw new EvalError('not_found', '', `app ${JSON.stringify(app)}: ${e?.message ?? e}`, { cause: e });
      }
      const root = adk.isApp?.(loaded) ? loaded.rootAgent : loaded;
      agents.set(app, fromAdkAgent(root, { adk, sessionService }));
    }
    return agents.get(app);
  };
  const handle = devUiRoutes({
    evalSets: evalSetsManager(fsStore(evalsDir ?? dir)),
    agentFor,
    sessionService,
    // No file_data URI of an eval case is fetched for the judge unless listed (EVALCORE_JUDGE_MEDIA_URIS).
    judge: judge ? { mediaUris: [], ...judge } : judge,
    log: say,
  });
  // Before devtools adds its own routes (at start): the guard sees every request first.
  server.app.use(guardMiddleware({ hosts, log: say, redact }));
  server.app.use(devUiMiddleware(handle, { log: say, redact }));
  const consoleLog = console.log;
  console.log = (...args) => say(args.join(' '));
  try {
    await server.start();
  } finally {
    console.log = consoleLog;
  }
  // Headers within 20 s (Node's 60 s); bodies have the guard's deadline.
  if (server.server) server.server.headersTimeout = NODE_TIMEOUTS.headersTimeoutMs;
  return { url: server.url, server, handle, stop: () => server.stop() };
}
