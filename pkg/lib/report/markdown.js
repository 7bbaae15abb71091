//! Text from results in GitHub-flavoured Markdown (the pull-request comments): data is shown as
//! the characters it holds, never as markup (a link, an image, HTML, a heading, a table cell's
//! end, a code span's end), and always on one line of the comment, so nothing from data starts
//! a line (of the comment, or of stdout where a CI job reads workflow commands). No function
//! here writes a backtick span: one cannot escape what it holds.

// CommonMark's line endings: a bare CR ends a line as LF does.
const LINE_BREAK = /\r\n|\r|\n/g;

// What is syntax in GFM text that starts no line: escapes and code (`\\` `` ` ``), emphasis and
// strikethrough (`*` `~`, and `_` but between letters or digits, where it never is), links,
// images and footnotes (`[` `]`), HTML and autolinks (`<` `>`), entities (`&`), cells (`|`), a
// heading's closing `#`s, math (`$`), and the autolink literals (`@` of an address, `:` of
// `https://`, the `.` of `www.`).
const SYNTAX = /[\\`*~[\]<>&|#$@]|_(?![A-Za-z0-9])|(?<![A-Za-z0-9])_|:(?=\/)|(?<=www)\./gi;

/**
 * Data in Markdown text: a paragraph, a heading, a table cell. What would be syntax is
 * backslash-escaped (CommonMark lets any ASCII punctuation be), and line breaks are spaces.
 */
export function mdText(s) {
  return String(s).replace(LINE_BREAK, ' ').replace(SYNTAX, '\\$&');
}

/**
 * Data as code: a `<code>` element around the data as Markdown text (a backtick span cannot
 * escape anything inside, so `##[` would reach stdout as it is, and `|` would still end a cell).
 */
export function mdCode(s) {
  return `<code>${mdText(s)}</code>`;
}

// HTML's special characters as references; `##[` (a workflow command anywhere in a line of
// output, in the runner's older form) broken by writing its `[` as one.
const html = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
  .replace(/##\[/g, '##&#91;');

/**
 * Data inside raw HTML on one line (a `<summary>`): Markdown is not read there, so the HTML
 * characters are written as references, and line breaks are spaces.
 */
export function mdHtml(s) {
  return html(String(s).replace(/\s*(?:\r\n|\r|\n)\s*/g, ' '));
}

/**
 * Preformatted data (a case's explanation) as one `<pre>` line: its line breaks written as
 * `&#10;` (a `<pre>` shows them as breaks), so the block can neither end early nor start a line
 * with data; nothing inside is Markdown or HTML.
 */
export function mdPre(s) {
  return `<pre>${html(String(s).replace(/\r\n?/g, '\n')).replace(/\n/g, '&#10;')}</pre>`;
}
