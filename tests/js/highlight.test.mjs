// rouge1Spans: the viewer's ROUGE-1 highlight agrees with rouge1's score.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rouge1, rouge1Spans, EvalError } from '../../pkg/index.js';

const sum = (side, key) => side.spans.reduce((a, s) => a + s[key], 0);

test('rouge1Spans: matched words are the stemmed overlap, and the totals give the score', () => {
  const pairs = [
    ['The cats are running quickly!', 'A cat runs, quickly.'],
    ['yes yes yes', 'yes no'],
    ['東京は晴れです', '東京は雨です'],
    ['I ❤️ NY 😀 café', 'i ny cafe café'],
    ['', 'anything'],
  ];
  for (const [c, r] of pairs) {
    const { candidate, reference } = rouge1Spans(c, r);
    const score = rouge1(c, r);
    const ct = sum(candidate, 'tokens');
    const rt = sum(reference, 'tokens');
    assert.equal(sum(candidate, 'matched'), sum(reference, 'matched'), `${c} / ${r}`);
    assert.equal(sum(candidate, 'matched') / Math.max(ct, 1), score.precision, `${c} / ${r}`);
    assert.equal(sum(reference, 'matched') / Math.max(rt, 1), score.recall, `${c} / ${r}`);
  }
  const text = 'The cats are running quickly!';
  const { candidate } = rouge1Spans(text, 'A cat runs, quickly.');
  assert.deepEqual(candidate.spans.map((s) => [text.slice(s.start, s.end), s.matched]),
    [['The', 0], ['cats', 1], ['are', 0], ['running', 1], ['quickly', 1]]);
});

test('rouge1Spans: offsets are UTF-16 units', () => {
  const text = '😀 東京 café';
  const { candidate } = rouge1Spans(text, '東 café');
  assert.equal(candidate.aligned, true);
  assert.deepEqual(candidate.spans.map((s) => text.slice(s.start, s.end)), ['東', '京', 'café']);
});

test('rouge1Spans: non-strings are EvalError schema', () => {
  assert.throws(() => rouge1Spans(1, 'a'), (e) => e instanceof EvalError && e.code === 'schema');
  assert.throws(() => rouge1Spans('a', null), (e) => e instanceof EvalError && e.code === 'schema');
});
