// Multimodal eval cases and judges that can see them (judge.media), through the built package's
// real fetch against the loopback judge server. The test makes its own media: a 4x4 PNG of one
// colour and a 0.1 s WAV tone. The loopback judge decodes the PNG it receives and calls the
// agent's answer valid only when it names that colour, so a verdict of "valid" proves the image
// reached the judge in the provider's format. With judge.media off, every request is byte for
// byte the one for the same case without its media (ADK's judges read text only).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as ec from '../../pkg/index.js';
import { formatEvalSetResult } from '../../pkg/lib/node/history.js';
import { COLOURS, png, pngColour, wav } from './support/media.mjs';
import { requestMedia, requestText, startJudgeServer, validateRequest } from './support/judge-server.mjs';

const PREFIX = { openai: '/v1', gemini: '/v1beta', anthropic: '/v1' };
const PROVIDERS = ['gemini', 'openai', 'anthropic'];

const RED_PNG = png(COLOURS.red);
const TONE_WAV = wav(100);

const imagePart = (bytes) => ({ inline_data: { mime_type: 'image/png', data: bytes.toString('base64') } });
const audioPart = (bytes) => ({ inline_data: { mime_type: 'audio/wav', data: bytes.toString('base64') } });

/** The multimodal example eval set: an image question, and an audio question. */
function multimodalSet(image = RED_PNG) {
  return {
    eval_set_id: 'multimodal',
    eval_cases: [
      {
        eval_id: 'square_colour',
        conversation: [{
          invocation_id: 'e-1',
          user_content: { role: 'user', parts: [{ text: 'What colour is the square in this picture?' }, imagePart(image)] },
          final_response: { role: 'model', parts: [{ text: 'It is red.' }] },
        }],
      },
      {
        eval_id: 'tone',
        conversation: [{
          invocation_id: 'e-2',
          user_content: { role: 'user', parts: [{ text: 'Is this recording a pure tone?' }, audioPart(TONE_WAV)] },
          final_response: { role: 'model', parts: [{ text: 'Yes, a pure tone.' }] },
        }],
      },
    ],
  };
}

/** The same set with every media part removed (what ADK's judges read). */
function withoutMedia(set) {
  const s = structuredClone(set);
  for (const c of s.eval_cases) for (const t of c.conversation) t.user_content.parts = t.user_content.parts.filter((p) => p.text !== undefined);
  return s;
}

/**
 * An agent that looks at the picture when there is one (red when there is none, so a case without
 * its media gets the same answers); `lie` names another colour.
 */
const agent = (lie = null) => async (turn) => {
  if (!/colour/.test(turn.text)) return 'Yes, a pure tone.';
  const img = turn.userContent.parts.find((p) => p.inline_data?.mime_type === 'image/png');
  return `The square is ${lie ?? (img ? pngColour(Buffer.from(img.inline_data.data, 'base64')) : 'red')}.`;
};

const CONFIG = { criteria: { final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: 1 } } } };

// ---------------------------------------------------------------------------------------------
// The loopback judge that can see

const VERDICT = (valid, why) => JSON.stringify({ reasoning: why, is_the_agent_response_valid: valid ? 'valid' : 'invalid' });

/**
 * Rejects a request its provider would reject (media shapes included); otherwise judges: an
 * image question is valid only when the agent's answer names the colour of the PNG received;
 * any other question is valid when it received audio.
 */
function seeingJudge(rec) {
  const invalid = validateRequest(rec.wire, rec.body, rec.headers);
  if (invalid) return { status: 400, error: invalid, code: 'invalid_request' };
  const text = requestText(rec.wire, rec.body);
  const media = requestMedia(rec.wire, rec.body);
  const answer = /"agent_response": (.*)/.exec(text)?.[1] ?? '';
  if (/colour is the square/.test(text)) {
    const seen = media.map((m) => (m.mime === 'image/png' ? pngColour(m.data) : null)).find(Boolean);
    if (!seen) return VERDICT(false, 'I was shown no picture, so the answer cannot be checked.');
    return VERDICT(answer.includes(seen), `The picture is ${seen}.`);
  }
  const heard = media.some((m) => m.mime === 'audio/wav' && m.data?.subarray(0, 4).toString('latin1') === 'RIFF');
  return VERDICT(heard, heard ? 'I heard the recording.' : 'I was given no recording.');
}

