//! The command line as the user types it (clap derive types); `main.rs` turns it into library calls.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use cubesat::EngineChoice;
use cubesat::UpTo;
use cubesat::disassembly::{Level, Mode};
use cubesat::interop::ExportFormat;
use cubesat::interop::dimacs::Projection;
use cubesat_xc::encoding::AtMostOne;

const EXIT_CODES: &str = "Exit codes: 0 = a solution was found (or printed, exported, rendered), \
1 = no solution, 2 = error (bad input, bad arguments), 3 = unknown (decode: the solver's answer \
neither gives a solution nor proves there is none: an unfinished, killed or empty run), \
130 = interrupted by Ctrl-C (what was found so far is printed; an interrupted run never says \
\"no solution\"). Results go to stdout, statistics to stderr; a closed pipe is not an error. \
PUZZLE and file arguments accept - for stdin. Environment: CUBESAT_SIMD=portable|popcnt|avx2|avx512 \
forces the exact engine's leaf search body (default: the fastest this CPU runs; one it lacks is \
refused).";

/// Solve, count and generate 3D polycube packing puzzles.
#[derive(Debug, Parser)]
#[command(name = "cubesat", version, about, after_help = EXIT_CODES)]
pub struct Cli {
    /// No statistics on stderr.
    #[arg(long, short, global = true)]
    pub quiet: bool,
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve a puzzle: print the first solution, N of them, all, or count them.
    Solve(SolveArgs),
    /// Describe a puzzle: pieces, orientations, placements, symmetries, known counts.
    Info(InfoArgs),
    /// List the bundled puzzles and the catalog by family, with each puzzle's published count
    /// and cubesat's count, and whether they agree.
    List(ListArgs),
    /// Generate a puzzle with hint pieces from a seeded random solution.
    Generate(GenerateArgs),
    /// Export for an external solver (DIMACS CNF, DLX, clingo, a placement list) or as a BurrTools file.
    Export(ExportArgs),
    /// Read an external solver's answer to an exported instance back as cubesat solutions.
    Decode(DecodeArgs),
    /// Render solutions saved with `solve --format json` (or `decode --format json`) as text, SVG or HTML.
    Render(RenderArgs),
    /// Add up the shards of a run (`solve --shard K/N` records): checks that they belong to
    /// one run, each once, and prints the count line a single run prints.
    Merge(MergeArgs),
    /// Draw a puzzle's pieces and target on their own, to check a puzzle file by eye.
    Show(ShowArgs),
    /// Convert a puzzle between cubesat JSON and BurrTools (.xmpuzzle, or plain .xml), by OUT's extension.
    Convert(ConvertArgs),
    /// Write STL files for 3D printing: one per piece, and one of an assembled solution.
    Stl(StlArgs),
    /// Take a solution apart by sliding pieces: its moves (which pieces, which way, how far)
    /// and its level; the HTML page animates them (played backwards, the assembly).
    Disassemble(DisassembleArgs),
    /// Serve cubesat studio, the whole tool in a browser page, on this machine (127.0.0.1).
    Studio(StudioArgs),
    /// Estimate what a count will cost: the search tree's nodes with a 95% interval, the node
    /// rate on this machine, the CPU time, and the shards that finish it in a wall time.
    Estimate(EstimateArgs),
}

/// `cubesat studio`.
#[derive(Debug, Args)]
pub struct StudioArgs {
    /// The port to serve on (0 = any free port; the address is printed on stdout).
    #[arg(long, value_name = "N", default_value_t = 7979)]
    pub port: u16,
    /// Open the page in the desktop's browser.
    #[arg(long)]
    pub open: bool,
    /// Listen on ADDR (an IP address) instead of 127.0.0.1; any address that is not a
    /// loopback one lets other machines use the studio, and is warned about.
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<std::net::IpAddr>,
}

/// Output formats of `cubesat estimate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum EstimateFormat {
    /// A few lines for people.
    #[default]
    Text,
    /// One JSON object.
    Json,
}

