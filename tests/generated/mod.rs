//! What the tests that generate files share: write under EVALCORE_WRITE_TYPES (scripts/build.sh
//! sets it), otherwise fail when the committed file differs.

/// Writes `text` to `rel` (from the crate's root) under EVALCORE_WRITE_TYPES, otherwise checks
/// the committed file; `test` names the test that writes it, for the message.
pub fn write_or_check(rel: &str, text: &str, test: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    if std::env::var_os("EVALCORE_WRITE_TYPES").is_some() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("the generated file's folder can be made");
        }
        std::fs::write(&path, text).expect("the generated file is writable");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == text,
        "{rel} is stale: run `EVALCORE_WRITE_TYPES=1 cargo test --test {test}` (scripts/build.sh does)"
    );
}
