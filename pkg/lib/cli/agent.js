//! Loading the agent module `evalcore eval` runs: a .js/.mjs file (or .ts when this Node can
//! import it) exporting an Agent callback or an @google/adk agent; its folder is the app.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError } from './args.js';

const CANDIDATES = ['agent.mjs', 'agent.js', 'index.mjs', 'index.js', 'agent.ts', 'index.ts'];
const TS = new Set(['.ts', '.mts', '.cts']);

/** A problem with the agent module itself (cannot import, no usable export): exit code 2. */
export class AgentLoadError extends UsageError {}

/** The module file for a path that names a file or an app folder (agent.mjs, agent.js, index.*). */
export function resolveAgentPath(path, command) {
  const abs = resolve(path);
  if (!existsSync(abs)) throw new UsageError(`agent module not found: ${path}`, command);
  if (!statSync(abs).isDirectory()) return abs;
  for (const name of CANDIDATES) {
    const file = join(abs, name);
    if (existsSync(file) && statSync(file).isFile()) return file;
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
        const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
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

async function wrapAdk(value, file, what, command) {
  const { fromAdkAgent } = await import('../adapters/adk.js');
  const adk = await adkNear(file);
  try {
    return fromAdkAgent(value, adk ? { adk } : {});
  } catch (e) {
    throw new AgentLoadError(`${file}: ${what} is not a usable @google/adk agent: ${e.message}`, command);
  }
}

const isAdkObject = (v) => v !== null && typeof v === 'object';

async function fromFactory(fn, file, name, command) {
  let value;
  try {
    value = await fn();
  } catch (e) {
    throw new AgentLoadError(`${file}: ${name}() failed: ${e instanceof Error ? e.message : String(e)}`, command);
  }
  // ADK Python's get_agent_async returns (agent, exit_stack); take the agent.
  if (Array.isArray(value)) value = value[0];
  if (typeof value === 'function') return value;
  if (isAdkObject(value)) return wrapAdk(value, file, `the value ${name}() returned`, command);
  throw new AgentLoadError(`${file}: ${name}() must return an Agent callback or an @google/adk agent`, command);
}

/**
 * Imports the agent module and returns `{ agent, modulePath, appDir, appName, agentsDir }`.
 * Exports tried in order: `agent` (an Agent callback, or an ADK agent), `default`, `app` (an
 * ADK App), `rootAgent` / `root_agent` (ADK agents, wrapped with `fromAdkAgent`), and the
 * factories `getAgent()` / `get_agent_async()`.
 */
export async function loadAgent(path, command) {
  const modulePath = resolveAgentPath(path, command);
  const mod = await importModule(modulePath, command);
  let agent;
  for (const name of ['agent', 'default', 'app', 'rootAgent', 'root_agent']) {
    const value = mod[name];
    if (value === undefined || value === null) continue;
    if (typeof value === 'function' && (name === 'agent' || name === 'default')) agent = value;
    else if (isAdkObject(value)) agent = await wrapAdk(value, modulePath, `export ${name}`, command);
    else continue;
    break;
  }
  if (!agent) {
    for (const name of ['getAgent', 'get_agent_async']) {
      if (typeof mod[name] === 'function') {
        agent = await fromFactory(mod[name], modulePath, name, command);
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
