//! Tests of the grids, their transforms and shapes.

use super::sphere::{from_layer as sphere_from_layer, to_layer as sphere_to_layer};
use super::*;

mod layer_frame {
    use super::*;

    #[test]
    fn the_layer_frame_round_trips_and_stacks_balls_in_hollows() {
        for k in 0..4 {
            for j in -3..4 {
                for i in -3..4 {
                    let c = sphere_from_layer([i, j, k]);
                    assert!(Grid::Sphere.is_cell(c));
                    assert_eq!(sphere_to_layer(c), [i, j, k]);
                }
            }
        }
        // A ball of layer 1 touches the four balls of layer 0 below it, and neighbours in a
        // layer touch.
        let top = sphere_from_layer([0, 0, 1]);
        let offsets = Grid::Sphere.neighbour_offsets();
        for below in [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]] {
            assert!(offsets.contains(&sub(sphere_from_layer(below), top)));
        }
        assert!(offsets.contains(&sub(
            sphere_from_layer([1, 0, 0]),
            sphere_from_layer([0, 0, 0])
        )));
        assert!(offsets.contains(&sub(
            sphere_from_layer([0, 1, 0]),
            sphere_from_layer([0, 0, 0])
        )));
        for o in offsets {
            assert!(Grid::Sphere.is_cell(*o));
            let c = Grid::Sphere.centre(*o);
            let d = (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]).sqrt();
            assert!((d - 1.0).abs() < 1e-12);
        }
    }
}

mod shapes {
    use super::*;
    use std::collections::HashSet;

    fn shape(cells: &[Cell]) -> Shape {
        Shape::new(cells.iter().copied())
    }

    #[test]
    fn there_are_24_proper_rotations_and_they_form_a_group() {
        let all = Grid::Cube.transforms();
        assert_eq!(all.iter().filter(|t| t.is_proper()).count(), 24);
        assert!(all[..24].iter().all(|t| t.is_proper()));
        assert!(all[24..].iter().all(|t| !t.is_proper()));
        assert_eq!(all[0], Transform::IDENTITY);
        let set: HashSet<Transform> = all.iter().copied().collect();
        assert_eq!(set.len(), 48);
        for a in Grid::Cube.rotations() {
            for b in Grid::Cube.rotations() {
                let c = a.compose(b);
                assert!(c.is_proper());
                let p = [1, 2, 3];
                assert_eq!(c.apply(p), a.apply(b.apply(p).unwrap()));
            }
        }
    }

