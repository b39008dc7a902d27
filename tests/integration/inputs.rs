//! Input sources and input faults on the real binary (issue 30): a puzzle from a FIFO, a
//! process substitution, `/dev/zero` or stdin, each read once through its bound; render's
//! JSON Lines read line by line; deeply nested XML; damaged gzip; numbers out of range, a
//! byte order mark, bad UTF-8 and repeated JSON keys reported with their place; coordinates
//! bounded as docs/limits.md says; file names that are not UTF-8.
//!
//! Every run here has a deadline, so an input that would make cubesat read forever fails the
//! test instead of hanging the suite.

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{Dir, Run, puzzle_file};

/// How long any run may take here; the inputs are small or refused early.
const DEADLINE: Duration = Duration::from_secs(60);

/// Runs `cubesat ARGS` in `dir` with `stdin`, killed at the deadline (a failure).
fn run_with(dir: &Dir, args: &[&OsStr], stdin: Stdio) -> Run {
    run_program(
        dir,
        OsStr::new(env!("CARGO_BIN_EXE_cubesat")),
        args,
        stdin,
        None,
    )
}

/// [`run_with`] for any program (a shell that runs cubesat), its data memory (heap and
/// other private writable mappings, `RLIMIT_DATA`) limited to `data_limit` bytes if given.
fn run_program(
    dir: &Dir,
    program: &OsStr,
    args: &[&OsStr],
    stdin: Stdio,
    data_limit: Option<u64>,
) -> Run {
    let mut command = Command::new(program);
    command
        .args(args)
        .current_dir(dir.path())
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(bytes) = data_limit {
        let limit = libc::rlimit {
            rlim_cur: bytes as libc::rlim_t,
            rlim_max: bytes as libc::rlim_t,
        };
        // SAFETY: setrlimit is async-signal-safe and touches only the child.
        unsafe {
            command.pre_exec(move || {
                if libc::setrlimit(libc::RLIMIT_DATA, &limit) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
    }
    let mut child = command.spawn().expect("run cubesat");
    let cmd = format!(
        "{} {}",
        Path::new(program).display(),
        args.iter()
            .map(|a| a.to_string_lossy())
            .collect::<Vec<_>>()
            .join(" ")
    );
    // Drain both pipes on threads, so that a large output cannot block the child.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut out, &mut v).ok();
        v
    });
    let err = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut err, &mut v).ok();
        v
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for cubesat") {
            break status;
        }
        if start.elapsed() > DEADLINE {
            child.kill().ok();
            child.wait().ok();
            panic!("{cmd}: still running after {DEADLINE:?} (a hang)");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Run {
        cmd,
        code: status
            .code()
            .unwrap_or_else(|| -status.signal().unwrap_or(0)),
        stdout: String::from_utf8_lossy(&out.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&err.join().unwrap()).into_owned(),
    }
}

/// `cubesat ARGS` with stdin closed, under the deadline.
fn run(dir: &Dir, args: &[&str]) -> Run {
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    run_with(dir, &args, Stdio::null())
}

/// `cubesat ARGS` with a file as stdin, under the deadline.
fn run_stdin(dir: &Dir, args: &[&str], stdin: &Path) -> Run {
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    let f = std::fs::File::open(stdin).expect("open stdin file");
    run_with(dir, &args, Stdio::from(f))
}

/// Expects a refusal: exit code 2 and one `cubesat: error:` line holding every one of `what`.
fn refused(r: &Run, what: &[&str]) {
    r.code(2);
    r.check(
        r.stderr.lines().count() == 1 && r.stderr.starts_with("cubesat: error: "),
        "one error line",
    );
    for w in what {
        r.stderr_has(w);
    }
}

/// Makes a FIFO at `path`.
fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
}

/// Writes `bytes` into the FIFO at `path` on a thread (opening blocks until cubesat opens it
/// to read); `forever` repeats them until the reader goes away. The thread is not joined:
/// if cubesat never opened the FIFO, it would wait forever.
fn feed(path: &Path, bytes: Vec<u8>, forever: bool) -> std::thread::JoinHandle<()> {
    let path = path.to_path_buf();
    std::thread::spawn(move || {
        let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(&path) else {
            return;
        };
        loop {
            if f.write_all(&bytes).is_err() || !forever {
                return;
            }
        }
    })
}

