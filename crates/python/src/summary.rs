//! A run's report as the JSON the Python package reads into its `Count`: the count, what it
//! means, how the run ended (a limit, an interrupt, a signal), its statistics.

use cubesat::run::{Instance, RunReport};
use cubesat::{UpTo, report};
use serde_json::json;

/// A run's report as JSON for the Python side: the count, what it means, how it ended.
pub fn report_json(report: &RunReport, mode: UpTo, inst: &Instance, signal: bool) -> String {
    // The modes counted from the same search, each reported as a count of its own.
    let also: Vec<serde_json::Value> = (report.by_mode(mode).into_iter().skip(1))
        .map(|(m, r)| {
            json!({
                "count": r.count,
                "up_to": m.to_string(),
                "line": report::count_line(&r, m),
                "meaning": r.description,
                "engine": r.engine,
                "nodes": r.nodes,
                "raw": r.raw,
                "limited": r.limited,
                "interrupted": r.interrupted,
                "seconds": r.elapsed.as_secs_f64(),
                "stats": report::stats_line(&inst.puzzle, &inst.table, &r),
                "refutation": r.refutation.as_ref().map(|x| x.to_string()),
            })
        })
        .collect();
    json!({
        "also": also,
        "count": report.count,
        "up_to": mode.to_string(),
        "line": report::count_line(report, mode),
        "meaning": report.description,
        "engine": report.engine,
        "nodes": report.nodes,
        "raw": report.raw,
        "limited": report.limited,
        "interrupted": report.interrupted,
        "signal": signal,
        "seconds": report.elapsed.as_secs_f64(),
        "stats": report::stats_line(&inst.puzzle, &inst.table, report),
        "refutation": report.refutation.as_ref().map(|r| r.to_string()),
    })
    .to_string()
}
