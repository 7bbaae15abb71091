// Browser plumbing for the viewer's tests: Debian's chromium driven by playwright-core, the
// viewer served by `evalcore view`'s own request handler, screenshots kept in artifacts/.
import { createServer } from 'node:http';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { ROOT } from './fixtures.mjs';
import { handler, pageUrl } from '../../pkg/lib/cli/view.js';

const require = createRequire(import.meta.url);
export const CHROMIUM = process.env.EVALCORE_CHROMIUM || '/usr/bin/chromium';
export const ARTIFACTS = join(ROOT, 'tests', 'e2e', 'artifacts');

export function playwright() {
  // playwright-core comes from the pinned tools in .tools/ (scripts/setup.sh).
  return require(join(ROOT, '.tools', 'node_modules', 'playwright-core'));
}

export async function launch() {
  if (!existsSync(CHROMIUM)) throw new Error(`no chromium at ${CHROMIUM}: run scripts/setup.sh (apt-get install chromium)`);
  return playwright().chromium.launch({ executablePath: CHROMIUM });
}

/** Serves the built viewer with `files` as `evalcore view` does; `{origin, url, close}`. */
export async function serve(files = []) {
  const server = createServer(handler(files));
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    url: pageUrl(origin, files),
    close: () => new Promise((ok) => { server.closeAllConnections(); server.close(ok); }),
  };
}

/**
 * A new page on `url`, waiting (up to `timeout` ms) until the viewer has opened the URL's files. Collects page
 * errors, console errors and every request (to check that nothing leaves the origin).
 */
export async function open(browser, url, { viewport = { width: 1280, height: 900 }, timeout = 20_000 } = {}) {
  const page = await browser.newPage({ viewport });
  const log = { errors: [], requests: [] };
  page.on('pageerror', (e) => log.errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') log.errors.push(`console: ${m.text()}`); });
  page.on('request', (r) => log.requests.push(r.url()));
  await page.goto(url);
  await page.waitForSelector('body[data-loaded=true]', { timeout });
  return { page, log };
}

export async function shot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** The case table's data rows as [eval id, status] in display order. */
export async function tableRows(page, label = 'Cases') {
  // The virtual table draws its rows on the next animation frame after a change: read them
  // after two frames, not before the first (a loaded machine delays it).
  await page.waitForSelector(`[role=table][aria-label="${label}"]`);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.$$eval(`[role=table][aria-label="${label}"] [role=rowgroup] [role=row]:not(.vhead)`, (rows) => rows
    .sort((a, b) => Number(a.getAttribute('aria-rowindex')) - Number(b.getAttribute('aria-rowindex')))
    .map((r) => [...r.querySelectorAll('[role=cell]')].map((c) => c.textContent.trim())));
}

/**
 * A stand-in OpenAI-compatible judge on another origin (CORS, as a real provider's API) that
 * answers every request `valid`: `{url, seen: [{path, auth, model}], close}`.
 */
export async function startJudge() {
  const { successBody, requestedCount } = await import('../js/support/judge-wire.mjs');
  const seen = [];
  const server = createServer((req, res) => {
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'authorization, content-type', 'access-control-allow-methods': 'POST' };
    if (req.method === 'OPTIONS') { res.writeHead(204, cors); res.end(); return; }
    let body = '';
    req.on('data', (d) => { body += d; });
    req.on('end', () => {
      const parsed = JSON.parse(body);
      seen.push({ path: req.url, auth: req.headers.authorization, model: parsed.model });
      res.writeHead(200, { ...cors, 'content-type': 'application/json' });
      res.end(JSON.stringify(successBody('openai', { model: parsed.model, texts: Array(requestedCount('openai', parsed)).fill('{"is_the_agent_response_valid": "valid"}') })));
    });
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    seen,
    close: () => new Promise((ok) => { server.closeAllConnections(); server.close(ok); }),
  };
}
