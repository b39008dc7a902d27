//! `cubesat studio` through the real binary: the server answers its own page on loopback and
//! refuses what a local server must refuse (other origins, other hosts, oversized bodies, a
//! flood of jobs, slow and idle connections), stops a job whose page went away, its downloads
//! (exports, STL meshes of cubes and of balls) are the files the CLI writes, and its page
//! passes the end-to-end tests in Chromium (tests/studio/e2e.mjs, Playwright; ignored by
//! default, run by CI). Its jobs beyond solve and count: `studio/jobs.rs`.
//!
//! The requests are written by hand on a TCP socket, so that the tests send exactly the
//! headers a hostile page or a DNS-rebinding attack would.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::puzzle_file;

mod jobs;

/// An upper bound for waiting on the server (a safety net, not an assertion on speed).
const PATIENCE: Duration = Duration::from_secs(120);

/// A running `cubesat studio --port 0`, killed when dropped.
struct Studio {
    child: Child,
    /// `127.0.0.1:PORT`.
    addr: String,
    /// What it printed on stderr before serving.
    stderr: String,
}

impl Studio {
    fn start(extra: &[&str]) -> Studio {
        let log = tempfile::NamedTempFile::new().unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_cubesat"))
            .args(["studio", "--port", "0"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log.reopen().unwrap())
            .spawn()
            .expect("start cubesat studio");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        // Warnings are written before the address, so they are in the log by now.
        let stderr = std::fs::read_to_string(log.path()).unwrap_or_default();
        let addr = line
            .trim()
            .strip_prefix("http://")
            .and_then(|s| s.strip_suffix('/'))
            .unwrap_or_else(|| panic!("no address on stdout: {line:?}; stderr: {stderr}"))
            .to_string();
        Studio {
            child,
            addr,
            stderr,
        }
    }

    /// Sends `head` (request line and headers, without the blank line) and `body`; returns
    /// the status and the body.
    fn send(&self, head: &str, body: &[u8]) -> Reply {
        let mut s = TcpStream::connect(&self.addr).expect("connect");
        s.set_read_timeout(Some(PATIENCE)).unwrap();
        let mut req = format!("{head}\r\nConnection: close\r\n\r\n").into_bytes();
        req.extend_from_slice(body);
        s.write_all(&req).unwrap();
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).unwrap();
        let split = raw
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .unwrap_or_else(|| panic!("no end of headers in {:?}", String::from_utf8_lossy(&raw)));
        let head = String::from_utf8_lossy(&raw[..split]).into_owned();
        let mut body = raw[split + 4..].to_vec();
        if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            body = dechunk(&body);
        }
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status in {head:?}"));
        Reply {
            status,
            head,
            body: String::from_utf8_lossy(&body).into_owned(),
            bytes: body,
        }
    }

    fn get(&self, path: &str) -> Reply {
        self.send(&format!("GET {path} HTTP/1.1\r\nHost: {}", self.addr), b"")
    }

    /// A POST of a JSON body as the page sends it (its own Origin).
    fn post(&self, path: &str, body: &Value) -> Reply {
        let body = body.to_string();
        self.send(
            &format!(
                "POST {path} HTTP/1.1\r\nHost: {0}\r\nOrigin: http://{0}\r\nContent-Type: application/json\r\nContent-Length: {1}",
                self.addr,
                body.len()
            ),
            body.as_bytes(),
        )
    }

    /// A job's state, polled until `done(state)` (bounded by [`PATIENCE`]).
    fn wait_job(&self, id: u64, done: impl Fn(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            let s = self.get(&format!("/api/jobs/{id}")).json();
            if done(&s) {
                return s;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "job {id} did not get there: {s}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Studio {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A chunked body's data (sizes in hex, each chunk followed by CRLF, a zero chunk at the end).
fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let eol = raw
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("chunk size line");
        let size = usize::from_str_radix(
            String::from_utf8_lossy(&raw[..eol])
                .split(';')
                .next()
                .unwrap()
                .trim(),
            16,
        )
        .expect("chunk size");
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&raw[eol + 2..eol + 2 + size]);
        raw = &raw[eol + 2 + size + 2..];
    }
}

