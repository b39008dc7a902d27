//! What a count identifies ([`UpTo`]): every solution, up to rotation, up to rotation and
//! reflection, or in BurrTools' convention; the modes and their names, below the puzzle that
//! may name its default one.

use std::fmt;
use std::str::FromStr;

use crate::error::{Result, bail};

/// What a count identifies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum UpTo {
    /// Every solution, every placement distinct.
    None,
    /// Solutions identified under the rotations of the target (default: physical pieces
    /// cannot be mirrored).
    #[default]
    Rotation,
    /// Also identified under reflections (only defined when the piece set is closed under
    /// mirror images).
    RotationReflection,
    /// BurrTools' default count: rotations of the result, and reflections only where
    /// BurrTools' mirror check recognises the mirrored assembly (see `counting::BurrMirror`).
    BurrTools,
}

impl UpTo {
    /// The phrase used after a count: "solutions up to rotation".
    pub fn phrase(&self) -> &'static str {
        match self {
            UpTo::None => "counting every placement",
            UpTo::Rotation => "up to rotation",
            UpTo::RotationReflection => "up to rotation and reflection",
            UpTo::BurrTools => "in BurrTools' convention",
        }
    }
}

impl fmt::Display for UpTo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UpTo::None => "none",
            UpTo::Rotation => "rotation",
            UpTo::RotationReflection => "rotation+reflection",
            UpTo::BurrTools => "burrtools",
        })
    }
}

impl UpTo {
    /// Counting modes written as one word separated by commas (`none,rotation`): the first,
    /// the run's own, and the others, which a count weighs from the same search
    /// ([`crate::run::RunOptions::also_up_to`]).
    pub fn parse_list(text: &str) -> Result<(UpTo, Vec<UpTo>)> {
        let modes = (text.split(','))
            .map(str::parse)
            .collect::<Result<Vec<UpTo>>>()?;
        Ok((modes[0], modes[1..].to_vec()))
    }
}

impl FromStr for UpTo {
    type Err = crate::Error;
    fn from_str(s: &str) -> Result<UpTo> {
        Ok(match s {
            "none" | "all" => UpTo::None,
            "rotation" => UpTo::Rotation,
            "rotation+reflection" | "reflection" => UpTo::RotationReflection,
            "burrtools" => UpTo::BurrTools,
            _ => bail!(
                "unknown counting mode '{}' (expected none, rotation, rotation+reflection or burrtools)",
                crate::echo::echo(s)
            ),
        })
    }
}
