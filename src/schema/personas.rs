//! User personas (ADK's `UserPersona` and its behaviors) and the built-in ones a conversation
//! scenario can name by id (`EXPERT`, `NOVICE`, `EVALUATOR`), described in evalcore's own words. The simulated user and its judge read them,
//! and an eval set file names them as the persona object (ADK writes the object too).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct UserPersona {
    pub id: String,
    pub description: String,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub behaviors: Vec<PersonaBehavior>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "UserBehavior"))]
#[serde(deny_unknown_fields)]
pub struct PersonaBehavior {
    pub name: String,
    pub description: String,
    #[serde(default, alias = "behaviorInstructions")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub behavior_instructions: Vec<String>,
    #[serde(default, alias = "violationRubrics")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub violation_rubrics: Vec<String>,
}

struct Behavior {
    name: &'static str,
    description: &'static str,
    instructions: &'static [&'static str],
    violations: &'static [&'static str],
}

struct Persona {
    id: &'static str,
    description: &'static str,
    behaviors: &'static [&'static Behavior],
}

const FOLLOW_PLAN: Behavior = Behavior {
    name: "Follows the plan",
    description: "Works through the conversation plan one goal at a time and moves on once the agent has done \
                  what was asked.",
    instructions: &[
        "When the agent completes a request, continue with the next goal of the plan.",
        "Do not ask again for something the agent has already done.",
        "Never introduce goals or facts that the plan does not contain.",
    ],
    violations: &[
        "The user message asks again for a goal that the agent already completed.",
        "The user message introduces a goal or a detail (a name, a number, an address) that is not in the plan.",
        "The user message accepts a change of topic that the plan does not call for.",
    ],
};

const FRONT_LOAD: Behavior = Behavior {
    name: "Gives the details up front",
    description: "States a goal together with every detail from the plan that the agent will need for it.",
    instructions: &[
        "With each new goal, give the details the plan holds for it in the same message.",
        "Pursue one goal per message.",
    ],
    violations: &[
        "The user message states a goal without the details the plan provides, so the agent has to ask for them.",
        "The user message pursues more than one goal of the plan at once.",
    ],
};

const RELEVANT_ONLY: Behavior = Behavior {
    name: "Answers only what matters",
    description: "Answers the agent's questions that serve the plan's goals, from the plan's facts only, and \
                  steers back to the plan when the agent drifts.",
    instructions: &[
        "Answer the agent's questions using only information from the plan.",
        "Do not volunteer information the agent did not ask for.",
        "If the plan does not hold the requested information, say so instead of inventing it.",
        "Ignore questions unrelated to the plan's goals and bring the conversation back to them.",
    ],
    violations: &["The user message answers a question that has nothing to do with the plan's goals."],
};

const ANSWER_ALL: Behavior = Behavior {
    name: "Answers every question",
    description: "Answers every question the agent asks as well as the plan allows, because the agent is the \
                  one who knows what is needed.",
    instructions: &[
        "Answer each question of the agent, using only information from the plan.",
        "If the plan does not hold the requested information, say that you do not know.",
    ],
    violations: &["The user message leaves a question of the agent unanswered."],
};

const CORRECTS: Behavior = Behavior {
    name: "Corrects mistakes",
    description: "Points out when the agent gets a fact from the plan wrong or acts on a wrong assumption.",
    instructions: &[
        "If the agent states or uses something that contradicts the plan, say so and give the right information.",
    ],
    violations: &["The agent made a mistake or an assumption and the user message lets it pass."],
};

const NO_CORRECTIONS: Behavior = Behavior {
    name: "Does not correct the agent",
    description: "Takes the agent's statements at face value: it cannot tell when the agent is wrong.",
    instructions: &["Do not point out the agent's mistakes; respond to what the agent says as if it were right."],
    violations: &["The user message corrects a mistake or an assumption of the agent."],
};

