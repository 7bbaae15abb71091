//! Spans as trees: parent links, which spans start an invocation, what each span is (a model
//! call, a tool execution), and the time a set of spans covers.

use super::model::{attr_str, Span};
use std::collections::HashMap;

/// Parent links over a batch's spans. Cycles and dangling parents are tolerated: a span whose
/// parent is not in the batch is a root, and a link that would close a cycle is dropped (the span
/// it leaves becomes a root), so every walk up ends. What walks would otherwise repeat (a span's
/// depth, its nearest agent) is worked out once, parents first: loading a chain of spans is
/// linear in its length, not quadratic.
pub struct Tree<'b, 'a> {
    pub spans: &'b [Span<'a>],
    parent: Vec<Option<usize>>,
    children: Vec<Vec<usize>>,
    /// Every span, each after its parent.
    order: Vec<usize>,
    depth: Vec<usize>,
    /// The nearest `gen_ai.agent.name`: the span's own, else its nearest ancestor's.
    agent: Vec<Option<&'b str>>,
}

/// `parent` with every link that closes a cycle dropped (the span of the cycle a walk up from
/// the spans in input order meets first becomes a root).
fn without_cycles(mut parent: Vec<Option<usize>>) -> Vec<Option<usize>> {
    // 0: not seen, 1: on the walk under way, 2: its walk up ends.
    let mut state = vec![0u8; parent.len()];
    let mut walk = Vec::new();
    for i in 0..parent.len() {
        let mut at = i;
        while state.get(at) == Some(&0) {
            if let Some(s) = state.get_mut(at) {
                *s = 1;
            }
            walk.push(at);
            match parent.get(at).copied().flatten() {
                // The walk came round to `p`: the cycle's first span met becomes its root.
                Some(p) if state.get(p) == Some(&1) => {
                    if let Some(link) = parent.get_mut(p) {
                        *link = None;
                    }
                    break;
                }
                Some(p) => at = p,
                None => break,
            }
        }
        for w in walk.drain(..) {
            if let Some(s) = state.get_mut(w) {
                *s = 2;
            }
        }
    }
    parent
}

impl<'b, 'a> Tree<'b, 'a> {
    pub fn new(spans: &'b [Span<'a>]) -> Self {
        let by_id: HashMap<(u128, u64), usize> = spans
            .iter()
            .enumerate()
            .map(|(i, s)| ((s.trace_id, s.span_id), i))
            .collect();
        let parent = without_cycles(
            spans
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    by_id
                        .get(&(s.trace_id, s.parent))
                        .copied()
                        .filter(|p| s.parent != 0 && *p != i)
                })
                .collect(),
        );
        let mut children = vec![Vec::new(); spans.len()];
        for (i, p) in parent.iter().enumerate() {
            if let Some(c) = p.and_then(|p| children.get_mut(p)) {
                c.push(i);
            }
        }
        // Roots first, then each level below (acyclic now: every span is reached once).
        let mut order: Vec<usize> = (0..spans.len()).filter(|&i| parent.get(i) == Some(&None)).collect();
        let mut k = 0;
        while let Some(&i) = order.get(k) {
            order.extend(children.get(i).into_iter().flatten().copied());
            k += 1;
        }
        let mut tree = Tree {
            spans,
            parent,
            children,
            order,
            depth: Vec::new(),
            agent: Vec::new(),
        };
        tree.depth = tree.down(|_, p| p.map_or(0, |(_, d)| d + 1));
        tree.agent = tree.down(|i, p| {
            spans
                .get(i)
                .and_then(|s| attr_str(&s.attrs, "gen_ai.agent.name"))
                .or_else(|| p.and_then(|(_, a)| a))
        });
        tree
    }

    pub fn span(&self, i: usize) -> Option<&'b Span<'a>> {
        self.spans.get(i)
    }

    /// A value for every span worked out from its parent's, parents first: `f(i, Some((parent,
    /// the parent's value)))`, or `f(i, None)` for a root.
    pub fn down<T: Copy + Default>(&self, f: impl Fn(usize, Option<(usize, T)>) -> T) -> Vec<T> {
        let mut out = vec![T::default(); self.spans.len()];
        for &i in &self.order {
            let up = self
                .parent
                .get(i)
                .copied()
                .flatten()
                .and_then(|p| out.get(p).map(|v| (p, *v)));
            if let Some(v) = out.get_mut(i) {
                *v = f(i, up);
            }
        }
        out
    }

    /// The parent of `i`.
    pub fn parent(&self, i: usize) -> Option<usize> {
        self.parent.get(i).copied().flatten()
    }

    /// The ancestors of `i`, nearest first.
    pub fn ancestors(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let mut at = i;
        (0..self.spans.len()).map_while(move |_| {
            at = self.parent(at)?;
            Some(at)
        })
    }

    /// The agent span `i` ran in: its own `gen_ai.agent.name`, else its nearest ancestor's.
    pub fn agent_of(&self, i: usize) -> Option<&'b str> {
        self.agent.get(i).copied().flatten()
    }

    /// `root` and everything below it, each once, sorted by start time (then input order).
    pub fn subtree(&self, root: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![root];
        while let Some(i) = stack.pop() {
            if i >= self.spans.len() {
                continue;
            }
            out.push(i);
            stack.extend(self.children.get(i).into_iter().flatten().copied());
        }
        // A parent before the children that started when it did (clocks of millisecond
        // precision, the AI SDK's): an exporter sends it after them.
        out.sort_by_key(|&i| {
            (
                self.spans.get(i).map_or(0, |s| s.start),
                self.depth.get(i).copied().unwrap_or(0),
                i,
            )
        });
        out
    }
}

