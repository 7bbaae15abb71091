// The agent under test: one user turn in, the agent's reply out. Replace the body with a call
// to your own agent; keep the reply's shape: the final text and the tools it called.
import { fromFunction } from 'evalcore/adapters';

const FORECASTS = { paris: 'sunny, 24°C', oslo: 'rainy, 9°C' };

function getWeather({ city }) {
  return { forecast: FORECASTS[city.toLowerCase()] ?? 'unknown' };
}

export const agent = fromFunction(async (text) => {
  const city = /weather in (\w+)/i.exec(text)?.[1];
  if (!city) return 'I can tell you the weather in a city. Which one?';
  const args = { city };
  const response = getWeather(args);
  return {
    text: `The weather in ${city} is ${response.forecast}.`,
    toolCalls: [{ name: 'get_weather', args, response }],
  };
});
