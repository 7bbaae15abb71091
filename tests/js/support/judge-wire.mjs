// The three judge wire formats the test server speaks, pure: which provider a path belongs to,
// what a provider would reject, the text a request carries, and success, error and streaming
// bodies in each provider's shape. judge-server.mjs does the HTTP.
//
//   openai     POST {base}/chat/completions
//   gemini     POST {base}/models/{model}:generateContent   (and :streamGenerateContent[?alt=sse])
//   anthropic  POST {base}/messages

let counter = 0;
const nextId = (prefix) => `${prefix}${(++counter).toString(36).padStart(6, '0')}`;
const tokens = (text) => Math.max(1, Math.ceil(text.length / 4));

/** `{ wire, model?, stream? }` for a request path, or null when no provider serves it. */
export function wireOf(pathname) {
  if (/\/chat\/completions$/.test(pathname)) return { wire: 'openai' };
  const g = /\/models\/([^/]+):(generateContent|streamGenerateContent)$/.exec(pathname);
  if (g) return { wire: 'gemini', model: decodeURIComponent(g[1]), stream: g[2] === 'streamGenerateContent' };
  if (/\/messages$/.test(pathname)) return { wire: 'anthropic' };
  return null;
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

function contentText(content) {
  if (typeof content === 'string') return [content];
  if (Array.isArray(content)) return content.filter((p) => isObject(p) && typeof p.text === 'string').map((p) => p.text);
  return [];
}

/**
 * The request text `T` of the routing rule: every message's (content's) text in order, joined
 * with "\n"; an array content contributes the `text` of each part. A system prompt given
 * outside the messages (Gemini `systemInstruction`, Anthropic `system`) comes first, as an
 * OpenAI system message would.
 */
export function requestText(wire, body) {
  const texts = [];
  if (wire === 'openai') {
    for (const m of body.messages ?? []) texts.push(...contentText(m?.content));
  } else if (wire === 'gemini') {
    const sys = body.systemInstruction ?? body.system_instruction;
    if (isObject(sys)) texts.push(...contentText(sys.parts));
    for (const c of body.contents ?? []) texts.push(...contentText(c?.parts));
  } else if (wire === 'anthropic') {
    texts.push(...contentText(body.system));
    for (const m of body.messages ?? []) texts.push(...contentText(m?.content));
  }
  return texts.join('\n');
}

/** How many answers a request asks for (`n`, `candidateCount`; Anthropic has no such field). */
export function requestedCount(wire, body) {
  const n = wire === 'openai' ? body.n
    : wire === 'gemini' ? (body.generationConfig ?? body.generation_config)?.candidateCount
      : undefined;
  return Number.isInteger(n) && n > 0 ? n : 1;
}

/** Whether the reply is a stream (OpenAI/Anthropic `stream: true`, Gemini's stream method). */
export function wantsStream(info, body) {
  return info.wire === 'gemini' ? info.stream === true : body.stream === true;
}

const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const OPENAI_IMAGES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];
const ANTHROPIC_IMAGES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
const isHttp = (u) => typeof u === 'string' && /^https?:\/\//i.test(u);

