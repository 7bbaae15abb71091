//! The wasm build takes NFKC from the JS engine (`String.prototype.normalize`) instead of the
//! Unicode tables native builds use (src/text/unicode.rs). This writes what the tables give for
//! every code point, as Python 3.11 normalises it, to tests/data/nfkc14.json when
//! EVALCORE_WRITE_NFKC is set, and otherwise fails when the committed file differs; the JS test
//! tests/js/nfkc.test.mjs then checks the engine against it, code point by code point.

use evalcore::text::unicode::{nfkc14, UNASSIGNED_IN_14};
use std::fmt::Write;

fn table() -> String {
    let mut out = String::from("{\n  \"unassigned_in_14\": [");
    let pairs: Vec<String> = UNASSIGNED_IN_14
        .chunks(2)
        .map(|p| format!("[{},{}]", p[0], p[1]))
        .collect();
    out.push_str(&pairs.join(","));
    out.push_str("],\n  \"nfkc\": {\n");
    let mut lines = Vec::new();
    for cp in 0..=0x10FFFFu32 {
        let Some(c) = char::from_u32(cp) else { continue };
        let s = c.to_string();
        let n = nfkc14(&s);
        if n != s {
            let to: Vec<String> = n.chars().map(|c| format!("{:X}", u32::from(c))).collect();
            lines.push(format!("    \"{cp:X}\": \"{}\"", to.join(" ")));
        }
    }
    out.push_str(&lines.join(",\n"));
    let _ = write!(out, "\n  }}\n}}\n");
    out
}

#[test]
fn nfkc14_table_is_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/nfkc14.json");
    let want = table();
    if std::env::var_os("EVALCORE_WRITE_NFKC").is_some() {
        std::fs::write(path, &want).unwrap();
        return;
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        have == want,
        "tests/data/nfkc14.json is stale: run EVALCORE_WRITE_NFKC=1 cargo test --test nfkc_table"
    );
}
