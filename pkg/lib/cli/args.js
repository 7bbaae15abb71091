//! Command-line flags: `--name value`, `--name=value`, boolean flags, `--` to end flags (parsed
//! by Node's `util.parseArgs`). Names are ADK's (`--print_detailed_results`); the dashed
//! spelling is accepted too.
import { parseArgs as nodeParseArgs } from 'node:util';
import { UsageError } from '../errors.js';

export { UsageError };

/**
 * Parses `argv` against `flags` (`{ name: 'bool' | 'string' | 'list' | 'int' | 'count' | 'seconds' | [choices] }`: `int`
 * is a whole number >= 1, `count` one >= 0, `seconds` a number >= 0, `list` a string flag that may
 * be repeated, its values collected in order) with Node's
 * `util.parseArgs`; every value is checked here, in one place. Returns `{ positionals, options }`
 * with options under their underscore names; `help` is true when `--help`/`-h` is present.
 * Unknown flags and missing or bad values throw UsageError.
 */
export function parseArgs(argv, flags, command) {
  const spec = { help: { type: 'boolean', short: 'h' } };
  for (const [name, kind] of Object.entries(flags)) {
    const type = kind === 'bool' ? 'boolean' : 'string';
    spec[name] = { type };
    spec[name.replaceAll('_', '-')] = { type };
  }
  const { tokens } = nodeParseArgs({ args: argv, options: spec, strict: false, allowPositionals: true, tokens: true });
  const positionals = [];
  const options = {};
  let help = false;
  const seen = new Set();
  for (const token of tokens) {
    if (token.kind === 'positional') {
      positionals.push(token.value);
      continue;
    }
    if (token.kind !== 'option' || seen.has(token.index)) continue;
    if (!token.rawName.startsWith('--') && token.name !== 'help') {
      // A lone dash word ("-", "-x") is a positional, as it always was here.
      seen.add(token.index);
      positionals.push(argv[token.index]);
      continue;
    }
    if (token.name === 'help') {
      help = true;
      continue;
    }
    const raw = token.rawName.slice(2);
    const name = token.name.replaceAll('-', '_');
    const kind = Object.hasOwn(flags, name) ? flags[name] : undefined;
    if (kind === undefined) throw new UsageError(`unknown option --${raw}`, command);
    if (kind === 'list') options[name] = [...(options[name] ?? []), checkValue('string', raw, token.value, command)];
    else options[name] = checkValue(kind, raw, token.value, command);
  }
  return { positionals, options, help };
}

function checkValue(kind, raw, value, command) {
  if (kind === 'bool') {
    if (value === undefined) return true;
    const v = value.toLowerCase();
    if (!['true', 'false', '1', '0'].includes(v)) throw new UsageError(`--${raw} is a flag; it takes no value (found "${value}")`, command);
    return v === 'true' || v === '1';
  }
  if (value === undefined) throw new UsageError(`--${raw} needs a value`, command);
  if (kind === 'int') {
    if (!/^\s*\d+\s*$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
      throw new UsageError(`--${raw} must be a whole number of at least 1, found "${value}"`, command);
    }
    return Number(value);
  }
  if (kind === 'count') {
    if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(Number(value))) {
      throw new UsageError(`--${raw} must be a whole number of at least 0, found "${value}"`, command);
    }
    return Number(value);
  }
  if (kind === 'seconds') {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n < 0) {
      throw new UsageError(`--${raw} must be a number of seconds (0 or more), found "${value}"`, command);
    }
    return n;
  }
  if (Array.isArray(kind) && !kind.includes(value)) {
    throw new UsageError(`--${raw} must be one of ${kind.join(', ')}, found "${value}"`, command);
  }
  return value;
}
