//! Trace files as the CLI reads them: OTLP/JSON, JSON lines, protobuf, each possibly gzipped
//! (`.gz`, or gzip's magic bytes), decompressed under the core's text limit; and the test that
//! tells a trace file from an eval set among a command's arguments.
import { closeSync, openSync, readSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { EvalError } from '../errors.js';
import { getLimits } from '../wasm/api.js';
import { loadTraces } from '../wasm/traces.js';
import { isRegularFile, readRegularFile } from './files.js';

const isGzip = (b) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;

/** A trace file's bytes, gunzipped when compressed (at most the core's maxTextBytes). */
export function readTraceFile(path) {
  const bytes = readRegularFile(path, 'trace file');
  if (!isGzip(bytes)) return bytes;
  const max = getLimits().maxTextBytes;
  try {
    return gunzipSync(bytes, { maxOutputLength: max });
  } catch (e) {
    const over = e.code === 'ERR_BUFFER_TOO_LARGE' || /Cannot create a Buffer larger|maxOutputLength/i.test(String(e.message));
    throw new EvalError(over ? 'too_large' : 'invalid_json', '', over
      ? `trace file ${path}: decompressed, it is over the limit of ${max} bytes (raise maxTextBytes with setLimits)`
      : `trace file ${path}: not a valid gzip file (${e.code ?? e.message})`);
  }
}

/** `fn()` over the inputs of `paths`; an error of the import (which names "input N" among several) names the file. */
export function namingFile(paths, fn) {
  try {
    return fn();
  } catch (e) {
    const m = e instanceof EvalError ? /^input (\d+): (.*)$/s.exec(e.message) : null;
    const file = m ? paths[Number(m[1]) - 1] : paths.length === 1 ? paths[0] : null;
    if (e instanceof EvalError && file) e.message = `trace file ${file}: ${m ? m[2] : e.message}`;
    throw e;
  }
}

/**
 * `loadTraces` of every file, read together (spans in one file, their content's log records in
 * another are joined); an error names the file it came from.
 */
export function loadTraceFiles(paths, options) {
  const inputs = paths.map(readTraceFile);
  return namingFile(paths, () => loadTraces(inputs, options));
}

/**
 * Whether the regular file `path` holds traces rather than an eval set: gzip or protobuf bytes,
 * or JSON whose first key is an OTLP request's (`resourceSpans`, `resourceLogs`). Reads at most
 * its first 4 KiB.
 */
export function looksLikeTraces(path) {
  if (!isRegularFile(path)) return false;
  const head = Buffer.alloc(4096);
  let n = 0;
  let fd;
  try {
    fd = openSync(path, 'r');
    n = readSync(fd, head, 0, head.length, 0);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const b = head.subarray(0, n);
  if (isGzip(b)) return true;
  const text = b.toString('utf8').replace(/^\uFEFF/, '');
  if (/^\s*\{\s*"(resourceSpans|resourceLogs|resource_spans|resource_logs)"/.test(text)) return true;
  // An OTLP protobuf request: its first field is a resource's (0x0a), and it is not text.
  return b[0] === 0x0a && b.some((x) => x < 0x09 || (x > 0x0d && x < 0x20));
}
