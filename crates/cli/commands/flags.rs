//! The run plan's settings as `cubesat solve`'s flags give them, and the plan's refusals and
//! notes worded with those flags: the rules themselves are the library's (`cubesat::plan`).

use anyhow::{Result, anyhow, bail};

use cubesat::plan::{Note, PlanError, Settings, Task};
use cubesat_xc::Shard;

use crate::args::{SolutionFormat, SolveArgs};

/// The run's settings as the flags give them; the rules are the library's ([`Settings`]).
pub(crate) fn settings(args: &SolveArgs) -> Result<Settings> {
    let shard = match &args.shard {
        Some(text) => Some(shard_of(text, args.into.is_some())?),
        None => None,
    };
    if args.into.is_some() && !(args.count && args.shard.is_some()) {
        bail!(
            "--into DIR takes the records of a count's shards: it goes with --count and --shard K/N or all/N"
        );
    }
    let memory = match &args.max_memory {
        Some(text) => Some(
            cubesat::plan::parse_bytes(text).map_err(|_| {
                anyhow!(
                    "--max-memory {}: not a size (a whole number of bytes, or a number with K, M, G or T: binary units, 1K = 1024 bytes)",
                    cubesat::echo::echo(text)
                )
            })?,
        ),
        None => None,
    };
    Ok(Settings {
        task: if args.count { Task::Count } else { Task::List },
        // Without --all a listing shows the first solution, or the first --limit ones.
        limit: if args.count || args.all {
            args.limit
        } else {
            Some(args.limit.unwrap_or(1))
        },
        up_to: args.up_to.as_ref().map(crate::args::Modes::first),
        also_up_to: args
            .up_to
            .as_ref()
            .map(crate::args::Modes::rest)
            .unwrap_or_default(),
        engine: args.engine,
        threads: args.threads,
        no_prune: args.no_prune,
        amo: args.amo,
        sat_cubes: args.cubes,
        sat_exact_budget: args.exact_budget,
        shard,
        listing_is_record: args.format == SolutionFormat::Json,
        sealed: args.seal_key_file.is_some(),
        memory,
    })
}

/// `--shard`'s value: `K/N`, or `all/N` (every shard, into a folder), as shard 0 of N.
fn shard_of(text: &str, into: bool) -> Result<Shard> {
    match text.strip_prefix("all/") {
        Some(n) if into => {
            let n = n.trim();
            if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
                bail!("--shard {text}: not all/N with N a whole number (all/64, say)");
            }
            // Shard 0 of N: its parse says what is wrong with N (0, or too many).
            format!("0/{n}")
                .parse::<Shard>()
                .map_err(|e| anyhow!("--shard {text}: {e}"))
        }
        Some(_) => bail!(
            "--shard {text}: all shards run one after another into a folder: add --into DIR (with --count)"
        ),
        None => text
            .parse::<Shard>()
            .map_err(|e| anyhow!("--shard {text}: {e}")),
    }
}

/// Whether `--shard` asks for every shard (`all/N`).
pub(crate) fn every_shard(args: &SolveArgs) -> bool {
    args.shard.as_deref().is_some_and(|t| t.starts_with("all/"))
}

/// A refusal of the run's rules, worded with the flags that set what it names.
pub(crate) fn flag_error(e: &PlanError) -> anyhow::Error {
    match e {
        PlanError::TooManyCubes { asked, most } => {
            anyhow!("--cubes {asked} is too many (at most {most})")
        }
        PlanError::ShardNotMergeable => anyhow!(
            "--shard needs --count, or --all --format json (a shard's record must be merged)"
        ),
        PlanError::ShardWithLimit => {
            anyhow!("--shard runs a whole shard: it cannot be combined with --limit")
        }
        PlanError::MemoryTooLarge { asked, .. } => anyhow!(
            "--max-memory: {asked} bytes is more than the memo engine's cache may take (at most 64G)"
        ),
        PlanError::SealWithoutShard => {
            anyhow!("--seal-key-file seals a shard's record: it goes with --shard")
        }
        PlanError::DisassemblyGrid { grid, able } => anyhow!(
            "--disassemble takes apart assemblies of {able} only, as BurrTools does, and this puzzle is made of {grid}"
        ),
        other => anyhow!("{other}"),
    }
}

/// A note of the plan, worded with the flags.
pub(crate) fn flag_note(note: &Note) -> String {
    match note {
        Note::ThreadsClamped { asked, to } => format!(
            "--threads {asked} is clamped to {to} ({} per core)",
            cubesat_xc::MAX_THREADS_PER_CORE
        ),
        other => other.to_string(),
    }
}
