// `evalcore/adk`: a real @google/adk (JS) agent as an evalcore Agent. One ADK session per
// conversation (created on its first turn with the eval case's app name, user id and initial
// state, reused by its later turns), the turn's ADK events in ADK Python's JSON shape, and the
// AppDetails ADK Python records from the model requests. @google/adk is loaded only when the
// first turn runs, and only by this entry: `import "evalcore"` never touches it.
import {
  EvalError, adkEventToJson, agentFailure, abortReason, checkTurn, describe, importPeer, instructionText,
  isPlainObject, toolsToJson,
} from './common.js';

const WHO = 'fromAdkAgent';
// ADK JS brands its classes with global symbols, so these checks hold across copies of the module.
const RUNNER_BRAND = Symbol.for('google.adk.runner');
const APP_BRAND = Symbol.for('google.adk.app');
const CAPTURE_PLUGIN = 'evalcore_request_capture';
// Every agent and workflow is a BaseNode; Apps and Runners carry their own brands.
const ADK_BRANDS = ['google.adk.workflow.baseNode', 'google.adk.baseAgent', 'google.adk.app', 'google.adk.runner'].map((b) => Symbol.for(b));

/** Whether `value` is an @google/adk (2.x) agent, workflow, App or Runner, by ADK's own brands. */
export function isAdkObject(value) {
  return value !== null && typeof value === 'object' && ADK_BRANDS.some((b) => value[b] === true);
}

const loadAdk = (given) => importPeer({
  load: () => import('@google/adk'), name: '@google/adk', given, option: 'adk', who: WHO,
  classes: ['Runner', 'BasePlugin', 'InMemorySessionService'], pass: "fromAdkAgent(agent, { adk: await import('@google/adk') })",
});

// One capture plugin class per ADK module: it must extend that module's BasePlugin.
const captureClasses = new WeakMap();

function captureClass(adk) {
  let cls = captureClasses.get(adk);
  if (cls) return cls;
  /**
   * Records, per session and invocation, the first model request of each agent: its system
   * instruction and tools, which is what ADK Python's request-intercepter plugin keeps for
   * AppDetails. It never changes the request.
   */
  cls = class EvalcoreRequestCapture extends adk.BasePlugin {
    constructor() {
      super(CAPTURE_PLUGIN);
      this.sessions = new Map();
    }

    async beforeModelCallback({ callbackContext, llmRequest }) {
      const key = sessionKey(callbackContext.userId, callbackContext.sessionId);
      let invocations = this.sessions.get(key);
      if (!invocations) this.sessions.set(key, (invocations = new Map()));
      let agents = invocations.get(callbackContext.invocationId);
      if (!agents) invocations.set(callbackContext.invocationId, (agents = new Map()));
      const name = callbackContext.agentName;
      if (!agents.has(name)) {
        const config = (llmRequest && llmRequest.config) || {};
        // Converted now: the request object is ADK's to reuse and change after this call.
        agents.set(name, {
          instructions: instructionText(config.systemInstruction),
          tool_declarations: toolsToJson(config.tools, `${WHO}: the tools of agent ${JSON.stringify(name)}`),
        });
      }
      return undefined;
    }

    // The plugin manager calls this on every plugin; BasePlugin's default (marked experimental)
    // logs a warning on its first call. Ours does the same nothing without the warning.
    async beforeToolSelection() {
      return undefined;
    }

    take(userId, sessionId) {
      const key = sessionKey(userId, sessionId);
      const invocations = this.sessions.get(key) || new Map();
      this.sessions.delete(key);
      return invocations;
    }
  };
  captureClasses.set(adk, cls);
  return cls;
}

const sessionKey = (userId, sessionId) => `${userId}\u0000${sessionId}`;

function ensureCapture(adk, runner) {
  const existing = runner.pluginManager && typeof runner.pluginManager.getPlugin === 'function'
    ? runner.pluginManager.getPlugin(CAPTURE_PLUGIN) : undefined;
  if (existing) return existing;
  const Capture = captureClass(adk);
  const capture = new Capture();
  if (!runner.pluginManager || typeof runner.pluginManager.registerPlugin !== 'function') {
    throw new EvalError('unsupported', '', `${WHO}: the runner has no pluginManager.registerPlugin; pass an @google/adk Runner`);
  }
  runner.pluginManager.registerPlugin(capture);
  return capture;
}

/**
 * ADK Python's rule: for each non-user event of the invocation, in order, the first time an
 * author is seen with a captured model request, record its name, instructions and tools.
 */
function appDetailsOf(events, invocations) {
  const agentDetails = {};
  for (const event of events) {
    const author = event.author;
    if (typeof author !== 'string' || author === 'user' || author in agentDetails) continue;
    const captured = invocations.get(event.invocationId);
    const details = captured && captured.get(author);
    if (details) agentDetails[author] = { name: author, ...details };
  }
  return { agent_details: agentDetails };
}

