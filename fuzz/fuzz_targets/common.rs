//! The readers' checks shared by the fuzz targets: the stable fuzzer's harness, built once.

#[path = "../../examples/fuzz/harness.rs"]
mod harness;

/// Runs the named reader's check on `data` (taken as UTF-8, lossily); a wrong accepted
/// result is a crash.
pub fn check(reader: &str, data: &[u8]) {
    thread_local! {
        static ALL: Vec<harness::Reader> = harness::readers();
    }
    let text = String::from_utf8_lossy(data);
    ALL.with(|all| {
        let r = all
            .iter()
            .find(|r| r.name == reader)
            .expect("a reader of that name");
        if let Err(e) = (r.check)(&text) {
            panic!("{reader}: {e}");
        }
    });
}
