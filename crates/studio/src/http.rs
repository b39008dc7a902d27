//! The studio's HTTP surface: the page and its assets, and the JSON API the page calls.
//!
//! ```text
//! GET  /                                  the page (and /static/* its scripts and styles)
//! GET  /api/library                       the bundled puzzles
//! GET  /api/catalog                       every bundled and catalog puzzle with its counts
//! GET  /api/grids                         every grid the library has: name, title, cell noun,
//!                                         frame, typed cell outline, whether it comes apart,
//!                                         BurrTools type
//! GET  /api/library/{key}                 one bundled or catalog puzzle's file text
//! GET  /api/library/{key}/sheet.svg       its target and pieces drawn
//! POST /api/sheet.svg      {puzzle}       the same for any puzzle text (a dropped file)
//! POST /api/import[?problem=P] file bytes a dropped file (X-File-Name, X-Problem or ?problem)
//!                                         as JSON text, a BurrTools file's problems listed
//! POST /api/check          {puzzle, view} the editor's check: info, error with its place, 3D page
//! POST /api/download       {puzzle, format, ...}  a file: JSON, .xmpuzzle, exports, sheets, STL
//! POST /api/jobs           {puzzle, action, ...}  start a solve, count, generation,
//!                                         disassembly or estimate
//! GET  /api/jobs/{id}                     its state (a poll keeps it watched)
//! GET  /api/jobs/{id}/events              its state every 250 ms (server-sent events) until it
//!                                         ends; a job no page watches is stopped
//! POST /api/jobs/{id}/stop                stop it (it reports what it found)
//! GET  /api/jobs/{id}/solutions/{n}       solution n: text, SVG, 3D page, assembly steps
//! POST /api/jobs/{id}/solutions/{n}/download {format}  one solution as a file
//! GET  /api/jobs/{id}/solutions.jsonl     the kept solutions as JSON Lines
//! GET  /api/jobs/{id}/disassembly?sort=level&apart=1&offset=0&count=100
//!                                         a disassembly's solutions: level, moves, apart
//! POST /api/jobs/{id}/download {format}   a file the job offers (an estimate's `sbatch`,
//!                                         `shards`)
//! ```
//!
//! Every request first passes [`crate::guard`]; bodies are bounded by
//! [`adapter::MAX_BODY_BYTES`]; library work runs on blocking threads, at most
//! [`MAX_BLOCKING`] at a time. Nothing is written to disk: downloads are responses.

use std::convert::Infallible;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Path, RawQuery, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use base64::prelude::{BASE64_STANDARD, Engine as _};
use cubesat::render::{Container, Scene, ScenePiece};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};

use crate::adapter::{self, Contents, Download, Failure, View};
use crate::assets;
use crate::guard::{self, Allowed};
use crate::jobs::{Job, Jobs};

/// Library calls (checks, drawings, downloads) running at once; more wait their turn.
pub const MAX_BLOCKING: usize = 4;

/// How often an event stream reports a running job.
const TICK: Duration = Duration::from_millis(250);

/// The server's state.
pub struct App {
    allowed: Allowed,
    jobs: Jobs,
    work: Arc<Semaphore>,
}

impl App {
    /// A server answering requests for `allowed`.
    pub fn new(allowed: Allowed) -> Arc<App> {
        Arc::new(App {
            allowed,
            jobs: Jobs::default(),
            work: Arc::new(Semaphore::new(MAX_BLOCKING)),
        })
    }

    /// Stops the jobs whose pages went away; called every second.
    pub fn reap(&self) {
        self.jobs.reap();
    }
}