    /// Orientation counts from ../shared/reference/README.md.
    #[test]
    fn tetracube_orientation_counts_match_the_reference() {
        let cases: [(&str, &[Cell], usize); 8] = [
            ("I", &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]], 3),
            ("O", &[[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 1, 0]], 3),
            ("T", &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 0, 0]], 12),
            ("L", &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0]], 24),
            ("S", &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0]], 12),
            ("branch", &[[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0]], 8),
            ("screw_a", &[[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 0, 1]], 12),
            ("screw_b", &[[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 0, 0]], 12),
        ];
        for (name, cells, n) in cases {
            assert_eq!(shape(cells).orientations(false).len(), n, "{name}");
        }
        // The two screws are mirror images of each other, the others are achiral.
        let a = shape(cases[6].1);
        let b = shape(cases[7].1);
        assert_eq!(a.mirrored().canonical(), b.canonical());
        assert!(!a.is_achiral());
        assert!(shape(cases[5].1).is_achiral());
    }

    /// Grows every polycube of n cells up to translation and sums the orientation counts of
    /// the one-sided classes: OEIS A001931 gives 1, 3, 15, 86, 534 fixed polycubes.
    #[test]
    fn orientation_counts_sum_to_the_fixed_polycube_numbers() {
        let mut fixed: HashSet<Shape> = HashSet::from([shape(&[[0, 0, 0]])]);
        let expected = [1usize, 3, 15, 86, 534];
        for (n, &want) in expected.iter().enumerate() {
            if n > 0 {
                let mut next = HashSet::new();
                for s in &fixed {
                    for &c in s.cells() {
                        for nb in Grid::Cube.neighbour_offsets().iter().map(|&o| add(c, o)) {
                            if !s.cells().contains(&nb) {
                                let mut cells = s.cells().to_vec();
                                cells.push(nb);
                                next.insert(Shape::new(cells));
                            }
                        }
                    }
                }
                fixed = next;
            }
            assert_eq!(fixed.len(), want, "fixed polycubes of size {}", n + 1);
            // One-sided classes: group fixed shapes by canonical form; their orientation
            // counts must add up to the number of fixed shapes.
            let classes: HashSet<Shape> = fixed.iter().map(|s| s.canonical()).collect();
            let total: usize = classes.iter().map(|s| s.orientations(false).len()).sum();
            assert_eq!(total, want, "orientation sum for size {}", n + 1);
        }
    }

    #[test]
    fn mirror_orientations_include_both_hands() {
        let screw = shape(&[[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 0, 1]]);
        assert_eq!(screw.orientations(true).len(), 24);
        let l = shape(&[[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0]]);
        // A planar piece is its own mirror image in 3D: no new orientations.
        assert_eq!(l.orientations(true).len(), 24);
    }

    /// The sphere grid's transforms: 240 orthogonal matrices with entries in Z/3, 120 proper,
    /// the cube's 48 in order inside them. They are not a group (two of them can compose to a
    /// matrix with entries in Z/9), but the set is closed under inverses and under composition
    /// with the cube's 48.
    #[test]
    fn the_sphere_grid_has_240_transforms_forming_a_group() {
        let all = Grid::Sphere.transforms();
        assert_eq!(all.len(), 240);
        let set: HashSet<Transform> = all.iter().copied().collect();
        assert_eq!(set.len(), 240);
        assert!(all[..120].iter().all(|t| t.is_proper()));
        assert!(all[120..].iter().all(|t| !t.is_proper()));
        assert_eq!(&all[..24], Grid::Cube.rotations());
        assert_eq!(&all[120..144], &Grid::Cube.transforms()[24..]);
        assert_eq!(Grid::Sphere.rotations().len(), 120);
        assert_eq!(Grid::Cube.rotations().len(), 24);
        let inverse = |t: &Transform| {
            let mut m = t.m;
            for (i, row) in m.iter_mut().enumerate() {
                for (j, v) in row.iter_mut().enumerate() {
                    *v = t.m[j][i];
                }
            }
            Transform { m, den: t.den }
        };
        let not_closed = all
            .iter()
            .flat_map(|a| all.iter().map(move |b| a.compose(b)))
            .filter(|c| !set.contains(c))
            .count();
        assert!(not_closed > 0);
        for a in all {
            assert!(set.contains(&inverse(a)));
            assert_eq!(a.compose(&inverse(a)), Transform::IDENTITY);
            for b in Grid::Cube.transforms() {
                assert!(set.contains(&a.compose(b)));
                assert!(set.contains(&b.compose(a)));
            }
            // Orthogonal: M Mᵀ = den² I.
            let d = i32::from(a.den);
            for i in 0..3 {
                for j in 0..3 {
                    let dot: i32 = (0..3)
                        .map(|k| i32::from(a.m[i][k]) * i32::from(a.m[j][k]))
                        .sum();
                    assert_eq!(dot, if i == j { d * d } else { 0 });
                }
            }
        }
    }

    /// Orientation counts of small ball pieces, from the directions of the face-centred cubic
    /// lattice: a pair or a straight line lies along one of 6 directions; a triangle of three
    /// touching balls lies in one of the four {111} planes, pointing one of two ways (8); the
    /// tetrahedron of four has 2. Every orientation is made of balls, and normalising keeps
    /// balls on balls.
    #[test]
    fn sphere_orientations() {
        let on = |cells: &[Cell]| Shape::new_on(Grid::Sphere, cells.iter().copied());
        // Two touching balls: 12 contacts, 6 unordered directions.
        assert_eq!(on(&[[0, 0, 0], [1, 1, 0]]).orientations(false).len(), 6);
        // A straight line of three balls: 6 directions.
        assert_eq!(
            on(&[[0, 0, 0], [1, 1, 0], [2, 2, 0]])
                .orientations(false)
                .len(),
            6
        );
        // Three mutually touching balls.
        let tri = on(&[[0, 0, 0], [1, 1, 0], [1, 0, 1]]);
        assert!(tri.is_connected());
        assert_eq!(tri.orientations(false).len(), 8);
        assert!(tri.is_achiral());
        // Balls always stay balls.
        for s in tri.orientations(true) {
            assert!(s.cells().iter().all(|&c| Grid::Sphere.is_cell(c)));
        }
        // The tetrahedron of four balls: 2 orientations.
        let tet = on(&[[0, 0, 0], [1, 1, 0], [1, 0, 1], [0, 1, 1]]);
        assert_eq!(tet.orientations(false).len(), 2);
        // Normalisation keeps balls on balls: a shape whose corner is not a ball starts at x 1.
        let s = on(&[[1, 0, 1], [0, 1, 1]]);
        assert_eq!(s.cells(), &[[2, 0, 0], [1, 1, 0]]);
    }

    #[test]
    fn connectivity() {
        assert!(shape(&[[0, 0, 0], [1, 0, 0]]).is_connected());
        assert!(!shape(&[[0, 0, 0], [1, 1, 0]]).is_connected());
        assert!(Shape::new([]).is_connected());
    }
}

