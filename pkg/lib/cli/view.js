//! `evalcore view [FILES...] [--port N] [--host H] [--no-open]`: serves the viewer (pkg/www/)
//! and the files given (folders: every *.json inside, e.g. .adk/eval_history; each file named by
//! the path it was given by) on 127.0.0.1, and prints the page's URL as the first line.
//! Offline: it serves local files and fetches nothing.
//! It serves those files and the viewer's own, nothing else: no path climbs out of the package's
//! browser folders, no link inside a given folder leads out of it, and only the Host names of
//! the address it listens on are answered (a DNS-rebinding page reads nothing).
import { closeSync, constants, existsSync, fstatSync, openSync, readdirSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { parseArgs, UsageError } from './args.js';
import { listenHosts, timedServer } from '../server/node.js';
import { LOOPBACK_HOSTS, hostList, hostPolicy, nodeHeaders, refusalOf } from '../server/guard.js';

export const HELP = `Usage: evalcore view [FILES...] [--port N] [--host H] [--allowed_hosts H,...] [--no-open]

Serves the eval viewer with FILES opened: result files (*.evalset_result.json, ADK 2.x and 1.x),
eval sets and eval configs; a folder opens every .json file inside it (e.g. .adk/eval_history).
Each file keeps its folder in its name: \`evalcore view baseline/ candidate/\` compares the
baseline folder's newest run with the candidate folder's (Compare picks runs by folder).
Prints the viewer's URL as the first line and serves until Ctrl-C. Nothing leaves the machine.

  --port N     port to listen on (default 7357, or any free port when that one is taken;
               0 picks a free port)
  --host H     address to listen on (default 127.0.0.1; anything else exposes your files)
  --allowed_hosts H[,H...]
               other names the Host header may give (a proxy's), or * for any; by default
               only 127.0.0.1, localhost, [::1] and --host answer (also EVALCORE_ALLOWED_HOSTS)
  --no-open    do not open a browser

Inside a folder, links are followed only when they stay inside it.
`;

const PKG = fileURLToPath(new URL('../../', import.meta.url));
const SERVED = ['www/', 'lib/', 'wasm/', 'wasm-extras/', 'web.js'];
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm', '.json': 'application/json; charset=utf-8', '.svg': 'image/svg+xml',
};
// The page's own policy, also as a header (a meta tag cannot set frame-ancestors). connect-src
// lets the page reach the judge endpoint a user types in (HTTPS, or a judge on this machine).
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
  + "connect-src 'self' https: http://127.0.0.1:* http://localhost:*; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const DEFAULT_PORT = 7357;
const MAX_FILES = 10_000;
// Entries a folder walk looks at before it gives up: a huge tree is refused in bounded time.
const MAX_ENTRIES = 200_000;
const MAX_DEPTH = 8;

/** Whether `path` is `root` or inside it (both real paths). */
export function inside(path, root) {
  const r = relative(root, path);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

/**
 * FILES expanded, each as its real path: a folder gives its .json files (recursively, sorted), a
 * file itself. Inside a folder a link is followed only when its target is inside the folder too
 * (`skipped` gets the others), and a folder already walked (a link cycle) is not walked again.
 */
export function collectFiles(paths, command = 'view', skipped = []) {
  return collectNamed(paths, command, skipped).map((f) => f.path);
}

/**
 * collectFiles's files as `[{path, name}]`: `name` is the path the file was reached by, from the
 * folder that holds everything given, so `evalcore view base/ cand/` shows `base/…` and `cand/…`.
 */
export function collectNamed(paths, command = 'view', skipped = []) {
  const out = new Map(); // real path -> the path it was reached by (the first)
  let entries = 0;
  const walk = (root, dir, depth, seen) => {
    if (depth > MAX_DEPTH) return;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (++entries > MAX_ENTRIES) throw new UsageError(`the folders given hold more than ${MAX_ENTRIES} entries; give the folders of the results themselves (e.g. .adk/eval_history)`, command);
      const { name } = entry;
      if (name === 'node_modules' || (name.startsWith('.') && name !== '.adk' && name !== 'eval_history')) continue;
      const p = join(dir, name);
      let real;
      try {
        real = realpathSync(p);
      } catch {
        continue; // a dangling link, or a loop of links
      }
      if (!inside(real, root)) {
        skipped.push(p);
        continue;
      }
      const st = statSync(real);
      if (st.isDirectory()) {
        if (seen.has(real)) continue;
        seen.add(real);
        walk(root, p, depth + 1, seen);
      } else if (st.isFile() && name.endsWith('.json') && !out.has(real)) out.set(real, p);
    }
  };
  for (const p of paths) {
    if (!existsSync(p)) throw new UsageError(`file not found: ${p}`, command);
    const real = realpathSync(p);
    if (statSync(real).isDirectory()) walk(real, p, 0, new Set([real]));
    else if (!out.has(real)) out.set(real, p);
    if (out.size > MAX_FILES) break;
  }
  if (out.size > MAX_FILES) throw new UsageError(`more than the ${MAX_FILES} files the viewer opens at once`, command);
  const base = commonFolder(paths.map((p) => dirname(resolve(p))));
  return [...out].map(([path, shown]) => ({ path, name: nameFrom(base, shown) }));
}