/// The routes.
pub fn router(app: Arc<App>) -> Router {
    // Worked out now rather than on the first request, which it would slow.
    csp();
    Router::new()
        .route("/", get(index))
        .route("/static/{file}", get(asset))
        .route("/api/library", get(library))
        .route("/api/catalog", get(catalog))
        .route("/api/grids", get(grids))
        .route("/api/library/{key}", get(bundled))
        .route("/api/library/{key}/sheet.svg", get(bundled_sheet))
        .route("/api/sheet.svg", post(sheet))
        .route("/api/import", post(import))
        .route("/api/check", post(check))
        .route("/api/download", post(download))
        .route("/api/jobs", post(start))
        .route("/api/jobs/{id}", get(status))
        .route("/api/jobs/{id}/events", get(events))
        .route("/api/jobs/{id}/stop", post(stop))
        .route("/api/jobs/{id}/solutions/{n}", get(solution))
        .route(
            "/api/jobs/{id}/solutions/{n}/download",
            post(solution_download),
        )
        .route("/api/jobs/{id}/solutions.jsonl", get(jsonl))
        .route("/api/jobs/{id}/disassembly", get(disassembly))
        .route("/api/jobs/{id}/download", post(job_download))
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(app.clone(), checked))
        .with_state(app)
}

/// The Content-Security-Policy of every response: the page may load only from this server,
/// talk only to it and be framed only by itself, and no inline script or style runs
/// ('unsafe-inline' is gone) but those of its 3D views. Those views are the library's
/// self-contained HTML pages ([`cubesat::render::html`]) shown in `<iframe srcdoc>`, and a
/// srcdoc frame inherits the page's CSP: their inline style, error recorder and viewer script
/// are allowed by their sha256 hashes. The hashes are worked out once, at start-up, from a page
/// the renderer draws, so a change to the viewer (render/viewer.js) or to the page's head
/// changes them with it: none is written by hand.
fn csp() -> &'static HeaderValue {
    static CSP: OnceLock<HeaderValue> = OnceLock::new();
    CSP.get_or_init(|| {
        let (scripts, styles) = inline_hashes(&cubesat::render::html(&[csp_scene()]));
        let policy = format!(
            "default-src 'self'; script-src 'self' {}; style-src 'self' {}; img-src 'self' data: blob:; connect-src 'self'; frame-src 'self' blob:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'",
            scripts.join(" "),
            styles.join(" ")
        );
        HeaderValue::from_str(&policy).expect("a CSP of ASCII words and base64 hashes")
    })
}

/// The scene whose 3D page gives the CSP's hashes: one cube. A page's inline scripts and
/// styles do not depend on its scenes (those are in its JSON data block, which never runs).
fn csp_scene() -> Scene {
    Scene {
        title: "cubesat".to_string(),
        containers: vec![Container {
            origin: [0; 3],
            size: [1; 3],
        }],
        pieces: vec![ScenePiece {
            name: "A".to_string(),
            letter: 'A',
            cells: vec![[0; 3]],
            ..ScenePiece::default()
        }],
        ..Scene::default()
    }
}

/// The CSP sources (`'sha256-...'`) of a page's inline `<script>`s and `<style>`s, each
/// listed once: the text between the tags, as the browser hashes it. A
/// `<script type="application/json">` is data the browser never runs, so it needs none.
fn inline_hashes(page: &str) -> (Vec<String>, Vec<String>) {
    let of = |tag: &str| {
        let (open, close) = (format!("<{tag}"), format!("</{tag}>"));
        let mut out: Vec<String> = Vec::new();
        let mut rest = page;
        while let Some(i) = rest.find(&open) {
            let after = &rest[i + open.len()..];
            // `<styles>` or `<scripts-x>` would be other elements.
            if !after.starts_with(['>', ' ', '\t', '\n']) {
                rest = after;
                continue;
            }
            let Some(head_end) = after.find('>') else {
                break;
            };
            let attributes = &after[..head_end];
            let body = &after[head_end + 1..];
            let Some(body_end) = body.find(&close) else {
                break;
            };
            if !attributes.contains("application/json") {
                let digest = Sha256::digest(&body.as_bytes()[..body_end]);
                let source = format!("'sha256-{}'", BASE64_STANDARD.encode(digest));
                if !out.contains(&source) {
                    out.push(source);
                }
            }
            rest = &body[body_end + close.len()..];
        }
        out
    };
    (of("script"), of("style"))
}

