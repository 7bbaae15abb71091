//! Command-line flags: `--name value`, `--name=value`, boolean flags, `--` to end flags.
//! Names are ADK's (`--print_detailed_results`); the dashed spelling is accepted too.

/** A mistake in how the command was called: printed as one line, exit code 2. */
export class UsageError extends Error {
  constructor(message, command) {
    super(message);
    this.command = command;
  }
}
Object.defineProperty(UsageError.prototype, 'name', { value: 'UsageError', configurable: true, writable: true });

/**
 * Parses `argv` against `flags` (`{ name: 'bool' | 'string' | 'int' }`). Returns
 * `{ positionals, options }` with options under their underscore names; `help` is true when
 * `--help`/`-h` is present. Unknown flags and missing values throw UsageError.
 */
export function parseArgs(argv, flags, command) {
  const positionals = [];
  const options = {};
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const raw = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const name = raw.replaceAll('-', '_');
    const kind = Object.hasOwn(flags, name) ? flags[name] : undefined;
    if (kind === undefined) throw new UsageError(`unknown option --${raw}`, command);
    if (kind === 'bool') {
      if (eq !== -1) {
        const v = arg.slice(eq + 1).toLowerCase();
        if (!['true', 'false', '1', '0'].includes(v)) throw new UsageError(`--${raw} is a flag; it takes no value (found "${arg.slice(eq + 1)}")`, command);
        options[name] = v === 'true' || v === '1';
      } else options[name] = true;
      continue;
    }
    let value;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      if (i + 1 >= argv.length) throw new UsageError(`--${raw} needs a value`, command);
      value = argv[++i];
    }
    if (kind === 'int') {
      if (!/^\s*\d+\s*$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
        throw new UsageError(`--${raw} must be a whole number of at least 1, found "${value}"`, command);
      }
      value = Number(value);
    } else if (Array.isArray(kind) && !kind.includes(value)) {
      throw new UsageError(`--${raw} must be one of ${kind.join(', ')}, found "${value}"`, command);
    }
    options[name] = value;
  }
  return { positionals, options, help };
}
