// The two tools of ADK's hello_world sample as real @google/adk FunctionTools. roll_die draws
// from a seeded generator whose state lives in the session state (`rng_seed`), so a case's rolls
// are reproducible from its session_input; every roll is also kept in `rolls`, as the sample does.
import { FunctionTool } from '@google/adk';

/** mulberry32: one step from a 32-bit state to `[value in [0, 1), next state]`. */
export function nextRandom(seed) {
  const state = (seed + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return [((t ^ (t >>> 14)) >>> 0) / 4294967296, state];
}

/** The roll a die with `sides` sides gives from `seed`, and the seed after it. */
export function rollFrom(seed, sides) {
  const [value, next] = nextRandom(seed >>> 0);
  return { roll: 1 + Math.floor(value * sides), next };
}

export const rollDie = new FunctionTool({
  name: 'roll_die',
  description: 'Roll a die and return the rolled result.',
  parameters: {
    type: 'OBJECT',
    properties: {
      sides: { type: 'INTEGER', description: 'The integer number of sides the die has.' },
    },
    required: ['sides'],
  },
  execute({ sides }, toolContext) {
    if (!Number.isInteger(sides) || sides < 1) {
      return { error: `sides must be a positive integer, got ${JSON.stringify(sides)}` };
    }
    const seed = Number(toolContext.state.get('rng_seed', 1));
    const { roll, next } = rollFrom(seed, sides);
    toolContext.state.set('rng_seed', next);
    toolContext.state.set('rolls', [...toolContext.state.get('rolls', []), roll]);
    return roll;
  },
});

export function isPrime(n) {
  if (!Number.isInteger(n) || n <= 1) return false;
  for (let i = 2; i * i <= n; i += 1) if (n % i === 0) return false;
  return true;
}

export const checkPrime = new FunctionTool({
  name: 'check_prime',
  description: 'Check if a given list of numbers are prime.',
  parameters: {
    type: 'OBJECT',
    properties: {
      nums: { type: 'ARRAY', items: { type: 'INTEGER' }, description: 'The list of numbers to check.' },
    },
    required: ['nums'],
  },
  execute({ nums }) {
    if (!Array.isArray(nums)) return { error: `nums must be a list of integers, got ${JSON.stringify(nums)}` };
    const primes = [...new Set(nums.map(Number).filter(isPrime))].sort((a, b) => a - b);
    return primes.length === 0 ? 'No prime numbers found.' : `${primes.join(', ')} are prime numbers.`;
  },
});