/// Refuses what [`guard::check`] refuses and bodies over the bound, and sets the security
/// headers of every response.
async fn checked(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    if let Err(r) = guard::check(&app.allowed, req.method(), req.uri().path(), req.headers()) {
        return plain(StatusCode::FORBIDDEN, &format!("refused: {r}"));
    }
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > adapter::MAX_BODY_BYTES as u64) {
        return too_large().into_response();
    }
    let mut resp = next.run(req).await;
    let h = resp.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, csp().clone());
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(
        "cross-origin-resource-policy",
        HeaderValue::from_static("same-origin"),
    );
    h.entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-store"));
    resp
}

fn plain(status: StatusCode, text: &str) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        format!("cubesat studio: {text}\n"),
    )
        .into_response()
}

/// A refused or failed call: its status and the one-line failure, sent as
/// `{"error": {"message", "place"}}`.
struct Refused(StatusCode, Failure);

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        (self.0, json_body(&json!({ "error": self.1.to_json() }))).into_response()
    }
}

/// What a handler answers.
type Answer = Result<Response, Refused>;

fn bad(f: Failure) -> Refused {
    Refused(StatusCode::BAD_REQUEST, f)
}

fn too_large() -> Refused {
    Refused(
        StatusCode::PAYLOAD_TOO_LARGE,
        Failure::new(format!(
            "the request body is larger than the {} bytes the studio reads (a puzzle file of at most {} bytes)",
            adapter::MAX_BODY_BYTES,
            adapter::MAX_BODY_BYTES - (64 << 10)
        )),
    )
}

fn json_body(v: &Value) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], v.to_string()).into_response()
}

fn nothing() -> Refused {
    Refused(StatusCode::NOT_FOUND, Failure::new("no such page or call"))
}

async fn not_found() -> Refused {
    nothing()
}

/// How long a request body may take to arrive: a page sends its largest (a puzzle file of
/// megabytes) in well under a second, and a body sent a byte at a time would hold its
/// connection for ever.
pub const BODY_TIME: Duration = Duration::from_secs(30);

/// Reads a body of at most [`adapter::MAX_BODY_BYTES`] within [`BODY_TIME`].
async fn read(body: Body) -> Result<Bytes, Refused> {
    match tokio::time::timeout(
        BODY_TIME,
        axum::body::to_bytes(body, adapter::MAX_BODY_BYTES),
    )
    .await
    {
        Ok(read) => read.map_err(|_| too_large()),
        Err(_) => Err(Refused(
            StatusCode::REQUEST_TIMEOUT,
            Failure::new(format!(
                "the request body did not arrive within {} seconds",
                BODY_TIME.as_secs()
            )),
        )),
    }
}

/// Reads a JSON object body.
async fn read_json(body: Body) -> Result<Value, Refused> {
    let bytes = read(body).await?;
    let v: Value = serde_json::from_slice(&bytes).map_err(|e| {
        bad(Failure::new(format!(
            "the request is not JSON: line {}, column {}",
            e.line(),
            e.column()
        )))
    })?;
    if v.is_object() {
        Ok(v)
    } else {
        Err(bad(Failure::new("the request must be a JSON object")))
    }
}

/// The request's puzzle text (`"puzzle"`, a string holding the puzzle file).
fn puzzle_text(v: &Value) -> Result<String, Refused> {
    match v.get("puzzle") {
        Some(Value::String(s)) => Ok(s.clone()),
        _ => Err(bad(Failure::new(
            "the request has no 'puzzle' (the puzzle file's text)",
        ))),
    }
}

/// A permit for one library call (at most [`MAX_BLOCKING`] run at once).
async fn permit(app: &App) -> Result<OwnedSemaphorePermit, Refused> {
    app.work.clone().acquire_owned().await.map_err(|_| {
        Refused(
            StatusCode::SERVICE_UNAVAILABLE,
            Failure::new("the server is shutting down"),
        )
    })
}

