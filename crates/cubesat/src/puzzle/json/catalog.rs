//! A puzzle file's published counts: `known_counts` and the `catalog` record (family, published counts and their findings, cubesat's counts, an unfinished count's estimate), read and written.

use serde_json::{Map, Value, json};

use super::{
    JsonPath, array, boolean, check_keys, found, integer, kind, object, string, too_large,
};
use crate::error::Result;
use crate::mode::UpTo;
use crate::puzzle::{
    Catalog, CatalogCounts, Counted, Estimate, Finding, Incomplete, KnownCounts, ModeCount,
    Published, Verdict,
};

/// `known_counts`: counts published for the puzzle, with their source.
pub(super) fn known_counts(v: &Value, path: &JsonPath) -> Result<KnownCounts> {
    let m = object(v, path, "known counts")?;
    check_keys(
        m,
        path,
        &["all", "rotation", "rotation+reflection", "source", "note"],
    )?;
    let num = |k: &str| -> Result<Option<u64>> {
        match m.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(x) => match x.as_u64() {
                Some(n) => Ok(Some(n)),
                None if too_large(x) && x.as_f64().is_some_and(|f| f > 0.0) => {
                    fail!(path.key(k), "{x} is out of range (0 to {})", u64::MAX)
                }
                None => fail!(
                    path.key(k),
                    "expected a non-negative integer or null, found {}",
                    found(x)
                ),
            },
        }
    };
    let source = match m.get("source") {
        Some(s) => Some(string(s, &path.key("source"), "a source")?.to_string()),
        None => None,
    };
    Ok(KnownCounts {
        all: num("all")?,
        rotation: num("rotation")?,
        rotation_reflection: num("rotation+reflection")?,
        source,
    })
}

/// The longest family name: it names a folder and a `list --family` argument.
const MAX_FAMILY_LEN: usize = 32;

/// A counting mode a catalog records (not BurrTools', which depends on the reader).
fn catalog_mode(v: &Value, path: &JsonPath) -> Result<UpTo> {
    let s = string(v, path, "a counting mode")?;
    match s.parse::<UpTo>() {
        Ok(UpTo::BurrTools) | Err(_) => fail!(
            path,
            "unknown counting mode '{s}' (expected none, rotation or rotation+reflection)"
        ),
        Ok(m) => Ok(m),
    }
}

/// A non-empty string of at most 4,096 characters (catalog text fields).
fn text(v: &Value, path: &JsonPath, what: &str) -> Result<String> {
    let s = string(v, path, what)?;
    if s.trim().is_empty() {
        fail!(path, "{what} is empty");
    }
    if s.chars().count() > 4096 {
        fail!(path, "{what} is longer than 4,096 characters");
    }
    Ok(s.to_string())
}

/// A catalog record's `cubesat`: cubesat's count per mode (null: the mode is undefined).
fn catalog_counts(v: &Value, path: &JsonPath) -> Result<CatalogCounts> {
    let m = object(v, path, "cubesat's counts per mode")?;
    check_keys(m, path, &["none", "rotation", "rotation+reflection"])?;
    let count = |k: &str| -> Result<ModeCount> {
        Ok(match m.get(k) {
            None => ModeCount::NotCounted,
            Some(Value::Null) => ModeCount::Undefined,
            Some(x) => match x.as_u64() {
                Some(n) => ModeCount::Count(n),
                None => fail!(
                    path.key(k),
                    "expected a non-negative integer or null (undefined), found {}",
                    kind(x)
                ),
            },
        })
    };
    Ok(CatalogCounts {
        none: count("none")?,
        rotation: count("rotation")?,
        rotation_reflection: count("rotation+reflection")?,
    })
}

/// How a disagreement with a published count was settled.
fn finding(v: &Value, path: &JsonPath) -> Result<Finding> {
    let m = object(v, path, "a finding")?;
    check_keys(m, path, &["verdict", "matches", "text"])?;
    let verdict = match m.get("verdict") {
        Some(x) => match string(x, &path.key("verdict"), "a verdict")? {
            "convention" => Verdict::Convention,
            "source" => Verdict::Source,
            other => fail!(
                path.key("verdict"),
                "unknown verdict '{other}' (expected convention or source)"
            ),
        },
        None => fail!(path, "the finding has no 'verdict'"),
    };
    let matches = match m.get("matches") {
        Some(x) => Some(catalog_mode(x, &path.key("matches"))?),
        None => None,
    };
    if matches.is_some() && verdict != Verdict::Convention {
        fail!(
            path.key("matches"),
            "'matches' names the mode of a 'convention' verdict"
        );
    }
    let text = match m.get("text") {
        Some(x) => text(x, &path.key("text"), "the finding's text")?,
        None => fail!(path, "the finding has no 'text'"),
    };
    Ok(Finding {
        verdict,
        matches,
        text,
    })
}

