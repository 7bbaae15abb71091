// rouge1Spans: where ROUGE-1's token overlap falls in the two texts (the viewer's highlight),
// computed by the core's tokenizer and stemmer so the marked words agree with rouge1's score.
import { instance } from './instance.js';
import { rouge1Spans as spansOf } from './wasm/main.js';
import { checkTextPair } from './wire.js';

function side(flat, at) {
  const aligned = flat[at] === 1;
  const n = flat[at + 1];
  const spans = new Array(n);
  let p = at + 2;
  for (let i = 0; i < n; i++, p += 4) {
    spans[i] = { start: flat[p], end: flat[p + 1], tokens: flat[p + 2], matched: flat[p + 3] };
  }
  return [{ aligned, spans }, p];
}

/**
 * The words of `candidate` and `reference` that ROUGE-1 tokenizes, as UTF-16 spans
 * `{start, end, tokens, matched}`; `matched` counts the tokens in the overlap, so each side's
 * total is the overlap rouge1 uses. `aligned: false` means one span covers the whole text.
 */
export function rouge1Spans(candidate, reference) {
  instance();
  checkTextPair('rouge1Spans', candidate, reference);
  const flat = spansOf(candidate, reference);
  const [cand, next] = side(flat, 0);
  const [ref] = side(flat, next);
  return { candidate: cand, reference: ref };
}