/// Runs library work on a blocking thread, at most [`MAX_BLOCKING`] at once.
async fn blocking<T: Send + 'static>(
    app: &App,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Refused> {
    let _permit = permit(app).await?;
    tokio::task::spawn_blocking(f).await.map_err(|e| {
        Refused(
            StatusCode::INTERNAL_SERVER_ERROR,
            Failure::new(format!("internal error: {e}")),
        )
    })
}

/// Chunks of a streamed download on their way to the response.
const CHUNK: usize = 64 << 10;

/// Writes into a response body through a small channel, so that a large download is never
/// held whole: the writer waits while the page reads, and fails once the page is gone.
struct Channel {
    tx: mpsc::Sender<Result<Bytes, std::io::Error>>,
    buf: Vec<u8>,
}

impl std::io::Write for Channel {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        if self.buf.len() >= CHUNK {
            self.flush()?;
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let chunk = Bytes::from(std::mem::take(&mut self.buf));
        self.tx.blocking_send(Ok(chunk)).map_err(|_| {
            std::io::Error::new(
                std::io::ErrorKind::BrokenPipe,
                "the page closed the download",
            )
        })
    }
}

/// The response for a download: its bytes, or its writer run on a blocking thread (holding
/// `permit` until it is done) while the body streams out. A writer that fails ends the body
/// with an error, so the browser reports a failed download rather than a short file.
fn attachment(d: Download, permit: OwnedSemaphorePermit) -> Response {
    let body = match d.contents {
        Contents::Bytes(bytes) => Body::from(bytes),
        Contents::Stream(write) => {
            let (tx, rx) = mpsc::channel(4);
            tokio::task::spawn_blocking(move || {
                let _permit = permit;
                let mut out = Channel {
                    tx: tx.clone(),
                    buf: Vec::with_capacity(CHUNK),
                };
                let done = write(&mut out).and_then(|()| {
                    std::io::Write::flush(&mut out).map_err(|e| Failure::new(e.to_string()))
                });
                if let Err(f) = done {
                    let _ = tx.blocking_send(Err(std::io::Error::other(f.message)));
                }
            });
            Body::from_stream(futures_util::stream::unfold(rx, |mut rx| async move {
                rx.recv().await.map(|item| (item, rx))
            }))
        }
    };
    // File names come from puzzle names made file-safe (ASCII letters, digits, - and _).
    let disposition = format!("attachment; filename=\"{}\"", d.file_name);
    let mut resp = ([(header::CONTENT_TYPE, d.mime)], body).into_response();
    if let Ok(v) = HeaderValue::from_str(&disposition) {
        resp.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    resp
}

/// Prepares a download on a blocking thread and sends it; the permit is held until the
/// last byte is written.
async fn send(
    app: &App,
    prepare: impl FnOnce() -> Result<Download, Failure> + Send + 'static,
) -> Answer {
    let permit = permit(app).await?;
    let d = tokio::task::spawn_blocking(prepare)
        .await
        .map_err(|e| {
            Refused(
                StatusCode::INTERNAL_SERVER_ERROR,
                Failure::new(format!("internal error: {e}")),
            )
        })?
        .map_err(bad)?;
    Ok(attachment(d, permit))
}

async fn index() -> Answer {
    asset(Path("index.html".to_string())).await
}

async fn asset(Path(file): Path<String>) -> Answer {
    let (bytes, mime) = assets::get(&file).ok_or_else(nothing)?;
    Ok(([(header::CONTENT_TYPE, mime)], bytes).into_response())
}

async fn library(State(app): State<Arc<App>>) -> Answer {
    Ok(json_body(&blocking(&app, adapter::library).await?))
}

async fn catalog(State(app): State<Arc<App>>) -> Answer {
    let text = blocking(&app, adapter::catalog).await?;
    let mut resp = ([(header::CONTENT_TYPE, "application/json")], text).into_response();
    // Built into the binary: the list never changes while the server runs.
    resp.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, max-age=3600"),
    );
    Ok(resp)
}

