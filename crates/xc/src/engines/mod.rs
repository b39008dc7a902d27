//! The engines behind one [`Engine`] trait: the bitset exact-cover search, the dancing-links
//! baseline, the memoized counter and the varisat SAT engine, each answering a [`Query`] of forced and excluded
//! options by enumerating into a sink or counting.

pub mod dlx;
pub mod exact;
pub mod memo;
pub mod sat;

use std::ops::ControlFlow;
use std::sync::Arc;

use crate::control::Progress;
use crate::error::Result;
use crate::shard::Shard;

/// One question to an engine: every solution of the model that contains `forced` (besides
/// the model's own forced options) and none of `excluded`.
#[derive(Clone, Debug)]
pub struct Query {
    /// Options every solution must contain.
    pub forced: Vec<u32>,
    /// Options no solution may contain.
    pub excluded: Vec<u32>,
    /// Worker threads ([`crate::worker_threads`]: 0 = one per core, clamped); results and
    /// their order do not depend on it.
    pub threads: usize,
    /// Live counters to publish to, and the cancellation flag the run obeys.
    pub progress: Option<Arc<Progress>>,
    /// Only this shard of the search ([`crate::Shard`]); `None` = the whole search. The
    /// shards of a query partition its solutions; an engine that cannot split answers
    /// [`crate::Error::Unsupported`].
    pub shard: Option<Shard>,
}

impl Default for Query {
    /// The whole model, one thread, no progress.
    fn default() -> Query {
        Query {
            forced: Vec::new(),
            excluded: Vec::new(),
            threads: 1,
            progress: None,
            shard: None,
        }
    }
}

impl Query {
    /// True once the query's [`Progress`] was interrupted.
    pub fn is_interrupted(&self) -> bool {
        self.progress.as_ref().is_some_and(|p| p.is_interrupted())
    }
}

/// What an enumeration did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Solutions delivered to the sink.
    pub solutions: u64,
    /// Search nodes, for engines that count them deterministically.
    pub nodes: Option<u64>,
    /// True when the query's [`Progress`] was interrupted: the run is partial.
    pub interrupted: bool,
    /// True when the sink asked to stop.
    pub stopped: bool,
    /// How the engine ran, for a statistics line (encoding sizes, cubes, threads).
    pub summary: String,
}

/// What a count found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counted {
    /// The weight function summed over all solutions.
    pub total: u64,
    /// Solutions found, weighted or not.
    pub solutions: u64,
    /// Search nodes, for engines that count them deterministically.
    pub nodes: Option<u64>,
    /// True when the query's [`Progress`] was interrupted: the figures are partial.
    pub interrupted: bool,
    /// How the engine ran, for a statistics line.
    pub summary: String,
}

/// An exact-cover engine bound to one model. Solutions are ascending option indices with
/// the forced options included, and every one an engine reports is an exact cover of its
/// model ([`crate::ExactCover::check_solution`]).
pub trait Engine {
    /// Streams every solution of `query` to `sink`, in an order that does not depend on the
    /// thread count, until the sink breaks or the query's progress is interrupted.
    fn enumerate(
        &self,
        query: &Query,
        sink: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
    ) -> Result<Stats>;

    /// Counts the solutions of `query` and sums `weight` over them (0 = not counted, as a
    /// symmetry reduction keeps one solution per class). The default enumerates.
    fn count(&self, query: &Query, weight: &(dyn Fn(&[u32]) -> u64 + Sync)) -> Result<Counted> {
        let mut total = 0u64;
        let st = self.enumerate(query, &mut |s| {
            total = total.saturating_add(weight(s));
            ControlFlow::Continue(())
        })?;
        Ok(Counted {
            total,
            solutions: st.solutions,
            nodes: st.nodes,
            interrupted: st.interrupted,
            summary: st.summary,
        })
    }

    /// Counts several queries as [`Engine::count`] counts each and adds the figures up: the
    /// branches of one run, whose solutions are disjoint. The default counts them one after
    /// another and stops at an interrupt; the summary is the queries' common one, or the
    /// last query's, said to be of that query alone. An engine that runs in parallel may
    /// pool the queries' work instead of waiting for the end of each.
    fn count_all(
        &self,
        queries: &[Query],
        weight: &(dyn Fn(&[u32]) -> u64 + Sync),
    ) -> Result<Counted> {
        let mut sum = Counted {
            nodes: Some(0),
            ..Counted::default()
        };
        for (i, q) in queries.iter().enumerate() {
            let r = self.count(q, weight)?;
            sum.total = sum.total.saturating_add(r.total);
            sum.solutions += r.solutions;
            sum.nodes = sum.nodes.zip(r.nodes).map(|(a, b)| a + b);
            sum.interrupted = r.interrupted;
            add_summary(&mut sum.summary, r.summary, i, queries.len());
            if r.interrupted {
                break;
            }
        }
        Ok(sum)
    }
}