/** `path`'s name from the folder `base`, with `/` between folders on every system. */
const nameFrom = (base, path) => relative(base, resolve(path)).split(sep).join('/');

/** The deepest folder holding every one of `dirs` (absolute paths). */
function commonFolder(dirs) {
  if (!dirs.length) return resolve('.');
  const parts = dirs.map((d) => d.split(sep));
  let n = Math.min(...parts.map((p) => p.length));
  for (let i = 0; i < n; i++) if (parts.some((p) => p[i] !== parts[0][i])) n = i;
  return parts[0].slice(0, n).join(sep) || sep;
}

/**
 * Where each file is served: `/files/` and its name, segment by segment (the page names a file by
 * its path from the folder common to all). `files` are collectNamed's, or real paths (then named
 * from the folder holding them all). A Map from the URL path to the real path.
 */
export function servedPaths(files) {
  const base = commonFolder(files.filter((f) => typeof f === 'string').map((f) => dirname(resolve(f))));
  const named = files.map((f) => (typeof f === 'string' ? { path: f, name: nameFrom(base, f) } : f));
  const out = new Map();
  for (const { path, name } of named) {
    let url = `/files/${name.split('/').map(encodeURIComponent).join('/')}`;
    for (let k = 2; out.has(url); k++) url = `/files/${k}/${encodeURIComponent(name.split('/').pop())}`;
    out.set(url, path);
  }
  return out;
}

/** The page URL for `files` (as servedPaths takes them) on `origin`: `/www/index.html?file=/files/name.json&...`. */
export function pageUrl(origin, files) {
  const q = [...servedPaths(files).keys()].map((u) => `file=${encodeURIComponent(u)}`).join('&');
  return `${origin}/www/index.html${q ? `?${q}` : ''}`;
}

function send(res, status, type, body, extra = {}) {
  res.writeHead(status, {
    'content-type': type, 'content-security-policy': CSP, 'x-content-type-options': 'nosniff',
    'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'cross-origin-resource-policy': 'same-origin', ...extra,
  });
  res.end(body);
}

/** A given file's bytes, opened without following a link that replaced it since. */
function readGiven(path) {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'ENOTFILE' });
    const out = Buffer.alloc(st.size);
    let at = 0;
    while (at < st.size) {
      const n = readSync(fd, out, at, st.size - at, at);
      if (n === 0) break;
      at += n;
    }
    return out.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

/**
 * The package file a request path names, or null: each segment decoded on its own (so an
 * escaped `/` or `..` is a name, never a step), under one of SERVED, and still there once links
 * are resolved.
 */
export function staticFile(pathname) {
  let segments;
  try {
    segments = pathname.split('/').slice(1).map(decodeURIComponent);
  } catch {
    return null;
  }
  if (segments.some((s) => s === '.' || s === '..' || /[\\/\0]/.test(s))) return null;
  const rel = segments.join('/');
  const served = SERVED.find((p) => rel === p || (p.endsWith('/') && rel.startsWith(p) && rel.length > p.length));
  if (served === undefined) return null;
  let real;
  try {
    real = realpathSync(join(PKG, ...segments));
  } catch {
    return null;
  }
  return inside(real, realpathSync(join(PKG, served))) ? real : null;
}

// The package's own files gzipped once (the .wasm goes from about 1.2 MB to under 500 KB).
const gzipped = new Map();
function sendStatic(req, res, full, type) {
  const body = readFileSync(full);
  const head = req.method === 'HEAD';
  if (!/\bgzip\b/.test(req.headers['accept-encoding'] || '') || body.length < 1024) return send(res, 200, type, head ? '' : body);
  const stamp = `${body.length}:${statSync(full).mtimeMs}`;
  let z = gzipped.get(full);
  if (!z || z.stamp !== stamp) gzipped.set(full, (z = { stamp, bytes: gzipSync(body) }));
  return send(res, 200, type, head ? '' : z.bytes, { 'content-encoding': 'gzip', vary: 'accept-encoding' });
}

/**
 * The request handler: the package's browser files and the files given, nothing else, and only
 * for a Host in `hosts` (a host policy; default the loopback names).
 */