/// `cubesat estimate`.
#[derive(Debug, Args)]
pub struct EstimateArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArg,
    /// The count to estimate, as for `solve --count` (default: rotation, or burrtools for a
    /// BurrTools file).
    #[arg(long = "up-to", value_name = "MODE", value_parser = parse_up_to,
          help = "The count to estimate, as for solve --count: none, rotation, rotation+reflection or burrtools; default: rotation, or burrtools for a BurrTools file")]
    pub up_to: Option<UpTo>,
    /// Stop after N random probes (1 to 100,000,000); with a fixed --seed the estimate is
    /// then the same on every run. Without --seconds, no time limit applies.
    #[arg(long, value_name = "N")]
    pub samples: Option<u64>,
    /// Stop after S seconds (default 10 when --samples is not given; at most a week).
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    pub seconds: Option<f64>,
    /// Seed of the random probes.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,
    /// Plan shards that finish the count within this wall time: a number and a unit, s, m,
    /// h or d (e.g. 90m, 24h, 2d).
    #[arg(long, value_name = "TIME")]
    pub wall: Option<String>,
    /// Cores the shards may run on at once (with --wall; default: this machine's).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub cores: Option<u32>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = EstimateFormat::Text)]
    pub format: EstimateFormat,
    /// Turn off dead-region pruning (estimates the --no-prune count).
    #[arg(long, hide = true)]
    pub no_prune: bool,
}

/// `cubesat list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Only the puzzles of this family (`soma`, `pentominoes`, ...).
    #[arg(long, value_name = "F")]
    pub family: Option<String>,
    /// Only the puzzles whose name, title, family or description contains WORD (ignoring case).
    #[arg(long, value_name = "WORD")]
    pub search: Option<String>,
}

/// `cubesat convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// The puzzle to read (a file or a bundled name).
    #[arg(value_name = "IN")]
    pub input: OsString,
    /// The file to write: `.json` (cubesat), `.xmpuzzle` (BurrTools, gzip) or `.xml` (BurrTools, plain).
    #[arg(value_name = "OUT")]
    pub output: PathBuf,
    /// For a BurrTools input: the problem, by index (from 0) or name; default: the first.
    #[arg(long, value_name = "N|NAME")]
    pub problem: Option<String>,
}

/// `cubesat stl`.
#[derive(Debug, Args)]
pub struct StlArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArg,
    /// The folder to write into (created if missing): `piece-K-NAME.stl` per piece (K its
    /// place in the puzzle, from 1; `piece-K-NAME-xN.stl` when N copies are to be printed) and
    /// `solution.stl` (the first solution, assembled).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Edge length of one cube, in millimetres (at most 1000).
    #[arg(long, value_name = "MM", default_value_t = 10.0)]
    pub cube: f64,
    /// Clearance between pieces (mm, at most a quarter of --cube): every outer face of a piece
    /// moves inwards by half of this, so printed pieces fit (and the assembled solution's
    /// pieces are separate shells).
    #[arg(long, value_name = "MM", default_value_t = 0.2)]
    pub gap: f64,
}

/// The puzzle argument shared by most subcommands.
#[derive(Debug, Args)]
pub struct PuzzleArg {
    /// A puzzle file (`-` for stdin), or the name of a bundled puzzle (`cubesat list`);
    /// default: the Tetris Cube.
    #[arg(value_name = "PUZZLE")]
    pub puzzle: Option<OsString>,
    /// For a BurrTools file (.xmpuzzle): the problem, by index (from 0) or name; default: the
    /// first.
    #[arg(long, value_name = "N|NAME")]
    pub problem: Option<String>,
}

/// When to colour text output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum ColorChoice {
    /// Colour when stdout is a terminal and NO_COLOR is unset.
    #[default]
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// Output formats for solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum SolutionFormat {
    /// z layers side by side, one letter per piece.
    #[default]
    Text,
    /// JSON Lines: one object per solution, then a summary object.
    Json,
    /// An isometric SVG picture of one solution (refused for several: use html).
    Svg,
    /// A self-contained HTML page with a 3D view (all listed solutions).
    Html,
}

