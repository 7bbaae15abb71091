//! The body of `POST /v1/runs` read into a run's stored input, bounded as every body the endpoint
//! reads: one JSON object (at most maxRunBodyBytes, in by bodyTimeoutMs), or ndjson for runs too
//! large to parse at once (each line at most maxBodyBytes and parsed on its own, all of them at
//! most maxRunBodyBytes, no wait for the next bytes longer than bodyTimeoutMs). What is wrong is a
//! 400/413 with its JSON path (`$line[N]...` in an ndjson body), and nothing stays stored.
import { NDJSON } from '../answer.js';
import { HttpError, concatChunks, readBefore, readCapped } from '../http.js';
import { mediaType } from '../guard.js';
import { InputWriter, RunLines, prepareRun, sha256Hex } from './input.js';
import { attemptTag } from './files.js';

/**
 * The run `request`'s body asks for, its chunks written under a prefix of run `id` of its own:
 * `{prepared: {head, units, plannedJudgeCalls}, bodyHash, writer}` (`writer.discard()` removes
 * the chunks when the run is not made of them).
 */
export async function readSubmission(request, server, files, id) {
  const writer = new InputWriter(files, files.chunkPrefix(id, attemptTag()));
  try {
    if (mediaType(request.headers.get('content-type')) === NDJSON) return { ...(await fromLines(request, server, writer)), writer };
    const { limits } = server;
    const deadline = limits.bodyTimeoutMs ? { at: Date.now() + limits.bodyTimeoutMs, ms: limits.bodyTimeoutMs } : null;
    const bytes = await readCapped(request.body, request.headers.get('content-length'), limits.maxRunBodyBytes, 'the run\'s request body (maxRunBodyBytes)', deadline);
    const bodyHash = await sha256Hex(bytes);
    return { prepared: await prepareRun(server.parseJson(bytes), server, writer), bodyHash, writer };
  } catch (e) {
    await writer.discard();
    throw e;
  }
}

/** An ndjson body: its first line the request, each next one a case. */
async function fromLines(request, server, writer) {
  let run = null;
  const hashes = [];
  for await (const { bytes, n } of boundedLines(request, server.limits)) {
    let value;
    try {
      value = server.parseJson(bytes);
    } catch (e) {
      throw e instanceof HttpError ? new HttpError(e.status, e.code, `$line[${n}]${e.path.replace(/^\$/, '')}`, `line ${n}: ${e.message}`) : e;
    }
    hashes.push(await sha256Hex(bytes));
    if (run === null) run = new RunLines(value, server, writer);
    else await run.line(value, n);
  }
  if (run === null) throw new HttpError(400, 'invalid_json', '$line[1]', 'the request body is empty; send the run\'s request, then its cases, one a line');
  return { prepared: await run.finish(), bodyHash: await sha256Hex(hashes.join('\n')) };
}

/**
 * The non-empty lines of a request body with their numbers (from 1): a line over maxBodyBytes, a
 * body over maxRunBodyBytes, or bytes that take longer than bodyTimeoutMs to come end it with a
 * 413 / 408, the rest of the body left unread.
 */
async function* boundedLines(request, limits) {
  if (request.body === null) return;
  const reader = request.body.getReader();
  const idle = limits.bodyTimeoutMs || null;
  let carry = [];
  let carried = 0;
  let total = 0;
  let n = 0;
  try {
    for (;;) {
      const { done, value } = await readBefore(reader, idle === null ? null : { at: Date.now() + idle, ms: idle }, 'the run\'s request body');
      if (done) break;
      total += value.byteLength;
      if (total > limits.maxRunBodyBytes) throw new HttpError(413, 'too_large', '', `the run's request body is more than ${limits.maxRunBodyBytes} bytes (maxRunBodyBytes)`);
      let from = 0;
      for (let nl = value.indexOf(10); nl >= 0; nl = value.indexOf(10, from)) {
        const line = concatChunks([...carry, value.subarray(from, nl)], carried + nl - from);
        carry = [];
        carried = 0;
        from = nl + 1;
        n++;
        if (line.byteLength > limits.maxBodyBytes) throw lineTooLarge(n, limits);
        if (line.byteLength > 0) yield { bytes: line, n };
      }
      carry.push(value.slice(from));
      carried += value.byteLength - from;
      if (carried > limits.maxBodyBytes) throw lineTooLarge(n + 1, limits);
    }
    if (carried > 0) yield { bytes: concatChunks(carry, carried), n: n + 1 };
  } finally {
    reader.cancel().catch(() => {});
  }
}

const lineTooLarge = (n, limits) => new HttpError(413, 'too_large', `$line[${n}]`, `line ${n} of the run's request body is more than ${limits.maxBodyBytes} bytes (maxBodyBytes)`);
