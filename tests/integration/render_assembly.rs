//! Slide-in assembly order on whole sample scenes, checked against an independent
//! implementation: validity of the returned order, completeness, and maximality of the prefix.

use cubesat::render::{AssemblyOrder, assembly_order, assembly_order_cells, samples};

/// Whether `a` has a cell above a cell of `b` in the same column (then `b` must go first).
fn covers(a: &[[i32; 3]], b: &[[i32; 3]]) -> bool {
    a.iter().any(|p| {
        b.iter()
            .any(|q| p[0] == q[0] && p[1] == q[1] && p[2] > q[2])
    })
}

fn valid(pieces: &[Vec<[i32; 3]>], order: &[usize]) -> bool {
    order
        .iter()
        .enumerate()
        .all(|(i, &p)| order[..i].iter().all(|&q| !covers(&pieces[q], &pieces[p])))
}

/// Independent: a set can be assembled iff it can be taken apart by repeatedly lifting out a
/// piece that nothing remaining covers.
fn can_assemble(pieces: &[Vec<[i32; 3]>], set: &[usize]) -> bool {
    let mut left: Vec<usize> = set.to_vec();
    while !left.is_empty() {
        let free = left.iter().position(|&p| {
            left.iter()
                .all(|&q| q == p || !covers(&pieces[q], &pieces[p]))
        });
        match free {
            Some(i) => {
                left.remove(i);
            }
            None => return false,
        }
    }
    true
}

fn check(pieces: &[Vec<[i32; 3]>]) -> (Vec<usize>, bool) {
    check_order(pieces, assembly_order_cells(pieces))
}

fn check_order(pieces: &[Vec<[i32; 3]>], a: AssemblyOrder) -> (Vec<usize>, bool) {
    assert!(valid(pieces, &a.order), "invalid order {:?}", a.order);
    let all: Vec<usize> = (0..pieces.len()).collect();
    assert_eq!(a.complete, can_assemble(pieces, &all));
    assert_eq!(a.complete, a.order.len() == pieces.len());
    if !a.complete && pieces.len() <= 16 {
        // No larger set can be assembled.
        for mask in 0u32..(1 << pieces.len()) {
            if mask.count_ones() as usize > a.order.len() {
                let set: Vec<usize> = all
                    .iter()
                    .copied()
                    .filter(|i| mask & (1 << i) != 0)
                    .collect();
                assert!(
                    !can_assemble(pieces, &set),
                    "{set:?} is larger and assemblable"
                );
            }
        }
    }
    (a.order, a.complete)
}

fn cells(scene: &cubesat::render::Scene) -> Vec<Vec<[i32; 3]>> {
    scene.pieces.iter().map(|p| p.cells.clone()).collect()
}

#[test]
fn samples() {
    for s in [
        samples::tetris_cube(),
        samples::pentominoes_10x6(),
        samples::two_boxes(),
        samples::hints_only(),
    ] {
        check(&cells(&s));
        let (order, complete) = check_order(&cells(&s), assembly_order(&s));
        eprintln!("{}: {order:?} complete={complete}", s.title);
    }
}

#[test]
fn boxes_are_filled_one_after_the_other() {
    let s = samples::two_boxes();
    let (order, complete) = check_order(&cells(&s), assembly_order(&s));
    assert!(complete);
    let first_box: Vec<bool> = order.iter().map(|&p| s.pieces[p].cells[0][0] < 4).collect();
    assert_eq!(
        first_box,
        [true, true, true, true, false, false, false, false]
    );
}

#[test]
fn flat_boards_always_complete() {
    let (order, complete) = check(&cells(&samples::pentominoes_10x6()));
    assert!(complete);
    assert_eq!(
        order,
        (0..12).collect::<Vec<_>>(),
        "ties go to the lower index"
    );
}

#[test]
fn interlocked_pair_among_free_pieces() {
    let pieces = vec![
        vec![[5, 0, 0]],
        vec![[0, 0, 0], [1, 0, 0], [1, 0, 1], [1, 0, 2], [0, 0, 2]],
        vec![[0, 0, 1]],
        vec![[5, 0, 1]],
    ];
    let (order, complete) = check(&pieces);
    assert!(!complete);
    assert_eq!(order.len(), 3);
    assert!(order.iter().position(|&p| p == 0) < order.iter().position(|&p| p == 3));
}