/// `cubesat solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArg,
    /// List (or, with --count, count) at most N solutions (N >= 1).
    #[arg(long, value_name = "N", conflicts_with = "all", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// List every solution.
    #[arg(long)]
    pub all: bool,
    /// Count solutions instead of printing them: one line on stdout, starting with the count.
    #[arg(long)]
    pub count: bool,
    /// What counts as one solution. Default: rotation, or burrtools for a BurrTools file.
    #[arg(long = "up-to", value_name = "MODE", value_parser = parse_modes,
          help = "What counts as one solution: none (every placement), rotation, rotation+reflection, or burrtools (BurrTools' own count); default: rotation, or burrtools for a BurrTools file. With --count, several modes separated by commas (none,rotation,rotation+reflection) are counted from one search, a line (or a shard record) each [possible values: none, rotation, rotation+reflection, burrtools]")]
    pub up_to: Option<Modes>,
    /// The engine: auto (exact, or memo for a whole count that measures cheaper with it), exact (bitset exact cover), dlx (plain dancing links), sat (varisat), memo (memoized counting: --count only, --up-to none or an exactly restricted mode; its shards are its own, not the exact engine's).
    #[arg(long, value_name = "ENGINE", default_value = "auto", value_parser = parse_engine)]
    pub engine: EngineChoice,
    /// At-most-one encoding for the SAT engine.
    #[arg(long, value_name = "ENC", default_value_t = AtMostOne::default(), help = amo_help("for the SAT engine"))]
    pub amo: AtMostOne,
    /// SAT engine: split the search into at least N cubes (the exact-cover engine's top
    /// subtrees, fixing at most half of a solution), each cube's residual CNF solved by its own
    /// varisat solver with blocking clauses; 0 = one instance with blocking clauses only.
    /// Default: 1024 for a limited listing, 16384 with --all or --count (32768 and 1048576
    /// with --exact-budget 0 or --no-prune, where no cube is cut deeper later).
    #[arg(long, value_name = "N")]
    pub cubes: Option<usize>,
    /// SAT engine: the exact engine first searches the whole query, then each cube, for at
    /// most about N nodes (checked every 4096); a cube it cannot close is cut one choice
    /// deeper while it fixes under half a solution, and only then goes to varisat; 0 sends
    /// every cube to varisat. Default: 4096. Off with --no-prune.
    #[arg(long = "exact-budget", value_name = "N")]
    pub exact_budget: Option<u64>,
    /// The most memory the memo engine's cache may take, growth included: bytes, or a
    /// number with K, M, G or T (binary units: 1G = 1024 MiB); default 1G, at most 64G. The
    /// count stays exact at any size: a full cache replaces old entries by new ones.
    // Parsed by the solve command, so that a bad size is one error line like other bad input.
    #[arg(long = "max-memory", value_name = "SIZE", allow_hyphen_values = true)]
    pub max_memory: Option<String>,
    /// Worker threads for the exact engine and the SAT engine's cubes with --count or --all
    /// (0 = all cores; more than 4 per core are clamped to that); a limited listing runs on
    /// one thread. Counts and solution order are the same for every N.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SolutionFormat::Text)]
    pub format: SolutionFormat,
    /// Colour in text output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Pull the pieces apart in SVG output.
    #[arg(long)]
    pub explode: bool,
    /// Turn off dead-region pruning in the exact engine (for checking it).
    #[arg(long, hide = true)]
    pub no_prune: bool,
    /// Write the output to FILE instead of stdout. FILE is replaced only when the run
    /// finishes; Ctrl-C leaves it as it was and writes what was found to FILE with .partial
    /// before its extension (all.json: all.partial.json).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Run only shard K of N (numbered from 0: 0/N to N-1/N) of --count or --all --format json, and print its
    /// record (one JSON object; a listing carries it in its summary) for `cubesat merge`.
    /// The N shards hold every solution once; the same K/N is the same work on any machine
    /// and thread count. all/N (with --count --into DIR) runs every shard the folder lacks.
    // Parsed by the solve command, so that a bad K/N is one error line like other bad input.
    #[arg(long, value_name = "K/N", allow_hyphen_values = true)]
    pub shard: Option<String>,
    /// With --count --shard: write each shard's record to DIR/K.json as it finishes, skipping
    /// the shards DIR already holds for this run, so that a long count runs in pieces at
    /// different times (Ctrl-C keeps every finished shard); once all N are there, print the
    /// merged count as a single run would.
    #[arg(long, value_name = "DIR", conflicts_with = "out")]
    pub into: Option<PathBuf>,
    /// Seal the shard's record with the key in FILE (at least 16 bytes; one trailing newline
    /// is not part of it), so that `merge --seal-key-file FILE` refuses records changed by
    /// anyone without the key. Without it, records are checked against accidents only.
    #[arg(long, value_name = "FILE")]
    pub seal_key_file: Option<PathBuf>,
    /// Keep only the assemblies that come apart by sliding pieces (along x, y and z on cubes;
    /// along z and the triangles' sides on prisms), BurrTools' "solutions"; each listed
    /// solution shows its level and moves.
    #[arg(long)]
    pub disassemble: bool,
    #[command(flatten)]
    pub disassembly: DisassemblyArgs,
}