async fn grids() -> Answer {
    let mut resp = json_body(&adapter::grids());
    // The library's grids never change while the server runs.
    resp.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, max-age=3600"),
    );
    Ok(resp)
}

fn bundled_text(key: &str) -> Result<String, Refused> {
    adapter::bundled_text(key).map_err(|f| Refused(StatusCode::NOT_FOUND, f))
}

async fn bundled(Path(key): Path<String>) -> Answer {
    let text = bundled_text(&key)?;
    Ok(json_body(&json!({ "key": key, "text": text })))
}

fn svg(s: String) -> Response {
    ([(header::CONTENT_TYPE, "image/svg+xml")], s).into_response()
}

async fn bundled_sheet(State(app): State<Arc<App>>, Path(key): Path<String>) -> Answer {
    let text = bundled_text(&key)?;
    let mut resp = svg(blocking(&app, move || adapter::sheet_svg(&text))
        .await?
        .map_err(bad)?);
    // The bundled puzzles are built into the binary: their drawings never change.
    resp.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, max-age=3600"),
    );
    Ok(resp)
}

async fn sheet(State(app): State<Arc<App>>, body: Body) -> Answer {
    let text = puzzle_text(&read_json(body).await?)?;
    Ok(svg(blocking(&app, move || adapter::sheet_svg(&text))
        .await?
        .map_err(bad)?))
}

/// A header's text, if any.
fn header_text(h: &HeaderMap, name: &str) -> Option<String> {
    h.get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

async fn import(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    body: Body,
) -> Answer {
    let bytes = read(body).await?;
    let name = header_text(&headers, "x-file-name").unwrap_or_else(|| "dropped file".into());
    let problem =
        query_value(query.as_deref(), "problem").or_else(|| header_text(&headers, "x-problem"));
    let i = blocking(&app, move || {
        adapter::import(&bytes, &name, problem.as_deref())
    })
    .await?
    .map_err(bad)?;
    Ok(json_body(&json!({
        "text": i.text,
        "problems": i.problems,
        "problem": i.problem,
        "notes": i.notes,
        "problem_list": i.problem_list,
        "burrtools": i.burrtools,
    })))
}

/// The value of `key` in a query string (`a=1&b=x%20y`), percent-decoded; `None` when absent
/// or not UTF-8.
fn query_value(query: Option<&str>, key: &str) -> Option<String> {
    query?.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        (k == key).then(|| percent_decoded(v)).flatten()
    })
}

