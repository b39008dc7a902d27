//! Headless-browser check of the HTML viewer: chromium loads the page from a temp dir, the
//! first frame must be drawn synchronously with WebGL (SwiftShader), show every piece's colour,
//! raise no script errors, and a screenshot PNG must come out.
//!
//! Needs `chromium` (`apt-get install chromium`; override the binary with `CHROMIUM=path`).
//! Ignored by default; CI installs chromium and runs them with `--include-ignored`, and a
//! missing chromium fails them: they never pass by skipping. Each browser run is killed after
//! [`BROWSER_LIMIT`].

use cubesat::render::{Container, Scene, ScenePiece, html};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Upper bound for one browser run (a safety net, not an assertion).
const BROWSER_LIMIT: Duration = Duration::from_secs(60);

/// Flags that give WebGL in software (SwiftShader through ANGLE) with no network activity.
const FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--use-gl=angle",
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--enable-logging=stderr",
    "--v=0",
    "--window-size=800,600",
];

/// The Chromium binary; fails the test when there is none.
pub(crate) fn need_chromium() -> PathBuf {
    find_chromium().expect(
        "chromium not found: install it (apt-get install -y chromium) or point CHROMIUM at it",
    )
}

fn find_chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
    for name in ["chromium", "chromium-browser", "google-chrome", "chrome"] {
        for dir in dirs
            .iter()
            .map(PathBuf::as_path)
            .chain([Path::new("/usr/bin")])
        {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    None
}

/// Run chromium with `extra` arguments and a fresh profile; returns (stdout, stderr).
pub(crate) fn run_browser(
    chromium: &Path,
    work: &Path,
    tag: &str,
    extra: &[String],
) -> (String, String) {
    let profile = work.join(format!("profile-{tag}"));
    let out_path = work.join(format!("{tag}.stdout"));
    let err_path = work.join(format!("{tag}.stderr"));
    // Its own process group, so a run that hangs can be ended with all its helper processes.
    let mut child = Command::new(chromium)
        .process_group(0)
        .args(FLAGS)
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", chromium.display()));
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > BROWSER_LIMIT {
            let group = format!("-{}", child.id());
            let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium ({tag}) did not finish within {BROWSER_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    (
        std::fs::read_to_string(&out_path).unwrap_or_default(),
        std::fs::read_to_string(&err_path).unwrap_or_default(),
    )
}

/// Three pieces side by side on one layer, all visible from the default view, plus an empty
/// cell and a hint.
fn scene() -> Scene {
    let piece = |name: &str, letter: char, hint, cells: &[[i32; 3]]| ScenePiece {
        name: name.into(),
        letter,
        hint,
        cells: cells.to_vec(),
        color: letter as usize % 16,
    };
    Scene {
        title: "Browser test".into(),
        containers: vec![Container {
            origin: [0, 0, 0],
            size: [3, 3, 2],
        }],
        pieces: vec![
            piece(
                "red",
                'A',
                false,
                &[[0, 0, 0], [0, 1, 0], [0, 2, 0], [0, 0, 1]],
            ),
            piece(
                "green",
                'B',
                false,
                &[[1, 0, 0], [1, 1, 0], [1, 2, 0], [1, 2, 1]],
            ),
            piece(
                "yellow",
                'C',
                true,
                &[[2, 0, 0], [2, 1, 0], [2, 2, 0], [2, 0, 1]],
            ),
        ],
        empty: vec![[1, 0, 1]],
        loose: false,
        ..Default::default()
    }
}

/// The value of attribute `name` on the `<div id="status" ...>` start tag.
pub(crate) fn status_attr<'a>(dom: &'a str, name: &str) -> Option<&'a str> {
    let start = dom.find(r#"<div id="status""#)?;
    let tag = &dom[start..start + dom[start..].find('>')?];
    let key = format!(r#"{name}=""#);
    let v = &tag[tag.find(&key)? + key.len()..];
    Some(&v[..v.find('"')?])
}

/// Lines of chromium's log that report page script problems.
pub(crate) fn script_problems(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| {
            l.contains("Uncaught")
                || (l.contains(":CONSOLE") && !l.contains("GL Driver Message"))
                || l.contains("ERROR:CONSOLE")
        })
        .collect()
}

#[test]
#[ignore = "needs chromium; CI runs it with --include-ignored"]
fn viewer_draws_first_frame_headless() {
    let chromium = need_chromium();
    let work = tempfile::Builder::new()
        .prefix("cubesat-render-browser-")
        .tempdir()
        .unwrap();
    let scene = scene();
    let url = first_frame(&chromium, work.path(), &scene);

    // 2. A screenshot: a real PNG of the requested size.
    let shot = work.path().join("shot.png");
    let (_, stderr) = run_browser(
        &chromium,
        work.path(),
        "shot",
        &[format!("--screenshot={}", shot.display()), url],
    );
    let png = std::fs::read(&shot).unwrap_or_else(|e| panic!("no screenshot ({e})\n{stderr}"));
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    assert_eq!(&png[12..16], b"IHDR");
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert_eq!((width, height), (800, 600));
    assert!(
        png.len() > 5_000,
        "suspiciously small screenshot: {} bytes",
        png.len()
    );
    let problems = script_problems(&stderr);
    assert!(problems.is_empty(), "console problems: {problems:#?}");
}

#[test]
#[ignore = "needs chromium; CI runs it with --include-ignored"]
fn viewer_draws_a_box_too_large_for_a_grid_from_its_cell_list() {
    let chromium = need_chromium();
    let work = tempfile::Builder::new()
        .prefix("cubesat-render-browser-")
        .tempdir()
        .unwrap();
    // A 48x48x30 box (69,120 cells, past the grid's bound) whose bottom layer three pieces
    // cover, each a 16x48 plate.
    let plate = |x0: i32| -> Vec<[i32; 3]> {
        (0..48)
            .flat_map(|y| (0..16).map(move |x| [x0 + x, y, 0]))
            .collect()
    };
    let mut scene = scene();
    scene.containers[0].size = [48, 48, 30];
    for (p, x0) in scene.pieces.iter_mut().zip([0, 16, 32]) {
        p.cells = plate(x0);
    }
    scene.empty = vec![[47, 47, 29]];
    assert!(!cubesat::render::drawn_cell_by_cell(&scene.containers[0]));
    first_frame(&chromium, work.path(), &scene);
}

/// Writes `scene` as a page in `work`, loads it and checks the viewer's own report on its
/// first frame: WebGL, no script errors, a canvas not blank, every piece's colour showing.
/// Returns the page's URL.
fn first_frame(chromium: &Path, work: &Path, scene: &Scene) -> String {
    let page = work.join("scene.html");
    std::fs::write(&page, html(std::slice::from_ref(scene))).unwrap();
    let url = format!("file://{}", page.display());
    let (dom, stderr) = run_browser(chromium, work, "dom", &["--dump-dom".into(), url.clone()]);
    assert!(
        dom.contains(r#"<canvas id="view""#),
        "page did not load: {dom:.500}\n{stderr}"
    );
    assert_eq!(
        status_attr(&dom, "data-webgl"),
        Some("1"),
        "WebGL unavailable\n{stderr}"
    );
    assert_eq!(status_attr(&dom, "data-errors"), None, "script errors");
    let frames: u32 = status_attr(&dom, "data-frames").unwrap().parse().unwrap();
    assert!(frames >= 1, "no frame drawn");
    let size = status_attr(&dom, "data-size").expect("self-test ran");
    let (w, h) = size.split_once('x').unwrap();
    let pixels: u64 = w.parse::<u64>().unwrap() * h.parse::<u64>().unwrap();
    let nonblank: u64 = status_attr(&dom, "data-nonblank").unwrap().parse().unwrap();
    assert!(
        nonblank * 50 > pixels,
        "the canvas is (nearly) blank: {nonblank} of {pixels} pixels drawn"
    );
    let counts: Vec<u64> = status_attr(&dom, "data-piece-pixels")
        .unwrap()
        .split(',')
        .map(|c| c.parse().unwrap())
        .collect();
    eprintln!(
        "first frame: {nonblank} of {pixels} pixels drawn; pixels per piece colour {counts:?}"
    );
    assert_eq!(counts.len(), scene.pieces.len());
    for (i, c) in counts.iter().enumerate() {
        assert!(*c > 200, "piece {i}'s colour barely shows: {counts:?}");
    }
    let problems = script_problems(&stderr);
    assert!(problems.is_empty(), "console problems: {problems:#?}");
    url
}

#[test]
#[ignore = "needs chromium; CI runs it with --include-ignored"]
fn viewer_draws_balls_of_a_pyramid() {
    // The sphere grid: balls drawn with WebGL and no script error; from the first view (at a
    // corner of the square layers) most pieces show, and exploded every piece's colour does.
    let chromium = need_chromium();
    let work = tempfile::Builder::new()
        .prefix("cubesat-render-browser-")
        .tempdir()
        .unwrap();
    for (tag, scene) in [
        ("large", cubesat::render::samples::square_pyramid()),
        ("small", cubesat::render::samples::small_pyramid()),
    ] {
        let page = work.path().join(format!("{tag}.html"));
        let text = html(std::slice::from_ref(&scene));
        assert!(
            text.contains(r#""s":1"#),
            "the page marks the scene as balls"
        );
        std::fs::write(&page, text).unwrap();
        for explode in [0, 100] {
            let run = format!("{tag}-{explode}");
            let counts = piece_pixels(&chromium, work.path(), &page, &run, explode);
            assert_eq!(counts.len(), scene.pieces.len());
            let showing = counts.iter().filter(|&&c| c > 200).count();
            if explode == 100 {
                assert_eq!(showing, counts.len(), "{run}: {counts:?}");
            } else {
                assert!(showing + 1 >= counts.len(), "{run}: {counts:?}");
            }
        }
    }
}

/// Writes `html` as the page `NAME.html` in `work` and opens it assembled and exploded
/// ([`piece_pixels`]): each explode setting with the pixels of each piece's colour.
pub(crate) fn page_pixels(
    chromium: &Path,
    work: &Path,
    name: &str,
    html: &str,
) -> Vec<(u32, Vec<u64>)> {
    let page = work.join(format!("{name}.html"));
    std::fs::write(&page, html).unwrap();
    [0, 100]
        .into_iter()
        .map(|explode| {
            let run = format!("{name}-{explode}");
            (explode, piece_pixels(chromium, work, &page, &run, explode))
        })
        .collect()
}

/// Opens a 3D page at the given explode setting and returns the pixels of each piece's
/// colour in its first frame, after checking that it drew with WebGL, without a script
/// error or a console problem.
pub(crate) fn piece_pixels(
    chromium: &Path,
    work: &Path,
    page: &Path,
    run: &str,
    explode: u32,
) -> Vec<u64> {
    let url = format!("file://{}#explode={explode}", page.display());
    let (dom, stderr) = run_browser(chromium, work, run, &["--dump-dom".into(), url]);
    assert_eq!(
        status_attr(&dom, "data-webgl"),
        Some("1"),
        "WebGL\n{stderr}"
    );
    assert_eq!(
        status_attr(&dom, "data-errors"),
        None,
        "script errors\n{stderr}"
    );
    let problems = script_problems(&stderr);
    assert!(problems.is_empty(), "console problems: {problems:#?}");
    let counts: Vec<u64> = status_attr(&dom, "data-piece-pixels")
        .unwrap()
        .split(',')
        .map(|c| c.parse().unwrap())
        .collect();
    eprintln!("{run}: pixels per piece colour {counts:?}");
    counts
}

#[test]
#[ignore = "needs chromium; CI runs it with --include-ignored"]
fn script_errors_are_reported() {
    // The error capture the first test relies on must itself work.
    let chromium = need_chromium();
    let work = tempfile::Builder::new()
        .prefix("cubesat-render-browser-")
        .tempdir()
        .unwrap();
    let page = work.path().join("broken.html");
    let broken = html(&[scene()]).replace(
        "</body>",
        "<script>throw new Error('deliberate');</script>\n</body>",
    );
    std::fs::write(&page, broken).unwrap();
    let url = format!("file://{}", page.display());
    let (dom, stderr) = run_browser(&chromium, work.path(), "dom", &["--dump-dom".into(), url]);
    let errors = status_attr(&dom, "data-errors").unwrap_or_default();
    assert!(
        errors.contains("deliberate"),
        "error not recorded: {errors:?}"
    );
    assert!(
        !script_problems(&stderr).is_empty(),
        "error not in the log either"
    );
}

#[test]
#[ignore = "needs chromium; CI runs it with --include-ignored"]
fn the_binary_s_page_of_a_ball_puzzle_draws_every_piece_exploded() {
    // `cubesat solve iq-puzzler-pro-pyramid --format html`, as a user writes it: the page is
    // marked as balls, draws with WebGL and no script error, and exploded every one of the
    // twelve pieces' colours shows (a piece at the back may be mostly hidden: 28 pixels of
    // the darkblue piece in Chromium's 800x600 first frame, against 300-700 for the others).
    let chromium = need_chromium();
    let work = tempfile::Builder::new()
        .prefix("cubesat-render-browser-")
        .tempdir()
        .unwrap();
    let page = work.path().join("pyramid.html");
    let out = Command::new(env!("CARGO_BIN_EXE_cubesat"))
        .args([
            "solve",
            "iq-puzzler-pro-pyramid",
            "--limit",
            "1",
            "--format",
            "html",
            "-q",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(r#""s":1"#),
        "the page marks the scene as balls"
    );
    std::fs::write(&page, text).unwrap();
    let counts = piece_pixels(&chromium, work.path(), &page, "pyramid", 100);
    assert_eq!(counts.len(), 12);
    assert!(counts.iter().all(|&c| c > 0), "{counts:?}");
    assert!(
        counts.iter().filter(|&&c| c > 200).count() >= 10,
        "{counts:?}"
    );
}