/// How assemblies are taken apart (`solve --disassemble`, `disassemble`).
#[derive(Clone, Debug, Args)]
pub struct DisassemblyArgs {
    /// burrtools: BurrTools 0.7.1's rule (the first separation found is final, so some
    /// assemblies that come apart by another route are rejected); complete: any separation
    /// will do. Default: burrtools for a BurrTools file, complete otherwise.
    #[arg(long, value_name = "RULE", value_parser = parse_disassembler,
          help = "burrtools: BurrTools 0.7.1's rule (the first separation found is final); complete: any separation will do; default: burrtools for a BurrTools file, complete otherwise [possible values: burrtools, complete]")]
    pub disassembler: Option<Mode>,
    /// Keep only solutions of at least this level, compared number by number (5, 4.9.3).
    #[arg(long = "min-level", value_name = "LEVEL", value_parser = parse_level)]
    pub min_level: Option<Level>,
    /// The order of the solutions: as found, or by level, hardest first.
    #[arg(long, value_enum, default_value_t = SortOrder::Found)]
    pub sort: SortOrder,
    /// The most positions the analysis of one assembly may visit (stored in 6 bytes a piece and about 24 more each).
    #[arg(long = "max-states", value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub max_states: Option<u64>,
}

/// The order of solutions that come apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum SortOrder {
    /// As the search finds them.
    #[default]
    Found,
    /// By level, the hardest (most moves to the first separation, then the next...) first.
    Level,
}

/// `cubesat disassemble`.
#[derive(Debug, Args)]
pub struct DisassembleArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArg,
    /// The solution to take apart: the N-th that comes apart (from 1), as found or, with
    /// --sort level, hardest first.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub solution: u64,
    /// Output format: the plan as text or JSON, the solution as SVG, or a 3D page that
    /// animates the plan.
    #[arg(long, value_enum, default_value_t = SolutionFormat::Text)]
    pub format: SolutionFormat,
    /// Which assemblies are one (see `solve --up-to`); default: rotation, or burrtools for a
    /// BurrTools file.
    #[arg(long = "up-to", value_name = "MODE", value_parser = parse_up_to)]
    pub up_to: Option<UpTo>,
    #[command(flatten)]
    pub disassembly: DisassemblyArgs,
    /// Worker threads for the search and the analysis (0 = all cores).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
    /// Colour in text output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Write the output to FILE instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// `cubesat merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Shard records (files written by `solve --shard K/N`), or folders of `*.json` files.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Output format: the single run's count line, or one JSON object.
    #[arg(long, value_enum, default_value_t = MergeFormat::Text)]
    pub format: MergeFormat,
    /// Refuse any record not sealed with the key in FILE (`solve --shard --seal-key-file`):
    /// the check against forgery, which the records' own unkeyed digest is not.
    #[arg(long, value_name = "FILE")]
    pub seal_key_file: Option<PathBuf>,
}