struct Reply {
    status: u16,
    head: String,
    /// The body as text (lossy).
    body: String,
    /// The body's bytes.
    bytes: Vec<u8>,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {} {}", self.head, self.body))
    }

    fn expect(&self, status: u16, has: &str) -> &Reply {
        assert!(
            self.status == status && self.body.contains(has),
            "expected {status} with {has:?}, got:\n{}\n\n{}",
            self.head,
            self.body
        );
        self
    }
}

/// A slow run that is surely still running when the tests look: the Tetris Cube counted by
/// the plain dancing-links baseline on one thread (minutes), which obeys a stop between
/// solutions (hundreds a second).
fn slow_count() -> Value {
    json!({
        "puzzle": std::fs::read_to_string(puzzle_file("tetris-cube")).unwrap(),
        "action": "count",
        "up_to": "none",
        "engine": "dlx",
        "threads": 1,
    })
}

#[test]
fn studio_serves_its_page_and_the_library_on_loopback() {
    let s = Studio::start(&["-q"]);
    assert!(s.addr.starts_with("127.0.0.1:"), "{}", s.addr);
    let page = s.get("/");
    page.expect(200, "cubesat studio");
    assert!(
        page.head
            .to_ascii_lowercase()
            .contains("content-security-policy: default-src 'self'"),
        "{}",
        page.head
    );
    s.get("/static/app.js").expect(200, "import");
    let lib = s.get("/api/library").json();
    assert_eq!(
        lib.as_array().map(Vec::len),
        Some(cubesat::puzzle::BUNDLED.len())
    );
    let soma = s.get("/api/library/soma").json();
    let count = s.post(
        "/api/jobs",
        &json!({"puzzle": soma["text"], "action": "count"}),
    );
    let id = count.json()["id"].as_u64().unwrap();
    let done = s.wait_job(id, |j| j["state"] != "running");
    assert_eq!(
        done["result"]["line"], "480 solutions up to rotation",
        "{done}"
    );
}

#[test]
fn studio_catalog_lists_every_named_puzzle_with_its_counts() {
    let s = Studio::start(&["-q"]);
    let reply = s.get("/api/catalog");
    reply.expect(200, "\"family\"");
    let list = reply.json();
    let list = list.as_array().unwrap();
    let named: Vec<&str> = cubesat::puzzle::named().map(|(n, _)| n).collect();
    assert_eq!(list.len(), named.len());
    for (e, n) in list.iter().zip(&named) {
        assert_eq!(e["key"], *n, "{e}");
        let p = cubesat::puzzle::bundled(n).unwrap();
        let family = p.catalog.as_ref().map_or("other", |c| c.family.as_str());
        assert_eq!(e["family"], family, "{e}");
        let published = p.catalog.as_ref().map_or(0, |c| c.published.len());
        assert_eq!(e["published"].as_array().unwrap().len(), published, "{e}");
        if e["status"] == "open" {
            let text = e["estimate"]["text"].as_str().unwrap();
            assert!(text.contains("nodes") && text.contains("CPU"), "{e}");
        }
    }
    let entry = |key: &str| list.iter().find(|e| e["key"] == key).unwrap().clone();
    let soma = entry("soma");
    assert_eq!(soma["family"], "soma");
    assert_eq!(soma["published"][0]["count"], 240, "{soma}");
    assert_eq!(
        soma["published"][0]["up_to"], "rotation+reflection",
        "{soma}"
    );
    assert_eq!(soma["counts"]["rotation"], 480, "{soma}");
    assert_eq!(soma["counts"]["rotation+reflection"], 240, "{soma}");
    let bedlam = entry("bedlam");
    assert_eq!(bedlam["published"][0]["count"], 19186, "{bedlam}");
    assert_eq!(bedlam["status"], "published", "{bedlam}");
    assert!(list.iter().any(|e| e["status"] == "open"));
    assert!(list.iter().any(|e| e["status"] == "disagreeing"));
    // A catalog puzzle opens like a bundled one.
    let last = named.last().unwrap();
    s.get(&format!("/api/library/{last}"))
        .expect(200, "\"text\"");
    // A name that is no puzzle is refused with its one-line reason.
    s.get("/api/library/no-such-puzzle")
        .expect(404, "no bundled puzzle 'no-such-puzzle'");
}