/// What a span is, from `gen_ai.operation.name` or, where an instrumentation sets none, its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// Starts an invocation: ADK's `invocation` / `invoke_workflow`, the AI SDK's call spans, a
    /// top-level `invoke_agent`.
    Invocation,
    Agent,
    /// ADK's legacy `call_llm` (holds the request and response of a model call).
    CallLlm,
    Model,
    Tool,
    Other,
}

pub fn op(s: &Span) -> Op {
    let name: &str = &s.name;
    match attr_str(&s.attrs, "gen_ai.operation.name") {
        Some("invoke_workflow") => return Op::Invocation,
        Some("invoke_agent" | "create_agent") => return Op::Agent,
        Some("chat" | "generate_content" | "text_completion") => return Op::Model,
        Some("execute_tool") => return Op::Tool,
        _ => {}
    }
    match name {
        "invocation" if s.scope == "gcp.vertex.agent" => Op::Invocation,
        "call_llm" => Op::CallLlm,
        "ai.generateText" | "ai.streamText" | "ai.generateObject" | "ai.streamObject" => Op::Invocation,
        "ai.toolCall" => Op::Tool,
        _ if name.starts_with("invoke_workflow") => Op::Invocation,
        _ if name.ends_with(".doGenerate") || name.ends_with(".doStream") => Op::Model,
        _ if name.starts_with("execute_tool") => Op::Tool,
        _ if name.starts_with("invoke_agent") => Op::Agent,
        _ => Op::Other,
    }
}

/// The spans that start an invocation: an invocation span, or a top-level agent span, with no
/// such span above it. A tree with model calls but neither becomes one invocation from its top
/// span (reported by the caller).
pub fn invocation_roots(tree: &Tree) -> (Vec<usize>, Vec<usize>) {
    let ops: Vec<Op> = tree.spans.iter().map(op).collect();
    let is = |i: usize, o: Op| ops.get(i) == Some(&o);
    // Whether a span of kind `o` is above each span (worked out once, parents first).
    let above = |o: Op| tree.down(|_, p| p.is_some_and(|(p, seen)| seen || is(p, o)));
    let (invocation_above, agent_above) = (above(Op::Invocation), above(Op::Agent));
    let flag = |v: &[bool], i: usize| v.get(i).copied().unwrap_or(false);
    let mut roots: Vec<usize> = (0..ops.len())
        .filter(|&i| is(i, Op::Invocation) && !flag(&invocation_above, i))
        .collect();
    let mut covered: std::collections::HashSet<usize> = roots.iter().flat_map(|&r| tree.subtree(r)).collect();
    // A top-level agent span starts an invocation unless an invocation span lies beneath it
    // (ADK called from another framework's agent: ADK's own span starts it then).
    for i in 0..ops.len() {
        if is(i, Op::Agent) && !covered.contains(&i) && !flag(&agent_above, i) {
            let below = tree.subtree(i);
            if !below.iter().any(|b| covered.contains(b)) {
                covered.extend(below);
                roots.push(i);
            }
        }
    }
    let top = tree.down(|i, p| p.map_or(i, |(_, t)| t));
    let mut orphans: Vec<usize> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (i, o) in ops.iter().enumerate() {
        if matches!(o, Op::Model | Op::CallLlm) && !covered.contains(&i) {
            let t = top.get(i).copied().unwrap_or(i);
            if seen.insert(t) {
                orphans.push(t);
            }
        }
    }
    (roots, orphans)
}

/// Seconds covered by the union of `intervals` (nanoseconds), overlap counted once.
pub fn union_seconds(intervals: &mut [(u64, u64)]) -> f64 {
    intervals.sort_unstable();
    let (mut total, mut to) = (0u64, 0u64);
    for &(s, e) in intervals.iter() {
        if e <= to {
            continue;
        }
        total += e - s.max(to);
        to = e;
    }
    total as f64 / 1e9
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unions_count_overlap_once() {
        assert_eq!(
            union_seconds(&mut [(0, 2_000_000_000), (1_000_000_000, 3_000_000_000)]),
            3.0
        );
        assert_eq!(union_seconds(&mut [(5, 5)]), 0.0);
    }

    #[test]
    fn cycles_end() {
        let spans = vec![
            Span {
                trace_id: 1,
                span_id: 1,
                parent: 2,
                ..Span::default()
            },
            Span {
                trace_id: 1,
                span_id: 2,
                parent: 1,
                ..Span::default()
            },
        ];
        let t = Tree::new(&spans);
        assert!(t.ancestors(0).count() <= 2);
        assert_eq!(t.subtree(0).len(), 2);
        // The link that closed the cycle is dropped: span 0 is the root, span 1 its child.
        assert_eq!((t.parent(0), t.parent(1)), (None, Some(0)));
    }
}