/// Folds the summary of branch `i` of `n` (the queries of one run, such as
/// [`Engine::count_all`] adds up) into `summary`: kept while every branch's is the same,
/// else the last one, said to be of that branch alone.
pub fn add_summary(summary: &mut String, branch: String, i: usize, n: usize) {
    if i == 0 || *summary == branch {
        *summary = branch;
    } else {
        *summary = format!("{branch}; figures of the last of {n} branches");
    }
}

/// The [`Engine`] trait's tests, run over every engine on the same random models: each must
/// list the same solutions as plain dancing links, in an order independent of the threads.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ExactCover, Item};

    /// A seeded random model (xorshift; deterministic): `items` primary items of need 1 or 2
    /// and some secondary ones, options of 1-4 items.
    pub(crate) fn random_model(seed: u64, items: usize, options: usize) -> ExactCover {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = move |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let secondary = items / 4;
        let mut model = ExactCover {
            items: (0..items + secondary)
                .map(|i| {
                    let name = format!("i{i}");
                    if i >= items {
                        Item::secondary(name)
                    } else if next(5) == 0 {
                        Item::exact(name, 2)
                    } else {
                        Item::exact(name, 1)
                    }
                })
                .collect(),
            ..ExactCover::default()
        };
        for _ in 0..options {
            let k = 1 + next(4) as usize;
            let mut o: Vec<u32> = (0..k)
                .map(|_| next((items + secondary) as u64) as u32)
                .collect();
            o.push(next(items as u64) as u32);
            o.sort_unstable();
            o.dedup();
            if !model.options.contains(&o) {
                model.options.push(o);
            }
        }
        model
    }

    fn all(engine: &dyn Engine, query: &Query) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        engine
            .enumerate(query, &mut |s| {
                out.push(s.to_vec());
                ControlFlow::Continue(())
            })
            .unwrap();
        out
    }

    #[test]
    fn every_engine_lists_what_dancing_links_lists() {
        let mut nonempty = 0;
        for seed in 1..40 {
            let model = random_model(seed, 8 + (seed % 5) as usize, 30 + seed as usize);
            let oracle = dlx::Dlx::new(&model).unwrap();
            let q = Query::default();
            let mut expected = all(&oracle, &q);
            expected.sort();
            nonempty += usize::from(!expected.is_empty());
            let exact = exact::ExactEngine::new(&model).unwrap();
            let sat = sat::CubeAndConquer::new(&model, sat::SatConfig::default(), 8).unwrap();
            let engines: [&dyn Engine; 2] = [&exact, &sat];
            for engine in engines {
                for threads in [1, 3] {
                    let q = Query {
                        threads,
                        ..Query::default()
                    };
                    let mut got = all(engine, &q);
                    got.sort();
                    assert_eq!(got, expected, "seed {seed}, {threads} threads");
                    let c = engine.count(&q, &|_| 1).unwrap();
                    assert_eq!(c.total, expected.len() as u64);
                }
            }
        }
        assert!(nonempty > 10, "the random models should have solutions");
    }

    /// The shards of a query, on random models with multiplicities and secondary items and
    /// with forced and excluded options, hold every solution exactly once, each in the same
    /// order on one thread and three; the exact engine's node counts add up to the whole
    /// tree's; dancing links refuses.
    #[test]
    fn shards_partition_the_solutions() {
        for seed in 1..25 {
            let model = random_model(seed, 8 + (seed % 5) as usize, 30 + seed as usize);
            let exact = exact::ExactEngine::new(&model).unwrap();
            let sat = sat::CubeAndConquer::new(&model, sat::SatConfig::default(), 8).unwrap();
            let base = Query {
                excluded: vec![(seed % 7) as u32],
                ..Query::default()
            };
            let mut want = all(&exact, &base);
            want.sort();
            let whole = exact.count(&base, &|_| 1).unwrap().nodes.unwrap();
            for n in [1, 2, 3, 7] {
                let engines: [&dyn Engine; 2] = [&exact, &sat];
                for (e, engine) in engines.into_iter().enumerate() {
                    let (mut got, mut nodes) = (Vec::new(), 0);
                    for k in 0..n {
                        let q = Query {
                            shard: Some(Shard::new(k, n).unwrap()),
                            ..base.clone()
                        };
                        let one = all(engine, &q);
                        let three = all(
                            engine,
                            &Query {
                                threads: 3,
                                ..q.clone()
                            },
                        );
                        assert_eq!(one, three, "seed {seed}, shard {k}/{n}");
                        nodes += engine.count(&q, &|_| 1).unwrap().nodes.unwrap_or(0);
                        got.extend(one);
                    }
                    got.sort();
                    assert_eq!(got, want, "seed {seed}, {n} shards, engine {e}");
                    if e == 0 {
                        assert_eq!(nodes, whole, "seed {seed}, {n} shards");
                    }
                }
            }
            let dlx = dlx::Dlx::new(&model).unwrap();
            let q = Query {
                shard: Some(Shard::new(0, 2).unwrap()),
                ..Query::default()
            };
            assert!(matches!(
                Engine::enumerate(&dlx, &q, &mut |_| ControlFlow::Continue(())),
                Err(crate::Error::Unsupported { .. })
            ));
        }
    }

    /// Branches that partition a model's solutions (option `a` chosen; `a` left out and `b`
    /// chosen; both left out), counted together by every engine on one and three threads
    /// and as shards, give the weighted sum of dancing links' listing; the exact engine's
    /// nodes are the sum of the branches' own and do not depend on the threads.
    #[test]
    fn branches_counted_together_add_up() {
        let weight = |s: &[u32]| 1 + u64::from(s[0] % 3);
        let mut nonempty = 0;
        for seed in 1..30 {
            let model = random_model(seed, 8 + (seed % 5) as usize, 30 + seed as usize);
            let oracle = dlx::Dlx::new(&model).unwrap();
            let (a, b) = ((seed % 5) as u32, (seed % 5 + 1) as u32);
            let branches = [
                Query {
                    forced: vec![a],
                    ..Query::default()
                },
                Query {
                    forced: vec![b],
                    excluded: vec![a],
                    ..Query::default()
                },
                Query {
                    excluded: vec![a, b],
                    ..Query::default()
                },
            ];
            let want: u64 = all(&oracle, &Query::default())
                .iter()
                .map(|s| weight(s))
                .sum();
            nonempty += usize::from(want > 0);
            let exact = exact::ExactEngine::new(&model).unwrap();
            let sat = sat::CubeAndConquer::new(&model, sat::SatConfig::default(), 8).unwrap();
            let alone: u64 = branches
                .iter()
                .map(|q| exact.count(q, &weight).unwrap().nodes.unwrap())
                .sum();
            let engines: [&dyn Engine; 3] = [&oracle, &exact, &sat];
            for (e, engine) in engines.into_iter().enumerate() {
                for threads in [1, 3] {
                    let qs: Vec<Query> = branches
                        .iter()
                        .map(|q| Query {
                            threads,
                            ..q.clone()
                        })
                        .collect();
                    let c = engine.count_all(&qs, &weight).unwrap();
                    assert_eq!(c.total, want, "seed {seed}, engine {e}, {threads} threads");
                    if e == 1 {
                        assert_eq!(c.nodes, Some(alone), "seed {seed}, {threads} threads");
                    }
                    if e == 0 {
                        continue;
                    }
                    let mut sharded = 0;
                    for k in 0..3 {
                        let qs: Vec<Query> = qs
                            .iter()
                            .map(|q| Query {
                                shard: Some(Shard::new(k, 3).unwrap()),
                                ..q.clone()
                            })
                            .collect();
                        sharded += engine.count_all(&qs, &weight).unwrap().total;
                    }
                    assert_eq!(sharded, want, "seed {seed}, engine {e}, shards");
                }
            }
        }
        assert!(nonempty > 10, "the random models should have solutions");
    }

    #[test]
    fn order_does_not_depend_on_threads() {
        let model = random_model(7, 12, 80);
        let exact = exact::ExactEngine::new(&model).unwrap();
        let one = all(&exact, &Query::default());
        let four = all(
            &exact,
            &Query {
                threads: 4,
                ..Query::default()
            },
        );
        assert_eq!(one, four);
    }
}
