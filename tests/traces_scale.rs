//! The trace loader's work grows with what was sent: a chain of spans (each the parent of the
//! next, as agents calling agents as tools make) at 8x the length takes about 8x the work, not
//! 64x. Compared as ratios of the same machine's times, never against a clock.

use evalcore::traces::{self, Options};
use std::time::Instant;

/// One OTLP/JSON request: a trace whose spans form one chain of `n`, cycling through an
/// invocation's kinds (agent, model call, tool), every span with a session id.
fn chain(n: usize) -> String {
    let kinds = ["invoke_agent", "chat", "execute_tool"];
    let mut spans = Vec::with_capacity(n);
    for i in 0..n {
        let op = kinds[i % 3];
        let parent = if i == 0 {
            String::new()
        } else {
            format!(",\"parentSpanId\":\"{:016x}\"", i)
        };
        spans.push(format!(
            "{{\"traceId\":\"{:032x}\",\"spanId\":\"{:016x}\"{parent},\"name\":\"{op} x{i}\",\"startTimeUnixNano\":\"{}\",\"endTimeUnixNano\":\"{}\",\
             \"attributes\":[{{\"key\":\"gen_ai.operation.name\",\"value\":{{\"stringValue\":\"{op}\"}}}},\
             {{\"key\":\"gen_ai.agent.name\",\"value\":{{\"stringValue\":\"a{}\"}}}},\
             {{\"key\":\"gen_ai.tool.name\",\"value\":{{\"stringValue\":\"t\"}}}},\
             {{\"key\":\"gen_ai.conversation.id\",\"value\":{{\"stringValue\":\"s\"}}}}]}}",
            7,
            i + 1,
            1_000_000 + i as u64 * 10,
            1_000_000 + 2 * n as u64 * 10 - i as u64 * 10,
            i % 5,
        ));
    }
    format!(
        "{{\"resourceSpans\":[{{\"scopeSpans\":[{{\"spans\":[{}]}}]}}]}}",
        spans.join(",")
    )
}

/// The best of three times (seconds) of loading `text`, with and without timelines.
fn best(text: &str) -> f64 {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            for timeline in [false, true] {
                let opts = Options {
                    timeline,
                    ..Options::default()
                };
                let loaded = traces::load(&[text.as_bytes()], &opts).expect("a chain loads");
                assert_eq!(loaded.sessions.len(), 1);
            }
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

#[test]
fn a_chain_of_spans_loads_in_time_linear_in_its_length() {
    let (small, large) = (chain(1_000), chain(8_000));
    let (a, b) = (best(&small), best(&large));
    eprintln!("# a chain of 1,000 spans: {a:.3} s; of 8,000: {b:.3} s ({:.1}x)", b / a);
    // Linear work: ~8x (n log n: ~10x). The quadratic walks this replaced gave 40x and more.
    assert!(
        b / a < 24.0,
        "1,000 spans: {a:.3} s; 8,000 spans: {b:.3} s ({:.1}x)",
        b / a
    );
}
