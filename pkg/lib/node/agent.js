//! Loading the agent module `evalcore eval` runs: a .js/.mjs file (or .ts when this Node can
//! import it) exporting an Agent callback or an @google/adk agent; its folder is the app.
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError } from '../errors.js';
import { isRegularFile, readJsonFile } from './files.js';

const CANDIDATES = ['agent.mjs', 'agent.js', 'index.mjs', 'index.js', 'agent.ts', 'index.ts'];
const TS = new Set(['.ts', '.mts', '.cts']);

/** A problem with the agent module itself (cannot import, no usable export): exit code 2. */
export class AgentLoadError extends UsageError {}

/** The module file for a path that names a file or an app folder (agent.mjs, agent.js, index.*). */
export function resolveAgentPath(path, command) {
  const abs = resolve(path);
  if (!existsSync(abs)) throw new UsageError(`agent module not found: ${path}`, command);
  const st = statSync(abs);
  if (st.isFile()) return abs;
  if (!st.isDirectory()) throw new UsageError(`agent module ${path} is not a regular file or a folder`, command);
  for (const name of CANDIDATES) {
    const file = join(abs, name);
    if (isRegularFile(file)) return file;
  }
  throw new UsageError(`${path} is a folder without an agent module (looked for ${CANDIDATES.join(', ')})`, command);
}

/**
 * Where ADK keeps an app's files for this agent: the module's folder is the app (`appName` is
 * its name) and its parent the agents dir.
 */
export function appLocation(modulePath) {
  const appDir = dirname(modulePath);
  return { appDir, appName: basename(appDir), agentsDir: dirname(appDir) };
}

async function importModule(file, command) {
  try {
    return await import(pathToFileURL(file).href);
  } catch (e) {
    if (TS.has(extname(file)) && e?.code === 'ERR_UNKNOWN_FILE_EXTENSION') {
      throw new AgentLoadError(`cannot import ${file}: Node ${process.versions.node} does not run TypeScript `
        + '(use Node 22.6+ with --experimental-strip-types, or compile the agent to .js)', command);
    }
    const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
    throw new AgentLoadError(`cannot load agent module ${file}: ${why}`, command);
  }
}

/**
 * `@google/adk` as the agent's own project resolves it (the adapter's own `import` cannot see a
 * project's node_modules when evalcore is installed globally or linked): the nearest
 * `node_modules/@google/adk` above the module, its ESM entry. Undefined when there is none.
 */
async function adkNear(file) {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const root = join(dir, 'node_modules', '@google', 'adk');
    const manifest = join(root, 'package.json');
    if (existsSync(manifest)) {
      try {
        const pkg = readJsonFile(manifest, '@google/adk manifest');
        const dot = typeof pkg.exports === 'object' && pkg.exports !== null ? pkg.exports['.'] ?? pkg.exports : null;
        const entry = (typeof dot === 'string' ? dot : dot?.import ?? dot?.node ?? dot?.default) ?? pkg.module ?? pkg.main;
        if (typeof entry === 'string') return await import(pathToFileURL(join(root, entry)).href);
      } catch {
        return undefined;
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

const ADK_LEVELS = { DEBUG: 'DEBUG', INFO: 'INFO', WARNING: 'WARN', ERROR: 'ERROR', CRITICAL: 'ERROR' };

/**
 * Sends @google/adk's log lines to `stream` (ADK JS logs to stdout, which would mix with the
 * report) at `level` (ADK Python's names: DEBUG, INFO, WARNING, ERROR, CRITICAL).
 */
export function routeAdkLogs(adk, level, stream) {
  if (!adk || typeof adk.setLogger !== 'function' || !adk.LogLevel) return false;
  const names = ['DEBUG', 'INFO', 'WARN', 'ERROR'];
  let min = adk.LogLevel[ADK_LEVELS[level] ?? 'WARN'] ?? 2;
  const write = (n, messages) => {
    if (n >= min) stream.write(`${names[n] ?? n}: [ADK] ${messages.map(String).join(' ')}\n`);
  };
  adk.setLogger({
    setLogLevel(l) { min = l; },
    log(l, ...m) { write(l, m); },
    debug(...m) { write(0, m); },
    info(...m) { write(1, m); },
    warn(...m) { write(2, m); },
    error(...m) { write(3, m); },
  });
  return true;
}

async function wrapAdk(value, file, what, command, adk) {
  const { fromAdkAgent } = await import('../adapters/adk.js');
  try {
    return fromAdkAgent(value, adk ? { adk } : {});
  } catch (e) {
    throw new AgentLoadError(`${file}: ${what} is not a usable @google/adk agent: ${e.message}`, command);
  }
}

const isAdkObject = (v) => v !== null && typeof v === 'object';

async function fromFactory(fn, file, name, command, adk) {
  let value;
  try {
    value = await fn();
  } catch (e) {
    throw new AgentLoadError(`${file}: ${name}() failed: ${e instanceof Error ? e.message : String(e)}`, command);
  }
  // ADK Python's get_agent_async returns (agent, exit_stack); take the agent.
  if (Array.isArray(value)) value = value[0];
  if (typeof value === 'function') return value;
  if (isAdkObject(value)) return wrapAdk(value, file, `the value ${name}() returned`, command, adk);
  throw new AgentLoadError(`${file}: ${name}() must return an Agent callback or an @google/adk agent`, command);
}

/**
 * Imports the agent module and returns `{ agent, modulePath, appDir, appName, agentsDir }`.
 * Exports tried in order: `agent` (an Agent callback, or an ADK agent), `default`, `app` (an
 * ADK App), `rootAgent` / `root_agent` (ADK agents, wrapped with `fromAdkAgent`), and the
 * factories `getAgent()` / `get_agent_async()`.
 */
export async function loadAgent(path, command, { logLevel = 'WARNING', logStream = process.stderr } = {}) {
  const modulePath = resolveAgentPath(path, command);
  const mod = await importModule(modulePath, command);
  // The project's @google/adk, if it has one: for wrapping ADK agents, and for its logging.
  const adk = await adkNear(modulePath);
  routeAdkLogs(adk, logLevel, logStream);
  let agent;
  for (const name of ['agent', 'default', 'app', 'rootAgent', 'root_agent']) {
    const value = mod[name];
    if (value === undefined || value === null) continue;
    if (typeof value === 'function' && (name === 'agent' || name === 'default')) agent = value;
    else if (isAdkObject(value)) agent = await wrapAdk(value, modulePath, `export ${name}`, command, adk);
    else continue;
    break;
  }
  if (!agent) {
    for (const name of ['getAgent', 'get_agent_async']) {
      if (typeof mod[name] === 'function') {
        agent = await fromFactory(mod[name], modulePath, name, command, adk);
        break;
      }
    }
  }
  if (!agent) {
    throw new AgentLoadError(`${modulePath} exports no agent: export \`agent\` (an Agent callback), \`default\`, `
      + '`rootAgent` / `root_agent` (an @google/adk agent) or `getAgent()`', command);
  }
  return { agent, modulePath, ...appLocation(modulePath) };
}