fn soma_text() -> Vec<u8> {
    std::fs::read(puzzle_file("soma")).unwrap()
}

#[test]
fn a_fifo_and_a_process_substitution_are_read_once_as_puzzles() {
    let dir = Dir::new();
    // A FIFO: it can be opened and read once only.
    let fifo = dir.path().join("soma-fifo");
    mkfifo(&fifo);
    let _writer = feed(&fifo, soma_text(), false);
    run(&dir, &["solve", "soma-fifo", "--count"])
        .code(0)
        .stdout_is("480 solutions up to rotation\n");
    // A BurrTools file through a FIFO: `info` describes its problems from the same read.
    let burr = std::fs::read(format!(
        "{}/tests/data/burrtools/own/02_copies.xmpuzzle",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let fifo = dir.path().join("burr-fifo");
    mkfifo(&fifo);
    let _writer = feed(&fifo, burr, false);
    run(&dir, &["info", "burr-fifo"])
        .code(0)
        .stdout_has("BurrTools file (version 2), 2 problems")
        .stdout_has("problem 0:");
    // `cubesat solve <(cat soma.json)`, as a shell runs it: the path is a pipe, /dev/fd/N.
    std::fs::write(dir.path().join("soma.json"), soma_text()).unwrap();
    let r = run_program(
        &dir,
        OsStr::new("bash"),
        &[
            OsStr::new("-c"),
            OsStr::new(r#"exec "$0" solve <(cat soma.json) --count"#),
            OsStr::new(env!("CARGO_BIN_EXE_cubesat")),
        ],
        Stdio::null(),
        None,
    );
    r.code(0).stdout_is("480 solutions up to rotation\n");
}

#[test]
fn endless_sources_stop_at_the_puzzle_bound() {
    let dir = Dir::new();
    for dev in ["/dev/zero", "/dev/urandom"] {
        for cmd in ["solve", "info"] {
            refused(
                &run(&dir, &[cmd, dev]),
                &[dev, "more than the 8388608 bytes cubesat reads"],
            );
        }
    }
    // A FIFO whose writer never stops.
    let fifo = dir.path().join("endless");
    mkfifo(&fifo);
    let _writer = feed(&fifo, vec![b' '; 1 << 16], true);
    refused(
        &run(&dir, &["solve", "endless"]),
        &["endless: more than the 8388608 bytes cubesat reads"],
    );
    // A puzzle on stdin has the puzzle file's bound, not the 256 MiB of other inputs.
    refused(
        &run_stdin(&dir, &["solve", "-"], Path::new("/dev/zero")),
        &["stdin: more than the 8388608 bytes cubesat reads"],
    );
}

#[test]
fn endless_sources_stop_at_the_input_bound_in_render_decode_and_merge() {
    let dir = Dir::new();
    dir.run(&["export", "soma", "--format", "dlx", "--out", "soma.dlx"])
        .code(0);
    let bound = "/dev/zero: more than the 268435456 bytes cubesat reads";
    refused(
        &run(&dir, &["render", "/dev/zero", "--format", "text"]),
        &[bound],
    );
    refused(&run(&dir, &["decode", "soma.dlx", "/dev/zero"]), &[bound]);
    refused(&run(&dir, &["merge", "/dev/zero"]), &[bound]);
}

/// A JSON Lines listing of `copies` times Soma's 480 solutions, then its summary.
fn big_listing(dir: &Dir, name: &str, copies: usize) -> std::path::PathBuf {
    let r = dir.run(&["solve", "soma", "--all", "--format", "json", "--quiet"]);
    r.code(0);
    let (solutions, summary): (Vec<&str>, Vec<&str>) = r
        .stdout
        .lines()
        .partition(|l| l.contains(r#""type":"solution""#));
    let path = dir.path().join(name);
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    for _ in 0..copies {
        for l in &solutions {
            writeln!(f, "{l}").unwrap();
        }
    }
    writeln!(f, "{}", summary[0]).unwrap();
    f.flush().unwrap();
    path
}

#[test]
fn render_reads_a_large_file_line_by_line() {
    let dir = Dir::new();
    // 48,000 solutions, about 34 MB.
    let path = big_listing(&dir, "big.jsonl", 100);
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size > 25 << 20, "{size} bytes");
    // In 64 MiB of data memory: memory does not grow with the file (a fixed bound, not a
    // time; held whole, the file needed 600 MiB and the run aborted at the limit).
    let args = [
        "render",
        "big.jsonl",
        "--format",
        "svg",
        "--solution",
        "47999",
    ];
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    let r = run_program(
        &dir,
        OsStr::new(env!("CARGO_BIN_EXE_cubesat")),
        &args,
        Stdio::null(),
        Some(64 << 20),
    );
    r.code(0).stdout_has("<svg");
    // The same solution from a FIFO (held in memory, read once) and from a small file.
    let small = big_listing(&dir, "small.jsonl", 1);
    let want = run(
        &dir,
        &[
            "render",
            "small.jsonl",
            "--format",
            "svg",
            "--solution",
            "479",
        ],
    );
    want.code(0);
    // The drawing, without the title and the width that depends on it.
    let drawing = |svg: &str| -> Vec<String> {
        svg.lines()
            .filter(|l| !l.contains("solution 479") && !l.starts_with("<svg"))
            .map(str::to_string)
            .collect()
    };
    r.check(
        drawing(&r.stdout) == drawing(&want.stdout),
        "solution 47999 is solution 479 again",
    );
    let fifo = dir.path().join("listing-fifo");
    mkfifo(&fifo);
    let _writer = feed(&fifo, std::fs::read(&small).unwrap(), false);
    run(
        &dir,
        &[
            "render",
            "listing-fifo",
            "--format",
            "svg",
            "--solution",
            "479",
        ],
    )
    .code(0)
    .stdout_is(&want.stdout);
    // Text shows every solution; each line is checked before it is shown.
    let text = run(&dir, &["render", "small.jsonl", "--format", "text"]);
    text.code(0);
    text.check(
        text.stdout.matches("solution 480").count() == 1,
        "480 solutions drawn",
    );
    // A second summary (two listings concatenated) is refused, not silently used.
    let mut two = std::fs::read(&small).unwrap();
    two.extend(std::fs::read(&small).unwrap());
    std::fs::write(dir.path().join("two.jsonl"), two).unwrap();
    refused(
        &run(&dir, &["render", "two.jsonl", "--format", "text"]),
        &["two.jsonl: line 962: a second summary line (the first is line 481)"],
    );
    // An endless line stops at the line bound.
    let mut long = b"{\"type\":\"solution\",\"pieces\":[".to_vec();
    long.resize(40 << 20, b' ');
    std::fs::write(dir.path().join("long.jsonl"), long).unwrap();
    refused(
        &run(&dir, &["render", "long.jsonl", "--format", "text"]),
        &["long.jsonl: line 1: the line is longer than the 33554432 bytes"],
    );
}

#[test]
fn deeply_nested_xml_is_refused_not_a_stack_overflow() {
    let dir = Dir::new();
    let n = 20_000;
    let deep = format!(
        "<?xml version=\"1.0\"?>\n<puzzle version=\"2\">{}{}</puzzle>\n",
        "<a>".repeat(n),
        "</a>".repeat(n)
    );
    dir.write("deep.xml", &deep);
    for cmd in ["solve", "info", "show"] {
        refused(
            &run(&dir, &[cmd, "deep.xml"]),
            &["deep.xml: line 2: elements nest more than 256 deep"],
        );
    }
    // Gzipped too; tags in attribute values, comments and CDATA are not counted.
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(deep.as_bytes()).unwrap();
    std::fs::write(dir.path().join("deep.xmpuzzle"), e.finish().unwrap()).unwrap();
    refused(
        &run(&dir, &["info", "deep.xmpuzzle"]),
        &["elements nest more than 256 deep"],
    );
    let shallow = format!(
        "<?xml version=\"1.0\"?>\n<puzzle version=\"2\" a=\"{}\"><!--{}--><![CDATA[{}]]></puzzle>\n",
        "/>".repeat(n),
        "<c>".repeat(n),
        "<d>".repeat(n)
    );
    dir.write("shallow.xml", &shallow);
    let r = run(&dir, &["info", "shallow.xml"]);
    r.code(2);
    r.check(!r.stderr.contains("nest"), "not refused for its nesting");
    // A `/>` inside quotes does not close a tag: 300 such tags nest 300 deep.
    let quoted = format!(
        "<?xml version=\"1.0\"?>\n<puzzle version=\"2\">{}{}</puzzle>\n",
        "<e a=\"/>\">".repeat(300),
        "</e>".repeat(300)
    );
    dir.write("quoted.xml", &quoted);
    refused(
        &run(&dir, &["info", "quoted.xml"]),
        &["elements nest more than 256 deep"],
    );
}

#[test]
fn damaged_gzip_is_called_truncated_or_corrupt() {
    let dir = Dir::new();
    let good = std::fs::read(format!(
        "{}/tests/data/burrtools/own/02_copies.xmpuzzle",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    std::fs::write(dir.path().join("cut.xmpuzzle"), &good[..200]).unwrap();
    let r = run(&dir, &["info", "cut.xmpuzzle"]);
    refused(&r, &["cut.xmpuzzle: the gzip data is truncated"]);
    r.check(
        !r.stderr.contains("inflates to"),
        "no size read from garbage",
    );
    let mut more = good.clone();
    more.extend(b"garbage!");
    std::fs::write(dir.path().join("more.xmpuzzle"), &more).unwrap();
    let r = run(&dir, &["info", "more.xmpuzzle"]);
    refused(
        &r,
        &[
            "more.xmpuzzle: 8 bytes that are not gzip data follow the gzip data (from byte offset 290)",
        ],
    );
    r.check(
        !r.stderr.contains("inflates to"),
        "no size read from garbage",
    );
    // Two whole gzip members are one gzip file (RFC 1952): the second is read too.
    let mut two = good.clone();
    two.extend(&good);
    std::fs::write(dir.path().join("two.xmpuzzle"), &two).unwrap();
    refused(&run(&dir, &["info", "two.xmpuzzle"]), &["bad XML"]);
    run_stdin(&dir, &["info", "-"], &dir.path().join("cut.xmpuzzle"))
        .code(2)
        .stderr_has("stdin: the gzip data is truncated");
}

#[test]
fn numbers_out_of_range_say_so_with_the_bound() {
    let dir = Dir::new();
    refused(
        &run(
            &dir,
            &["solve", "soma", "--count", "--shard", "0/4294967296"],
        ),
        &["4294967296 shards is too many (at most 65536)"],
    );
    refused(
        &run(
            &dir,
            &[
                "solve",
                "soma",
                "--count",
                "--shard",
                "99999999999999999999/4",
            ],
        ),
        &["there is no shard 99999999999999999999/4: shards are numbered from 0"],
    );
    dir.write(
        "count.json",
        r#"{"target": {"box": [3, 3, 3]}, "pieces": [{"name": "a", "cells": [[0, 0, 0]], "count": 99999999999999999999}]}"#,
    );
    refused(
        &run(&dir, &["info", "count.json"]),
        &[
            "count.json: pieces[0].count: ",
            "is out of range (1 to 4096)",
        ],
    );
    dir.write(
        "side.json",
        r#"{"target": {"box": [3, 3, 18446744073709551616]}, "pieces": [{"name": "a", "cells": [[0, 0, 0]], "count": 27}]}"#,
    );
    refused(
        &run(&dir, &["info", "side.json"]),
        &["side.json: target.box[2]: ", "is out of range (1 to 1024)"],
    );
    dir.write(
        "half.json",
        r#"{"target": {"box": [3, 3, 2.5]}, "pieces": [{"name": "a", "cells": [[0, 0, 0]], "count": 27}]}"#,
    );
    refused(
        &run(&dir, &["info", "half.json"]),
        &["half.json: target.box[2]: expected an integer, found 2.5"],
    );
    dir.write(
        "known.json",
        r#"{"target": {"box": [3, 3, 3]}, "pieces": [{"name": "a", "cells": [[0, 0, 0]], "count": 27}], "known_counts": {"all": 99999999999999999999}}"#,
    );
    refused(
        &run(&dir, &["info", "known.json"]),
        &[
            "known.json: known_counts.all: ",
            "is out of range (0 to 18446744073709551615)",
        ],
    );
    dir.write(
        "burr.xml",
        "<?xml version=\"1.0\"?>\n<puzzle version=\"99999999999999999999\"></puzzle>\n",
    );
    refused(
        &run(&dir, &["info", "burr.xml"]),
        &["burr.xml: line 2: <puzzle>: version=\"99999999999999999999\" is above 4294967295"],
    );
}

#[test]
fn a_byte_order_mark_and_bad_utf8_are_named_with_their_place() {
    let dir = Dir::new();
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend(soma_text());
    std::fs::write(dir.path().join("bom.json"), &bom).unwrap();
    refused(
        &run(&dir, &["info", "bom.json"]),
        &["bom.json: line 1, column 1: the text starts with a UTF-8 byte order mark"],
    );
    refused(
        &run_stdin(&dir, &["info", "-"], &dir.path().join("bom.json")),
        &["stdin: line 1, column 1: the text starts with a UTF-8 byte order mark"],
    );
    // A Latin-1 'é' in a piece name on line 3.
    std::fs::write(
        dir.path().join("latin1.json"),
        b"{\"target\": {\"box\": [1, 1, 1]},\n \"pieces\": [\n  {\"name\": \"caf\xE9\", \"cells\": [[0, 0, 0]]}]}\n",
    )
    .unwrap();
    refused(
        &run(&dir, &["info", "latin1.json"]),
        &["latin1.json: line 3, column 16: invalid UTF-8 (byte 0xE9 at byte offset 59)"],
    );
    // The same in a listing, a solver's answer and a shard record.
    let listing = big_listing(&dir, "ok.jsonl", 1);
    let mut bad = std::fs::read(&listing).unwrap();
    let at = bad.iter().position(|&b| b == b'\n').unwrap() + 3;
    bad[at] = 0xFF;
    std::fs::write(dir.path().join("bad.jsonl"), &bad).unwrap();
    refused(
        &run(&dir, &["render", "bad.jsonl", "--format", "text"]),
        &["bad.jsonl: line 2, column 3: invalid UTF-8 (byte 0xFF"],
    );
    dir.run(&["export", "soma", "--format", "dlx", "--out", "soma.dlx"])
        .code(0);
    std::fs::write(dir.path().join("answer.txt"), b"ok\n\xFF\n").unwrap();
    refused(
        &run(&dir, &["decode", "soma.dlx", "answer.txt"]),
        &["answer.txt: line 2, column 1: invalid UTF-8 (byte 0xFF at byte offset 3)"],
    );
    std::fs::write(dir.path().join("record.json"), b"\xEF\xBB\xBF{}\n").unwrap();
    refused(
        &run(&dir, &["merge", "record.json"]),
        &["record.json: line 1, column 1: the text starts with a UTF-8 byte order mark"],
    );
}

#[test]
fn a_key_given_twice_is_refused_at_its_json_path() {
    let dir = Dir::new();
    dir.write(
        "twice.json",
        "{\"target\": {\"box\": [2, 1, 1]},\n \"pieces\": [{\"name\": \"a\", \"cells\": [[0, 0, 0]], \"count\": 1, \"count\": 2}]}",
    );
    refused(
        &run(&dir, &["solve", "twice.json"]),
        &[
            "twice.json: pieces[0].count: the key 'count' appears twice in one object (line 2, column",
        ],
    );
    dir.write(
        "name.json",
        r#"{"name": "a", "name": "b", "target": {"box": [1, 1, 1]}, "pieces": [{"name": "a", "cells": [[0, 0, 0]]}]}"#,
    );
    refused(
        &run(&dir, &["info", "name.json"]),
        &["name.json: name: the key 'name' appears twice in one object (line 1, column"],
    );
    // In a listing's solution line too.
    let listing = big_listing(&dir, "ok.jsonl", 1);
    let text = std::fs::read_to_string(&listing).unwrap();
    let twice = text.replacen(r#"{"index":1,"#, r#"{"index":1,"index":1,"#, 1);
    assert_ne!(twice, text);
    dir.write("twice.jsonl", &twice);
    refused(
        &run(&dir, &["render", "twice.jsonl", "--format", "text"]),
        &["twice.jsonl: index: the key 'index' appears twice in one object (line 1, column"],
    );
}

#[test]
fn target_coordinates_stop_at_1023_so_a_box_is_at_most_1024_wide() {
    let dir = Dir::new();
    let target = |x: i32| {
        format!(
            r#"{{"target": {{"cells": [[0, 0, 0], [{x}, 0, 0]]}}, "pieces": [{{"name": "a", "cells": [[0, 0, 0]], "count": 2}}]}}"#
        )
    };
    dir.write("wide.json", &target(1023));
    run(&dir, &["info", "wide.json"])
        .code(0)
        .stdout_has("shape in a box of 1024x1x1");
    dir.write("wider.json", &target(1024));
    refused(
        &run(&dir, &["info", "wider.json"]),
        &["wider.json: target.cells[1][0]: 1024 is out of range (0 to 1023)"],
    );
    // A piece spans at most as much.
    dir.write(
        "piece.json",
        r#"{"target": {"box": [2, 1, 1]}, "pieces": [{"name": "a", "cells": [[-1000, 0, 0], [1000, 0, 0]]}]}"#,
    );
    refused(
        &run(&dir, &["info", "piece.json"]),
        &["piece.json: pieces[0].cells: piece 'a' spans 2001 cells along x, more than the 1024"],
    );
}

/// A file name that is not UTF-8 (`soma` followed by the byte 0xFF).
fn latin_name(stem: &str, ext: &str) -> OsString {
    let mut b = stem.as_bytes().to_vec();
    b.push(0xFF);
    b.extend(ext.as_bytes());
    OsString::from(std::ffi::OsStr::from_bytes(&b))
}

#[test]
fn file_names_that_are_not_utf8_work_everywhere() {
    let dir = Dir::new();
    let puzzle = latin_name("soma", ".json");
    std::fs::write(dir.path().join(&puzzle), soma_text()).unwrap();
    let os = |v: &[&str]| -> Vec<OsString> { v.iter().map(OsString::from).collect() };
    let go = |args: Vec<OsString>| {
        let a: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
        run_with(&dir, &a, Stdio::null())
    };
    let with = |before: &[&str], name: &OsString, after: &[&str]| {
        let mut v = os(before);
        v.push(name.clone());
        v.extend(os(after));
        go(v)
    };
    with(&["solve"], &puzzle, &["--count"])
        .code(0)
        .stdout_is("480 solutions up to rotation\n");
    with(&["info"], &puzzle, &[])
        .code(0)
        .stdout_has("Soma cube");
    with(&["show"], &puzzle, &[]).code(0);
    with(&["export"], &puzzle, &["--format", "dlx"]).code(0);
    with(&["generate"], &puzzle, &["--hints", "2"]).code(0);
    let xml = latin_name("soma", ".xml");
    let mut v = os(&["convert"]);
    v.push(puzzle.clone());
    v.push(xml.clone());
    go(v).code(0).stderr_has("soma\u{FFFD}.xml");
    with(&["solve"], &xml, &["--count"])
        .code(0)
        .stdout_has("240 solutions in BurrTools' convention");
    // A shard record written to such a name keeps the command line (once a panic).
    let record = latin_name("shard", ".json");
    let mut v = os(&["solve"]);
    v.push(puzzle.clone());
    v.extend(os(&["--count", "--shard", "0/1", "--out"]));
    v.push(record.clone());
    go(v).code(0);
    with(&["merge"], &record, &[])
        .code(0)
        .stdout_is("480 solutions up to rotation\n");
    // Errors print the name lossily, on one line.
    let bad = latin_name("bad", ".json");
    std::fs::write(dir.path().join(&bad), "{}").unwrap();
    refused(
        &with(&["info"], &bad, &[]),
        &["bad\u{FFFD}.json: (top level): the puzzle has no 'target'"],
    );
    refused(
        &with(&["solve"], &latin_name("missing/x", ".json"), &[]),
        &["missing/x\u{FFFD}.json: no such file"],
    );
}

#[test]
fn merge_reads_stdin_for_dash() {
    let dir = Dir::new();
    dir.run(&[
        "solve", "soma", "--count", "--shard", "0/2", "--out", "s0.json",
    ])
    .code(0);
    dir.run(&[
        "solve", "soma", "--count", "--shard", "1/2", "--out", "s1.json",
    ])
    .code(0);
    run_stdin(
        &dir,
        &["merge", "-", "s1.json"],
        &dir.path().join("s0.json"),
    )
    .code(0)
    .stdout_is("480 solutions up to rotation\n");
    // Records on stdin are named `stdin` in messages.
    run_stdin(
        &dir,
        &["merge", "-", "s0.json"],
        &dir.path().join("s0.json"),
    )
    .code(2)
    .stderr_has("appears twice: stdin and s0.json");
}
