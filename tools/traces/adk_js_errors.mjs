// adk_js.mjs's `errors` scenario: an @google/adk agent whose tools throw. charge_card's error is
// answered by a plugin's onToolErrorCallback (its object is the tool's response); lookup_order's
// by nothing, so ADK JS answers the call with `{error: "Error in tool 'lookup_order': ..."}` and
// the run goes on; order_status works, called beside a throwing lookup_order. A scripted model
// answers each turn from a list, in order.

const MODEL_VERSION = 'scripted-errors-001';

const call = (name, args) => ({ functionCall: { name, args } });
const say = (text) => ({ text });

// Each turn's model answers, in order.
const SCRIPT = {
  'Charge 25 EUR to my card.': [[call('charge_card', { amount: 25, currency: 'EUR' })], [say('Your card was declined.')]],
  'Where is my order ORD-7?': [[say('Let me look.'), call('lookup_order', { order_id: 'ORD-7' })], [say('The order service is down.')]],
  'Check ORD-1 and find ORD-2.': [
    [call('order_status', { order_id: 'ORD-1' }), call('lookup_order', { order_id: 'ORD-2' })],
    [say('ORD-1 has shipped; ORD-2 could not be found.')],
  ],
};

const textOf = (c) => (c.parts ?? []).map((p) => p.text ?? '').join('');

export function scenario(adk) {
  const steps = new Map();
  class ScriptedErrorsModel extends adk.BaseLlm {
    constructor() {
      super({ model: 'scripted-errors' });
    }

    async *generateContentAsync(request) {
      const turn = [...(request.contents ?? [])].reverse().find((c) => c.role === 'user' && Object.hasOwn(SCRIPT, textOf(c)));
      const key = turn ? textOf(turn) : '';
      const step = steps.get(key) ?? 0;
      steps.set(key, step + 1);
      const answers = SCRIPT[key] ?? [[say('I do not know that one.')]];
      yield {
        content: { role: 'model', parts: structuredClone(answers[Math.min(step, answers.length - 1)]) },
        modelVersion: MODEL_VERSION,
        usageMetadata: { promptTokenCount: 50 + step, candidatesTokenCount: 5 + step, totalTokenCount: 55 + 2 * step },
      };
    }

    async connect() {
      throw new Error('no live mode');
    }
  }

  const tool = (name, description, properties, execute) => new adk.FunctionTool({
    name, description, parameters: { type: 'OBJECT', properties, required: Object.keys(properties) }, execute,
  });
  const chargeCard = tool('charge_card', "Charges the user's card.", { amount: { type: 'NUMBER' }, currency: { type: 'STRING' } }, ({ amount, currency }) => {
    throw new Error(`card declined for ${amount} ${currency}`);
  });
  const lookupOrder = tool('lookup_order', 'Looks an order up.', { order_id: { type: 'STRING' } }, ({ order_id: id }) => {
    throw new Error(`order service unavailable for ${id}`);
  });
  const orderStatus = tool('order_status', "An order's status.", { order_id: { type: 'STRING' } }, ({ order_id: id }) => ({ order_id: id, status: 'shipped' }));

  class CardErrors extends adk.BasePlugin {
    constructor() {
      super('card_errors');
    }

    async onToolErrorCallback({ tool: t, error }) {
      return t.name === 'charge_card' ? { error: `declined: ${error.message}` } : undefined;
    }
  }

  const agent = new adk.LlmAgent({
    name: 'shop_agent',
    description: 'Charges cards and finds orders.',
    model: new ScriptedErrorsModel(),
    instruction: 'You charge cards with charge_card and find orders with lookup_order and order_status.',
    tools: [chargeCard, lookupOrder, orderStatus],
  });
  return { agent, turns: Object.keys(SCRIPT), plugins: [new CardErrors()] };
}
