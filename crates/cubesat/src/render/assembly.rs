//! The slide-in assembly order of a [`Scene`] (the algorithm is [`crate::disassembly::slide_in`]).

use super::Scene;

pub use crate::disassembly::slide_in::{AssemblyOrder, assembly_order_cells};

/// The slide-in order for the pieces of `scene`: see [`assembly_order_cells`]. With several
/// containers, ties between pieces that may go next are broken by container first (the
/// container of the piece's first cell), so one box is filled before the next.
pub fn assembly_order(scene: &Scene) -> AssemblyOrder {
    let cells: Vec<&[[i32; 3]]> = scene.pieces.iter().map(|p| p.cells.as_slice()).collect();
    let groups: Vec<usize> = scene
        .pieces
        .iter()
        .map(|p| {
            p.cells
                .first()
                .and_then(|&c| scene.container_of(c))
                .unwrap_or(usize::MAX)
        })
        .collect();
    crate::disassembly::slide_in::order_grouped(&cells, &groups)
}
