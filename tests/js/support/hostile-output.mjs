// What a report's output becomes where it is read: Markdown rendered by a real CommonMark + GFM
// renderer (micromark with its GFM extension, from .tools/, as scripts/tools/package.json pins
// it; raw HTML passed through, as GitHub's renderer passes it to its sanitiser), and the
// workflow commands GitHub's runner would read from a step's output, read as its
// ActionCommandManager reads them. Not a test file itself.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers.mjs';

/**
 * Data that tries everything: line breaks of every kind, workflow commands in both forms, a
 * forged heading, an image, links and autolinks, raw HTML, a closing tag, table pipes, backtick
 * runs, emphasis, entities, math, a footnote, a trailing backslash.
 */
export const HOSTILE = 'e\r::error::forged CR\n### Verdict: PASSED\r\n::stop-commands::x ![i](https://e.test/x.png) [l](https://e.test) '
  + '<img src=x onerror=1> </code></td></tr> a | b ` `` ``` ~~s~~ **b** _i_ &amp; &#60;b&#62; www.e.test https://e.test/p '
  + 'a@e.test :+1: $x$ [^1] ##[error]legacy \\';

/** HOSTILE as one line of a table or a heading shows it: each line break a space. */
export const HOSTILE_LINE = HOSTILE.replace(/\r\n|\r|\n/g, ' ');

const TOOLS = join(ROOT, '.tools', 'node_modules');

/** Why Markdown cannot be rendered here (the renderer is not installed), or null. */
export const noRenderer = existsSync(join(TOOLS, 'micromark-extension-gfm', 'package.json'))
  ? null : 'micromark is not in .tools/ (bash scripts/setup.sh installs it)';

/** Markdown as HTML, with GitHub's extensions (tables, autolink literals, strikethrough, ...). */
export async function renderGfm(md) {
  const { micromark } = await import(pathToFileURL(join(TOOLS, 'micromark', 'index.js')).href);
  const { gfm, gfmHtml } = await import(pathToFileURL(join(TOOLS, 'micromark-extension-gfm', 'index.js')).href);
  return micromark(md, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
}

const ENTITY = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** The text of an HTML fragment: tags dropped, references decoded. */
export const htmlText = (html) => html.replace(/<[^>]*>/g, '').replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e) => {
  if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
  return ENTITY[e] ?? m;
});

/** The element names of rendered HTML, in order. */
export const elements = (html) => [...html.matchAll(/<([a-zA-Z][\w-]*)/g)].map((m) => m[1].toLowerCase());

/** Every table of rendered HTML as rows of cell texts. */
export function tables(html) {
  return [...html.matchAll(/<table>([\s\S]*?)<\/table>/g)].map((t) => [...t[1].matchAll(/<tr>([\s\S]*?)<\/tr>/g)]
    .map((r) => [...r[1].matchAll(/<t[hd](?: [^>]*)?>([\s\S]*?)<\/t[hd]>/g)].map((c) => htmlText(c[1]))));
}

/**
 * The workflow commands GitHub's runner reads from a step's output, as its ActionCommandManager
 * does: lines end at CR, LF or CR LF; `::name props::data` after leading white space, else
 * `##[name props]data` anywhere in the line; any name counts (a superset of the registered
 * ones); after `stop-commands` only its token resumes. `[{ name, props, data }]`, the
 * stop-commands lines included.
 */
export function workflowCommands(output) {
  const found = [];
  let stopToken = null;
  for (const line of output.split(/\r\n|\r|\n/)) {
    const cmd = parseCommand(line);
    if (cmd === null) continue;
    if (stopToken !== null) {
      if (cmd.name.toLowerCase() === stopToken.toLowerCase()) stopToken = null;
      continue;
    }
    found.push(cmd);
    if (cmd.name === 'stop-commands') stopToken = cmd.data;
  }
  return found;
}

function parseCommand(line) {
  const t = line.trimStart();
  if (t.startsWith('::')) {
    const end = t.indexOf('::', 2);
    if (end >= 0) {
      const [name, ...rest] = t.slice(2, end).split(' ');
      if (name !== '') return { name, props: properties(rest.join(' '), ','), data: unescape(t.slice(end + 2)) };
    }
  }
  const at = line.indexOf('##[');
  if (at >= 0) {
    const close = line.indexOf(']', at);
    if (close >= 0) {
      const [name, ...rest] = line.slice(at + 3, close).split(' ');
      if (name !== '') return { name, props: properties(rest.join(' '), ';'), data: line.slice(close + 1) };
    }
  }
  return null;
}

function properties(text, sep) {
  const props = Object.create(null);
  for (const p of text.trim().split(sep).filter(Boolean)) {
    const eq = p.indexOf('=');
    if (eq > 0) props[p.slice(0, eq)] = unescape(p.slice(eq + 1));
  }
  return props;
}

const unescape = (s) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');