/** Why a provider would reject one content part / block (media included), or null. */
function partProblem(wire, p, at) {
  if (!isObject(p)) return `${at} must be an object`;
  if (wire === 'gemini') {
    const kinds = ['text', 'inlineData', 'inline_data', 'fileData', 'file_data'].filter((k) => p[k] !== undefined);
    if (kinds.length !== 1) return `${at} must hold exactly one of text, inlineData, fileData (found ${kinds.join(', ') || 'none'})`;
    const inline = p.inlineData ?? p.inline_data;
    const file = p.fileData ?? p.file_data;
    if (kinds[0] === 'text') return typeof p.text === 'string' ? null : `${at}.text must be a string`;
    if (inline !== undefined) {
      if (!isObject(inline) || typeof (inline.mimeType ?? inline.mime_type) !== 'string') return `${at}.inlineData.mimeType is required`;
      return typeof inline.data === 'string' && STANDARD_BASE64.test(inline.data) ? null : `${at}.inlineData.data must be base64`;
    }
    if (!isObject(file) || typeof (file.fileUri ?? file.file_uri) !== 'string') return `${at}.fileData.fileUri is required`;
    return null;
  }
  if (wire === 'openai') {
    if (p.type === 'text') return typeof p.text === 'string' ? null : `${at}.text must be a string`;
    if (p.type === 'image_url') {
      const url = p.image_url?.url;
      if (isHttp(url)) return null;
      const m = typeof url === 'string' ? /^data:([^;,]+);base64,(.*)$/s.exec(url) : null;
      if (!m) return `${at}.image_url.url must be an http(s) URL or a base64 data URL`;
      if (!OPENAI_IMAGES.includes(m[1])) return `${at}: image type ${m[1]} is not supported`;
      return STANDARD_BASE64.test(m[2]) ? null : `${at}.image_url.url: the data is not base64`;
    }
    if (p.type === 'input_audio') {
      const a = p.input_audio;
      if (!isObject(a) || !['wav', 'mp3'].includes(a.format)) return `${at}.input_audio.format must be wav or mp3`;
      return typeof a.data === 'string' && STANDARD_BASE64.test(a.data) ? null : `${at}.input_audio.data must be base64 (no data: prefix)`;
    }
    if (p.type === 'file') {
      const f = p.file;
      const m = typeof f?.file_data === 'string' ? /^data:application\/pdf;base64,(.*)$/s.exec(f.file_data) : null;
      if (!m || typeof f.filename !== 'string') return `${at}.file needs filename and a PDF data URL in file_data`;
      return STANDARD_BASE64.test(m[1]) ? null : `${at}.file.file_data: the data is not base64`;
    }
    return `${at}.type ${JSON.stringify(p.type)} is not a content part type`;
  }
  if (p.type === 'text') return typeof p.text === 'string' ? null : `${at}.text must be a string`;
  if (p.type === 'image' || p.type === 'document') {
    const src = p.source;
    if (!isObject(src)) return `${at}.source is required`;
    if (src.type === 'url') return isHttp(src.url) ? null : `${at}.source.url must be a URL`;
    if (src.type !== 'base64') return `${at}.source.type must be base64 or url`;
    const types = p.type === 'image' ? ANTHROPIC_IMAGES : ['application/pdf'];
    if (!types.includes(src.media_type)) return `${at}.source.media_type ${JSON.stringify(src.media_type)} is not one of ${types.join(', ')}`;
    return typeof src.data === 'string' && STANDARD_BASE64.test(src.data) ? null : `${at}.source.data must be base64`;
  }
  return `${at}.type ${JSON.stringify(p.type)} is not a content block type`;
}

/**
 * The media a request carries, in order: `{ kind, mime, data }` (a Buffer) for inline bytes,
 * `{ kind, mime, uri }` for URIs. `kind` names the provider's part type.
 */
export function requestMedia(wire, body) {
  const out = [];
  const dataUrl = (u) => /^data:([^;,]+);base64,(.*)$/s.exec(u ?? '');
  const lists = wire === 'gemini' ? (body.contents ?? []).map((c) => c?.parts) : (body.messages ?? []).map((m) => m?.content);
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const p of list) {
      if (!isObject(p)) continue;
      const inline = p.inlineData ?? p.inline_data;
      const file = p.fileData ?? p.file_data;
      if (inline) out.push({ kind: 'inlineData', mime: inline.mimeType ?? inline.mime_type, data: Buffer.from(inline.data, 'base64') });
      else if (file) out.push({ kind: 'fileData', mime: file.mimeType ?? file.mime_type, uri: file.fileUri ?? file.file_uri });
      else if (p.type === 'image_url') {
        const m = dataUrl(p.image_url?.url);
        out.push(m ? { kind: 'image_url', mime: m[1], data: Buffer.from(m[2], 'base64') } : { kind: 'image_url', uri: p.image_url?.url });
      } else if (p.type === 'input_audio') {
        out.push({ kind: 'input_audio', mime: `audio/${p.input_audio.format}`, data: Buffer.from(p.input_audio.data, 'base64') });
      } else if (p.type === 'file') {
        const m = dataUrl(p.file?.file_data);
        out.push({ kind: 'file', mime: m?.[1], data: m ? Buffer.from(m[2], 'base64') : null });
      } else if (p.type === 'image' || p.type === 'document') {
        const src = p.source ?? {};
        out.push(src.type === 'base64'
          ? { kind: p.type, mime: src.media_type, data: Buffer.from(src.data, 'base64') }
          : { kind: p.type, uri: src.url });
      }
    }
  }
  return out;
}

