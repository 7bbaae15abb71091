//! `evalcore traces import FILE... --out SET.evalset.json`: recorded sessions as eval cases (ADK's
//! dev UI "add session", from traces), written as ADK writes an eval set, numbers exactly as
//! recorded; added to the set when the file exists.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { EVAL_SET_FILE_SUFFIX, validateNewEvalSetId } from '../store/adk_layout.js';
import { tracesToEvalSet } from '../wasm/traces.js';
import { loadTraceFiles, namingFile, readTraceFile } from '../node/trace_files.js';
import { readRegularFile } from '../node/files.js';
import { parseArgs, UsageError } from './args.js';

export const HELP = `Usage: evalcore traces import FILE... --out SET.evalset.json [--session ID]... [--eval_set_id ID]

Makes each recorded session of the traces an eval case whose conversation is what the session
did (ADK's dev UI "add session"): the case's eval_id is the session id, its turns the user's
messages, the final responses, tool calls with their arguments, tool responses and intermediate
responses, as ADK derives them from a session's events.

FILE              OpenTelemetry traces: OTLP/JSON (an exporter's request body), JSON lines (the
                  collector's file exporter), OTLP protobuf, each possibly gzipped. Give the log
                  records beside the spans when content went to logs.
Options:
  --out FILE      the eval set to write; when it exists, the sessions are added to it (a session
                  whose id is already a case's is skipped)
  --session ID    only this session (repeat for more)
  --eval_set_id ID  the new set's id (default: FILE's name without .evalset.json; it must match
                  ^[a-zA-Z0-9_]+$)
  -h, --help      this help

What a trace did not record (content capture off, a missing thought flag) is a warning on
stderr naming the setting that records it. Exit status: 0 when the set was written, 1 when the
traces hold no session (or none of those named), 2 for usage errors and unreadable files.
`;

const COMMAND = 'traces import';
const TOO_MANY = 20;

/** The warnings of an import, as lines for stderr (the first few, then how many more). */
export function warningLines(warnings) {
  const lines = warnings.slice(0, TOO_MANY).map((w) => `warning: ${w.code}${w.path ? ` at ${w.path}` : ''}: ${w.message}`);
  if (warnings.length > TOO_MANY) lines.push(`warning: ... and ${warnings.length - TOO_MANY} more`);
  return lines;
}

/** The id of the set to make: --eval_set_id, else the file's name. */
function setIdFor(out, given) {
  const name = basename(out);
  const id = given ?? (name.toLowerCase().endsWith(EVAL_SET_FILE_SUFFIX) ? name.slice(0, -EVAL_SET_FILE_SUFFIX.length) : name.replace(/\.json$/i, ''));
  try {
    return validateNewEvalSetId(id);
  } catch (e) {
    throw new UsageError(`${e.message}${given === undefined ? ' (from --out\'s file name; give --eval_set_id)' : ''}`, COMMAND);
  }
}

function runImport(argv, io) {
  const { positionals, options, help } = parseArgs(argv, { out: 'string', session: 'list', eval_set_id: 'string' }, COMMAND);
  if (help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError('missing FILE: give one or more trace files', COMMAND);
  if (options.out === undefined) throw new UsageError('missing --out SET.evalset.json', COMMAND);
  const out = resolve(options.out);
  const exists = existsSync(out);
  const opts = { text: true };
  if (exists) opts.addTo = new TextDecoder().decode(readRegularFile(out, 'eval set file'));
  if (options.eval_set_id !== undefined || !exists) opts.evalSetId = setIdFor(out, options.eval_set_id);
  if (options.session !== undefined) opts.sessionIds = options.session;
  const inputs = positionals.map(readTraceFile);
  const made = namingFile(positionals, () => tracesToEvalSet(inputs, opts));
  for (const line of warningLines(made.warnings)) io.stderr.write(`${line}\n`);
  const setId = made.evalSet.eval_set_id;
  const { added, skipped } = made;
  if (options.session !== undefined) {
    const found = new Set([...added, ...skipped]);
    const absent = options.session.filter((id) => !found.has(id));
    if (absent.length > 0) {
      const have = loadTraceFiles(positionals).sessions.map((s) => s.session_id);
      io.stderr.write(`evalcore ${COMMAND}: no session ${absent.map((a) => JSON.stringify(a)).join(', ')} in the traces (sessions: ${have.slice(0, 20).join(', ') || 'none'}${have.length > 20 ? ', ...' : ''})\n`);
      return 1;
    }
  }
  for (const id of skipped) io.stdout.write(`Eval case '${id}' already exists in eval set '${setId}', skipped adding.\n`);
  if (added.length === 0 && skipped.length === 0) {
    io.stderr.write(`evalcore ${COMMAND}: the traces hold no session (no invocation, agent or model span); nothing was written\n`);
    return 1;
  }
  for (const id of added) io.stdout.write(`Eval case '${id}' added to eval set '${setId}'.\n`);
  if (added.length > 0 || !exists) {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, made.text);
    io.stderr.write(`wrote ${out}\n`);
  }
  return 0;
}

/** Runs `evalcore traces <subcommand>`; returns the exit code. */
export async function runTraces(argv, io) {
  const [sub, ...rest] = argv;
  if (sub === undefined) {
    io.stderr.write(HELP);
    return 2;
  }
  if (sub === '--help' || sub === '-h') {
    io.stdout.write(HELP);
    return 0;
  }
  if (sub === 'import') return runImport(rest, io);
  throw new UsageError(`unknown traces command "${sub}" (expected import)`, 'traces');
}