/// What the page learns from the library rather than knowing it: the grids (its grid menu),
/// the sizes as files type them (a ball board's card), the colours pieces are named after.
#[test]
fn studio_gives_the_librarys_grids_typed_sizes_and_named_colours() {
    use cubesat::geometry::Grid;
    let s = Studio::start(&["-q"]);
    let grids = s.get("/api/grids").json();
    let grids = grids.as_array().unwrap();
    assert_eq!(grids.len(), Grid::ALL.len(), "{grids:?}");
    for (g, want) in grids.iter().zip(Grid::ALL) {
        assert_eq!(g["name"], want.name(), "{g}");
        assert_eq!(g["title"], want.title(), "{g}");
        assert_eq!(g["cell_noun"], want.cell_noun(), "{g}");
        assert_eq!(g["can_disassemble"], want.can_disassemble(), "{g}");
        assert_eq!(g["burrtools_type"], json!(want.burrtools_type()), "{g}");
        assert_eq!(g["default"], want.is_default(), "{g}");
        assert!(g["frame"] == "lattice" || g["frame"] == "layers", "{g}");
    }
    // How the editor draws a typed layer's cell; null where cells are typed in 3D.
    let typed: Vec<(&str, &Value)> = grids
        .iter()
        .map(|g| (g["name"].as_str().unwrap(), &g["typed_cell"]))
        .collect();
    for (name, want) in [
        ("cubes", json!("square")),
        ("prisms", json!("triangle")),
        ("spheres", json!("ball")),
        ("rhombic", Value::Null),
        ("tetra-octa", Value::Null),
        ("hexagons", json!("hexagon")),
    ] {
        assert!(typed.contains(&(name, &want)), "{name}: {typed:?}");
    }
    // A ball board typed as 11x5 is 11x5x1 on its card and in the check, not its cells' box in
    // the sphere grid's own coordinates (15x15x1).
    let catalog = s.get("/api/catalog").json();
    let card = |key: &str| {
        catalog
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["key"] == key)
            .unwrap()
            .clone()
    };
    assert_eq!(card("kanoodle-2d")["containers"], json!(["11x5x1"]));
    assert_eq!(card("soma")["containers"], json!(["3x3x3"]));
    let text = std::fs::read_to_string(puzzle_file("iq-puzzler-pro-2d")).unwrap();
    let check = s.post("/api/check", &json!({"puzzle": text})).json();
    let info = &check["info"];
    assert_eq!(info["containers"], json!(["11x5x1"]), "{info}");
    assert_eq!(info["grid"], "spheres", "{info}");
    assert_eq!(info["frame"], "layers", "{info}");
    assert_eq!(info["cell_noun"], "ball", "{info}");
    assert_eq!(info["can_disassemble"], false, "{info}");
    // IQ Puzzler Pro's piece 'orange' (letter B) is orange in the SVG's legend and the 3D view's.
    let svg = s.get("/api/library/iq-puzzler-pro-2d/sheet.svg");
    svg.expect(200, ">B  orange</text>");
    let legend = &svg.body[svg.body.find("<g id=\"legend\"").unwrap()..];
    let row = legend.find(">B  orange</text>").unwrap();
    let swatch = legend[..row].rfind("fill=\"").unwrap();
    assert_eq!(&legend[swatch..swatch + 14], "fill=\"#ffa500\"");
    let view = check["view"].as_str().unwrap();
    assert!(
        view.contains(r##"["orange","B",false,"#ffa500"]"##),
        "{view}"
    );
}

