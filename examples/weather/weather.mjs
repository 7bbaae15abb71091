// The weather domain the four framework examples share (examples/ai_sdk, openai_agents,
// langgraph, mastra): the tools' code and data, and the policy of their scripted models. Each
// example wraps these in its framework's own tool and model types; the decisions are the same,
// so the four eval sets read alike and what differs is only how each framework records a run.

const STATIONS = {
  Paris: { sky: 'sunny', celsius: 18 },
  Oslo: { sky: 'snowy', celsius: -3 },
  Tokyo: { sky: 'rainy', celsius: 22 },
  Lima: { sky: 'cloudy', celsius: 19 },
};

/** The tool `get_weather(city)`: the sky and the temperature; an unknown city throws. */
export async function getWeather({ city }, { delayMs = 0, signal } = {}) {
  if (delayMs > 0) await sleep(delayMs, signal);
  const station = STATIONS[city];
  if (!station) throw new Error(`no weather station in ${city}`);
  return { city, ...station };
}

/** The tool `convert_temperature(celsius, to)`: Celsius to Fahrenheit ("F") or Kelvin ("K"). */
export function convertTemperature({ celsius, to }) {
  const temperature = to === 'K' ? celsius + 273.15 : Math.round((celsius * 9) / 5 + 32);
  return { temperature, unit: to === 'K' ? 'K' : 'F' };
}

function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason);
    }, { once: true });
  });
}

/** The usage every scripted model call reports: 120 input tokens (20 cached), 30 output (10 of them reasoning). */
export const USAGE = { input: 120, cached: 20, output: 30, reasoning: 10 };

export const INSTRUCTIONS = 'You report the weather. Use get_weather for a city, convert_temperature for other units, '
  + 'and the travel agent for trips and packing.';
export const TRAVEL_INSTRUCTIONS = 'You help travellers pack: look up the weather at the destination, then advise.';

const CITY = /\b(Paris|Oslo|Tokyo|Lima|Atlantis)\b/g;

/**
 * What the weather agent's model does next, given the conversation as plain entries —
 * `{ role: 'user', text }`, `{ role: 'assistant', text?, calls: [{ name, args }] }`,
 * `{ role: 'tool', name, result | error }` — as `{ text?, calls? }`. `handoff` is the name of
 * the framework's way to reach the travel agent (a handoff tool, or a sub-agent as a tool) and
 * `handoffArgs(request)` its arguments.
 */
export function weatherPolicy(history, { handoff, handoffArgs = (request) => ({ request }) }) {
  const lastUser = history.findLastIndex((m) => m.role === 'user');
  const ask = history[lastUser]?.text ?? '';
  const results = history.slice(lastUser + 1).filter((m) => m.role === 'tool');
  const cities = [...ask.matchAll(CITY)].map((m) => m[1]);
  const wantsF = /fahrenheit/i.test(ask);
  if (results.length === 0) {
    if (/^(hi|hello)\b/i.test(ask)) return { text: 'Hello! I can tell you the weather in any city I have a station in.' };
    if (/\b(trip|travel|pack)\b/i.test(ask)) return { calls: [{ name: handoff, args: handoffArgs(ask) }] };
    if (cities.length >= 2) {
      return { text: 'Let me look up both cities.', calls: cities.map((city) => ({ name: 'get_weather', args: { city } })) };
    }
    if (cities.length === 1) return { calls: [{ name: 'get_weather', args: { city: cities[0] } }] };
    if (wantsF) {
      // "And in Fahrenheit?": the city of the conversation's last weather report.
      const last = history.findLast((m) => m.role === 'tool' && m.name === 'get_weather' && m.result);
      if (last) return { calls: [{ name: 'convert_temperature', args: { celsius: last.result.celsius, to: 'F' } }] };
    }
    return { text: 'Which city do you mean?' };
  }
  const failed = results.find((r) => r.error !== undefined);
  if (failed) return { text: `Sorry, I could not get the weather: ${failed.error}.` };
  const reports = results.filter((r) => r.name === 'get_weather').map((r) => r.result);
  const converted = results.find((r) => r.name === 'convert_temperature')?.result;
  if (wantsF && !converted && reports.length === 1) {
    return { calls: [{ name: 'convert_temperature', args: { celsius: reports[0].celsius, to: 'F' } }] };
  }
  if (converted) {
    const last = history.findLast((m) => m.role === 'tool' && m.name === 'get_weather' && m.result)?.result;
    return { text: `It is ${converted.temperature} °F in ${last?.city ?? 'that city'}.` };
  }
  if (reports.length >= 2) return { text: reports.map((r) => `${r.city}: ${r.sky}, ${r.celsius} °C.`).join(' ') };
  if (reports.length === 1) return { text: `It is ${reports[0].sky} and ${reports[0].celsius} °C in ${reports[0].city}.` };
  // Back from the travel agent (a handoff answers itself; a sub-agent tool returns its advice).
  const advice = results.find((r) => r.name === handoff)?.result;
  // (Mastra 1.x gives the model the sub-agent's text itself.)
  return { text: typeof advice === 'string' ? advice : advice?.advice ?? advice?.text ?? 'Have a good trip!' };
}

/** The travel agent's model: the destination's weather first, then what to pack. */
export function travelPolicy(history) {
  const lastUser = history.findLastIndex((m) => m.role === 'user');
  const ask = history.filter((m) => m.role === 'user').map((m) => m.text).join(' ');
  const report = history.slice(lastUser + 1).findLast((m) => m.role === 'tool' && m.name === 'get_weather');
  const city = [...ask.matchAll(CITY)].map((m) => m[1]).at(-1);
  if (!report) return city ? { calls: [{ name: 'get_weather', args: { city } }] } : { text: 'Where are you going?' };
  if (report.error !== undefined) return { text: `I could not check the weather there: ${report.error}.` };
  const w = report.result;
  const pack = w.celsius < 5 ? 'a warm coat and boots' : w.sky === 'rainy' ? 'an umbrella' : 'light clothes and sunglasses';
  return { text: `Pack ${pack} for ${w.city}: it is ${w.sky} and ${w.celsius} °C.` };
}
