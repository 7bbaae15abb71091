// A local stand-in for Gemini: an @google/adk BaseLlm that reads the request ADK built (the
// conversation so far, the tool declarations) and decides deterministically what a sensible
// model would do next: call roll_die or check_prime, or answer from the tool results. No
// network. It reports usage metadata and a model version like a real model, so ADK's token and
// inference-count metrics have something to count.
import { BaseLlm } from '@google/adk';

export const MODEL_VERSION = 'scripted-hello-world-001';

const textOf = (content) => (content.parts ?? []).filter((p) => typeof p.text === 'string').map((p) => p.text).join('\n');

/** Rough token count (4 characters a token), deterministic. */
const tokens = (value) => Math.ceil(JSON.stringify(value ?? '').length / 4);

const ROLL = /\broll\s+(?:a|an|one)?\s*(\d+)[\s-]*sided\s+(?:die|dice)\b|\broll\s+a\s+d(\d+)\b/i;
const NUMBERS_PRIME = /\b(?:is|are|check(?:\s+(?:if|whether))?)\s+((?:\d+(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s+))*\d+)\s+(?:(?:is|are)\s+)?(?:a\s+)?(?:prime|primes)\b/i;
const RESULT_PRIME = /\b(?:the\s+result|it|that(?:\s+number)?|the\s+roll)\s+(?:is\s+)?(?:a\s+)?prime\b|\bis\s+(?:the\s+result|it|that|the\s+roll)\s+(?:a\s+)?prime\b/i;
const GREETING = /\b(?:hi|hello|hey|who are you)\b/i;

export class ScriptedModel extends BaseLlm {
  constructor({ model = 'scripted-hello-world' } = {}) {
    super({ model });
  }

  async *generateContentAsync(llmRequest) {
    const contents = llmRequest.contents ?? [];
    const content = decide(contents, Object.keys(llmRequest.toolsDict ?? {}));
    yield {
      content,
      modelVersion: MODEL_VERSION,
      usageMetadata: {
        promptTokenCount: tokens(contents) + tokens(llmRequest.config?.systemInstruction),
        candidatesTokenCount: tokens(content),
        totalTokenCount: tokens(contents) + tokens(llmRequest.config?.systemInstruction) + tokens(content),
      },
    };
  }

  async connect() {
    throw new Error('ScriptedModel has no live (bidirectional) mode');
  }
}

const call = (name, args) => ({ role: 'model', parts: [{ functionCall: { name, args } }] });
const say = (text) => ({ role: 'model', parts: [{ text }] });

/**
 * The index of the latest content holding the user's own text: not a tool result, and not the
 * "For context:" notes ADK writes for another agent's calls before handing over to a sub-agent.
 */
function lastUserTurn(contents) {
  for (let i = contents.length - 1; i >= 0; i -= 1) {
    const c = contents[i];
    const text = c.role === 'user' ? textOf(c).trim() : '';
    if (text !== '' && !text.startsWith('For context:')) return i;
  }
  return -1;
}

/** Function responses by name, in order, from `contents[from..]`. */
function responses(contents, from, name) {
  const out = [];
  for (const c of contents.slice(from)) {
    for (const p of c.parts ?? []) if (p.functionResponse && p.functionResponse.name === name) out.push(p.functionResponse);
  }
  return out;
}

/** "an 8", "an 11", "an 18", else "a 5". */
const article = (n) => (/^(8|11|18)(\d{3})*$/.test(String(n)) || /^8/.test(String(n)) ? 'an' : 'a');

const parseNumbers = (text) => (text.match(/\d+/g) ?? []).map(Number);

function primeSentence(nums, resultText) {
  const primes = new Set(/no prime/i.test(resultText) ? [] : parseNumbers(resultText));
  if (nums.length === 1) {
    return primes.has(nums[0]) ? `${nums[0]} is a prime number.` : `${nums[0]} is not a prime number.`;
  }
  const found = nums.filter((n) => primes.has(n));
  return found.length === 0
    ? `None of ${nums.join(', ')} is a prime number.`
    : `Of ${nums.join(', ')}, the prime numbers are ${found.join(', ')}.`;
}

function decide(contents, tools) {
  const userAt = lastUserTurn(contents);
  const request = userAt >= 0 ? textOf(contents[userAt]) : '';
  const last = contents[contents.length - 1];
  const lastResponse = (last?.parts ?? []).map((p) => p.functionResponse).filter(Boolean).pop();

  if (lastResponse) {
    // Continue this turn from the tool result just received.
    const rolls = responses(contents, userAt + 1, 'roll_die').map((r) => r.response?.result);
    if (lastResponse.name === 'roll_die') {
      const roll = lastResponse.response?.result;
      if (!Number.isInteger(roll)) return say(`The die could not be rolled: ${JSON.stringify(lastResponse.response)}.`);
      if (RESULT_PRIME.test(request) && tools.includes('check_prime')) return call('check_prime', { nums: [roll] });
      return say(`I rolled ${article(roll)} ${roll} for you.`);
    }
    if (lastResponse.name === 'check_prime') {
      const asked = callArgs(contents, lastResponse)?.nums ?? [];
      const sentence = primeSentence(asked, String(lastResponse.response?.result ?? ''));
      if (rolls.length === 0) return say(sentence);
      const roll = rolls[rolls.length - 1];
      return say(`I rolled ${article(roll)} ${roll}. ${sentence}`);
    }
    return say(`I received a result from ${lastResponse.name} that I cannot use.`);
  }

  const roll = ROLL.exec(request);
  if (roll && tools.includes('roll_die')) return call('roll_die', { sides: Number(roll[1] ?? roll[2]) });
  const listed = NUMBERS_PRIME.exec(request);
  if (listed && tools.includes('check_prime')) return call('check_prime', { nums: parseNumbers(listed[1]) });
  if (RESULT_PRIME.test(request) && tools.includes('check_prime')) {
    // "Is the result prime?" refers to the last roll of the conversation.
    const earlier = responses(contents, 0, 'roll_die').map((r) => r.response?.result).filter(Number.isInteger);
    if (earlier.length === 0) return say('I have not rolled a die in this conversation yet.');
    return call('check_prime', { nums: [earlier[earlier.length - 1]] });
  }
  if (GREETING.test(request)) {
    return say('I am hello_world_agent. I can roll dice of any size and check whether numbers are prime.');
  }
  return say('I can roll dice and check whether numbers are prime. What would you like me to do?');
}

/**
 * The args of the call a function response answers: by id, else the latest call of that name
 * (ADK may strip its own `adk-` call ids from the contents it sends to a model).
 */
function callArgs(contents, response) {
  let latest;
  for (const c of contents) {
    for (const p of c.parts ?? []) {
      if (!p.functionCall) continue;
      if (response.id && p.functionCall.id === response.id) return p.functionCall.args;
      if (p.functionCall.name === response.name) latest = p.functionCall.args;
    }
  }
  return latest;
}
