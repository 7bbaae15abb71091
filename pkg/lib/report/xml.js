//! Text for XML 1.0 documents (the JUnit reports): escaped for element text and attributes,
//! and the characters XML cannot carry at all written visibly. Line breaks are references, so a
//! text from data never starts a line of the document (or of stdout, where a CI runner reads
//! workflow commands), and `##[` (the runner's older command form, read anywhere in a line) has
//! its `[` written as one.

// XML 1.0 cannot carry these at all, not even as character references: written as `\uXXXX`.
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const visible = (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

export function escapeXmlText(s) {
  return String(s).replace(XML_INVALID, visible).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    .replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/##\[/g, '##&#91;');
}

export function escapeXmlAttr(s) {
  return escapeXmlText(s).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\t/g, '&#9;');
}