/// One published count; a count that differs from cubesat's in `counts` needs a finding, and
/// only such a count has one.
fn published(v: &Value, path: &JsonPath, counts: &CatalogCounts) -> Result<Published> {
    let m = object(v, path, "a published count")?;
    check_keys(
        m,
        path,
        &["count", "up_to", "convention", "source", "finding"],
    )?;
    let count = match m.get("count") {
        Some(x) => match x.as_u64() {
            Some(n) => n,
            None => fail!(
                path.key("count"),
                "expected a non-negative integer, found {}",
                kind(x)
            ),
        },
        None => fail!(path, "the published count has no 'count'"),
    };
    let need = |k: &str, what: &str| -> Result<String> {
        match m.get(k) {
            Some(x) => text(x, &path.key(k), what),
            None => fail!(path, "the published count has no '{k}'"),
        }
    };
    let up_to = match m.get("up_to") {
        Some(x) => catalog_mode(x, &path.key("up_to"))?,
        None => fail!(path, "the published count has no 'up_to'"),
    };
    let p = Published {
        count,
        up_to,
        convention: need("convention", "the convention")?,
        source: need("source", "the source")?,
        finding: match m.get("finding") {
            Some(f) => Some(finding(f, &path.key("finding"))?),
            None => None,
        },
    };
    // A disagreement is written down with its settlement, and only a disagreement is.
    if let ModeCount::Count(mine) = counts.get(up_to) {
        match (&p.finding, mine == count) {
            (None, false) => fail!(
                path,
                "the published count {count} ({up_to}) differs from cubesat's {mine}: add a 'finding' saying which is right"
            ),
            (Some(_), true) => fail!(
                path.key("finding"),
                "the published count {count} ({up_to}) agrees with cubesat's: there is nothing to settle"
            ),
            _ => {}
        }
    }
    if let Some(Finding {
        matches: Some(mode),
        ..
    }) = &p.finding
        && let ModeCount::Count(theirs) = counts.get(*mode)
        && theirs != count
    {
        fail!(
            path.key("finding").key("matches"),
            "cubesat counts {theirs} {}, not the published {count}",
            mode.phrase()
        );
    }
    Ok(p)
}

/// The `catalog` record.
pub(super) fn catalog(v: &Value, path: &JsonPath) -> Result<Catalog> {
    let m = object(v, path, "a catalog record")?;
    check_keys(
        m,
        path,
        &["family", "published", "cubesat", "slow", "incomplete"],
    )?;
    let family = match m.get("family") {
        Some(f) => {
            let fp = path.key("family");
            let f = string(f, &fp, "a family name")?;
            if f.is_empty()
                || f.len() > MAX_FAMILY_LEN
                || !f
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            {
                fail!(
                    fp,
                    "a family name is 1 to {MAX_FAMILY_LEN} characters of a-z, 0-9 and '-', found '{f}'"
                );
            }
            f.to_string()
        }
        None => fail!(path, "the catalog record has no 'family'"),
    };
    let counts = match m.get("cubesat") {
        Some(c) => catalog_counts(c, &path.key("cubesat"))?,
        None => CatalogCounts::default(),
    };
    let pp = path.key("published");
    let published = match m.get("published") {
        None => fail!(
            path,
            "the catalog record has no 'published' (null when no count is published)"
        ),
        Some(Value::Null) => Vec::new(),
        Some(p) => {
            let a = array(p, &pp, "a list of published counts, or null")?;
            if a.is_empty() {
                fail!(pp, "no published count: write null");
            }
            a.iter()
                .enumerate()
                .map(|(i, x)| published(x, &pp.index(i), &counts))
                .collect::<Result<Vec<_>>>()?
        }
    };
    let slow = match m.get("slow") {
        Some(b) => boolean(b, &path.key("slow"))?,
        None => false,
    };
    let incomplete = match m.get("incomplete") {
        Some(x) => Some(incomplete(x, &path.key("incomplete"))?),
        None => None,
    };
    Ok(Catalog {
        family,
        published,
        counts,
        slow,
        incomplete,
    })
}