export function handler(files, { hosts = hostPolicy(LOOPBACK_HOSTS) } = {}) {
  const served = servedPaths(files);
  return (req, res) => {
    const refused = refusalOf(nodeHeaders(req), { hosts, origins: [] });
    if (refused !== null) return send(res, refused.status, 'text/plain; charset=utf-8', `${refused.code}: ${refused.message}\n`);
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'method not allowed\n');
    let pathname;
    try {
      pathname = new URL(req.url, 'http://x').pathname;
    } catch {
      return send(res, 400, 'text/plain', 'bad request\n');
    }
    if (pathname === '/' || pathname === '/www' || pathname === '/www/') {
      res.writeHead(302, { location: pageUrl('', files) });
      return res.end();
    }
    if (pathname.startsWith('/files/')) {
      // Only the URL paths servedPaths gave (an exact match: nothing in a path is followed).
      const f = served.get(pathname);
      if (f === undefined) return send(res, 404, 'text/plain', 'not found\n');
      try {
        return send(res, 200, TYPES['.json'], req.method === 'HEAD' ? '' : readGiven(f));
      } catch (e) {
        return send(res, 404, 'text/plain', `cannot read the file: ${e.code || 'unreadable'}\n`);
      }
    }
    const full = staticFile(pathname);
    if (full === null) return send(res, 404, 'text/plain', 'not found\n');
    try {
      if (!statSync(full).isFile()) return send(res, 404, 'text/plain', 'not found\n');
      return sendStatic(req, res, full, TYPES[extname(full)] || 'application/octet-stream');
    } catch {
      return send(res, 404, 'text/plain', 'not found\n');
    }
  };
}

function listen(server, port, host) {
  return new Promise((ok, fail) => {
    const onError = (e) => { server.off('listening', onListening); fail(e); };
    const onListening = () => { server.off('error', onError); ok(server.address().port); };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

function openBrowser(url) {
  const cmd = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(cmd[0], cmd[1], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // No browser to open: the URL is printed.
  }
}

/** Runs `evalcore view`; resolves to the exit code when the server stops (Ctrl-C). */
export async function runView(argv, io) {
  const command = 'view';
  const { positionals, options, help } = parseArgs(argv, { port: 'string', host: 'string', allowed_hosts: 'string', no_open: 'bool' }, command);
  if (help) {
    io.stdout.write(HELP);
    return 0;
  }
  let port = DEFAULT_PORT;
  if (options.port !== undefined) {
    if (!/^\d{1,5}$/.test(options.port) || Number(options.port) > 65535) throw new UsageError(`--port must be a port number (0-65535), found "${options.port}"`, command);
    port = Number(options.port);
  }
  const host = options.host ?? '127.0.0.1';
  if (!existsSync(join(PKG, 'www', 'index.html'))) {
    throw new UsageError('the viewer is not built (pkg/www/ is missing): run scripts/build.sh', command);
  }
  let hosts;
  try {
    hosts = hostPolicy(listenHosts(host), [...hostList(options.allowed_hosts), ...hostList(io.env?.EVALCORE_ALLOWED_HOSTS)], '--allowed_hosts');
  } catch (e) {
    throw new UsageError(e.message, command);
  }
  const skipped = [];
  const files = collectNamed(positionals, command, skipped);
  // Only GETs, answered from memory: a request still arriving after a minute is a slow client.
  const server = timedServer(handler(files, { hosts }), { requestTimeoutMs: 60_000 });
  let bound;
  try {
    bound = await listen(server, port, host);
  } catch (e) {
    if (e.code === 'EADDRINUSE' && options.port === undefined) bound = await listen(server, 0, host);
    else throw new UsageError(`cannot listen on ${host}:${port}: ${e.code || e.message}`, command);
  }
  const shown = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  const url = pageUrl(`http://${shown}:${bound}`, files);
  io.stdout.write(`${url}\n`);
  io.stdout.write(`evalcore view: serving the viewer with ${files.length} file${files.length === 1 ? '' : 's'}; Ctrl-C stops it\n`);
  if (skipped.length > 0) {
    io.stderr.write(`evalcore view: left out ${skipped.length} link${skipped.length === 1 ? '' : 's'} leading out of the folders given (e.g. ${skipped[0]})\n`);
  }
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1') {
    io.stderr.write(`evalcore view: listening on ${host}: other machines can read these files\n`);
  }
  if (!options.no_open) openBrowser(url);
  return new Promise((done) => {
    const stop = () => {
      io.offInterrupt?.(stop);
      server.close(() => done(0));
      server.closeAllConnections?.();
    };
    io.onInterrupt?.(stop);
    process.once('SIGTERM', stop);
  });
}