mod grids {
    use super::*;

    /// Every grid answers for itself: names and BurrTools numbers round-trip, its transforms
    /// start with the identity and pair each rotation with its mirror image, its contacts are
    /// cells one unit apart, and its typed frame round-trips.
    #[test]
    fn every_grid_answers_for_itself() {
        assert_eq!(Grid::names(), "\"cubes\" or \"spheres\"");
        assert_eq!(Grid::from_name("prisms"), None);
        assert_eq!(
            Grid::titles(),
            "the cube grid (type 0) and the sphere grid (type 2)"
        );
        assert_eq!(Grid::from_burrtools_type(1), None);
        for g in Grid::ALL {
            assert_eq!(g.kind().name(), g.name());
            assert_eq!(Grid::from_name(g.name()), Some(g));
            assert_eq!(Grid::from_burrtools_type(g.burrtools_type()), Some(g));
            assert_eq!(g.is_default(), g == Grid::Cube);
            let all = g.transforms();
            assert_eq!(all[0], Transform::IDENTITY);
            let half = all.len() / 2;
            for (r, m) in all[..half].iter().zip(&all[half..]) {
                assert!(r.is_proper() && !m.is_proper());
                assert_eq!(r.compose(&Transform::MIRROR_X), *m);
            }
            for &o in g.neighbour_offsets() {
                assert!(g.is_cell(o));
                let c = g.centre(o);
                let z = g.centre([0, 0, 0]);
                let d: f64 = (0..3).map(|a| (c[a] - z[a]).powi(2)).sum::<f64>().sqrt();
                assert!((d - 1.0).abs() < 1e-12, "{}: {o:?} is {d} away", g.name());
            }
            for c in [[0, 0, 0], [2, 1, 3], [-1, 4, -2]] {
                assert_eq!(g.to_user(g.from_user(c)), c);
            }
        }
        assert!(Grid::Cube.permutes_axes() && !Grid::Sphere.permutes_axes());
        assert!(Grid::Cube.symmetries_compose() && !Grid::Sphere.symmetries_compose());
    }

    /// The frame offset starts typed cells at 0: none on the cube grid; on the sphere grid
    /// the layer-frame corner of the balls, whatever their lattice coordinates.
    #[test]
    fn layer_origin_starts_typed_cells_at_zero() {
        let cells = [[5, 1, 1], [4, 0, 2], [2, 0, 0]];
        assert_eq!(Grid::Cube.layer_origin(cells), [0; 3]);
        let o = Grid::Sphere.layer_origin(cells.map(sphere_from_layer));
        for c in cells {
            let typed = sphere_to_layer(add(sphere_from_layer(c), o));
            assert_eq!(typed, sub(c, [2, 0, 0]));
        }
        assert_eq!(Grid::Sphere.layer_origin([]), [0; 3]);
    }
}
