//! Spans as trees: parent links, which spans start an invocation, what each span is (a model
//! call, a tool execution), and the time a set of spans covers.

use super::model::{attr_str, Span};
use std::collections::HashMap;

/// Parent links over a batch's spans. Cycles and dangling parents are tolerated: a span whose
/// parent is not in the batch is a root, and walks stop after as many steps as there are spans.
pub struct Tree<'b, 'a> {
    pub spans: &'b [Span<'a>],
    parent: Vec<Option<usize>>,
    children: Vec<Vec<usize>>,
}

impl<'b, 'a> Tree<'b, 'a> {
    pub fn new(spans: &'b [Span<'a>]) -> Self {
        let by_id: HashMap<(u128, u64), usize> = spans
            .iter()
            .enumerate()
            .map(|(i, s)| ((s.trace_id, s.span_id), i))
            .collect();
        let parent: Vec<Option<usize>> = spans
            .iter()
            .enumerate()
            .map(|(i, s)| {
                by_id
                    .get(&(s.trace_id, s.parent))
                    .copied()
                    .filter(|p| s.parent != 0 && *p != i)
            })
            .collect();
        let mut children = vec![Vec::new(); spans.len()];
        for (i, p) in parent.iter().enumerate() {
            if let Some(c) = p.and_then(|p| children.get_mut(p)) {
                c.push(i);
            }
        }
        Tree {
            spans,
            parent,
            children,
        }
    }

    pub fn span(&self, i: usize) -> Option<&'b Span<'a>> {
        self.spans.get(i)
    }

    /// The ancestors of `i`, nearest first.
    pub fn ancestors(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let mut at = i;
        (0..self.spans.len()).map_while(move |_| {
            at = self.parent.get(at).copied().flatten()?;
            Some(at)
        })
    }

    /// `root` and everything below it, each once, sorted by start time (then input order).
    pub fn subtree(&self, root: usize) -> Vec<usize> {
        let mut seen = vec![false; self.spans.len()];
        let mut out = Vec::new();
        let mut stack = vec![root];
        while let Some(i) = stack.pop() {
            match seen.get_mut(i) {
                Some(s) if !*s => *s = true,
                _ => continue,
            }
            out.push(i);
            stack.extend(self.children.get(i).into_iter().flatten().copied());
        }
        // A parent before the children that started when it did (clocks of millisecond
        // precision, the AI SDK's): an exporter sends it after them.
        out.sort_by_key(|&i| (self.spans.get(i).map_or(0, |s| s.start), self.ancestors(i).count(), i));
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
    let mut roots: Vec<usize> = (0..ops.len())
        .filter(|&i| is(i, Op::Invocation) && !tree.ancestors(i).any(|a| is(a, Op::Invocation)))
        .collect();
    let mut covered: std::collections::HashSet<usize> = roots.iter().flat_map(|&r| tree.subtree(r)).collect();
    // A top-level agent span starts an invocation unless an invocation span lies beneath it
    // (ADK called from another framework's agent: ADK's own span starts it then).
    for i in 0..ops.len() {
        if is(i, Op::Agent) && !covered.contains(&i) && !tree.ancestors(i).any(|a| is(a, Op::Agent)) {
            let below = tree.subtree(i);
            if !below.iter().any(|b| covered.contains(b)) {
                covered.extend(below);
                roots.push(i);
            }
        }
    }
    let mut orphans: Vec<usize> = Vec::new();
    for (i, o) in ops.iter().enumerate() {
        if matches!(o, Op::Model | Op::CallLlm) && !covered.contains(&i) {
            let top = tree.ancestors(i).last().unwrap_or(i);
            if !orphans.contains(&top) {
                orphans.push(top);
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
    }
}
