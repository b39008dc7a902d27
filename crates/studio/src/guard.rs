//! Which requests the studio answers: the Host must be this server (a loopback address,
//! `localhost`, or the listen address), an Origin must be this server's own, and a browser's
//! cross-site request is refused unless it is a plain navigation to the page.
//!
//! Why each rule: a page on another site can make a browser send requests to
//! `127.0.0.1:PORT` (forms, images, fetch). Such requests carry a foreign `Origin` (fetch,
//! forms) or `Sec-Fetch-Site: cross-site` (every request of a current browser), so they are
//! refused, save a top-level navigation to `/` (a share link clicked elsewhere), which only
//! returns the static page. DNS rebinding points a name the attacker owns at 127.0.0.1, so
//! the request is same-origin for the browser but names the attacker's host: a Host that is
//! a DNS name other than `localhost` is refused, whatever address it resolves to.

use std::net::IpAddr;

use axum::http::{HeaderMap, Method, header};

/// What the requests are checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allowed {
    /// The address the server listens on (a loopback address unless the user chose another).
    pub listen: IpAddr,
    /// The port it listens on.
    pub port: u16,
}

/// Why a request was refused (one line, sent as the response body).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// No Host header, or one that names another server.
    #[error(
        "Host '{0}' is not this server (a loopback address, localhost or the listen address, with its port)"
    )]
    Host(String),
    /// An Origin other than this server's own.
    #[error("Origin '{0}' is not this server's own page")]
    Origin(String),
    /// A browser request sent from another site.
    #[error("a request from another site ({0}) is refused")]
    CrossSite(String),
}

/// Checks one request's headers; `Ok` lets it through.
pub fn check(
    allowed: &Allowed,
    method: &Method,
    path: &str,
    headers: &HeaderMap,
) -> Result<(), Refusal> {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !host_is_ours(allowed, host) {
        return Err(Refusal::Host(shown(host)));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        // The page's own origin is exactly the scheme and the Host it was loaded from.
        let same = origin
            .strip_prefix("http://")
            .is_some_and(|o| o.eq_ignore_ascii_case(host));
        if !same {
            return Err(Refusal::Origin(shown(origin)));
        }
    }
    let site = headers
        .get("sec-fetch-site")
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !matches!(site, "" | "same-origin" | "none") {
        let navigation = headers
            .get("sec-fetch-mode")
            .is_some_and(|m| m.as_bytes() == b"navigate");
        if !(navigation && method == Method::GET && path == "/") {
            return Err(Refusal::CrossSite(shown(site)));
        }
    }
    Ok(())
}

/// A header value as shown in a message: at most 80 characters, control characters escaped.
fn shown(s: &str) -> String {
    let mut out: String = s.chars().take(80).flat_map(char::escape_default).collect();
    if s.chars().count() > 80 {
        out.push_str("...");
    }
    out
}

/// Whether a Host header names this server: its port, and `localhost`, a loopback address,
/// the listen address, or (when listening on every interface) any address literal.
fn host_is_ours(allowed: &Allowed, host: &str) -> bool {
    let (name, port) = match split_host(host) {
        Some(x) => x,
        None => return false,
    };
    if port.unwrap_or(80) != allowed.port {
        return false;
    }
    let name = name.strip_suffix('.').unwrap_or(name);
    if name.eq_ignore_ascii_case("localhost") {
        return true;
    }
    match name.parse::<IpAddr>() {
        Ok(ip) => ip.is_loopback() || ip == allowed.listen || allowed.listen.is_unspecified(),
        Err(_) => false,
    }
}

/// `name[:port]` or `[v6][:port]`; `None` when malformed.
fn split_host(host: &str) -> Option<(&str, Option<u16>)> {
    if host.is_empty() {
        return None;
    }
    let (name, rest) = if let Some(v6) = host.strip_prefix('[') {
        let end = v6.find(']')?;
        (&v6[..end], &v6[end + 1..])
    } else {
        match host.rfind(':') {
            Some(i) => (&host[..i], &host[i..]),
            None => (host, ""),
        }
    };
    let port = match rest {
        "" => None,
        r => Some(r.strip_prefix(':')?.parse().ok()?),
    };
    Some((name, port))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn loopback() -> Allowed {
        Allowed {
            listen: "127.0.0.1".parse().unwrap(),
            port: 7979,
        }
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    fn ok(a: &Allowed, pairs: &[(&'static str, &str)]) -> bool {
        check(a, &Method::POST, "/api/jobs", &headers(pairs)).is_ok()
    }

    #[test]
    fn hosts() {
        let a = loopback();
        for good in [
            "127.0.0.1:7979",
            "localhost:7979",
            "LOCALHOST.:7979",
            "[::1]:7979",
            "127.8.9.10:7979",
        ] {
            assert!(ok(&a, &[("host", good)]), "{good}");
        }
        for bad in [
            "",
            "127.0.0.1",
            "127.0.0.1:80",
            "evil.example:7979",
            "localhost.evil.example:7979",
            "192.168.1.2:7979",
            "[::1]7979",
            "127.0.0.1:7979:1",
        ] {
            assert!(!ok(&a, &[("host", bad)]), "{bad}");
        }
        let all = Allowed {
            listen: "0.0.0.0".parse().unwrap(),
            port: 7979,
        };
        assert!(ok(&all, &[("host", "192.168.1.2:7979")]));
        assert!(!ok(&all, &[("host", "box.example:7979")]));
        let one = Allowed {
            listen: "10.1.2.3".parse().unwrap(),
            port: 7979,
        };
        assert!(ok(&one, &[("host", "10.1.2.3:7979")]));
        assert!(!ok(&one, &[("host", "10.1.2.4:7979")]));
    }

    #[test]
    fn origins_and_sites() {
        let a = loopback();
        let host = ("host", "127.0.0.1:7979");
        assert!(ok(&a, &[host, ("origin", "http://127.0.0.1:7979")]));
        assert!(!ok(&a, &[host, ("origin", "http://localhost:7979")]));
        assert!(!ok(&a, &[host, ("origin", "https://127.0.0.1:7979")]));
        assert!(!ok(&a, &[host, ("origin", "null")]));
        assert!(!ok(&a, &[host, ("origin", "http://evil.example")]));
        assert!(ok(&a, &[host, ("sec-fetch-site", "same-origin")]));
        assert!(!ok(&a, &[host, ("sec-fetch-site", "cross-site")]));
        assert!(!ok(&a, &[host, ("sec-fetch-site", "same-site")]));
        let nav = headers(&[
            host,
            ("sec-fetch-site", "cross-site"),
            ("sec-fetch-mode", "navigate"),
        ]);
        assert!(check(&a, &Method::GET, "/", &nav).is_ok());
        assert!(check(&a, &Method::GET, "/api/library", &nav).is_err());
        assert!(check(&a, &Method::POST, "/", &nav).is_err());
    }
}
