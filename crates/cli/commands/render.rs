//! `cubesat render`: saved JSON Lines solutions drawn as text, SVG or HTML.

use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::path::Path;

use anyhow::{Context, Result, bail};

use cubesat::input::{Bounded, read_bounded};
use cubesat::report::{jsonl_instance, jsonl_solutions};

use crate::args::{RenderArgs, RenderFormat, SolutionFormat};
use crate::sink::{self, Shown};

use super::{MAX_INPUT_BYTES, Outcome, output, read_bytes};

/// Where the JSON Lines come from. Their summary line, with the puzzle, comes last, so the
/// solutions are read in a second pass: a regular file is read twice, line by line, so that
/// memory does not grow with it; stdin or a FIFO, which cannot be read twice, is held in
/// memory (at most [`MAX_INPUT_BYTES`]).
enum Source {
    File(std::fs::File),
    Memory(Vec<u8>),
}

impl Source {
    fn open(path: &Path, shown: &str) -> Result<Source> {
        if path.as_os_str() == "-" {
            return Ok(Source::Memory(read_bytes(path, MAX_INPUT_BYTES)?));
        }
        let file = std::fs::File::open(path).with_context(|| format!("{shown}: cannot read"))?;
        let meta = file
            .metadata()
            .with_context(|| format!("{shown}: cannot read"))?;
        if !meta.is_file() {
            return Ok(Source::Memory(read_bounded(file, MAX_INPUT_BYTES, shown)?));
        }
        if meta.len() > MAX_INPUT_BYTES {
            bail!(
                "{shown}: file is {} bytes, more than the {MAX_INPUT_BYTES} bytes cubesat reads",
                meta.len()
            );
        }
        Ok(Source::File(file))
    }

    /// A pass over the lines from the start; a file is bounded while it is read, as it may
    /// have grown since its size was checked.
    fn pass(&self, shown: &str) -> Result<Box<dyn BufRead + '_>> {
        Ok(match self {
            Source::File(f) => {
                let mut f = f;
                f.seek(SeekFrom::Start(0))
                    .with_context(|| format!("{shown}: cannot read"))?;
                Box::new(BufReader::with_capacity(
                    1 << 16,
                    Bounded::new(f, MAX_INPUT_BYTES),
                ))
            }
            Source::Memory(b) => Box::new(&b[..]),
        })
    }
}

/// Why the pass over the solutions stopped: the file (named in the message), or the output.
enum Failed {
    Input(cubesat::Error),
    Output(anyhow::Error),
}

impl From<cubesat::Error> for Failed {
    fn from(e: cubesat::Error) -> Failed {
        Failed::Input(e)
    }
}

/// `cubesat render FILE`: saved JSON Lines solutions drawn as text (all), SVG (one: the first,
/// said on stderr, or `--solution N`) or HTML (all, or solution N). Every solution line is
/// checked and verified, shown or not.
pub fn run(args: RenderArgs) -> Result<Outcome> {
    let shown = super::shown(&args.solutions);
    let source = Source::open(&args.solutions, &shown)?;
    let (inst, total) = jsonl_instance(source.pass(&shown)?).with_context(|| shown.clone())?;
    if total == 0 {
        bail!("{shown}: holds no solution to render");
    }
    let mut picked = match args.solution {
        Some(n) if n > total => bail!(
            "--solution {n}: {shown} holds {total} solution{}",
            if total == 1 { "" } else { "s" }
        ),
        Some(n) => n..=n,
        None => 1..=total,
    };
    let only_first = args.format == RenderFormat::Svg && picked.start() < picked.end();
    if only_first {
        picked = 1..=1;
    }
    let format = match args.format {
        RenderFormat::Text => SolutionFormat::Text,
        RenderFormat::Svg => SolutionFormat::Svg,
        RenderFormat::Html => SolutionFormat::Html,
    };
    let mut out = output(args.out.as_deref())?;
    let mut sink = sink::sink(format, false, args.explode);
    let read = jsonl_solutions(source.pass(&shown)?, &inst, |i, placements| {
        if picked.contains(&i) {
            let s = Shown::nth(&inst.puzzle, &inst.table, &placements, i);
            sink.solution(&mut out, &s).map_err(Failed::Output)?;
        }
        Ok(())
    });
    match read {
        Ok(n) if n == total => {}
        Ok(n) => bail!("{shown}: changed while it was read ({total} solution lines, then {n})"),
        Err(Failed::Input(e)) => return Err(anyhow::Error::from(e).context(shown)),
        Err(Failed::Output(e)) => return Err(e),
    }
    if only_first {
        // Said once every line is known to be good: an error is the only line on stderr.
        say!(
            "note: the SVG shows solution 1 of {total}; --solution N draws another, --format html shows them all"
        );
    }
    sink.finish(&mut out)?;
    out.finish()?;
    Ok(Outcome::Found)
}