/**
 * Wraps an @google/adk agent (any root a Runner accepts: LlmAgent, SequentialAgent, a Workflow),
 * an `App`, or a `Runner` as an evalcore `Agent`.
 *
 * - Agent or root node: one Runner per eval-case app name, sharing one InMemorySessionService
 *   (or `options.sessionService`) and in-memory artifact and memory services, as ADK Python's
 *   evaluation does. An `App` runs under its own name and keeps its plugins.
 * - Runner: used as it is (its app name and session service); a small plugin that records the
 *   model requests (for AppDetails) is registered on it once.
 *
 * Sessions: the first turn of a conversation creates `turn.sessionId` with the case's user id and
 * a copy of `turn.state`; later turns reuse the session. A session with that id that exists
 * already and that this adapter did not create (one the caller set up, e.g. for a pinned
 * `session_id` with artifacts) is reused and its state left as it is, as ADK 2.x does; one this
 * adapter created for an earlier conversation is replaced, so every conversation starts from the
 * case's state, as ADK's fresh session per inference does.
 *
 * The reply is `{ events, appDetails }`: every event the runner yielded for the turn (ADK
 * Python's JSON shape, no user event) and ADK's AppDetails for the agents that called a model.
 * A failure inside ADK rejects with an EvalError `agent_error` whose `cause` is ADK's error; an
 * aborted turn rejects with the signal's reason.
 */
export function fromAdkAgent(agentOrRunner, options = {}) {
  if (agentOrRunner === null || (typeof agentOrRunner !== 'object' && typeof agentOrRunner !== 'function')) {
    throw new EvalError('schema', '$', `${WHO}: expected an @google/adk agent, App or Runner, found ${describe(agentOrRunner)}`);
  }
  if (options === null || typeof options !== 'object') {
    throw new EvalError('schema', '$.options', `${WHO}: options must be an object, found ${describe(options)}`);
  }
  const isRunner = agentOrRunner[RUNNER_BRAND] === true;
  const isApp = agentOrRunner[APP_BRAND] === true;
  if (!isRunner && !isApp && typeof agentOrRunner.name !== 'string') {
    throw new EvalError('schema', '$', `${WHO}: expected an @google/adk agent (with a name), App or Runner, found an object without a name`);
  }

  let ready;
  const runners = new Map(); // app name -> { runner, capture }
  const ownSessions = new Set(); // sessions this adapter created: app, user and session id
  let sessionService;

  const setup = async () => {
    const adk = await loadAdk(options.adk);
    sessionService = options.sessionService ?? new adk.InMemorySessionService();
    return adk;
  };

  const runnerFor = (adk, appName) => {
    const key = isRunner || isApp ? '' : appName;
    let entry = runners.get(key);
    if (entry) return entry;
    let runner;
    if (isRunner) {
      runner = agentOrRunner;
    } else {
      const services = {
        sessionService,
        artifactService: options.artifactService
          ?? (typeof adk.InMemoryArtifactService === 'function' ? new adk.InMemoryArtifactService() : undefined),
        memoryService: options.memoryService
          ?? (typeof adk.InMemoryMemoryService === 'function' ? new adk.InMemoryMemoryService() : undefined),
      };
      runner = isApp
        ? new adk.Runner({ app: agentOrRunner, ...services })
        : new adk.Runner({ appName, agent: agentOrRunner, plugins: [...(options.plugins ?? [])], ...services });
    }
    entry = { runner, capture: ensureCapture(adk, runner) };
    runners.set(key, entry);
    return entry;
  };

  return async function adkAgent(turn) {
    checkTurn(turn, WHO, ['sessionId', 'userId', 'appName']);
    if (!isPlainObject(turn.userContent) || !Array.isArray(turn.userContent.parts)) {
      throw new EvalError('schema', '$.userContent', `${WHO}: the turn's userContent must be a Content with parts, found ${describe(turn.userContent)}`);
    }
    if (turn.state !== undefined && turn.state !== null && !isPlainObject(turn.state)) {
      throw new EvalError('schema', '$.state', `${WHO}: the turn's state must be an object, found ${describe(turn.state)}`);
    }
    const signal = turn.signal ?? undefined;
    if (signal && signal.aborted) throw abortReason(signal);
    let state;
    let newMessage;
    try {
      state = structuredClone(turn.state ?? {});
      // ADK sets the role on the message it is given; the turn's content stays the caller's.
      newMessage = structuredClone(turn.userContent);
    } catch (cause) {
      throw new EvalError('schema', '$', `${WHO}: the turn's state and userContent must be plain data (${cause.message})`, { cause });
    }

    let adk;
    try {
      adk = await (ready ??= setup());
    } catch (err) {
      ready = undefined; // a later call may succeed (e.g. after installing the module)
      throw err;
    }
    const { runner, capture } = runnerFor(adk, turn.appName);
    const { userId, sessionId } = turn;
    const appName = runner.appName;
    const service = runner.sessionService;
    const events = [];
    let invocations = new Map();
    try {
      const key = `${appName}\u0000${sessionKey(userId, sessionId)}`;
      let existing = await service.getSession({ appName, userId, sessionId });
      if (existing && turn.turnIndex === 0 && ownSessions.has(key)) {
        // A new conversation under an id this adapter used before (the same case in another
        // evaluate call): start from the case's state, as ADK's fresh session per inference does.
        await service.deleteSession({ appName, userId, sessionId });
        existing = undefined;
      }
      if (!existing) {
        await service.createSession({ appName, userId, sessionId, state });
        ownSessions.add(key);
      }
      const run = runner.runAsync({
        userId,
        sessionId,
        newMessage,
        runConfig: options.runConfig,
        abortSignal: signal,
      });
      for await (const event of run) events.push(event);
    } catch (err) {
      throw agentFailure(err, WHO, turn);
    } finally {
      invocations = capture.take(userId, sessionId);
    }
    // ADK's runner stops quietly when the signal fires; the turn did not finish.
    if (signal && signal.aborted) throw abortReason(signal);
    return {
      events: events.map((e, i) => adkEventToJson(e, `${WHO}: event ${i}`)),
      appDetails: appDetailsOf(events, invocations),
    };
  };
}