/// `x%20y+z` as `x y z`.
fn percent_decoded(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => {
                let hex = std::str::from_utf8(&b[i + 1..i + 3]).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

async fn check(State(app): State<Arc<App>>, body: Body) -> Answer {
    let v = read_json(body).await?;
    let text = puzzle_text(&v)?;
    let view = match v.get("view").and_then(Value::as_u64) {
        Some(i) => View::Piece(i as usize),
        None => View::Sheet,
    };
    Ok(json_body(
        &blocking(&app, move || adapter::check(&text, view)).await?,
    ))
}

async fn download(State(app): State<Arc<App>>, body: Body) -> Answer {
    let v = read_json(body).await?;
    let text = puzzle_text(&v)?;
    send(&app, move || adapter::download(&text, &v)).await
}

async fn start(State(app): State<Arc<App>>, body: Body) -> Answer {
    let v = read_json(body).await?;
    let text = puzzle_text(&v)?;
    let req = adapter::run_request(&v).map_err(bad)?;
    let (text, req) = blocking(&app, move || {
        adapter::precheck(&text, &req).map(|()| (text, req))
    })
    .await?
    .map_err(bad)?;
    let job = app.jobs.start(text, req).map_err(|busy| {
        Refused(
            StatusCode::TOO_MANY_REQUESTS,
            Failure::new(busy.to_string()),
        )
    })?;
    Ok((StatusCode::CREATED, json_body(&job.status())).into_response())
}

fn job(app: &App, id: &str) -> Result<Arc<Job>, Refused> {
    id.parse::<u64>()
        .ok()
        .and_then(|id| app.jobs.get(id))
        .ok_or_else(|| {
            Refused(
                StatusCode::NOT_FOUND,
                Failure::new(format!("no job {id} (finished jobs are kept a while only)")),
            )
        })
}

async fn status(State(app): State<Arc<App>>, Path(id): Path<String>) -> Answer {
    let job = job(&app, &id)?;
    job.touch();
    Ok(json_body(&job.status()))
}

async fn stop(State(app): State<Arc<App>>, Path(id): Path<String>) -> Answer {
    let j = job(&app, &id)?;
    j.stop("stopped");
    Ok(json_body(&j.status()))
}

/// The job's state every [`TICK`] until it ends (`event: progress`, then one `event: end`).
/// The stream holds the job watched: when the page goes away the connection closes, the
/// stream is dropped, and [`Jobs::reap`] stops the job.
async fn events(State(app): State<Arc<App>>, Path(id): Path<String>) -> Answer {
    let job = job(&app, &id)?;
    let watch = job.watch();
    let start = (job, watch, tokio::time::interval(TICK));
    let stream = futures_util::stream::unfold(Some(start), |state| async move {
        let (job, watch, mut tick) = state?;
        tick.tick().await;
        let status = job.status();
        let ended = status["state"] != "running";
        let event = Event::default()
            .event(if ended { "end" } else { "progress" })
            .data(status.to_string());
        let next = (!ended).then_some((job, watch, tick));
        Some((Ok::<Event, Infallible>(event), next))
    });
    Ok(Sse::new(stream).into_response())
}

/// The job and solution number of a path.
fn job_solution(app: &App, id: &str, n: &str) -> Result<(Arc<Job>, u64), Refused> {
    let job = job(app, id)?;
    let n = n
        .parse()
        .map_err(|_| bad(Failure::new(format!("'{n}' is not a solution number"))))?;
    Ok((job, n))
}

async fn solution(State(app): State<Arc<App>>, Path((id, n)): Path<(String, String)>) -> Answer {
    let (job, n) = job_solution(&app, &id, &n)?;
    let v = blocking(&app, move || job.solution_view(n))
        .await?
        .map_err(|f| Refused(StatusCode::NOT_FOUND, f))?;
    Ok(json_body(&v))
}

async fn solution_download(
    State(app): State<Arc<App>>,
    Path((id, n)): Path<(String, String)>,
    body: Body,
) -> Answer {
    let (job, n) = job_solution(&app, &id, &n)?;
    let spec = read_json(body).await?;
    send(&app, move || job.solution_download(n, &spec)).await
}

async fn jsonl(State(app): State<Arc<App>>, Path(id): Path<String>) -> Answer {
    let job = job(&app, &id)?;
    send(&app, move || job.jsonl()).await
}

/// A whole number query parameter within `0..=max`, or `default`.
fn query_number(query: Option<&str>, key: &str, default: u64, max: u64) -> Result<u64, Refused> {
    match query_value(query, key) {
        None => Ok(default),
        Some(v) => v.parse::<u64>().ok().filter(|n| *n <= max).ok_or_else(|| {
            bad(Failure::new(format!(
                "'{key}' must be a whole number from 0 to {max}"
            )))
        }),
    }
}

async fn disassembly(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Answer {
    let job = job(&app, &id)?;
    job.touch();
    let q = query.as_deref();
    let by_level = match query_value(q, "sort").as_deref() {
        None | Some("found") => false,
        Some("level") => true,
        Some(other) => {
            return Err(bad(Failure::new(format!(
                "unknown sort '{other}' (found or level)"
            ))));
        }
    };
    let apart = match query_value(q, "apart").as_deref() {
        None | Some("0") | Some("false") => false,
        Some("1") | Some("true") => true,
        Some(other) => {
            return Err(bad(Failure::new(format!(
                "'apart' must be 1 or 0, not '{other}'"
            ))));
        }
    };
    let offset = query_number(q, "offset", 0, adapter::MAX_LISTED)?;
    let count = query_number(q, "count", 100, crate::jobs::MAX_PAGE)?;
    let v = job
        .disassembly(by_level, apart, offset, count.max(1))
        .map_err(bad)?;
    Ok(json_body(&v))
}

async fn job_download(State(app): State<Arc<App>>, Path(id): Path<String>, body: Body) -> Answer {
    let job = job(&app, &id)?;
    let spec = read_json(body).await?;
    let format = match spec.get("format") {
        Some(Value::String(f)) => f.clone(),
        _ => {
            return Err(bad(Failure::new(
                "the request has no 'format' (the file the job offers)",
            )));
        }
    };
    send(&app, move || job.attached(&format)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A body of `n` MiB sent in chunks, without a declared length.
    fn streamed(n: usize) -> Body {
        let chunk = Bytes::from(vec![b' '; 1 << 20]);
        Body::from_stream(futures_util::stream::iter(
            (0..n).map(move |_| Ok::<_, Infallible>(chunk.clone())),
        ))
    }

    #[test]
    fn inline_scripts_and_styles_are_hashed_as_the_browser_hashes_them() {
        let page = "<style>a{}</style><styles>no</styles><script id=\"data\" type=\"application/json\">{}</script>\n<script>x=1</script><script>x=1</script>";
        let (scripts, styles) = inline_hashes(page);
        assert_eq!(
            scripts,
            ["'sha256-HyBrEcI+KMwlDe1/wAmNOCOoRnpUNA8axOU1y4VEST8='"]
        );
        assert_eq!(
            styles,
            ["'sha256-X1RutGBrXCt9KkSaXMK7tHftWiRscFHOhxsS8tv8hBk='"]
        );
    }

    /// The hashes come from one scene's page: every 3D view the studio shows (a sheet of
    /// cubes, of balls, a piece, a solution) must have the same inline scripts and styles.
    #[test]
    fn the_csp_allows_the_inline_scripts_and_styles_of_every_3d_view() {
        let policy = csp().to_str().unwrap();
        assert!(!policy.contains("unsafe-inline"), "{policy}");
        for (key, view) in [
            ("soma", View::Sheet),
            ("iq-puzzler-pro-2d", View::Sheet),
            ("tetris-cube", View::Piece(0)),
        ] {
            let text = adapter::bundled_text(key).unwrap();
            let page = adapter::check(&text, view)["view"]
                .as_str()
                .unwrap()
                .to_string();
            let (scripts, styles) = inline_hashes(&page);
            // The error recorder and the viewer; the page's style.
            assert_eq!((scripts.len(), styles.len()), (2, 1), "{key}");
            for h in scripts.iter().chain(&styles) {
                assert!(policy.contains(h.as_str()), "{key}: {h} not in {policy}");
            }
        }
    }

    #[test]
    fn query_values_are_decoded() {
        let q = Some("sort=level&problem=two%20keys&x=a+b&bad=%zz");
        assert_eq!(query_value(q, "problem").as_deref(), Some("two keys"));
        assert_eq!(query_value(q, "x").as_deref(), Some("a b"));
        assert_eq!(query_value(q, "sort").as_deref(), Some("level"));
        assert_eq!(query_value(q, "bad"), None);
        assert_eq!(query_value(q, "none"), None);
        assert_eq!(query_value(Some("p=%4"), "p"), Some("%4".to_string()));
    }

    #[test]
    fn a_streamed_body_over_the_bound_is_refused() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        let over = adapter::MAX_BODY_BYTES / (1 << 20) + 1;
        let r = rt.block_on(read(streamed(over)));
        assert!(matches!(r, Err(Refused(StatusCode::PAYLOAD_TOO_LARGE, _))));
        let r = rt.block_on(read(streamed(over - 1)));
        assert_eq!(r.ok().map(|b| b.len()), Some((over - 1) << 20));
    }
}
