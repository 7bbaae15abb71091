//! Loading the agent module `evalcore eval` runs: a .js/.mjs file, or a .ts one through what the
//! user has (a loader in this process, Node's own type stripping, or the project's tsx),
//! exporting an Agent callback or an @google/adk agent; its folder is the app.
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fromAdkAgent, isAdkObject } from '../adapters/adk.js';
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

const firstLine = (e) => (e instanceof Error ? e.message.split('\n')[0] : String(e));

/** An ESM entry of a package `exports` value: the `import` / `node` / `default` branch, nested conditions followed. */
function esmEntry(value) {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return undefined;
  for (const k of ['import', 'node', 'default']) {
    const found = esmEntry(value[k]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The `tsImport` of the tsx the agent's own project has (the nearest `node_modules/tsx` above
 * the module), or undefined when it has none or its tsx has no such API (tsx < 4.8).
 */
async function tsxNear(file) {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const root = join(dir, 'node_modules', 'tsx');
    const manifest = join(root, 'package.json');
    if (existsSync(manifest)) {
      try {
        const entry = esmEntry(readJsonFile(manifest, 'tsx manifest').exports?.['./esm/api']);
        if (entry === undefined) return undefined;
        const api = await import(pathToFileURL(join(root, entry)).href);
        return typeof api.tsImport === 'function' ? { tsImport: api.tsImport, root } : undefined;
      } catch {
        return undefined;
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * What this Node does with TypeScript by itself: 'strip', 'transform', or false (Node < 22.6, or
 * off). Node 22.6-22.9 has the flags but not `process.features.typescript`.
 */
const nodeTypeScript = () => process.features?.typescript
  ?? ([...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)]
    .some((a) => a === '--experimental-strip-types' || a === '--experimental-transform-types') ? 'strip' : false);

/** Exactly what to install or which flag to use when a .ts agent could not be imported. */
function typeScriptHelp(file, nativeError) {
  const v = process.versions.node;
  const mode = nodeTypeScript();
  const tsx = 'install tsx in the agent\'s project (`npm install --save-dev tsx`), which evalcore then loads the agent through';
  if (!mode) {
    const [major, minor] = v.split('.').map(Number);
    const flag = major > 22 || (major === 22 && minor >= 6)
      ? 'run with `NODE_OPTIONS=--experimental-strip-types` (Node 22.6+; on by default from 22.18 and 23.6)'
      : 'use Node 22.18+ or 23.6+, which run TypeScript by stripping its types';
    return `cannot import ${file}: Node ${v} does not run TypeScript by itself. Either ${tsx}, or ${flag}, or compile the agent to .js`;
  }
  // This Node strips types, yet the import failed: syntax that needs transforming (enums,
  // parameter properties, namespaces) or imports without their .ts extension.
  return `cannot import ${file} with Node ${v}'s type stripping: ${firstLine(nativeError)}. Either ${tsx} (it also `
    + 'transforms enums and resolves extensionless imports), or run with `NODE_OPTIONS=--experimental-transform-types`';
}

async function importModule(file, command) {
  const ts = TS.has(extname(file));
  let nativeError;
  try {
    return await import(pathToFileURL(file).href);
  } catch (e) {
    if (!ts) throw new AgentLoadError(`cannot load agent module ${file}: ${firstLine(e)}`, command);
    nativeError = e;
  }
  // Only a failure to read TypeScript is retried: a module that ran and threw is not run twice.
  const typeScriptProblem = TS_FAILURES.has(nativeError?.code) || nativeError instanceof SyntaxError;
  if (!typeScriptProblem) throw new AgentLoadError(`cannot load agent module ${file}: ${firstLine(nativeError)}`, command);
  // No loader in this process, or one that stops short of the file's syntax: the project's own
  // tsx, if it has one.
  const tsx = await tsxNear(file);
  if (!tsx) throw new AgentLoadError(typeScriptHelp(file, nativeError), command);
  try {
    return await tsx.tsImport(pathToFileURL(file).href, { parentURL: import.meta.url });
  } catch (e) {
    throw new AgentLoadError(`cannot load agent module ${file} through ${tsx.root}: ${firstLine(e)}`, command);
  }
}

/** Node's errors for TypeScript it cannot import (no type stripping, syntax it cannot strip, an extensionless import). */
const TS_FAILURES = new Set(['ERR_UNKNOWN_FILE_EXTENSION', 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX', 'ERR_INVALID_TYPESCRIPT_SYNTAX',
  'ERR_MODULE_NOT_FOUND', 'ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING']);

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

/**
 * The load error for an exported object that is not an @google/adk agent (`export default
 * { name, run }`): evalcore would otherwise fail every turn trying to run it through ADK.
 */
function notAnAgent(value, file, what, command) {
  const keys = Object.keys(value);
  const shape = `{ ${keys.slice(0, 6).join(', ')}${keys.length > 6 ? ', ...' : ''} }`;
  const call = keys.find((k) => typeof value[k] === 'function') ?? 'run';
  return new AgentLoadError(`${file}: ${what} is an object ${shape}, not an agent: evalcore calls one function per user turn. `
    + `Export the function: \`export const agent = fromFunction((text) => myAgent.${call}(text))\` (fromFunction from `
    + 'evalcore/adapters; return a string or { text, toolCalls }), or export an @google/adk agent, App or Runner', command);
}

/** An exported @google/adk agent, App or Runner as an Agent callback (fromAdkAgent). */
function toAgent(value, file, what, command, adk) {
  if (!isAdkObject(value)) throw notAnAgent(value, file, what, command);
  try {
    return fromAdkAgent(value, adk ? { adk } : {});
  } catch (e) {
    throw new AgentLoadError(`${file}: ${what} is not a usable @google/adk agent: ${e.message}`, command);
  }
}

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
  if (value !== null && typeof value === 'object') return toAgent(value, file, `the value ${name}() returned`, command, adk);
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
    // Another kind of `app` (a web server's, say) is not ours to refuse.
    else if (typeof value === 'object' && (name !== 'app' || isAdkObject(value))) {
      agent = toAgent(value, modulePath, `export ${name}`, command, adk);
    } else continue;
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
