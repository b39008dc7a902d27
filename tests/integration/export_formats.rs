//! The export formats through the one door every front end uses ([`ExportFormat`],
//! [`Export`]): each named, typed back, with its extension and media type; `cubesat export`
//! lists them all; and the plain-text placement list, the format added to prove the door,
//! lists every placement the reduction keeps, as the DLX export does.

use cubesat::interop::{Export, ExportFormat};
use cubesat::plan::ExportSettings;
use cubesat::puzzle::bundled;

use crate::common::Dir;

#[test]
fn every_format_has_one_name_extension_and_media_type() {
    let mut names = std::collections::HashSet::new();
    for f in ExportFormat::ALL {
        assert!(names.insert(f.name()), "{} twice", f.name());
        assert_eq!(f.name().parse::<ExportFormat>(), Ok(f));
        assert_eq!(f.to_string(), f.name());
        assert!(!f.extension().is_empty() && !f.extension().contains('.'));
        assert!(f.mime().contains('/'), "{}", f.mime());
    }
    let e = "cnf".parse::<ExportFormat>().unwrap_err();
    assert!(e.contains(&ExportFormat::names()), "{e}");
    // `--format` offers each, with its line of help.
    let dir = Dir::new();
    let help = dir.run(&["export", "--help"]);
    help.code(0);
    for f in ExportFormat::ALL {
        help.stdout_has(&format!("{}:", f.name()))
            .stdout_has(f.about());
    }
    dir.run(&["export", "soma", "--format", "cnf"])
        .code(2)
        .stderr_has("[possible values: dimacs, dlx, asp, xmpuzzle, placements]");
}

#[test]
fn the_library_writes_what_the_cli_writes() {
    let dir = Dir::new();
    for f in ExportFormat::ALL {
        let export = Export::new(bundled("soma").unwrap(), f, ExportSettings::default()).unwrap();
        let mut bytes = Vec::new();
        export.write(&mut bytes, |_| {}).unwrap();
        let out = format!("soma.{}", f.extension());
        dir.run(&["export", "soma", "--format", f.name(), "--out", &out, "-q"])
            .code(0);
        let want = std::fs::read(dir.path().join(&out)).unwrap();
        assert!(bytes == want, "{f}: the library's bytes are not the CLI's");
    }
}

#[test]
fn the_placement_list_lists_every_kept_placement() {
    let dir = Dir::new();
    for (mode, placements) in [("none", 688), ("rotation", 550)] {
        let run = dir.run(&["export", "soma", "--format", "placements", "--up-to", mode]);
        run.code(0);
        let (comments, lines): (Vec<&str>, Vec<&str>) =
            run.stdout.lines().partition(|l| l.starts_with("# "));
        // The header says what the file is, for which puzzle, how it was counted, and how to
        // read a line.
        let header = comments.join("\n");
        for says in [
            "Placement list written by cubesat",
            "'Soma cube'",
            &format!("{placements} placements"),
            "tab-separated",
            "x,y,z",
        ] {
            assert!(header.contains(says), "{says:?} not in\n{header}");
        }
        assert_eq!(lines.len(), placements, "{mode}");
        // The options are the DLX export's, line for line: the piece, then as many cells.
        let dlx = dir.run(&["export", "soma", "--format", "dlx", "--up-to", mode]);
        let options: Vec<&str> = dlx
            .stdout
            .lines()
            .filter(|l| !l.starts_with('|'))
            .skip(1)
            .collect();
        assert_eq!(options.len(), placements);
        let mut numbers = Vec::new();
        for (line, option) in lines.iter().zip(&options) {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 4, "{line}");
            numbers.push(fields[0].parse::<u32>().unwrap());
            let piece: Vec<&str> = option.split(' ').collect();
            assert_eq!(fields[1], piece[0], "{line} / {option}");
            assert_eq!(fields[2], "0", "{line}");
            let cells: Vec<&str> = fields[3].split(' ').collect();
            assert_eq!(cells.len(), piece.len() - 1, "{line} / {option}");
            assert!(cells.iter().all(|c| c.split(',').count() == 3), "{line}");
        }
        assert!(
            numbers.windows(2).all(|w| w[0] < w[1]),
            "{mode}: not ascending"
        );
        if mode == "none" {
            assert!(
                numbers.iter().copied().eq(0..688),
                "every placement, in order"
            );
        }
    }
    // The rules of every instance export hold: no count an external tool cannot mean.
    dir.run(&[
        "export",
        "soma",
        "--format",
        "placements",
        "--up-to",
        "rotation+reflection",
    ])
    .code(2)
    .stderr_has("reflections are left to `cubesat solve`");
    dir.run(&[
        "export",
        "soma",
        "--format",
        "placements",
        "--out",
        "soma.txt",
    ])
    .code(0);
    assert!(
        std::fs::read_to_string(dir.path().join("soma.txt"))
            .unwrap()
            .starts_with("# Placement list")
    );
}
