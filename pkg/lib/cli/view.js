//! `evalcore view [FILES...] [--port N] [--host H] [--no-open]`: serves the viewer (pkg/www/)
//! and the files given (folders: every *.json inside, e.g. .adk/eval_history) on 127.0.0.1, and
//! prints the page's URL as the first line. Offline: it serves local files and fetches nothing.
import { createServer } from 'node:http';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { parseArgs, UsageError } from './args.js';

export const HELP = `Usage: evalcore view [FILES...] [--port N] [--host H] [--no-open]

Serves the eval viewer with FILES opened: result files (*.evalset_result.json, ADK 2.x and 1.x),
eval sets and eval configs; a folder opens every .json file inside it (e.g. .adk/eval_history).
Prints the viewer's URL as the first line and serves until Ctrl-C. Nothing leaves the machine.

  --port N     port to listen on (default 7357, or any free port when that one is taken;
               0 picks a free port)
  --host H     address to listen on (default 127.0.0.1; anything else exposes your files)
  --no-open    do not open a browser
`;

const PKG = fileURLToPath(new URL('../../', import.meta.url));
const SERVED = ['www/', 'lib/', 'wasm/', 'web.js'];
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

/** FILES expanded: a folder gives its .json files (recursively, sorted), a file itself. */
export function collectFiles(paths, command = 'view') {
  const out = [];
  const walk = (dir, depth) => {
    if (depth > 8) return;
    for (const name of readdirSync(dir).sort()) {
      if (name === 'node_modules' || (name.startsWith('.') && name !== '.adk' && name !== 'eval_history')) continue;
      const p = join(dir, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p, depth + 1);
      else if (name.endsWith('.json')) out.push(p);
    }
  };
  for (const p of paths) {
    if (!existsSync(p)) throw new UsageError(`file not found: ${p}`, command);
    if (statSync(p).isDirectory()) walk(p, 0);
    else out.push(p);
  }
  if (out.length > MAX_FILES) throw new UsageError(`${out.length} files are more than the ${MAX_FILES} the viewer opens at once`, command);
  return out.map((p) => resolve(p));
}

/** The page URL for `files` on `origin`: `/www/index.html?file=/files/0/name.json&...`. */
export function pageUrl(origin, files) {
  const q = files.map((f, i) => `file=${encodeURIComponent(`/files/${i}/${basename(f)}`)}`).join('&');
  return `${origin}/www/index.html${q ? `?${q}` : ''}`;
}

function send(res, status, type, body, extra = {}) {
  res.writeHead(status, {
    'content-type': type, 'content-security-policy': CSP, 'x-content-type-options': 'nosniff',
    'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'cross-origin-resource-policy': 'same-origin', ...extra,
  });
  res.end(body);
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

/** The request handler: the package's browser files and the files given, nothing else. */
export function handler(files) {
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'method not allowed\n');
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      return send(res, 400, 'text/plain', 'bad request\n');
    }
    if (path === '/' || path === '/www' || path === '/www/') {
      res.writeHead(302, { location: pageUrl('', files) });
      return res.end();
    }
    const m = /^\/files\/(\d+)\/[^/]*$/.exec(path);
    if (m) {
      const f = files[Number(m[1])];
      if (!f) return send(res, 404, 'text/plain', 'not found\n');
      try {
        return send(res, 200, TYPES['.json'], readFileSync(f));
      } catch (e) {
        return send(res, 404, 'text/plain', `cannot read the file: ${e.code || e.message}\n`);
      }
    }
    const rel = path.replace(/^\/+/, '');
    const full = resolve(PKG, rel);
    if (!full.startsWith(PKG) || rel.includes('\0') || !SERVED.some((p) => rel === p || (p.endsWith('/') && rel.startsWith(p)))
      || full.split(sep).includes('..')) {
      return send(res, 404, 'text/plain', 'not found\n');
    }
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
  const { positionals, options, help } = parseArgs(argv, { port: 'string', host: 'string', no_open: 'bool' }, command);
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
  const files = collectFiles(positionals, command);
  const server = createServer(handler(files));
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
