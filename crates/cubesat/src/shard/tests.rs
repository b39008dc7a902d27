//! The shard module's unit tests: records round-trip and refuse edits, seals refuse forgeries,
//! and merges add complete sets up exactly and name what is wrong with the others.

use std::path::PathBuf;

use cubesat_xc::Shard;

use super::*;
use crate::counting::UpTo;

fn record(k: u32, n: u32, count: u64) -> ShardRecord {
    ShardRecord {
        shard: Shard::new(k, n).unwrap(),
        job: Job::Count,
        count,
        raw: count,
        nodes: Some(100 + u64::from(k)),
        up_to: UpTo::Rotation,
        engine: "exact".into(),
        puzzle: "soma".into(),
        puzzle_digest: "p".into(),
        digest: "d".into(),
        version: VERSION.into(),
        cpu_seconds: 0.25,
        seconds: 0.5,
        complete: true,
        command: format!("cubesat solve soma --count --shard {k}/{n}"),
        seal: None,
    }
}

fn files(rs: Vec<ShardRecord>) -> Vec<(PathBuf, ShardRecord)> {
    rs.into_iter()
        .map(|r| (PathBuf::from(format!("{}.json", r.shard.index())), r))
        .collect()
}

#[test]
fn a_record_round_trips_and_refuses_edits() {
    let r = record(3, 8, 42);
    let text = r.to_json().to_string();
    assert_eq!(parse_file(&text), Ok(vec![r.clone()]));
    let edited = text.replace("\"count\":42", "\"count\":43");
    assert_eq!(parse_file(&edited), Err(RecordError::Edited));
    let added = text.replace("\"count\":42", "\"count\":42,\"extra\":1");
    assert_eq!(parse_file(&added), Err(RecordError::Edited));
    assert!(matches!(
        parse_file(&text[..text.len() / 2]),
        Err(RecordError::Json { line: 1, .. })
    ));
    assert_eq!(parse_file(""), Err(RecordError::Empty));
    assert_eq!(
        parse_file(&format!("{text}\n{text}\n")),
        Ok(vec![r.clone(), r.clone()])
    );
    let mut l = r.clone();
    l.job = Job::List;
    l.count = 1;
    let listed = l.to_json().to_string();
    let solution = "{\"type\":\"solution\"}";
    assert_eq!(
        parse_file(&format!("{solution}\n{listed}\n{listed}")),
        Err(RecordError::Several(2))
    );
    assert_eq!(
        parse_file(&listed),
        Err(RecordError::Listing { lines: 0, count: 1 })
    );
}

#[test]
fn merges_a_complete_set_and_names_what_is_wrong() {
    let all = files((0..4).map(|k| record(k, 4, 10 + u64::from(k))).collect());
    let m = merge(&all).unwrap();
    assert_eq!((m.count, m.nodes, m.shards), (46, Some(406), 4));
    let mut gap = all.clone();
    gap.remove(2);
    gap.remove(0);
    let e = merge(&gap).unwrap_err();
    assert!(matches!(&e, MergeError::Missing { missing, .. } if missing == &[0, 2]));
    let text = e.to_string();
    assert!(text.contains("2 of 4 shards missing: 0, 2"), "{text}");
    assert_eq!(shard_list(&[0, 2, 3, 4, 5, 9], ","), "0,2-5,9");
    let mut dup = all.clone();
    dup.push((PathBuf::from("again.json"), record(1, 4, 11)));
    assert!(matches!(merge(&dup), Err(MergeError::Duplicate { .. })));
    let mut other = all.clone();
    other[1].1.puzzle_digest = "q".into();
    assert!(
        merge(&other)
            .unwrap_err()
            .to_string()
            .contains("another puzzle")
    );
    let mut old = all.clone();
    old[3].1.version = "0.0.1".into();
    assert!(matches!(merge(&old), Err(MergeError::OtherVersion { .. })));
    let mut n = all.clone();
    n[2].1.shard = Shard::new(2, 5).unwrap();
    assert!(
        merge(&n)
            .unwrap_err()
            .to_string()
            .contains("against 4 shards")
    );
    let mut cut = all.clone();
    cut[1].1.complete = false;
    cut[1].1.count = 3;
    let e = merge(&cut).unwrap_err().to_string();
    assert!(
        e.contains("1 of 4 shards missing: 1 (1 interrupted: 1)"),
        "{e}"
    );
    // A rerun after the interrupted record (or before it) supersedes it.
    cut.push(all[1].clone());
    assert_eq!(merge(&cut).unwrap().count, 46);
    cut.swap(1, 4);
    assert_eq!(merge(&cut).unwrap().count, 46);
    assert_eq!(shard_list(&[0, 1, 2, 3, 5, 7, 8], ","), "0-3,5,7,8");
}