#[test]
fn studio_downloads_are_the_files_the_cli_writes() {
    let s = Studio::start(&["-q"]);
    let soma = std::fs::read_to_string(puzzle_file("soma")).unwrap();
    let cli = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_cubesat"))
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "cubesat {args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    for (format, up_to) in [
        ("dimacs", "none"),
        ("dlx", "rotation"),
        ("asp", "rotation"),
        ("placements", "rotation"),
    ] {
        let got = s.post(
            "/api/download",
            &json!({"puzzle": soma, "format": format, "up_to": up_to}),
        );
        assert_eq!(got.status, 200, "{}", got.body);
        assert!(
            got.head.contains(&format!("filename=\"Soma_cube-{up_to}.")),
            "{}",
            got.head
        );
        // The studio reads the puzzle from its text, the CLI from the bundled file of the same
        // text: the exports are the same bytes.
        let want = cli(&["export", "soma", "--format", format, "--up-to", up_to]);
        assert!(
            got.body == want,
            "{format} --up-to {up_to} differs from the CLI's"
        );
    }
    // The export options as `cubesat export` takes them, and the BurrTools file.
    let got = s.post(
        "/api/download",
        &json!({"puzzle": soma, "format": "dimacs", "up_to": "rotation", "amo": "sequential", "projection": "ind"}),
    );
    let want = cli(&[
        "export",
        "soma",
        "--format",
        "dimacs",
        "--up-to",
        "rotation",
        "--amo",
        "sequential",
        "--projection",
        "ind",
    ]);
    assert!(
        got.status == 200 && got.body == want,
        "dimacs with options differs from the CLI's"
    );
    let got = s.post(
        "/api/download",
        &json!({"puzzle": soma, "format": "xmpuzzle"}),
    );
    assert!(
        got.head.contains("filename=\"Soma_cube.xmpuzzle\""),
        "{}",
        got.head
    );
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("soma.xmpuzzle");
    cli(&[
        "export",
        "soma",
        "--format",
        "xmpuzzle",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert!(
        got.bytes == std::fs::read(&file).unwrap(),
        "xmpuzzle differs from the CLI's"
    );
    s.post(
        "/api/download",
        &json!({"puzzle": soma, "format": "dimacs", "projection": "nope"}),
    )
    .expect(400, "nope");
    let list = s.post(
        "/api/jobs",
        &json!({"puzzle": soma, "action": "solve", "limit": 5}),
    );
    let id = list.json()["id"].as_u64().unwrap();
    s.wait_job(id, |j| j["state"] == "done");
    let lines = s.get(&format!("/api/jobs/{id}/solutions.jsonl"));
    let want = cli(&["solve", "soma", "--limit", "5", "--format", "json"]);
    let solutions = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| l.starts_with("{\"index\"") || l.contains("\"type\":\"solution\""))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(solutions(&lines.body).len(), 5, "{}", lines.body);
    assert_eq!(solutions(&lines.body), solutions(&want));
}

#[test]
fn studio_makes_the_challenge_set_the_cli_makes_and_stops_one() {
    let s = Studio::start(&["-q"]);
    let kanoodle = std::fs::read_to_string(puzzle_file("kanoodle-2d")).unwrap();
    s.post(
        "/api/jobs",
        &json!({"puzzle": kanoodle, "action": "challenges", "set": 0}),
    )
    .expect(400, "set of 0: a set has 1 to 1000 challenges");
    s.post(
        "/api/jobs",
        &json!({"puzzle": kanoodle, "action": "challenges", "set": 5, "levels": "a,a"}),
    )
    .expect(400, "levels: level 'a' is named twice");
    let id = s
        .post(
            "/api/jobs",
            &json!({"puzzle": kanoodle, "action": "challenges", "set": 10, "seed": 5}),
        )
        .json()["id"]
        .as_u64()
        .unwrap();
    let j = s.wait_job(id, |j| j["state"] != "running");
    assert_eq!(j["state"], "done", "{j}");
    let r = &j["result"];
    assert!(
        r["line"]
            .as_str()
            .unwrap()
            .starts_with("challenge set of 10 challenges: 2 starter"),
        "{r}"
    );
    assert_eq!(r["challenges"].as_array().unwrap().len(), 10);
    assert_eq!(j["note"]["wanted"], 30, "{j}");
    // The booklet is the command line's, byte for byte.
    let out = tempfile::tempdir().unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_cubesat"))
        .args([
            "generate",
            "kanoodle-2d",
            "--set",
            "10",
            "--seed",
            "5",
            "-q",
            "--out",
        ])
        .arg(out.path())
        .output()
        .unwrap();
    assert!(status.status.success());
    for (format, file) in [("book-pdf", "book.pdf"), ("book-html", "book.html")] {
        let got = s.post(
            &format!("/api/jobs/{id}/download"),
            &json!({"format": format}),
        );
        assert_eq!(got.status, 200, "{}", got.body);
        assert!(
            got.bytes == std::fs::read(out.path().join(file)).unwrap(),
            "{format} differs from the CLI's {file}"
        );
    }
    let set = s
        .post(
            &format!("/api/jobs/{id}/download"),
            &json!({"format": "set-json"}),
        )
        .json();
    assert_eq!(set["challenges"].as_object().unwrap().len(), 10);
    // A large set stops soon after Stop, with nothing half made.
    let tetris = std::fs::read_to_string(puzzle_file("tetris-cube")).unwrap();
    let id = s
        .post(
            "/api/jobs",
            &json!({"puzzle": tetris, "action": "challenges", "set": 1000}),
        )
        .json()["id"]
        .as_u64()
        .unwrap();
    s.wait_job(id, |j| j["note"]["found"].as_u64().unwrap_or(0) > 0);
    s.post(&format!("/api/jobs/{id}/stop"), &json!({}))
        .expect(200, "\"stopped\":\"stopped\"");
    let j = s.wait_job(id, |j| j["state"] != "running");
    assert_eq!(j["result"]["interrupted"], true, "{j}");
    assert_eq!(
        j["result"]["line"],
        "no challenge set: stopped before it was made"
    );
    s.post(
        &format!("/api/jobs/{id}/download"),
        &json!({"format": "book-pdf"}),
    )
    .expect(400, "offers no");
}

