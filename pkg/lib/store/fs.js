//! A Store over a folder (Node, Deno, Bun): key `a/b/c` is the file `<root>/a/b/c`, so with the
//! agents folder as root the eval-set manager reads and writes ADK's own files. Writes go to a
//! temporary file beside the target and are renamed over it: a reader sees the old file or the
//! new one, never half of one; temporary files a crash left behind are removed later. Only
//! regular files are read and listed. Nothing is written or deleted through a folder that is a
//! link leading out of the root (an app folder or its `.adk` linked elsewhere).
import { lstat, mkdir, open, readdir, realpath, rename, rm, stat, unlink } from 'node:fs/promises';
import { constants } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { EvalError } from '../errors.js';
import { checkedStore } from './store.js';

let serial = 0;

/** A temporary file of ours: `.evalcore-<n>-<random>.tmp`. */
const TEMP = /^\.evalcore-\d+-[a-z0-9]+\.tmp$/;
/** A temporary file older than this was left by a writer that died (a write takes milliseconds). */
export const STALE_TEMP_MS = 10 * 60 * 1000;

const within = (path, root) => {
  const r = relative(root, path);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
};

function ioError(op, key, e) {
  return new EvalError('io', '', `store ${op} ${JSON.stringify(key)}: ${e.code ?? e.message}`, { cause: e });
}

/** A Store whose keys are paths relative to `root` (folders are created on write). */
export function fsStore(root) {
  if (typeof root !== 'string' || root === '') throw new EvalError('config', '', 'fsStore: expected the root folder as a non-empty string');
  const base = resolve(root);
  const pathOf = (key) => join(base, ...key.split('/'));
  // Folders whose stale temporary files were looked for (once per folder and store).
  const swept = new Set();

  /**
   * Throws `invalid_path` when a folder on the way from the root to `dir` is a link whose target
   * is outside the root (the root itself may be a link: its target is the root).
   */
  async function checkInside(dir, op, key) {
    let rootReal;
    try {
      rootReal = await realpath(base);
    } catch (e) {
      if (e.code === 'ENOENT') return; // nothing under it yet: mkdir makes real folders
      throw ioError(op, key, e);
    }
    let at = base;
    for (const name of relative(base, dir).split(sep).filter((x) => x !== '')) {
      at = join(at, name);
      let st;
      try {
        st = await lstat(at);
      } catch (e) {
        if (e.code === 'ENOENT') return;
        throw ioError(op, key, e);
      }
      if (!st.isSymbolicLink()) continue;
      const target = await realpath(at).catch(() => null);
      if (target === null || !within(target, rootReal)) {
        throw new EvalError('invalid_path', '', `store ${op} ${JSON.stringify(key)}: ${at} is a link to ${target ?? 'nowhere'}, outside the store's root ${base}; evalcore does not write through it`);
      }
    }
  }

  /** Removes the temporary files a crashed writer left in `dir` (once per folder). */
  async function sweep(dir, names) {
    if (swept.has(dir)) return;
    swept.add(dir);
    const now = Date.now();
    for (const name of names ?? await readdir(dir).catch(() => [])) {
      if (!TEMP.test(name)) continue;
      const path = join(dir, name);
      const st = await lstat(path).catch(() => null);
      if (st?.isFile() && now - st.mtimeMs > STALE_TEMP_MS) await rm(path, { force: true }).catch(() => {});
    }
  }

  return checkedStore({
    async get(key) {
      const path = pathOf(key);
      let handle;
      try {
        // O_NONBLOCK: a FIFO at the path opens at once instead of blocking; it is refused below.
        handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
      } catch (e) {
        if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return null;
        throw ioError('get', key, e);
      }
      try {
        const st = await handle.stat();
        if (!st.isFile()) throw new EvalError('not_a_file', '', `store get ${JSON.stringify(key)}: ${path} is not a regular file`);
        return new Uint8Array(await handle.readFile());
      } finally {
        await handle.close();
      }
    },

    async put(key, bytes) {
      const path = pathOf(key);
      const dir = dirname(path);
      // A short dot name with a suffix no reader looks for (a long key's own name plus a
      // suffix could pass the file system's name limit).
      const tmp = join(dir, `.evalcore-${++serial}-${Math.random().toString(36).slice(2, 10) || '0'}.tmp`);
      await checkInside(dir, 'put', key);
      try {
        await mkdir(dir, { recursive: true });
        // Made since the check? A folder that appeared as a link meanwhile is still refused.
        await checkInside(dir, 'put', key);
        const handle = await open(tmp, 'wx');
        try {
          await handle.writeFile(bytes);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(tmp, path);
      } catch (e) {
        await rm(tmp, { force: true }).catch(() => {});
        if (e instanceof EvalError) throw e;
        throw ioError('put', key, e);
      }
      await sweep(dir);
    },

    async delete(key) {
      await checkInside(dirname(pathOf(key)), 'delete', key);
      try {
        await unlink(pathOf(key));
      } catch (e) {
        if (e.code !== 'ENOENT' && e.code !== 'ENOTDIR') throw ioError('delete', key, e);
      }
    },

    async list(prefix) {
      const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
      let entries;
      const dir = folder === '' ? base : pathOf(folder.slice(0, -1));
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (e) {
        if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return [];
        throw ioError('list', prefix, e);
      }
      await sweep(dir, entries.map((d) => d.name));
      const keys = [];
      for (const entry of entries) {
        const key = folder + entry.name;
        // A write under way (or a crashed one) is not a value.
        if (!key.startsWith(prefix) || TEMP.test(entry.name)) continue;
        if (entry.isFile()) keys.push(key);
        else if (entry.isSymbolicLink()) {
          // A link to a regular file is one (ADK follows links too); to a folder it is not a value.
          const st = await stat(pathOf(key)).catch(() => null);
          if (st?.isFile()) keys.push(key);
        }
      }
      return keys;
    },
  }, { root: base });
}
