//! `evalcore migrate OLD.test.json NEW.evalset.json [--initial_session_file F]`: ADK's
//! `AgentEvaluator.migrate_eval_data_to_new_schema` (SPEC §5.1) with deterministic ids.
import { existsSync, writeFileSync } from 'node:fs';
import { EvalError } from '../../index.js';
import { adkEvalSetText } from '../adk_text.js';
import { withPersonasExpanded } from './personas.js';
import { parseArgs, UsageError } from './args.js';
import { readEvalSetFile, readSessionFile } from './evalsets.js';

export const HELP = `Usage: evalcore migrate OLD_FILE NEW_FILE [--initial_session_file FILE]

Converts legacy eval data (a *.test.json turn list or a named list) to an eval set in ADK's
current schema, written in full (every field, nulls included) as ADK's migration writes it.
The set id and the case id come from OLD_FILE's name (ADK uses random UUIDs).

  --initial_session_file FILE   the cases' initial session: {"app_name", "user_id", "state"}
`;

/**
 * Migrates `oldPath` to `newPath` and returns the eval set. A file already in the current
 * schema is written as it is, and then takes no initial session (as in ADK).
 */
export function migrateFile(oldPath, newPath, initialSessionFile) {
  if (!oldPath || !newPath) throw new EvalError('schema', '', 'one of the old or new eval data file paths is empty');
  const sessionInput = initialSessionFile ? readSessionFile(initialSessionFile) : undefined;
  const { evalSet, legacy } = readEvalSetFile(oldPath, { sessionInput });
  if (!legacy && sessionInput !== undefined) {
    throw new EvalError('schema', '', `${oldPath} is already an eval set: its initial session belongs in the file, not in --initial_session_file`);
  }
  writeFileSync(newPath, adkEvalSetText(withPersonasExpanded(evalSet)));
  return evalSet;
}

/** Runs `evalcore migrate`; returns the exit code. */
export function runMigrate(argv, io) {
  const command = 'migrate';
  const { positionals, options, help } = parseArgs(argv, { initial_session_file: 'string' }, command);
  if (help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (positionals.length !== 2) throw new UsageError('expected OLD_FILE NEW_FILE', command);
  const [oldPath, newPath] = positionals;
  if (!existsSync(oldPath)) throw new UsageError(`file not found: ${oldPath}`, command);
  if (options.initial_session_file !== undefined && !existsSync(options.initial_session_file)) {
    throw new UsageError(`initial session file not found: ${options.initial_session_file}`, command);
  }
  const evalSet = migrateFile(oldPath, newPath, options.initial_session_file);
  io.stdout.write(`Migrated ${oldPath} to ${newPath}: eval set '${evalSet.eval_set_id}' with ${evalSet.eval_cases.length} eval case(s).\n`);
  return 0;
}