#[test]
fn studio_refuses_other_origins_other_hosts_and_cross_site_requests() {
    let s = Studio::start(&["-q"]);
    let body = slow_count().to_string();
    let post = |headers: &str| {
        s.send(
            &format!(
                "POST /api/jobs HTTP/1.1\r\n{headers}\r\nContent-Type: application/json\r\nContent-Length: {}",
                body.len()
            ),
            body.as_bytes(),
        )
    };
    let host = format!("Host: {}", s.addr);
    post(&format!("{host}\r\nOrigin: http://evil.example")).expect(
        403,
        "Origin 'http://evil.example' is not this server's own page",
    );
    post(&format!("{host}\r\nOrigin: null")).expect(403, "Origin 'null'");
    // DNS rebinding: a name that resolves to 127.0.0.1 but is not this server's.
    let port = s.addr.rsplit(':').next().unwrap();
    let rebound = format!("evil.example:{port}");
    post(&format!("Host: {rebound}\r\nOrigin: http://{rebound}"))
        .expect(403, "Host 'evil.example:");
    s.send(
        &format!("GET /api/library HTTP/1.1\r\nHost: {rebound}"),
        b"",
    )
    .expect(403, "is not this server");
    s.send("GET / HTTP/1.1\r\nHost: 192.0.2.1", b"")
        .expect(403, "Host '192.0.2.1'");
    // A form or image on another site (no Origin on an image; the browser says where from).
    post(&format!("{host}\r\nSec-Fetch-Site: cross-site"))
        .expect(403, "a request from another site");
    s.send(
        &format!("GET /api/library HTTP/1.1\r\n{host}\r\nSec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: no-cors"),
        b"",
    )
    .expect(403, "another site");
    // A share link followed from elsewhere opens the page, and nothing more.
    s.send(
        &format!(
            "GET / HTTP/1.1\r\n{host}\r\nSec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: navigate"
        ),
        b"",
    )
    .expect(200, "cubesat studio");
    // None of the refused requests started a job.
    s.get("/api/jobs/1").expect(404, "no job 1");
}

#[test]
fn studio_refuses_an_oversized_body_before_reading_it() {
    let s = Studio::start(&["-q"]);
    let too_big = cubesat::puzzle::json::MAX_FILE_BYTES + (64 << 10) + 1;
    // Only the headers are sent: the refusal must not wait for (or store) the body.
    s.send(
        &format!(
            "POST /api/check HTTP/1.1\r\nHost: {0}\r\nOrigin: http://{0}\r\nContent-Type: application/json\r\nContent-Length: {too_big}",
            s.addr
        ),
        b"",
    )
    .expect(413, "larger than the");
    // A body within the bound is read, and a malformed puzzle in it is reported in place.
    let check = s.post(
        "/api/check",
        &json!({"puzzle": "{\"target\": {\"box\": [2, 1, 1]}, \"pieces\": [{\"name\": \"a\", \"layers\": [[\"#x\"]]}]}"}),
    );
    let v = check.json();
    assert_eq!(v["ok"], false, "{v}");
    assert_eq!(v["error"]["place"], "pieces[0].layers[0][0]", "{v}");
}

