//! `cubesat studio`: serves the studio page (the `cubesat-studio` crate) until Ctrl-C; its address on stdout.

use anyhow::Result;

use cubesat_studio::{Config, Server, open_in_browser};

use crate::args::StudioArgs;

use super::Outcome;

pub fn run(args: &StudioArgs, quiet: bool) -> Result<Outcome> {
    let server = Server::bind(&Config {
        listen: args.listen,
        port: args.port,
    })?;
    if let Some(w) = server.warning() {
        eprintln!("cubesat: warning: {w}");
    }
    let url = server.url();
    println!("{url}");
    if !quiet {
        eprintln!("cubesat: studio at {url} (Ctrl-C stops it)");
    }
    if args.open
        && let Err(e) = open_in_browser(&url)
    {
        eprintln!("cubesat: warning: cannot open a browser ({e}); open {url}");
    }
    server.run()?;
    Ok(Outcome::Found)
}
