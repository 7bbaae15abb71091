//! GitHub Actions' workflow commands, which its runner reads from every line a step prints
//! (stdout and stderr alike): `::name props::message` after leading white space, and the older
//! `##[name]message` anywhere in a line. Our own annotations escaped as GitHub documents, and
//! what keeps data from being read as a command: in a line of console text, in JSON on stdout,
//! and around text that must stay byte for byte (ADK's console report).

/** A command's message: `%`, CR and LF escaped (the runner reads them back). */
export const commandData = (s) => String(s).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/** A command's property value: as a message, and `:` and `,` too. */
export const commandProperty = (s) => commandData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** `::level title=...::message`, one line whatever the title and message hold. */
export function annotation(level, title, message) {
  return `::${level} title=${commandProperty(title)}::${commandData(message)}`;
}

// Control characters (C0 but the tab, DEL, C1) and the Unicode line and paragraph separators.
const CONTROL = /[\u0000-\u0008\u000A-\u001F\u007F-\u009F\u2028\u2029]/g;
const ESCAPES = { '\n': '\\n', '\r': '\\r' };
const visible = (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Data in a line of console text: its control characters written visibly (`\n`, `\r`,
 * `\u001b`), so it stays on its line and moves no cursor; a `::` it starts with and any `##[`
 * written with a `\u003a` / `\u0023`, so the runner reads no command in the line.
 */
export function textLine(s) {
  return String(s).replace(CONTROL, visible).replace(/^(\s*):(?=:)/u, '$1\\u003a').replace(/##\[/g, '#\\u0023[');
}

/**
 * JSON text for output a runner may read: JSON.stringify's, with the `[` of any `##[` written
 * `\u005b` (a `#` is only ever inside a string, so the text reads back the same).
 */
export function jsonText(value, indent = 2) {
  return JSON.stringify(value, null, indent).replace(/##\[/g, '##\\u005b');
}

/** A token no data can guess, to resume workflow commands with. */
function token() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * `text` as a step prints it under GitHub Actions (`env.GITHUB_ACTIONS` is "true"): between
 * `::stop-commands::TOKEN` and `::TOKEN::`, GitHub's way to print text that must not be read as
 * commands (ADK's console report shows prompts and answers as they are, on lines of their own).
 * Elsewhere the text as it is.
 */
export function shielded(text, env) {
  if (env?.GITHUB_ACTIONS !== 'true' || text === '') return text;
  const t = token();
  return `::stop-commands::${t}\n${text}${text.endsWith('\n') ? '' : '\n'}::${t}::\n`;
}
