//! Finding headless Chromium for the browser tests (`tests/html_browser.rs`,
//! `tests/serve_browser.rs`).

use std::path::PathBuf;

/// The browser, or `None` (with a message saying the test is skipped).
pub fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("LAPIZ_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    if std::env::var_os("LAPIZ_REQUIRE_BROWSER").is_some() {
        panic!("no chromium found and LAPIZ_REQUIRE_BROWSER is set");
    }
    eprintln!(
        "skipping: no chromium on the PATH (install it, e.g. `apt-get install chromium`, or set \
         LAPIZ_CHROMIUM to a Chromium or Chrome binary)"
    );
    None
}
