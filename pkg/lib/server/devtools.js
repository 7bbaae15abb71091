//! The dev UI's eval routes beside @google/adk-devtools' own server (Node): an express-style
//! middleware in front of its routes, and `startDevUi`, which runs that server (the UI bundle,
//! chat, sessions) with evalcore answering the Eval tab. @google/adk-devtools and @google/adk are
//! loaded from the agents' folder (where the user installed them), never bundled with evalcore.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EvalError } from '../errors.js';
import { fromAdkAgent } from '../adapters/adk.js';
import { evalSetsManager } from '../store/manager.js';
import { fsStore } from '../store/fs.js';
import { devUiRoutes, matchDevUiRoute } from './devui.js';
import { requestOf, writeResponse } from './node.js';

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

/**
 * Express-style middleware (`(req, res, next)`) answering the eval routes with `handle`
 * (devUiRoutes); every other request goes on untouched, its body unread.
 */
export function devUiMiddleware(handle) {
  return (req, res, next) => {
    const path = (req.originalUrl ?? req.url).split('?')[0];
    if (matchDevUiRoute(req.method, path) === null) {
      next();
      return;
    }
    const request = requestOf(req, res);
    handle(request)
      .then((response) => (response === null ? next() : writeResponse(response, req, res, request.signal)))
      .catch((e) => {
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
 * Runs @google/adk-devtools' server for the agents in `agentsDir` (its dev UI at /dev-ui, chat,
 * sessions) with the eval routes answered by evalcore: eval sets and results kept by the
 * eval-set manager over `evalsDir` (default `agentsDir`, ADK's layout), evals run through
 * `fromAdkAgent` in the server's own session service. Agents are imported as they are (no
 * bundling step). Resolves to `{ url, server, stop() }` once listening; devtools' start banner
 * goes to `log` (default stderr) so that a caller's first line can be the URL.
 */
export async function startDevUi({
  agentsDir, host = '127.0.0.1', port = 8000, evalsDir, judge, log = (line) => process.stderr.write(`${line}\n`),
} = {}) {
  if (typeof agentsDir !== 'string' || agentsDir === '') throw new EvalError('config', 'agentsDir', 'startDevUi: agentsDir must be a folder');
  const dir = resolve(agentsDir);
  const { devtools, adk } = await loadDevtools(dir);
  const sessionService = new adk.InMemorySessionService();
  const server = new devtools.AdkApiServer({
    agentsDir: dir,
    host,
    port,
    sessionService,
    serveDebugUI: true,
    agentFileLoadOptions: { compile: false, bundle: false },
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
    judge,
    log,
  });
  server.app.use(devUiMiddleware(handle));
  const consoleLog = console.log;
  console.log = (...args) => log(args.join(' '));
  try {
    await server.start();
  } finally {
    console.log = consoleLog;
  }
  return { url: server.url, server, handle, stop: () => server.stop() };
}
