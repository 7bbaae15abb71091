// The only way the viewer makes DOM: elements with fixed tag names, attributes from a short
// list, and data as text nodes. Nothing here parses markup, so data from files stays data.
const SVG = 'http://www.w3.org/2000/svg';
const ALLOWED = new Set(['class', 'id', 'role', 'title', 'tabindex', 'type', 'value', 'for', 'name', 'min', 'max', 'step',
  'placeholder', 'colspan', 'disabled', 'checked', 'selected', 'multiple', 'accept', 'hidden', 'download', 'href',
  'viewBox', 'width', 'height', 'x', 'y', 'x1', 'x2', 'y1', 'y2', 'rx', 'd', 'transform', 'text-anchor',
  'webkitdirectory', 'spellcheck', 'autocomplete', 'list', 'rows', 'cols', 'open', 'alt']);
/** Image sources the viewer shows: base64 data URLs of raster types only (an SVG could script). */
const IMAGE_SRC = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]*={0,2}$/;

function setAttrs(el, attrs) {
  if (!attrs) return;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') {
      el.addEventListener(k.slice(2), v);
    } else if (k === 'dataset') {
      for (const [dk, dv] of Object.entries(v)) el.dataset[dk] = String(dv);
    } else if (k === 'href') {
      // Only links the viewer made itself: in-page anchors and blob: downloads.
      const s = String(v);
      if (s.startsWith('#') || s.startsWith('blob:')) el.setAttribute('href', s);
    } else if (k === 'src') {
      if (el.tagName === 'IMG' && IMAGE_SRC.test(String(v))) el.setAttribute('src', String(v));
    } else if (k.startsWith('aria-') || ALLOWED.has(k)) {
      el.setAttribute(k, v === true ? '' : String(v));
    } else {
      throw new Error(`dom: attribute ${k} is not on the list`);
    }
  }
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

/** An HTML element: `h('div', {class: 'x'}, 'text', child)`. */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** An SVG element, same rules. */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** Replaces the children of `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Text shown at most `limit` characters at a time, with a button for more (5 MB strings stay cheap). */
export function longText(text, limit = 4000, cls = 'text') {
  const str = String(text);
  const el = h('div', { class: cls });
  if (str.length <= limit) {
    el.textContent = str;
    return el;
  }
  let shown = limit;
  const body = h('span', null, str.slice(0, shown));
  const more = h('button', { type: 'button', class: 'more' });
  const label = () => `… show more (${(str.length - shown).toLocaleString()} more characters)`;
  more.textContent = label();
  more.addEventListener('click', () => {
    shown = Math.min(str.length, shown * 4);
    body.textContent = str.slice(0, shown);
    if (shown >= str.length) more.remove();
    else more.textContent = label();
  });
  append(el, [body, more]);
  return el;
}

/** `YYYY-MM-DD hh:mm:ss UTC` for a unix timestamp in seconds (runs a minute apart stay apart). */
export function when(ts) {
  if (typeof ts !== 'number' || !Number.isFinite(ts)) return '';
  const d = new Date(ts * 1000);
  return Number.isNaN(d.getTime()) ? '' : `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export function fmt(n, digits = 3) {
  if (typeof n !== 'number' || !Number.isFinite(n)) return '–';
  if (Number.isInteger(n)) return n.toLocaleString('en-US');
  return n.toFixed(digits).replace(/0+$/, '').replace(/\.$/, '');
}