/** Why the provider would reject this request before looking at it (400), or null. */
export function validateRequest(wire, body, headers) {
  if (!isObject(body)) return 'the body is not a JSON object';
  const messagesOk = (list, roles, field) => {
    if (!Array.isArray(list) || list.length === 0) return `\`${field}\` must be a non-empty array`;
    for (const [i, m] of list.entries()) {
      if (!isObject(m)) return `${field}[${i}] must be an object`;
      if (!roles.includes(m.role)) return `${field}[${i}].role must be one of ${roles.join(', ')}, got ${JSON.stringify(m.role)}`;
    }
    return null;
  };
  if (wire === 'openai') {
    if (typeof body.model !== 'string' || body.model === '') return '`model` is required';
    const bad = messagesOk(body.messages, ['system', 'developer', 'user', 'assistant', 'tool'], 'messages');
    if (bad) return bad;
    for (const [i, m] of body.messages.entries()) {
      if (typeof m.content !== 'string' && !Array.isArray(m.content)) return `messages[${i}].content must be a string or an array of parts`;
      for (const [j, p] of (Array.isArray(m.content) ? m.content : []).entries()) {
        const bad = partProblem(wire, p, `messages[${i}].content[${j}]`);
        if (bad) return bad;
      }
    }
    if (body.n !== undefined && !(Number.isInteger(body.n) && body.n >= 1)) return '`n` must be a positive integer';
    return null;
  }
  if (wire === 'gemini') {
    const bad = messagesOk(body.contents, ['user', 'model'], 'contents');
    if (bad) return bad;
    for (const [i, c] of body.contents.entries()) {
      if (!Array.isArray(c.parts) || c.parts.length === 0) return `contents[${i}].parts must be a non-empty array`;
      for (const [j, p] of c.parts.entries()) {
        const bad = partProblem(wire, p, `contents[${i}].parts[${j}]`);
        if (bad) return bad;
      }
    }
    return null;
  }
  if (wire === 'anthropic') {
    if (!headers['anthropic-version']) return 'the anthropic-version header is required';
    if (typeof body.model !== 'string' || body.model === '') return '`model` is required';
    if (!(Number.isInteger(body.max_tokens) && body.max_tokens >= 1)) return '`max_tokens` is required (a positive integer)';
    const bad = messagesOk(body.messages, ['user', 'assistant'], 'messages');
    if (bad) return bad;
    for (const [i, m] of body.messages.entries()) {
      if (typeof m.content !== 'string' && !Array.isArray(m.content)) return `messages[${i}].content must be a string or an array of blocks`;
      for (const [j, p] of (Array.isArray(m.content) ? m.content : []).entries()) {
        const bad = partProblem(wire, p, `messages[${i}].content[${j}]`);
        if (bad) return bad;
      }
    }
    if (body.system !== undefined && typeof body.system !== 'string' && !Array.isArray(body.system)) return '`system` must be a string or an array of blocks';
    return null;
  }
  return `unknown wire format ${wire}`;
}

/** The successful reply carrying `texts` (one per choice / candidate). */
export function successBody(wire, { model, texts, promptText = '' }) {
  const prompt = tokens(promptText);
  const completion = texts.reduce((s, t) => s + tokens(t), 0);
  if (wire === 'openai') {
    return {
      id: nextId('chatcmpl-'),
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: texts.map((content, index) => ({ index, message: { role: 'assistant', content }, finish_reason: 'stop' })),
      usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    };
  }
  if (wire === 'gemini') {
    return {
      candidates: texts.map((text, index) => ({ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index })),
      usageMetadata: { promptTokenCount: prompt, candidatesTokenCount: completion, totalTokenCount: prompt + completion },
      modelVersion: model,
    };
  }
  return {
    id: nextId('msg_'),
    type: 'message',
    role: 'assistant',
    model,
    content: texts.map((text) => ({ type: 'text', text })),
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: prompt, output_tokens: completion },
  };
}

/** A 200 reply with nothing in it: no choices / candidates / content blocks. */
export function emptyBody(wire, model) {
  if (wire === 'openai') return { ...successBody(wire, { model, texts: [] }), choices: [] };
  if (wire === 'gemini') return { candidates: [], usageMetadata: { promptTokenCount: 1, totalTokenCount: 1 }, modelVersion: model };
  return { ...successBody(wire, { model, texts: [] }), content: [] };
}

