//! The run loop and the simulated user, natively, through a fake host: the same code the wasm
//! skin drives with JS callbacks, here with in-process agents and a scripted judge.

use evalcore::run::{AgentError, FetchError, Host, HttpCall, HttpReply};
use futures_util::future::LocalBoxFuture;
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;

type AgentFn = Box<dyn Fn(&Value) -> Result<Value, String>>;

/// A host whose agent is a Rust closure over the turn, whose fetch answers from a queue of
/// judge texts (OpenAI wire format), and whose clock ticks 10 ms per reading.
struct Fake {
    agent: AgentFn,
    answers: RefCell<VecDeque<String>>,
    turns: RefCell<Vec<Value>>,
    prompts: RefCell<Vec<String>>,
    events: RefCell<Vec<Value>>,
    clock: Cell<f64>,
}

impl Fake {
    fn new(agent: impl Fn(&Value) -> Result<Value, String> + 'static, answers: &[&str]) -> Rc<Fake> {
        Rc::new(Fake {
            agent: Box::new(agent),
            answers: RefCell::new(answers.iter().map(|s| s.to_string()).collect()),
            turns: RefCell::new(Vec::new()),
            prompts: RefCell::new(Vec::new()),
            events: RefCell::new(Vec::new()),
            clock: Cell::new(1_700_000_000_000.0),
        })
    }
}

impl Host for Fake {
    fn fetch(&self, call: HttpCall) -> LocalBoxFuture<'_, Result<HttpReply, FetchError>> {
        let body: Value = serde_json::from_str(&call.body).unwrap_or(Value::Null);
        let prompt = body["messages"][0]["content"].as_str().unwrap_or_default().to_string();
        self.prompts.borrow_mut().push(prompt);
        let answer = self.answers.borrow_mut().pop_front();
        Box::pin(async move {
            match answer {
                Some(text) => Ok(HttpReply {
                    status: 200,
                    headers: vec![],
                    body: json!({"choices": [{"message": {"content": text}}]}).to_string(),
                }),
                None => Err(FetchError::Network("the script has no more answers".into())),
            }
        })
    }
    fn sleep(&self, _ms: f64) -> LocalBoxFuture<'_, ()> {
        Box::pin(async {})
    }
    fn now_ms(&self) -> f64 {
        self.clock.set(self.clock.get() + 10.0);
        self.clock.get()
    }
    fn random(&self) -> f64 {
        0.5
    }
    fn agent(&self, turn_json: String) -> LocalBoxFuture<'_, Result<String, AgentError>> {
        let turn: Value = serde_json::from_str(&turn_json).unwrap_or(Value::Null);
        self.turns.borrow_mut().push(turn.clone());
        let reply = (self.agent)(&turn);
        match reply {
            // An agent whose promise never settles.
            Err(m) if m == "(pending)" => Box::pin(futures_util::future::pending()),
            Err(m) if m.starts_with("(stack)") => Box::pin(async move {
                Err(AgentError::Failed {
                    message: "the agent threw: Error: boom".into(),
                    stack: Some(m.replace("(stack)", "")),
                })
            }),
            reply => Box::pin(async move { reply.map(|v| v.to_string()).map_err(AgentError::failed) }),
        }
    }
    fn emit(&self, event_json: String) {
        self.events
            .borrow_mut()
            .push(serde_json::from_str(&event_json).unwrap_or(Value::Null));
    }
    fn aborted(&self) -> bool {
        false
    }
}

fn run(fake: &Rc<Fake>, args: Value, judge: Value) -> Value {
    let host: Rc<dyn Host> = fake.clone();
    let judge = if judge.is_null() {
        String::new()
    } else {
        judge.to_string()
    };
    let out = futures_executor::block_on(evalcore::api::evaluate_eval_set(&args.to_string(), &judge, host, None))
        .expect("the run completes");
    serde_json::from_str(&out).expect("the result is JSON")
}

fn turn(q: &str, a: &str) -> Value {
    json!({"user_content": {"role": "user", "parts": [{"text": q}]},
           "final_response": {"role": "model", "parts": [{"text": a}]}})
}

