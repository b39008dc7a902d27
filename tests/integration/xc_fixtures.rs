//! The kernel's test fixtures (`crates/xc/fixtures/*.xcm`) are the bundled puzzles' models as
//! the pipeline builds them today; `CUBESAT_BLESS=1 cargo test xc_fixtures` rewrites them.

use std::fmt::Write;

use cubesat::puzzle::bundled;
use cubesat::run::Instance;
use cubesat_xc::ExactCover;

fn fixture_text(name: &str, m: &ExactCover) -> String {
    let mut s = format!(
        "# The exact-cover model of the bundled puzzle '{name}' (cubesat's placements),\n\
         # for cubesat-xc's own tests. Written by tests/integration/xc_fixtures.rs.\n"
    );
    let join = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
    // Every item of a bundled puzzle is exact or secondary (0).
    let needs: Vec<u32> = m.items.iter().map(|i| i.min).collect();
    assert!(m.items.iter().all(|i| i.is_exact() || i.is_secondary()));
    writeln!(s, "items {}", join(&needs)).unwrap();
    if let Some(g) = &m.geometry {
        writeln!(s, "geometry {}", g.first_cell).unwrap();
        for size in &g.piece_sizes {
            writeln!(s, "size {size}").unwrap();
        }
        for n in &g.neighbors {
            writeln!(s, "cell {}", join(n)).unwrap();
        }
    }
    for o in &m.options {
        writeln!(s, "option {}", join(o)).unwrap();
    }
    if !m.forced.is_empty() {
        writeln!(s, "forced {}", join(&m.forced)).unwrap();
    }
    s
}

#[test]
fn xc_fixtures_are_the_bundled_models() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/crates/xc/fixtures");
    for name in ["soma", "pentominoes-6x10", "tetris-cube"] {
        let inst = Instance::new(bundled(name).unwrap()).unwrap();
        let want = fixture_text(name, &inst.model);
        let path = format!("{dir}/{name}.xcm");
        if std::env::var_os("CUBESAT_BLESS").is_some() {
            std::fs::write(&path, &want).unwrap();
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            have == want,
            "{path} is stale: rerun with CUBESAT_BLESS=1 cargo test xc_fixtures"
        );
    }
}