#[test]
fn studio_refuses_a_flood_of_jobs() {
    let s = Studio::start(&["-q"]);
    let mut ids = Vec::new();
    for _ in 0..4 {
        let r = s.post("/api/jobs", &slow_count());
        r.expect(201, "\"state\":\"running\"");
        ids.push(r.json()["id"].as_u64().unwrap());
    }
    s.post("/api/jobs", &slow_count())
        .expect(429, "4 jobs are running, the most the studio runs at once");
    for &id in &ids {
        s.post(&format!("/api/jobs/{id}/stop"), &json!({}))
            .expect(200, "\"stopped\":\"stopped\"");
    }
    for &id in &ids {
        let j = s.wait_job(id, |j| j["state"] != "running");
        assert_eq!(j["result"]["interrupted"], true, "{j}");
        let line = j["result"]["line"].as_str().unwrap();
        assert!(
            line.ends_with("counting every placement (interrupted: counted so far)"),
            "{line}"
        );
    }
    // With the flood stopped, a job starts again.
    let again = s.post("/api/jobs", &slow_count());
    again.expect(201, "running");
    let id = again.json()["id"].as_u64().unwrap();
    s.post(&format!("/api/jobs/{id}/stop"), &json!({}));
}

#[test]
fn studio_stops_a_job_whose_page_went_away() {
    let s = Studio::start(&["-q"]);
    let id = s.post("/api/jobs", &slow_count()).json()["id"]
        .as_u64()
        .unwrap();
    // The page watches the job's events, then goes away (the connection closes).
    {
        let mut events = TcpStream::connect(&s.addr).unwrap();
        events.set_read_timeout(Some(PATIENCE)).unwrap();
        write!(
            events,
            "GET /api/jobs/{id}/events HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
            s.addr
        )
        .unwrap();
        let mut seen = String::new();
        let mut buf = [0u8; 4096];
        while !seen.contains("event: progress") {
            let n = events.read(&mut buf).unwrap();
            assert!(n > 0, "the event stream ended: {seen}");
            seen.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
        // Watched, the job runs on.
        assert_eq!(s.get(&format!("/api/jobs/{id}")).json()["state"], "running");
    }
    let j = s.wait_job(id, |j| j["state"] != "running");
    assert_eq!(j["stopped"], "the page went away", "{j}");
    assert_eq!(j["result"]["interrupted"], true, "{j}");
}

#[test]
fn studio_warns_when_it_listens_beyond_loopback() {
    let s = Studio::start(&["--listen", "127.0.0.1"]);
    assert!(!s.stderr.contains("warning"), "{}", s.stderr);
    let open = Studio::start(&["--listen", "0.0.0.0", "-q"]);
    assert!(
        open.stderr
            .contains("cubesat: warning: listening on 0.0.0.0, not only on this machine"),
        "{}",
        open.stderr
    );
    // Even then, a DNS name other than localhost is refused.
    let port = open.addr.rsplit(':').next().unwrap();
    open.send(
        &format!("GET /api/library HTTP/1.1\r\nHost: evil.example:{port}"),
        b"",
    )
    .expect(403, "is not this server");
}

/// The ball puzzle of the STL tests: four pieces of three and four balls (14 in all), one
/// solution found at once.
const BALLS: &str = "ball-room-pyramid";

/// Downloads the STL of every piece and of the first solution of [`BALLS`] through the
/// studio's API (20 mm balls, a 0.4 mm gap), checks each is the file `cubesat stl` writes,
/// byte for byte, and keeps them in `dir` with, per file, its balls and contacts (touching
/// pairs) in `balls.txt`.
fn ball_stls_from_the_studio(dir: &std::path::Path) {
    let s = Studio::start(&["-q"]);
    let text = std::fs::read_to_string(puzzle_file(BALLS)).unwrap();
    let cli = Command::new(env!("CARGO_BIN_EXE_cubesat"))
        .args(["stl", BALLS, "--cube", "20", "--gap", "0.4", "-q", "--out"])
        .arg(dir.join("cli"))
        .output()
        .unwrap();
    assert!(
        cli.status.success(),
        "{}",
        String::from_utf8_lossy(&cli.stderr)
    );
    let puzzle = cubesat::puzzle::bundled(BALLS).unwrap();
    // Contacts as the sphere grid has them: balls at (±1, ±1, 0) and its permutations.
    let contacts = |cells: &[[i32; 3]]| {
        let touch = |a: &[i32; 3], b: &[i32; 3]| {
            let d: Vec<i32> = (0..3).map(|k| (a[k] - b[k]).abs()).collect();
            d.iter().sum::<i32>() == 2 && d.iter().all(|&x| x <= 1)
        };
        (0..cells.len())
            .flat_map(|i| (i + 1..cells.len()).map(move |j| (i, j)))
            .filter(|&(i, j)| touch(&cells[i], &cells[j]))
            .count()
    };
    let mut lines = String::new();
    let mut files = Vec::new();
    for (i, piece) in puzzle.pieces.iter().enumerate() {
        let got = s.post(
            "/api/download",
            &json!({"puzzle": text, "format": "stl-piece", "piece": i, "cube": 20, "gap": 0.4}),
        );
        assert_eq!(got.status, 200, "{}", got.body);
        let name = format!("piece-{}-{}.stl", i + 1, piece.name);
        assert!(
            got.head.contains(&format!("filename=\"{name}\"")),
            "{}",
            got.head
        );
        let cells = piece.shape.cells();
        lines.push_str(&format!("{name} {} {}\n", cells.len(), contacts(cells)));
        files.push((name, got.bytes));
    }
    let got = s.post(
        "/api/download",
        &json!({"puzzle": text, "format": "stl-solution", "cube": 20, "gap": 0.4}),
    );
    assert_eq!(got.status, 200, "{}", got.body);
    files.push(("solution.stl".to_string(), got.bytes));
    for (name, bytes) in &files {
        let want = std::fs::read(dir.join("cli").join(name)).unwrap();
        // Balls take thousands of triangles each; cubes would take a dozen.
        assert!(bytes.len() > 100_000, "{name}: {} bytes", bytes.len());
        assert!(*bytes == want, "{name}: the studio's STL is not the CLI's");
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    std::fs::write(dir.join("balls.txt"), lines).unwrap();
}

#[test]
fn studio_stl_of_a_ball_puzzle_is_the_clis() {
    let dir = tempfile::tempdir().unwrap();
    ball_stls_from_the_studio(dir.path());
}

#[test]
#[ignore = "needs python3 with trimesh; CI runs it with --include-ignored"]
fn studio_stl_of_a_ball_puzzle_is_balls_to_trimesh() {
    let python = crate::common::trimesh();
    let dir = tempfile::tempdir().unwrap();
    ball_stls_from_the_studio(dir.path());
    // Checks by trimesh, not by cubesat: every piece one closed body whose volume is within
    // 1.5 % below the exact union of its balls (radius 10 - gap/2) and necks (radius
    // 5 - gap/2, one per touching pair), far below the cubes' n x 20^3; the solution as many
    // bodies as pieces, of the pieces' volume.
    let script = r#"
import math, sys, trimesh
base = sys.argv[1]
R, r, d = 10 - 0.2, 5 - 0.2, 20
cap = 2 * math.pi / 3 * (R ** 3 - (R * R - r * r) ** 1.5)
pieces, total = 0, 0.0
for line in open(base + '/balls.txt'):
    f, n, contacts = line.split()
    n, contacts = int(n), int(contacts)
    m = trimesh.load(base + '/' + f)
    assert m.is_watertight and m.is_winding_consistent and m.is_volume, f
    assert len(m.split()) == 1, (f, len(m.split()))
    exact = n * 4 / 3 * math.pi * R ** 3 + contacts * (math.pi * r * r * d - 2 * cap)
    assert 0.985 < m.volume / exact < 1.0, (f, m.volume, exact)
    assert m.volume < 0.6 * n * d ** 3, (f, m.volume, 'cubes, not balls')
    pieces, total = pieces + 1, total + m.volume
s = trimesh.load(base + '/solution.stl')
assert s.is_watertight and s.is_winding_consistent, 'solution'
assert len(s.split()) == pieces, (len(s.split()), pieces)
assert abs(s.volume - total) < 1e-3 * total, (s.volume, total)
print('ok')
"#;
    let out = Command::new(python)
        .args(["-c", script])
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("ok"),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Node with the pinned playwright-core (tests/studio, `npm ci` there) and Chromium.
#[test]
#[ignore = "needs node, playwright-core (npm ci in tests/studio), Chromium and python3 with trimesh; CI runs it with --include-ignored"]
fn studio_page_end_to_end_in_chromium() {
    let root = env!("CARGO_MANIFEST_DIR");
    assert!(
        std::path::Path::new(root)
            .join("tests/studio/node_modules/playwright-core")
            .is_dir(),
        "playwright-core is not installed: run `npm ci --prefix tests/studio`"
    );
    let s = Studio::start(&["-q"]);
    let url = format!("http://{}/", s.addr);
    let out = Command::new("node")
        .arg("tests/studio/e2e.mjs")
        .arg(&url)
        .current_dir(root)
        .env("CUBESAT", env!("CARGO_BIN_EXE_cubesat"))
        .output()
        .expect("run node (install nodejs)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains(" passed, 0 failed"),
        "--- node tests/studio/e2e.mjs {url}\n--- stdout:\n{stdout}\n--- stderr:\n{stderr}"
    );
}

/// A request head sent on its own connection, the connection left open.
fn open_with(addr: &str, bytes: &[u8]) -> TcpStream {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.write_all(bytes).unwrap();
    s
}

/// Reads until the server closes `s` (an error such as a reset counts as closed too); false
/// when it is still open after `within`.
fn closed_within(s: &mut TcpStream, within: Duration) -> bool {
    s.set_read_timeout(Some(within)).unwrap();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return false;
            }
            Err(_) => return true,
        }
    }
}