fn by_id(result: &Value) -> std::collections::HashMap<String, Value> {
    result["eval_case_results"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| (r["eval_id"].as_str().unwrap_or_default().to_string(), r.clone()))
        .collect()
}

#[test]
fn static_conversations_run_turn_by_turn_and_one_failure_loses_nothing_else() {
    let set = json!({"eval_set_id": "weather", "eval_cases": [
        {"eval_id": "paris", "conversation": [turn("Weather in Paris?", "Sunny in Paris."), turn("And tomorrow?", "Rain tomorrow.")]},
        {"eval_id": "broken", "conversation": [turn("Hello?", "Hi."), turn("Still there?", "Yes.")]}
    ]});
    let fake = Fake::new(
        |t| {
            let q = t["text"].as_str().unwrap_or_default();
            match q {
                "Weather in Paris?" => Ok(json!("Sunny in Paris.")),
                "And tomorrow?" => Ok(json!({"finalResponse": "Rain tomorrow."})),
                "Still there?" => Err("the model is down".into()),
                _ => Ok(json!("Hi.")),
            }
        },
        &[],
    );
    let out = run(
        &fake,
        json!({"evalSet": set, "config": {"criteria": {"response_match_score": 0.8}}, "concurrency": 1}),
        Value::Null,
    );
    let r = by_id(&out);
    assert_eq!(r["paris"]["final_eval_status"], "PASSED");
    assert_eq!(r["broken"]["final_eval_status"], "FAILED");
    assert_eq!(r["broken"]["error"]["code"], "agent_error");
    assert!(r["broken"]["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .contains("turn 2"));
    // Only the invocation added since the previous turn crosses to the host.
    let turns = fake.turns.borrow();
    let paris: Vec<&Value> = turns.iter().filter(|t| t["evalId"] == "paris").collect();
    assert_eq!(paris.len(), 2);
    assert!(paris[0]["previousInvocation"].is_null());
    assert_eq!(
        paris[1]["previousInvocation"]["final_response"]["parts"][0]["text"],
        "Sunny in Paris."
    );
    assert_eq!(paris[1]["turnIndex"], 1);
    assert_eq!(
        paris[0]["sessionId"], paris[1]["sessionId"],
        "one session per conversation"
    );
    // Every case was streamed as it finished, and progress ended with both counted.
    let events = fake.events.borrow();
    assert_eq!(events.iter().filter(|e| e["type"] == "case_result").count(), 2);
    let last = events
        .iter()
        .rev()
        .find(|e| e["type"] == "progress")
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        (last["phase"].clone(), last["casesDone"].clone()),
        (json!("done"), json!(2))
    );
}

#[test]
fn a_simulated_user_follows_the_plan_until_it_says_it_is_finished() {
    let set = json!({"eval_set_id": "booking", "eval_cases": [{"eval_id": "book", "conversation_scenario": {
        "starting_prompt": "I need a table for two.",
        "conversation_plan": "Ask for a table for two at 8pm; accept any time between 7 and 9."
    }}]});
    let fake = Fake::new(
        |t| {
            Ok(json!(match t["turnIndex"].as_u64() {
                Some(0) => "What time?",
                Some(1) => "Booked for 8pm.",
                _ => "Anything else?",
            }))
        },
        &["At 8pm, please.", "Thanks, that is all. </finished>"],
    );
    let out = run(
        &fake,
        json!({"evalSet": set, "config": {"criteria": {}}}),
        json!({"provider": "openai", "model": "sim", "baseUrl": "http://127.0.0.1:1"}),
    );
    let r = by_id(&out);
    assert_ne!(r["book"]["final_eval_status"], "FAILED", "{}", r["book"]);
    let texts: Vec<String> = fake
        .turns
        .borrow()
        .iter()
        .map(|t| t["text"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(texts, ["I need a table for two.", "At 8pm, please."]);
    // The simulated user saw the plan and the agent's reply before writing its second message.
    let prompts = fake.prompts.borrow();
    assert_eq!(prompts.len(), 2);
    assert!(prompts[0].contains("accept any time between 7 and 9"));
    assert!(prompts[0].contains("What time?"));
    assert!(prompts[1].contains("Booked for 8pm."));
}

#[test]
fn a_simulated_user_whose_judge_fails_fails_only_its_case() {
    let set = json!({"eval_set_id": "s", "eval_cases": [
        {"eval_id": "sim", "conversation_scenario": {"starting_prompt": "Hi", "conversation_plan": "Say hi twice."}},
        {"eval_id": "static", "conversation": [turn("Hi", "Hello!")]}
    ]});
    let fake = Fake::new(|_| Ok(json!("Hello!")), &[]);
    let out = run(
        &fake,
        json!({"evalSet": set, "config": {"criteria": {"response_match_score": 0.5}}}),
        json!({"provider": "openai", "model": "sim", "baseUrl": "http://127.0.0.1:1", "maxRetries": 0}),
    );
    let r = by_id(&out);
    assert_eq!(r["sim"]["final_eval_status"], "FAILED");
    assert_eq!(r["sim"]["error"]["code"], "simulator_error");
    assert_eq!(r["static"]["final_eval_status"], "PASSED");
}

#[test]
fn an_agent_turn_that_never_settles_fails_its_case_at_the_timeout_and_a_throw_keeps_its_stack() {
    let set = json!({"eval_set_id": "hang", "eval_cases": [
        {"eval_id": "slow", "conversation": [turn("Hi", "Hello."), turn("Still there?", "Yes.")]},
        {"eval_id": "throws", "conversation": [turn("Boom", "x")]},
        {"eval_id": "fine", "conversation": [turn("Hi", "Hello.")]}
    ]});
    let agent = |t: &Value| match (t["evalId"].as_str(), t["turnIndex"].as_u64()) {
        (Some("slow"), Some(1)) => Err("(pending)".to_string()),
        (Some("throws"), _) => Err("(stack)Error: boom\n    at agent (agent.mjs:3:9)".to_string()),
        _ => Ok(json!("Hello.")),
    };
    let fake = Fake::new(agent, &[]);
    let args = json!({"evalSet": set, "config": {"criteria": {"response_match_score": 0.5}}, "agentTimeoutMs": 30000});
    let r = by_id(&run(&fake, args, Value::Null));
    assert_eq!(r["slow"]["final_eval_status"], "FAILED");
    assert_eq!(r["slow"]["error"]["code"], "agent_timeout");
    assert_eq!(r["slow"]["error"]["turn"], 2);
    let m = r["slow"]["error"]["message"].as_str().unwrap_or_default();
    assert!(m.starts_with("turn 2: the agent did not answer within 30 s"), "{m}");
    assert_eq!(r["throws"]["error"]["code"], "agent_error");
    assert_eq!(r["throws"]["error"]["turn"], 1);
    assert!(r["throws"]["error"]["stack"]
        .as_str()
        .unwrap_or_default()
        .contains("agent.mjs:3:9"));
    assert_eq!(r["fine"]["final_eval_status"], "PASSED");
    assert!(r["fine"]["error"].is_null());
    // The host is told the turn's timeout, so it can abort the agent's own work.
    assert!(fake.turns.borrow().iter().all(|t| t["timeoutMs"] == 30000.0));
    // Without a timeout the turn carries none.
    let fake = Fake::new(|_| Ok(json!("Hello.")), &[]);
    let set = json!({"eval_set_id": "s", "eval_cases": [{"eval_id": "a", "conversation": [turn("Hi", "Hello.")]}]});
    run(&fake, json!({"evalSet": set}), Value::Null);
    assert!(fake.turns.borrow()[0]["timeoutMs"].is_null());
}

#[test]
fn a_bad_agent_timeout_is_refused_with_its_path() {
    let set = json!({"eval_set_id": "s", "eval_cases": []});
    let host: Rc<dyn Host> = Fake::new(|_| Ok(json!("x")), &[]);
    let args = json!({"evalSet": set, "agentTimeoutMs": -1}).to_string();
    let e = futures_executor::block_on(evalcore::api::evaluate_eval_set(&args, "", host, None)).unwrap_err();
    assert_eq!(e.path, "$.agentTimeoutMs");
}
