//! The HTML renderer: one self-contained offline file with an inline WebGL viewer.

use super::Scene;

/// Render `scenes` as one HTML page.
pub fn html(scenes: &[Scene]) -> String {
    let _ = scenes;
    String::new()
}