/// Output formats of `merge`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum MergeFormat {
    /// The count line a single run prints.
    #[default]
    Text,
    /// One JSON object.
    Json,
}

/// `cubesat info`.
#[derive(Debug, Args)]
pub struct InfoArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArg,
}

/// `cubesat generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArg,
    /// Number of hint pieces.
    #[arg(
        long,
        value_name = "K",
        required_unless_present = "set",
        conflicts_with = "set"
    )]
    pub hints: Option<usize>,
    /// Make a challenge set of N graded puzzles instead (into the folder --out DIR): each
    /// with exactly one completion, no two alike up to the target's symmetries, the last
    /// level with minimal hints; an index and a booklet (PDF, HTML) beside them.
    #[arg(long, value_name = "N", conflicts_with_all = ["unique", "no_solution"], requires = "out")]
    pub set: Option<usize>,
    /// The set's level names, easiest first (the last level gives minimal hints); default
    /// starter,junior,expert,master,wizard.
    #[arg(long, value_name = "L1,L2,...", requires = "set")]
    pub levels: Option<String>,
    /// The challenge booklet's paper (with --set): a4 or letter.
    #[arg(long, value_enum, default_value_t = Paper::A4)]
    pub paper: Paper,
    /// Random seed; the same puzzle, K (or N and levels) and seed give the same bytes.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Choose the hints so that exactly one completion exists.
    #[arg(long)]
    pub unique: bool,
    /// Write the generated puzzle file here (with --set: the folder to write the set into).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// How to show the puzzle and its solution on stdout.
    #[arg(long, value_enum, default_value_t = GenerateFormat::Text)]
    pub format: GenerateFormat,
    /// Show the puzzle sheet only (target, hints, pieces to place), not the solution.
    #[arg(long)]
    pub no_solution: bool,
    /// Colour in text output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

/// The challenge booklet's paper.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum Paper {
    /// ISO A4.
    #[default]
    A4,
    /// US Letter.
    Letter,
}

/// Output formats of `generate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum GenerateFormat {
    /// The puzzle sheet (target with hints, pieces to place), then the solution, as z layers.
    #[default]
    Text,
    /// One JSON object: the puzzle file, the solution and the report.
    Json,
    /// An isometric SVG of the puzzle sheet (the solution is left out: a sheet to print).
    Svg,
    /// A self-contained HTML page: the puzzle sheet, then the solution.
    Html,
}

/// The `--format` values of `cubesat export`: the library's formats, each with its line of help.
fn export_formats() -> impl clap::builder::TypedValueParser<Value = ExportFormat> {
    use clap::builder::TypedValueParser as _;
    let values =
        ExportFormat::ALL.map(|f| clap::builder::PossibleValue::new(f.name()).help(f.about()));
    clap::builder::PossibleValuesParser::new(values)
        .map(|name| name.parse::<ExportFormat>().expect("a listed format"))
}

