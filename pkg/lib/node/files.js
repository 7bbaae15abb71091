//! Files as the CLI and the result-file reader read them: regular files only, and JSON parsed by the core first.
//!
//! A FIFO opened for reading blocks until a writer comes (forever, in a CLI run), and a device
//! or a directory is never an eval file; so every path is stat'ed before it is opened, opened
//! non-blocking, and checked again on the descriptor. JSON is parsed by the core, which bounds
//! depth and size before spending memory, and only then by `JSON.parse` (on the core's output).
import { closeSync, constants, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
// The Node entry: instantiates the core, which parses the files first.
import '../wasm/node_start.js';
import { EvalError } from '../errors.js';
import { parseJsonBytes } from '../wasm/wire.js';

function kindOf(st) {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

// A directory keeps the message reading it always gave (the OS's EISDIR).
const notRegular = (what, path, st) => (st.isDirectory()
  ? new EvalError('not_found', '', `${what} ${path}: EISDIR`)
  : new EvalError('not_a_file', '', `${what} ${path}: ${kindOf(st)}, not a regular file; only regular files are read`));

/** Whether `path` names a regular file (symlinks followed); never opens it. */
export function isRegularFile(path) {
  return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}

/** The bytes of the regular file `path`; anything else is an EvalError naming `what` and the path. */
export function readRegularFile(path, what) {
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    throw new EvalError('not_found', '', `${what} ${path}: ${e.code ?? e.message}`);
  }
  if (!st.isFile()) throw notRegular(what, path, st);
  let fd;
  try {
    // O_NONBLOCK: a FIFO swapped in after the stat opens at once instead of blocking.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw new EvalError('not_found', '', `${what} ${path}: ${e.code ?? e.message}`);
  }
  try {
    const now = fstatSync(fd);
    if (!now.isFile()) throw notRegular(what, path, now);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A JSON file's value, parsed by the core first; errors name `what` and the file. */
export function readJsonFile(path, what) {
  const bytes = readRegularFile(path, what);
  // A UTF-8 byte order mark is not JSON, but editors write one; the eval set loader skips it too.
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  try {
    return parseJsonBytes(bom ? bytes.subarray(3) : bytes, what);
  } catch (e) {
    if (e instanceof EvalError) e.message = `${what} ${path}: ${e.message}`;
    throw e;
  }
}

/** `fn()`; the message of an EvalError or a file error it throws starts with `path`. */
export function inFile(path, fn) {
  try {
    return fn();
  } catch (e) {
    if (e && typeof e.code === 'string' && typeof e.message === 'string') e.message = `${path}: ${e.message}`;
    throw e;
  }
}
