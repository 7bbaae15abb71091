// The one error class of the package: what the core reports as `{code, path, message}`. Its
// codes are the core's vocabulary (error_codes.js, generated from src/error/codes.rs): the core
// serialises a closed enum, and the JS raises no other (tests/js/error-codes.test.mjs checks).
// The list is not imported here: every page that loads the package would fetch one more module
// for a check the Rust type already makes.

/**
 * Thrown for every input the core rejects. `code` is a stable string (`"invalid_json"`,
 * `"schema"`, `"duplicate_id"`, ...), `path` the JSON path of the offending value (`""` when
 * none applies) and `message` says what was expected and what was found.
 */
export class EvalError extends Error {
  constructor(code, path, message, options) {
    super(message, options);
    this.code = code;
    this.path = path ?? '';
  }

  /** `JSON.stringify(err)` gives the same `{code, path, message}` the core produced. */
  toJSON() {
    return { code: this.code, path: this.path, message: this.message };
  }
}
Object.defineProperty(EvalError.prototype, 'name', {
  value: 'EvalError', writable: true, configurable: true, enumerable: false,
});

/** Builds an EvalError from the core's wire form `{code, path, message}`. */
export function fromWire(e) {
  if (e === null || typeof e !== 'object') {
    return new EvalError('internal', '', `evalcore: malformed error from the core: ${String(e)}`);
  }
  return new EvalError(String(e.code ?? 'internal'), String(e.path ?? ''), String(e.message ?? ''));
}

/**
 * A mistake in how a command or a test named its inputs (a missing file, a bad flag): the CLI
 * prints it as one line and exits with code 2.
 */
export class UsageError extends Error {
  constructor(message, command) {
    super(message);
    this.command = command;
  }
}
Object.defineProperty(UsageError.prototype, 'name', { value: 'UsageError', configurable: true, writable: true });