const GOOGLE_STATUS = {
  400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND',
  408: 'DEADLINE_EXCEEDED', 409: 'ABORTED', 429: 'RESOURCE_EXHAUSTED', 499: 'CANCELLED',
  500: 'INTERNAL', 501: 'NOT_IMPLEMENTED', 502: 'UNAVAILABLE', 503: 'UNAVAILABLE', 504: 'DEADLINE_EXCEEDED',
};
const ANTHROPIC_TYPE = {
  400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error',
  408: 'timeout_error', 413: 'request_too_large', 429: 'rate_limit_error', 500: 'api_error', 502: 'api_error',
  503: 'overloaded_error', 504: 'timeout_error', 529: 'overloaded_error',
};
const OPENAI_TYPE = {
  400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error',
  408: 'timeout', 429: 'rate_limit_exceeded', 500: 'server_error', 502: 'server_error', 503: 'server_error', 504: 'server_error',
};

/** A provider's error body for an HTTP status. `code` goes where the provider has a code field. */
export function errorBody(wire, status, message, code) {
  if (wire === 'gemini') {
    return { error: { code: status, message, status: GOOGLE_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION') } };
  }
  if (wire === 'anthropic') {
    return { type: 'error', error: { type: ANTHROPIC_TYPE[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'), message } };
  }
  return {
    error: {
      message,
      type: OPENAI_TYPE[status] ?? (status >= 500 ? 'server_error' : 'invalid_request_error'),
      param: null,
      code: code ?? null,
    },
  };
}

const halves = (text) => {
  const cut = Math.ceil(text.length / 2);
  return cut > 0 && cut < text.length ? [text.slice(0, cut), text.slice(cut)] : [text];
};
const sse = (data, event) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

/**
 * The streamed form of a success reply: `{ contentType, body }`. Each text is sent in two
 * pieces, so a client that keeps only the last chunk loses the first half.
 */
export function streamBody(wire, { model, texts, promptText = '', sseMode = true }) {
  const whole = successBody(wire, { model, texts, promptText });
  if (wire === 'openai') {
    const base = { id: whole.id, object: 'chat.completion.chunk', created: whole.created, model };
    let out = '';
    texts.forEach((text, index) => {
      halves(text).forEach((piece, k) => {
        const delta = k === 0 ? { role: 'assistant', content: piece } : { content: piece };
        out += sse({ ...base, choices: [{ index, delta, finish_reason: null }] });
      });
      out += sse({ ...base, choices: [{ index, delta: {}, finish_reason: 'stop' }] });
    });
    out += sse({ ...base, choices: [], usage: whole.usage });
    return { contentType: 'text/event-stream', body: `${out}data: [DONE]\n\n` };
  }
  if (wire === 'gemini') {
    const chunks = [];
    const pieces = texts.map(halves);
    const rounds = Math.max(1, ...pieces.map((p) => p.length));
    for (let r = 0; r < rounds; r++) {
      const last = r === rounds - 1;
      chunks.push({
        candidates: pieces.map((p, index) => ({
          content: { role: 'model', parts: [{ text: p[r] ?? '' }] },
          ...(last ? { finishReason: 'STOP' } : {}),
          index,
        })),
        ...(last ? { usageMetadata: whole.usageMetadata } : {}),
        modelVersion: model,
      });
    }
    if (!sseMode) return { contentType: 'application/json', body: JSON.stringify(chunks) };
    return { contentType: 'text/event-stream', body: chunks.map((c) => sse(c)).join('') };
  }
  let out = sse({ type: 'message_start', message: { ...whole, content: [], stop_reason: null, usage: { input_tokens: whole.usage.input_tokens, output_tokens: 1 } } }, 'message_start');
  texts.forEach((text, index) => {
    out += sse({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start');
    for (const piece of halves(text)) {
      out += sse({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }, 'content_block_delta');
    }
    out += sse({ type: 'content_block_stop', index }, 'content_block_stop');
  });
  out += sse({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: whole.usage.output_tokens } }, 'message_delta');
  out += sse({ type: 'message_stop' }, 'message_stop');
  return { contentType: 'text/event-stream', body: out };
}