let server;
let work;
before(async () => {
  server = await startJudgeServer();
  work = mkdtempSync(join(tmpdir(), 'evalcore-judge-media-'));
});
after(async () => {
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const judgeFor = (provider, extra = {}) => ({
  provider, model: 'judge-m', baseUrl: `${server.baseUrl}${PREFIX[provider]}`, maxRetries: 0, ...extra,
});

function run(provider, { set = multimodalSet(), lie = null, judge = {} } = {}) {
  server.reset();
  server.script(seeingJudge);
  return ec.evaluate({ evalSet: set, agent: agent(lie), config: CONFIG, judge: judgeFor(provider, judge) });
}

const caseOf = (result, id) => result.eval_case_results.find((c) => c.eval_id === id);
const metricOf = (c) => c.overall_eval_metric_results.find((m) => m.metric_name === 'final_response_match_v2');

describe('judge.media: the judge receives the image and decides by it', () => {
  for (const provider of PROVIDERS) {
    test(`${provider}: a true answer passes and a false one fails, decided by the picture`, async () => {
      const good = await run(provider, { judge: { media: true } });
      const square = metricOf(caseOf(good, 'square_colour'));
      assert.equal(square.eval_status, 'PASSED', JSON.stringify(square.details));
      assert.equal(square.score, 1);
      // The request carried the very PNG the test made, in the provider's shape.
      const req = server.requests.find((r) => /colour is the square/.test(requestText(r.wire, r.body)));
      const media = requestMedia(req.wire, req.body);
      assert.equal(media.length, 1);
      assert.deepEqual(media[0].data, RED_PNG);
      assert.equal(media[0].kind, { gemini: 'inlineData', openai: 'image_url', anthropic: 'image' }[provider]);
      assert.match(requestText(req.wire, req.body), /Attachment 1, from the user prompt: \[inline_data: image\/png, \d+ bytes\]/);

      const bad = await run(provider, { lie: 'blue', judge: { media: true } });
      const wrong = metricOf(caseOf(bad, 'square_colour'));
      assert.equal(wrong.eval_status, 'FAILED');
      assert.equal(wrong.score, 0);
    });
  }

  test('the request shapes: Gemini inlineData, OpenAI data URL / input_audio, Anthropic image block', async () => {
    const shapes = {};
    for (const provider of PROVIDERS) {
      await run(provider, { judge: { media: true } });
      shapes[provider] = server.requests.map((r) => (r.wire === 'gemini' ? r.body.contents[0].parts : r.body.messages[0].content));
    }
    const image = (parts) => parts.find((p) => p.inlineData?.mimeType === 'image/png' || p.type === 'image_url' || p.type === 'image');
    assert.deepEqual(image(shapes.gemini.flat()), { inlineData: { mimeType: 'image/png', data: RED_PNG.toString('base64') } });
    assert.deepEqual(image(shapes.openai.flat()), { type: 'image_url', image_url: { url: `data:image/png;base64,${RED_PNG.toString('base64')}` } });
    assert.deepEqual(image(shapes.anthropic.flat()),
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: RED_PNG.toString('base64') } });
    const audio = shapes.openai.flat().find((p) => p.type === 'input_audio');
    assert.deepEqual(audio, { type: 'input_audio', input_audio: { data: TONE_WAV.toString('base64'), format: 'wav' } });
    assert.deepEqual(shapes.gemini.flat().find((p) => p.inlineData?.mimeType === 'audio/wav'),
      { inlineData: { mimeType: 'audio/wav', data: TONE_WAV.toString('base64') } });
    // The prompt comes first, as text.
    assert.equal(typeof (shapes.openai[0][0].text), 'string');
  });

  test('audio: Gemini and OpenAI hear it; Anthropic cannot take it and says so (NOT_EVALUATED, not sent)', async () => {
    for (const provider of ['gemini', 'openai']) {
      const r = await run(provider, { judge: { media: true } });
      assert.equal(metricOf(caseOf(r, 'tone')).eval_status, 'PASSED', provider);
    }
    const r = await run('anthropic', { judge: { media: true } });
    const tone = metricOf(caseOf(r, 'tone'));
    assert.equal(tone.eval_status, 'NOT_EVALUATED');
    assert.equal(tone.details.reason, 'media_unsupported');
    assert.match(tone.details.error, /attachment 1 \(from the user prompt\) is audio\/wav inline_data, which anthropic judges do not take/);
    assert.equal(server.requests.filter((q) => /pure tone/.test(requestText(q.wire, q.body))).length, 0);
    assert.equal(metricOf(caseOf(r, 'square_colour')).eval_status, 'PASSED');
  });

  test('maxMediaBytes: a call over the budget is NOT_EVALUATED (media_too_large) and not sent', async () => {
    const r = await run('openai', { judge: { media: true, maxMediaBytes: RED_PNG.length - 1 } });
    const m = metricOf(caseOf(r, 'square_colour'));
    assert.equal(m.details.reason, 'media_too_large');
    assert.match(m.details.error, new RegExp(`${RED_PNG.length} bytes inline, over \`judge.maxMediaBytes\` \\(${RED_PNG.length - 1}\\)`));
    assert.equal(server.requests.filter((q) => /colour is the square/.test(requestText(q.wire, q.body))).length, 0);
    await assert.rejects(ec.evaluate({ evalSet: multimodalSet(), agent: agent(), config: CONFIG, judge: judgeFor('openai', { maxMediaBytes: 'big' }) }),
      (e) => e.code === 'schema' && e.path === '$.judge.maxMediaBytes');
  });
});