#[test]
fn keyed_seals_refuse_a_record_resealed_without_the_key() {
    let key = b"0123456789abcdef-shard-key";
    let mut r = record(1, 2, 42);
    r.seal(key);
    let text = r.to_json().to_string();
    let back = parse_file(&text).unwrap();
    assert_eq!(back, vec![r.clone()]);
    let at = |r: ShardRecord| vec![(PathBuf::from("1.json"), r)];
    assert_eq!(check_seals(&at(r.clone()), key), Ok(()));
    // A forger changes the count and computes the unkeyed check again: the record reads,
    // but its seal no longer matches.
    let mut forged = r.clone();
    forged.count = 43;
    let forged = parse_file(&forged.to_json().to_string()).unwrap().remove(0);
    assert!(matches!(
        check_seals(&at(forged), key),
        Err(MergeError::Seal { .. })
    ));
    assert!(check_seals(&at(r.clone()), b"another key, long enough").is_err());
    assert!(check_seals(&at(record(1, 2, 42)), key).is_err());
    let bad = text.replace("hmac-sha256:", "hmac-sha256:zz");
    assert!(matches!(
        parse_file(&bad),
        Err(RecordError::Field { field: "seal", .. })
    ));
}

#[test]
fn sums_past_64_bits_are_refused() {
    let mut big = files((0..2).map(|k| record(k, 2, 1 << 63)).collect());
    assert_eq!(merge(&big), Err(MergeError::Overflow { field: "count" }));
    big[1].1.count = (1 << 63) - 1;
    big[1].1.raw = (1 << 63) - 1;
    assert_eq!(merge(&big).unwrap().count, u64::MAX);
}

/// A record as the binary wrote it before the shard module was split (its command line quoted
/// for a shell): it reads, and is written back byte for byte, so old records still merge.
#[test]
fn a_record_written_earlier_reads_and_writes_back_the_same() {
    let text = r##"{"check":"3b6d3fcb680f4091aa898917294457ec","command":"cubesat solve 'my puzzle'\\''s \"copy\".json' --count --quiet --shard=1/4","complete":true,"count":0,"cpu_seconds":0.002592,"digest":"a788d856aa3b49aa32c7c6edc760845f","engine":"exact","job":"count","nodes":0,"puzzle":"Soma cube","puzzle_digest":"a2e8bbda5ad2b7d9da8a999389f09202","raw":0,"seconds":0.000024,"shard":"1/4","type":"shard","up_to":"rotation","version":"0.1.0"}"##;
    let r = parse_file(text).unwrap().remove(0);
    assert_eq!(
        r.command,
        r#"cubesat solve 'my puzzle'\''s "copy".json' --count --quiet --shard=1/4"#
    );
    assert_eq!(r.to_json().to_string(), text);
}

/// A folder holds a shard when its file is this run's complete records, runs it again when
/// they are interrupted, and refuses any other file.
#[test]
fn a_folder_knows_its_shards_and_refuses_other_runs_files() {
    use crate::puzzle::bundled;
    use crate::run::{self, Instance, RunOptions};
    let inst = Instance::new(bundled("pentominoes-6x10").unwrap()).unwrap();
    let opts = RunOptions {
        up_to: UpTo::None,
        also_up_to: vec![UpTo::Rotation],
        shard: Some(Shard::new(1, 3).unwrap()),
        ..RunOptions::default()
    };
    let dir = std::env::temp_dir().join(format!("cubesat-folder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let folder = Folder::open(&dir, &inst.puzzle, &opts, 3).unwrap();
    assert_eq!(folder.held(1).unwrap(), Held::Missing);
    let report = run::count(&inst, &opts).unwrap();
    let mut records = ShardRecord::all(&inst.puzzle, &opts, Job::Count, &report, 0.1, "c".into());
    assert_eq!(records.len(), 2);
    folder.write(1, &records).unwrap();
    let Held::Done(held) = folder.held(1).unwrap() else {
        panic!("shard 1 written, not held");
    };
    // As written, less the precision JSON keeps of the seconds.
    let key = |r: &ShardRecord| (r.count, r.up_to, r.digest.clone(), r.complete);
    assert_eq!(
        held.iter().map(key).collect::<Vec<_>>(),
        records.iter().map(key).collect::<Vec<_>>()
    );
    assert!(records[0].count > 0);
    assert_eq!(folder.merged().unwrap(), None, "shards 0 and 2 missing");
    for r in &mut records {
        r.complete = false;
    }
    folder.write(1, &records).unwrap();
    assert_eq!(folder.held(1).unwrap(), Held::Interrupted);
    // Shard 1's records in shard 2's file; one mode's record alone; a listing's record.
    folder.write(2, &records).unwrap();
    assert!(matches!(folder.held(2), Err(FolderError::OtherRun { .. })));
    folder.write(2, &records[..1]).unwrap();
    let alone = Folder::open(&dir, &inst.puzzle, &opts, 3).unwrap();
    assert!(matches!(alone.held(2), Err(FolderError::OtherRun { .. })));
    std::fs::write(folder.path(0), "not a record").unwrap();
    assert!(matches!(folder.held(0), Err(FolderError::Record { .. })));
    let _ = std::fs::remove_dir_all(&dir);
}