const TROUBLESHOOTS_ONCE: Behavior = Behavior {
    name: "Troubleshoots at most once",
    description: "When the agent fails, helps it with one attempt to troubleshoot, then ends the conversation.",
    instructions: &[
        "If the agent reports a failure, try one reasonable troubleshooting step with it.",
        "If the agent fails again, end the conversation with the stop signal.",
    ],
    violations: &[
        "The user message keeps troubleshooting after a first attempt failed.",
        "The user message gives up without trying to troubleshoot once.",
    ],
};

const NO_TROUBLESHOOTING: Behavior = Behavior {
    name: "Cannot troubleshoot",
    description: "Does not know how to help when the agent fails and ends the conversation instead.",
    instructions: &["If the agent reports a failure, end the conversation with the stop signal."],
    violations: &["The user message tries to troubleshoot a failure of the agent."],
};

const BRIEF_TONE: Behavior = Behavior {
    name: "Brief and professional",
    description: "Writes short, matter-of-fact messages without small talk.",
    instructions: &[
        "Keep each message short and to the point.",
        "Skip greetings, thanks and small talk beyond what politeness needs.",
    ],
    violations: &[
        "The user message contains small talk or pleasantries that do not serve the goal.",
        "The user message is much longer than the request needs.",
    ],
};

const CASUAL_TONE: Behavior = Behavior {
    name: "Casual and natural",
    description: "Sounds like a person chatting: informal, with natural framing around requests. Writing the \
                  stop signal is fine.",
    instructions: &[
        "Write the way a person talks in a casual conversation.",
        "Avoid stiff, overly formal or overly polite wording.",
        "Frame requests naturally instead of issuing bare commands.",
    ],
    violations: &[
        "The user message is a bare command with no conversational framing.",
        "The user message is stiff or overly formal.",
        "The user message is a long block of text where a sentence would do.",
        "The user message changes tone from the user's earlier messages.",
    ],
};

const BUILTIN: [Persona; 3] = [
    Persona {
        id: "EXPERT",
        description: "Knows precisely what they want and uses the agent as a tool to get it done quickly. \
                      Has no patience for chit-chat or needless questions.",
        behaviors: &[
            &FOLLOW_PLAN,
            &FRONT_LOAD,
            &RELEVANT_ONLY,
            &CORRECTS,
            &TROUBLESHOOTS_ONCE,
            &BRIEF_TONE,
        ],
    },
    Persona {
        id: "NOVICE",
        description: "Does not fully understand the problem and counts on the agent to lead the way. Answers \
                      patiently and cannot tell when the agent is wrong.",
        behaviors: &[
            &FOLLOW_PLAN,
            &ANSWER_ALL,
            &NO_CORRECTIONS,
            &NO_TROUBLESHOOTING,
            &CASUAL_TONE,
        ],
    },
    Persona {
        id: "EVALUATOR",
        description: "Tests whether the agent can reach the goals of the plan, without helping it beyond what \
                      the plan says.",
        behaviors: &[
            &FOLLOW_PLAN,
            &RELEVANT_ONLY,
            &NO_CORRECTIONS,
            &NO_TROUBLESHOOTING,
            &CASUAL_TONE,
        ],
    },
];

/// The ids a scenario's `user_persona` may give instead of a persona object.
pub const BUILTIN_PERSONAS: [&str; 3] = ["EXPERT", "NOVICE", "EVALUATOR"];

/// The built-in persona with this id.
pub fn builtin(id: &str) -> Option<UserPersona> {
    let p = BUILTIN.iter().find(|p| p.id == id)?;
    let strings = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect();
    Some(UserPersona {
        id: p.id.to_string(),
        description: p.description.to_string(),
        behaviors: p
            .behaviors
            .iter()
            .map(|b| PersonaBehavior {
                name: b.name.to_string(),
                description: b.description.to_string(),
                behavior_instructions: strings(b.instructions),
                violation_rubrics: strings(b.violations),
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_id_has_a_persona() {
        for id in BUILTIN_PERSONAS {
            let p = builtin(id).unwrap();
            assert_eq!(p.id, id);
            assert!(p.behaviors.len() >= 4, "{id}");
        }
        assert_eq!(BUILTIN.len(), BUILTIN_PERSONAS.len());
        assert!(builtin("PIRATE").is_none());
    }
}