describe('judge.media off: ADK parity', () => {
  for (const provider of PROVIDERS) {
    test(`${provider}: requests are the text-only ones, byte for byte, and so are the results`, async () => {
      const withMedia = await run(provider);
      const sent = server.requests.map((r) => r.rawBody).sort();
      const plain = await run(provider, { set: withoutMedia(multimodalSet()) });
      const sentPlain = server.requests.map((r) => r.rawBody).sort();
      assert.deepEqual(sent, sentPlain);
      assert.ok(sent.every((b) => !b.includes(RED_PNG.toString('base64').slice(0, 40))));
      const strip = (res) => res.eval_case_results.map((c) => [c.eval_id, c.final_eval_status, c.overall_eval_metric_results.filter((m) => m.eval_status !== 'INFORMATIONAL').map((m) => [m.metric_name, m.eval_status, m.score])]).sort();
      assert.deepEqual(strip(withMedia), strip(plain));
      // A judge that sees nothing cannot confirm the colour: text only, the answer is invalid.
      assert.equal(metricOf(caseOf(withMedia, 'square_colour')).eval_status, 'FAILED');
    });
  }
});

describe('cassettes, results and the detailed output keep the media', () => {
  test('a cassette recorded with media replays offline; one changed pixel is a miss', async () => {
    const path = join(work, 'media.cassette.json');
    const recorded = await run('gemini', { judge: { media: true, cassette: { path, mode: 'record' } } });
    assert.equal(metricOf(caseOf(recorded, 'square_colour')).eval_status, 'PASSED');
    const offline = { provider: 'gemini', model: 'judge-m', media: true, cassette: { path, mode: 'replay' }, fetch: () => { throw new Error('offline'); } };
    const replayed = await ec.evaluate({ evalSet: multimodalSet(), agent: agent(), config: CONFIG, judge: offline });
    assert.equal(metricOf(caseOf(replayed, 'square_colour')).eval_status, 'PASSED');
    const other = png([220, 20, 21]); // one channel off by one
    const missed = await ec.evaluate({ evalSet: multimodalSet(other), agent: async () => 'The square is red.', config: CONFIG, judge: offline });
    assert.equal(metricOf(caseOf(missed, 'square_colour')).details.reason, 'cassette_miss');
  });

  test('the result file keeps the media parts (URL-safe base64, as ADK writes bytes); the detailed output names them', async () => {
    const result = await run('openai', { judge: { media: true } });
    const text = formatEvalSetResult(result);
    const back = JSON.parse(text);
    const parts = back.eval_case_results.find((c) => c.eval_id === 'square_colour')
      .eval_metric_result_per_invocation[0].actual_invocation.user_content.parts;
    const data = parts[1].inline_data.data;
    assert.equal(parts[1].inline_data.mime_type, 'image/png');
    assert.deepEqual(Buffer.from(data, 'base64url'), RED_PNG);
    assert.ok(!/[+/]/.test(data));
    const detailed = ec.formatReport(result.eval_case_results, { detailed: true });
    assert.match(detailed, new RegExp(`prompt: +What colour is the square in this picture\\?\\n +\\[inline_data: image/png, ${RED_PNG.length} bytes\\]\\n`));
    assert.match(detailed, new RegExp(`\\[inline_data: audio/wav, ${TONE_WAV.length} bytes\\]`));
  });
});
