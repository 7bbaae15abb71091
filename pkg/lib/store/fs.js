//! A Store over a folder (Node, Deno, Bun): key `a/b/c` is the file `<root>/a/b/c`, so with the
//! agents folder as root the eval-set manager reads and writes ADK's own files. Writes go to a
//! temporary file beside the target and are renamed over it: a reader sees the old file or the
//! new one, never half of one. Only regular files are read and listed.
import { mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { constants } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { EvalError } from '../errors.js';
import { checkedStore } from './store.js';

let serial = 0;

function ioError(op, key, e) {
  return new EvalError('io', '', `store ${op} ${JSON.stringify(key)}: ${e.code ?? e.message}`, { cause: e });
}

/** A Store whose keys are paths relative to `root` (folders are created on write). */
export function fsStore(root) {
  if (typeof root !== 'string' || root === '') throw new EvalError('config', '', 'fsStore: expected the root folder as a non-empty string');
  const base = resolve(root);
  const pathOf = (key) => join(base, ...key.split('/'));

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
      const tmp = join(dir, `.evalcore-${++serial}-${Math.random().toString(36).slice(2, 10)}.tmp`);
      try {
        await mkdir(dir, { recursive: true });
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
        throw ioError('put', key, e);
      }
    },

    async delete(key) {
      try {
        await unlink(pathOf(key));
      } catch (e) {
        if (e.code !== 'ENOENT' && e.code !== 'ENOTDIR') throw ioError('delete', key, e);
      }
    },

    async list(prefix) {
      const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
      let entries;
      try {
        entries = await readdir(folder === '' ? base : pathOf(folder.slice(0, -1)), { withFileTypes: true });
      } catch (e) {
        if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return [];
        throw ioError('list', prefix, e);
      }
      const keys = [];
      for (const entry of entries) {
        const key = folder + entry.name;
        if (!key.startsWith(prefix)) continue;
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
