//! Counting the Soma cube's solutions through the library: `cargo run --example count_soma`.

use cubesat::{Instance, RunOptions, UpTo, puzzle, run};

fn main() -> anyhow::Result<()> {
    let soma = Instance::new(puzzle::bundled("soma")?)?;
    for up_to in [UpTo::None, UpTo::Rotation, UpTo::RotationReflection] {
        let opts = RunOptions {
            up_to,
            ..RunOptions::default()
        };
        let report = run::count(&soma, &opts)?;
        println!("{} solutions {}", report.count, up_to.phrase());
    }
    Ok(())
}