/// `cubesat export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArg,
    /// The format.
    #[arg(long, value_parser = export_formats())]
    pub format: ExportFormat,
    /// At-most-one encoding (DIMACS only).
    #[arg(long, value_name = "ENC", default_value_t = AtMostOne::default(), help = amo_help("(DIMACS only); which suits which external solver, measured: encodings/README.md, 'Which encoding for which solver'"))]
    pub amo: AtMostOne,
    /// Projection lines of a DIMACS export: show writes `c p show` (the model-counting
    /// format: d4, Ganak, ApproxMC; d4 refuses any `c ind` line), ind writes `c ind`
    /// (CryptoMiniSat 5's `--maxsol` projects on these only), both writes both, none neither.
    #[arg(long, value_name = "KIND", default_value_t = Projection::default(),
          value_parser = parse_projection,
          help = "Projection lines (DIMACS only): show (`c p show`: d4, Ganak, ApproxMC), ind (`c ind`: CryptoMiniSat --maxsol), both (d4 refuses it), none [possible values: show, ind, both, none]")]
    pub projection: Projection,
    /// none: every solution is a model; rotation: one model per class (only where the
    /// one-piece restriction is exact on its own).
    #[arg(long = "up-to", value_name = "MODE", default_value = "none", value_parser = parse_up_to,
          help = "none: every solution is a model; rotation: one model per class (only where the one-piece restriction is exact on its own) [possible values: none, rotation]")]
    pub up_to: UpTo,
    /// Write to FILE instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// `cubesat decode`.
#[derive(Debug, Args)]
pub struct DecodeArgs {
    /// The file `cubesat export` wrote.
    pub instance: PathBuf,
    /// The external solver's output.
    pub answer: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SolutionFormat::Text)]
    pub format: SolutionFormat,
    /// Colour in text output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

/// Render formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RenderFormat {
    /// z layers side by side, one letter per piece.
    Text,
    /// Isometric SVG of the first solution.
    Svg,
    /// Self-contained HTML page with every solution.
    Html,
}

/// `cubesat render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// JSON Lines written by `cubesat solve --format json` (- for stdin).
    pub solutions: PathBuf,
    /// Only solution N (counting from 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub solution: Option<u64>,
    /// The format.
    #[arg(long, value_enum)]
    pub format: RenderFormat,
    /// Pull the pieces apart (SVG).
    #[arg(long)]
    pub explode: bool,
    /// Write to FILE instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// `cubesat show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArg,
    /// Only this piece (its name).
    #[arg(long, value_name = "NAME")]
    pub piece: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ShowFormat::Text)]
    pub format: ShowFormat,
    /// Colour in text output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Write to FILE instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Output formats of `show`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum ShowFormat {
    /// Each piece as z layers, then the target.
    #[default]
    Text,
    /// One isometric SVG: the target and the pieces beside it.
    Svg,
    /// A self-contained HTML page with a 3D view.
    Html,
}

/// The help line of an `--amo` option, listing the encodings.
fn amo_help(what: &str) -> String {
    format!(
        "At-most-one encoding {what} [possible values: {}]",
        AtMostOne::ALL.map(AtMostOne::name).join(", ")
    )
}

fn parse_projection(s: &str) -> Result<Projection, String> {
    s.parse()
}

fn parse_up_to(s: &str) -> Result<UpTo, String> {
    s.parse().map_err(|e: cubesat::Error| e.to_string())
}

/// Counting modes given as one word separated by commas (`none,rotation`,
/// [`UpTo::parse_list`]): the run's own, and those a count weighs from the same search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Modes(pub UpTo, pub Vec<UpTo>);

impl Modes {
    /// The run's own mode.
    pub fn first(&self) -> UpTo {
        self.0
    }

    /// The modes counted beside the first.
    pub fn rest(&self) -> Vec<UpTo> {
        self.1.clone()
    }
}

fn parse_modes(s: &str) -> Result<Modes, String> {
    let (first, rest) = UpTo::parse_list(s).map_err(|e| e.to_string())?;
    Ok(Modes(first, rest))
}

fn parse_disassembler(s: &str) -> Result<Mode, String> {
    s.parse().map_err(|e: cubesat::Error| e.to_string())
}

fn parse_level(s: &str) -> Result<Level, String> {
    s.parse().map_err(|e: cubesat::Error| e.to_string())
}

fn parse_engine(s: &str) -> Result<EngineChoice, String> {
    s.parse().map_err(|e: cubesat::Error| e.to_string())
}