/// A day, `YYYY-MM-DD`.
fn date(v: &Value, path: &JsonPath) -> Result<String> {
    let s = string(v, path, "a date")?;
    let b = s.as_bytes();
    let ok = b.len() == 10
        && b.iter().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        });
    if !ok {
        fail!(
            path,
            "expected a date YYYY-MM-DD, found '{}'",
            crate::echo::echo(s)
        );
    }
    Ok(s.to_string())
}

/// A finite non-negative number.
fn amount(v: &Value, path: &JsonPath) -> Result<f64> {
    match v.as_f64() {
        Some(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => fail!(path, "expected a non-negative number, found {}", found(v)),
    }
}

/// A catalog record's `incomplete` count: where the source says so, and how cubesat counted
/// or estimated it.
fn incomplete(v: &Value, path: &JsonPath) -> Result<Incomplete> {
    let m = object(v, path, "an incomplete count")?;
    check_keys(m, path, &["source", "convention", "counted", "estimate"])?;
    let need = |k: &str, what: &str| -> Result<String> {
        match m.get(k) {
            Some(x) => text(x, &path.key(k), what),
            None => fail!(path, "the incomplete count has no '{k}'"),
        }
    };
    let counted = match m.get("counted") {
        Some(c) => Some(counted(c, &path.key("counted"))?),
        None => None,
    };
    let estimate = match m.get("estimate") {
        Some(e) => Some(estimate(e, &path.key("estimate"))?),
        None => None,
    };
    Ok(Incomplete {
        source: need("source", "the source")?,
        convention: need("convention", "the convention")?,
        counted,
        estimate,
    })
}

/// How an incomplete record's counts were made (`counted`).
fn counted(c: &Value, cp: &JsonPath) -> Result<Counted> {
    let o = object(c, cp, "how the counts were made")?;
    check_keys(o, cp, &["date", "cpu_seconds", "how"])?;
    let get = |k: &str| match o.get(k) {
        Some(x) => Ok(x),
        None => fail!(cp, "'counted' has no '{k}'"),
    };
    Ok(Counted {
        date: date(get("date")?, &cp.key("date"))?,
        cpu_seconds: amount(get("cpu_seconds")?, &cp.key("cpu_seconds"))?,
        how: text(get("how")?, &cp.key("how"), "how the counts were made")?,
    })
}

/// An incomplete record's `estimate`, whose interval holds its estimate.
fn estimate(e: &Value, ep: &JsonPath) -> Result<Estimate> {
    let o = object(e, ep, "an estimate")?;
    check_keys(
        o,
        ep,
        &[
            "up_to",
            "nodes",
            "low",
            "high",
            "cpu_seconds",
            "seconds",
            "seed",
            "date",
        ],
    )?;
    let get = |k: &str| match o.get(k) {
        Some(x) => Ok(x),
        None => fail!(ep, "the estimate has no '{k}'"),
    };
    let est = Estimate {
        up_to: catalog_mode(get("up_to")?, &ep.key("up_to"))?,
        nodes: amount(get("nodes")?, &ep.key("nodes"))?,
        low: amount(get("low")?, &ep.key("low"))?,
        high: match get("high")? {
            Value::Null => None,
            x => Some(amount(x, &ep.key("high"))?),
        },
        cpu_seconds: amount(get("cpu_seconds")?, &ep.key("cpu_seconds"))?,
        seconds: amount(get("seconds")?, &ep.key("seconds"))?,
        seed: integer(get("seed")?, &ep.key("seed"), 0, i64::MAX)? as u64,
        date: date(get("date")?, &ep.key("date"))?,
    };
    if est.low > est.nodes || est.high.is_some_and(|h| h < est.nodes) {
        fail!(ep, "the interval does not hold the estimate");
    }
    Ok(est)
}

/// `known_counts` as written in files.
pub(super) fn known_counts_value(k: &KnownCounts) -> Value {
    let mut o = json!({ "all": k.all, "rotation": k.rotation, "rotation+reflection": k.rotation_reflection });
    if let Some(s) = &k.source {
        o["source"] = json!(s);
    }
    o
}

/// The `catalog` record as written in files.
pub(super) fn catalog_value(c: &Catalog) -> Value {
    let published: Value = if c.published.is_empty() {
        Value::Null
    } else {
        c.published
            .iter()
            .map(|p| {
                let mut o = json!({
                    "count": p.count,
                    "up_to": p.up_to.to_string(),
                    "convention": p.convention,
                    "source": p.source,
                });
                if let Some(f) = &p.finding {
                    let mut fo = json!({ "verdict": f.verdict.as_str(), "text": f.text });
                    if let Some(m) = f.matches {
                        fo["matches"] = json!(m.to_string());
                    }
                    o["finding"] = fo;
                }
                o
            })
            .collect()
    };
    let mut counts = Map::new();
    for mode in CatalogCounts::MODES {
        match c.counts.get(mode) {
            ModeCount::NotCounted => {}
            ModeCount::Undefined => {
                counts.insert(mode.to_string(), Value::Null);
            }
            ModeCount::Count(n) => {
                counts.insert(mode.to_string(), json!(n));
            }
        }
    }
    let mut o = json!({ "family": c.family, "published": published });
    if !counts.is_empty() {
        o["cubesat"] = Value::Object(counts);
    }
    if c.slow {
        o["slow"] = json!(true);
    }
    if let Some(i) = &c.incomplete {
        let mut io = json!({ "source": i.source, "convention": i.convention });
        if let Some(k) = &i.counted {
            io["counted"] = json!({ "date": k.date, "cpu_seconds": k.cpu_seconds, "how": k.how });
        }
        if let Some(e) = &i.estimate {
            io["estimate"] = json!({
                "up_to": e.up_to.to_string(),
                "nodes": e.nodes,
                "low": e.low,
                "high": e.high,
                "cpu_seconds": e.cpu_seconds,
                "seconds": e.seconds,
                "seed": e.seed,
                "date": e.date,
            });
        }
        o["incomplete"] = io;
    }
    o
}

#[cfg(test)]
mod tests {
    use crate::mode::UpTo;
    use crate::puzzle::ModeCount;
    use crate::puzzle::json::tests::{DOMINOES, err};
    use crate::puzzle::json::{from_value, parse_puzzle, to_value};

    /// The dominoes puzzle with a catalog record.
    fn with_catalog(record: &str) -> String {
        DOMINOES.replacen(
            "\"pieces\"",
            &format!("\"catalog\": {record},\n        \"pieces\""),
            1,
        )
    }

    #[test]
    fn incomplete_counts_carry_their_source_and_an_estimate_or_how_they_were_counted() {
        let estimate = r#"{"up_to": "rotation", "nodes": 2.5e15, "low": 1e15, "high": null,
            "cpu_seconds": 1.9e8, "seconds": 10.0, "seed": 1, "date": "2026-11-26"}"#;
        let ok = with_catalog(&format!(
            r#"{{"family": "bricks", "published": null, "incomplete": {{"source": "a page",
                "convention": "every placement", "estimate": {estimate}}}}}"#
        ));
        let p = parse_puzzle(&ok, "t").unwrap();
        let i = p.catalog.clone().unwrap().incomplete.unwrap();
        let e = i.estimate.unwrap();
        assert_eq!(
            (e.up_to, e.nodes, e.high, e.seed),
            (UpTo::Rotation, 2.5e15, None, 1)
        );
        assert_eq!(from_value(&to_value(&p), "t").unwrap(), p);
        let counted = with_catalog(
            r#"{"family": "bricks", "published": null, "cubesat": {"none": 2, "rotation": 1, "rotation+reflection": 1},
                "incomplete": {"source": "s", "convention": "c",
                "counted": {"date": "2026-11-26", "cpu_seconds": 0.5, "how": "three modes"}}}"#,
        );
        let p = parse_puzzle(&counted, "t").unwrap();
        assert_eq!(from_value(&to_value(&p), "t").unwrap(), p);
        for (bad, wanted) in [
            (
                estimate.replace("2026-11-26", "26/11/2026"),
                "catalog.incomplete.estimate.date: expected a date YYYY-MM-DD",
            ),
            (
                estimate.replace("\"low\": 1e15", "\"low\": 1e16"),
                "catalog.incomplete.estimate: the interval does not hold the estimate",
            ),
            (
                estimate.replace("\"nodes\": 2.5e15", "\"nodes\": -1"),
                "catalog.incomplete.estimate.nodes: expected a non-negative number",
            ),
            (
                estimate.replace("\"seed\": 1,", ""),
                "catalog.incomplete.estimate: the estimate has no 'seed'",
            ),
        ] {
            let e = err(&with_catalog(&format!(
                r#"{{"family": "bricks", "published": null, "incomplete": {{"source": "s",
                    "convention": "c", "estimate": {bad}}}}}"#
            )));
            assert!(e.starts_with(wanted), "{e}");
        }
    }

    #[test]
    fn catalog_records_are_read_and_disagreements_need_a_finding() {
        let ok = with_catalog(
            r#"{"family": "bricks", "cubesat": {"none": 2, "rotation": 1, "rotation+reflection": 1},
                "published": [{"count": 2, "up_to": "none", "convention": "tilings", "source": "a book"},
                              {"count": 3, "up_to": "rotation", "convention": "c", "source": "s",
                               "finding": {"verdict": "source", "text": "a typo"}}]}"#,
        );
        let p = parse_puzzle(&ok, "t").unwrap();
        let c = p.catalog.clone().unwrap();
        assert_eq!(c.counts.none, ModeCount::Count(2));
        assert_eq!(c.agrees(), Some(false));
        assert!(c.published[0].agrees(&c.counts));
        assert_eq!(from_value(&to_value(&p), "t").unwrap(), p);
        let none = with_catalog(
            r#"{"family": "bricks", "published": null, "cubesat": {"rotation+reflection": null}}"#,
        );
        let c = parse_puzzle(&none, "t").unwrap().catalog.unwrap();
        assert_eq!(c.agrees(), None);
        assert_eq!(c.counts.rotation_reflection, ModeCount::Undefined);
        assert_eq!(c.counts.none, ModeCount::NotCounted);
        let e = err(&with_catalog(
            r#"{"family": "bricks", "cubesat": {"none": 2}, "published": [{"count": 3, "up_to": "none", "convention": "c", "source": "s"}]}"#,
        ));
        assert!(
            e.starts_with("catalog.published[0]: the published count 3 (none) differs from cubesat's 2: add a 'finding'"),
            "{e}"
        );
        let e = err(&with_catalog(
            r#"{"family": "bricks", "cubesat": {"none": 2}, "published": [{"count": 2, "up_to": "none", "convention": "c", "source": "s", "finding": {"verdict": "source", "text": "t"}}]}"#,
        ));
        assert!(
            e.starts_with("catalog.published[0].finding: the published count 2 (none) agrees"),
            "{e}"
        );
        let e = err(&with_catalog(
            r#"{"family": "bricks", "cubesat": {"none": 2, "rotation": 1}, "published": [{"count": 2, "up_to": "rotation", "convention": "c", "source": "s", "finding": {"verdict": "convention", "matches": "rotation", "text": "t"}}]}"#,
        ));
        assert!(
            e.starts_with("catalog.published[0].finding.matches: cubesat counts 1 up to rotation"),
            "{e}"
        );
        for (record, start) in [
            (
                r#"{"family": "Soma", "published": null}"#,
                "catalog.family: a family name is",
            ),
            (
                r#"{"family": "soma"}"#,
                "catalog: the catalog record has no 'published'",
            ),
            (
                r#"{"family": "soma", "published": []}"#,
                "catalog.published: no published count: write null",
            ),
            (
                r#"{"family": "soma", "published": null, "cubesat": {"burrtools": 1}}"#,
                "catalog.cubesat.burrtools: unknown key",
            ),
            (
                r#"{"family": "soma", "published": [{"count": 1, "up_to": "burrtools", "convention": "c", "source": "s"}]}"#,
                "catalog.published[0].up_to: unknown counting mode 'burrtools'",
            ),
            (
                r#"{"family": "soma", "published": [{"count": 1, "up_to": "none", "convention": " ", "source": "s"}]}"#,
                "catalog.published[0].convention: the convention is empty",
            ),
            (
                r#"{"family": "soma", "published": [{"count": 1, "up_to": "none", "convention": "c", "source": "s", "finding": {"verdict": "typo", "text": "t"}}]}"#,
                "catalog.published[0].finding.verdict: unknown verdict 'typo'",
            ),
        ] {
            let e = err(&with_catalog(record));
            assert!(e.starts_with(start), "{record}: {e}");
        }
    }
}
