//! cubesat studio: the whole tool in a browser page. A local web server ([`Server`]) serves
//! one offline page that reads, edits, draws, solves, counts, generates and exports puzzles
//! through the cubesat library, on the same engines and threads as the command line.
//!
//! Layers, bottom up: [`adapter`] (every call into the library), [`guard`] (which requests are
//! answered), `assets` (the page's files), [`jobs`] (runs on their own threads, watched and
//! stopped), `http` (routes and handlers), and this file (binding and serving).
//!
//! Safety of a server on the user's machine: it binds a loopback address unless another one
//! is asked for explicitly ([`Server::warning`] then says what that exposes); it answers only
//! requests whose Host is this server and whose Origin is its own page ([`guard`]); connections
//! (how many, how long a request head may take, how long one may idle), request bodies,
//! library work and running jobs are bounded; a job whose page went away is stopped; and
//! nothing is written to disk (every file is a download).

use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};
use std::time::Duration;

pub mod adapter;
mod assets;
pub mod guard;
mod http;
pub mod jobs;

/// What to serve on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// The address to listen on; `None` is 127.0.0.1.
    pub listen: Option<IpAddr>,
    /// The port (0: any free port).
    pub port: u16,
}

/// The studio's errors.
#[derive(Debug, thiserror::Error)]
pub enum StudioError {
    /// The address could not be bound.
    #[error("cannot listen on {addr}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The server failed while running.
    #[error("the server stopped")]
    Serve(#[source] std::io::Error),
}

/// A bound server, not yet serving.
pub struct Server {
    listener: TcpListener,
    allowed: guard::Allowed,
}

impl Server {
    /// Binds the address; nothing is served before [`Server::run`].
    pub fn bind(config: &Config) -> Result<Server, StudioError> {
        let ip = config.listen.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
        let addr = SocketAddr::new(ip, config.port);
        let listener = TcpListener::bind(addr)
            .and_then(|l| l.set_nonblocking(true).map(|()| l))
            .map_err(|source| StudioError::Bind { addr, source })?;
        let port = listener
            .local_addr()
            .map_err(|source| StudioError::Bind { addr, source })?
            .port();
        Ok(Server {
            listener,
            allowed: guard::Allowed { listen: ip, port },
        })
    }

    /// The page's address.
    pub fn url(&self) -> String {
        let guard::Allowed { listen, port } = self.allowed;
        match listen {
            ip if ip.is_unspecified() => format!("http://127.0.0.1:{port}/"),
            IpAddr::V6(ip) => format!("http://[{ip}]:{port}/"),
            ip => format!("http://{ip}:{port}/"),
        }
    }

    /// What listening on a non-loopback address exposes, when it does.
    pub fn warning(&self) -> Option<String> {
        let ip = self.allowed.listen;
        (!ip.is_loopback()).then(|| {
            format!(
                "listening on {ip}, not only on this machine: anyone who can reach {ip} port {} can use the studio and run jobs on this machine's cores",
                self.allowed.port
            )
        })
    }

    /// Serves until the process ends.
    pub fn run(self) -> Result<(), StudioError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(StudioError::Serve)?;
        runtime.block_on(async move {
            let listener =
                tokio::net::TcpListener::from_std(self.listener).map_err(StudioError::Serve)?;
            let app = http::App::new(self.allowed);
            let reaper = app.clone();
            tokio::spawn(async move {
                let mut tick = tokio::time::interval(Duration::from_secs(1));
                loop {
                    tick.tick().await;
                    reaper.reap();
                }
            });
            serve(listener, http::router(app)).await;
            Ok(())
        })
    }
}

/// A connection must send a whole request head within this time of opening, or of its last
/// response when it is kept alive: a local page sends one in microseconds, and a connection
/// that sends nothing, or a byte at a time, would otherwise be held open for ever (300 of
/// them locked the page out where file descriptors are few).
pub const HEAD_TIME: Duration = Duration::from_secs(5);
/// Connections served at once; more wait in the system's queue until one closes (every slow
/// one does within [`HEAD_TIME`]). Well above what a page opens (a browser opens six per
/// server), so that a flood of slow connections does not keep the page waiting.
pub const MAX_CONNECTIONS: usize = 1024;

/// Accepts connections and serves each on a task of its own with hyper's HTTP/1 server: at
/// most [`MAX_CONNECTIONS`] at once, each closed when its request head takes longer than
/// [`HEAD_TIME`] (idle kept-alive connections included). Request bodies are bounded in time
/// where they are read (`http::read`).
async fn serve(listener: tokio::net::TcpListener, router: axum::Router) {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let slots = std::sync::Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(HEAD_TIME)
        .keep_alive(true);
    loop {
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return;
        };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(_) => {
                // Out of file descriptors, or a connection reset before it was accepted:
                // try again shortly rather than spin.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let service = hyper_util::service::TowerToHyperService::new(router.clone());
        let conn = builder.serve_connection(TokioIo::new(stream), service);
        tokio::spawn(async move {
            // A closed or timed-out connection is no error of the server's.
            let _ = conn.await;
            drop(slot);
        });
    }
}

/// Opens `url` in the desktop's browser (`xdg-open`, `open` on macOS, `start` on Windows).
pub fn open_in_browser(url: &str) -> std::io::Result<()> {
    let mut cmd = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    cmd.arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(|_| ())
}
