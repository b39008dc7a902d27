//! The page's files, built into the binary so that the studio needs no other file and works
//! offline: plain HTML, CSS and JavaScript modules, served as written (no build step).

/// The file `name` of the page and its media type.
pub fn get(name: &str) -> Option<(&'static [u8], &'static str)> {
    const JS: &str = "text/javascript; charset=utf-8";
    Some(match name {
        "index.html" => (
            include_bytes!("../static/index.html"),
            "text/html; charset=utf-8",
        ),
        "studio.css" => (
            include_bytes!("../static/studio.css"),
            "text/css; charset=utf-8",
        ),
        "app.js" => (include_bytes!("../static/app.js"), JS),
        "api.js" => (include_bytes!("../static/api.js"), JS),
        "editor.js" => (include_bytes!("../static/editor.js"), JS),
        "runs.js" => (include_bytes!("../static/runs.js"), JS),
        _ => return None,
    })
}