#[test]
fn studio_closes_slow_and_idle_connections() {
    let s = Studio::start(&["-q"]);
    // 300 connections that never finish their request head: half send part of one, half
    // send nothing; ten of them go on sending a byte now and then.
    let mut slow: Vec<TcpStream> = (0..300)
        .map(|i| {
            open_with(
                &s.addr,
                if i % 2 == 0 {
                    b"GET / HTTP/1.1\r\nHo"
                } else {
                    b""
                },
            )
        })
        .collect();
    let mut trickling: Vec<TcpStream> = slow.drain(..10).collect();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let trickle = {
        let stop = stop.clone();
        let mut conns: Vec<TcpStream> = trickling.iter().map(|c| c.try_clone().unwrap()).collect();
        std::thread::spawn(move || {
            for _ in 0..60 {
                if stop.load(std::sync::atomic::Ordering::Relaxed) {
                    break;
                }
                for c in &mut conns {
                    let _ = c.write_all(b"s");
                }
                std::thread::sleep(Duration::from_millis(500));
            }
        })
    };
    // The page still loads at once (the issue asks for prompt; 5 s is a generous bound).
    let start = Instant::now();
    s.get("/").expect(200, "cubesat studio");
    let took = start.elapsed();
    assert!(took < Duration::from_secs(5), "GET / took {took:?}");
    // A kept-alive connection that answered one request and then idles.
    let mut idle = open_with(
        &s.addr,
        format!("GET /api/library HTTP/1.1\r\nHost: {}\r\n\r\n", s.addr).as_bytes(),
    );
    // Every one of them is closed after the bound (5 s; a minute is the test's patience).
    let patience = Duration::from_secs(60);
    for c in slow
        .iter_mut()
        .chain(trickling.iter_mut())
        .chain([&mut idle])
    {
        assert!(
            closed_within(c, patience),
            "a slow connection was left open"
        );
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    trickle.join().unwrap();
    // And the server goes on serving.
    s.get("/api/library").expect(200, "soma");
}
