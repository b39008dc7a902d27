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
    /// start with the identity and pair each rotation with its mirror image, map cells onto
    /// cells and translations onto translations, its contacts join cells at one distance per
    /// direction kind, and its typed frame and BurrTools voxels round-trip.
    #[test]
    fn every_grid_answers_for_itself() {
        assert_eq!(
            Grid::names(),
            "\"cubes\", \"prisms\", \"spheres\", \"rhombic\", \"tetra-octa\" or \"hexagons\""
        );
        assert_eq!(Grid::from_name("octagons"), None);
        assert_eq!(
            Grid::titles(),
            "the cube grid (type 0), the prism grid (type 1), the sphere grid (type 2), the rhombic grid (type 3) and the tetrahedra-octahedra grid (type 4)"
        );
        assert_eq!(Grid::from_burrtools_type(5), None);
        let box_cells = |g: Grid| -> Vec<Cell> {
            let mut v = Vec::new();
            for z in -3..4 {
                for y in -7..8 {
                    for x in -7..8 {
                        if g.is_cell([x, y, z]) {
                            v.push([x, y, z]);
                        }
                    }
                }
            }
            v
        };
        for g in Grid::ALL {
            assert_eq!(g.kind().name(), g.name());
            assert_eq!(Grid::from_name(g.name()), Some(g));
            if let Some(t) = g.burrtools_type() {
                assert_eq!(Grid::from_burrtools_type(t), Some(g));
            }
            assert_eq!(g.is_default(), g == Grid::Cube);
            let all = g.transforms();
            assert_eq!(all[0], Transform::IDENTITY);
            let half = all.len() / 2;
            for (r, m) in all[..half].iter().zip(&all[half..]) {
                assert!(r.is_proper() && !m.is_proper());
                assert_eq!(r.compose(&Transform::MIRROR_X), *m);
            }
            let cells = box_cells(g);
            // Every contact of a cell is a cell, contact is symmetric, and touching cells
            // meet as their shapes say: balls and cubes one unit apart, prisms along a side
            // of their polygons (or stacked), tetrahedra across a face.
            let same = |p: &[f64], q: &[f64]| p.iter().zip(q).all(|(a, b)| (a - b).abs() < 1e-9);
            for &c in &cells {
                for &o in g.neighbour_offsets_of(c) {
                    let n = add(c, o);
                    assert!(g.is_cell(n), "{}: {c:?} + {o:?}", g.name());
                    assert!(g.neighbour_offsets_of(n).contains(&sub(c, n)));
                    assert!(g.neighbour_offsets().contains(&o));
                    let shared = match g.cell_shape() {
                        CellShape::Cube | CellShape::Ball => {
                            let (a, b) = (g.centre(c), g.centre(n));
                            let d: f64 = (0..3).map(|k| (a[k] - b[k]).powi(2)).sum::<f64>().sqrt();
                            assert!((d - 1.0).abs() < 1e-12, "{}: {o:?} is {d} away", g.name());
                            continue;
                        }
                        CellShape::Prism if o[2] != 0 => {
                            assert_eq!(g.polygon(c), g.polygon(n));
                            continue;
                        }
                        CellShape::Prism => {
                            let (p, q) = (g.polygon(c).unwrap(), g.polygon(n).unwrap());
                            (
                                p.iter()
                                    .filter(|a| q.iter().any(|b| same(&a[..], &b[..])))
                                    .count(),
                                2,
                            )
                        }
                        CellShape::Tetrahedron => {
                            let (p, q) = (g.tetrahedron(c).unwrap(), g.tetrahedron(n).unwrap());
                            (
                                p.iter()
                                    .filter(|a| q.iter().any(|b| same(&a[..], &b[..])))
                                    .count(),
                                3,
                            )
                        }
                    };
                    assert_eq!(shared.0, shared.1, "{}: {c:?} and {n:?}", g.name());
                }
                assert_eq!(g.to_user(g.from_user(g.to_user(c))), g.to_user(c));
                assert_eq!(g.from_user(g.to_user(c)), c);
                assert_eq!(g.from_burrtools(g.kind().cell_voxel(c)), Some(c));
            }
            // The symmetries fitting a cell map it onto a cell (relative to another cell,
            // BurrTools' rule, where the grid's transforms fit only some shapes).
            let probe = [cells[0], cells[cells.len() / 2], cells[cells.len() - 1]];
            for t in all {
                if let Some(img) = g.transform_cells(t, &probe) {
                    assert!(img.iter().all(|&c| g.is_cell(c)), "{}: {t:?}", g.name());
                }
            }
            for c in [[0, 0, 0], [2, 1, 3], [-1, 4, -2]] {
                assert_eq!(g.to_user(g.from_user(c)), c);
                let step = g.typed_step_below(c);
                assert!((0..3).all(|a| step[a] <= c[a]));
                // A typed step moves every typed cell by itself.
                let t = g.typed_translation(step);
                assert!(g.is_translation(t));
                assert_eq!(g.to_user(add(g.from_user(c), t)), add(c, step));
                let below = g.translation_below(c);
                assert!(g.is_translation(below) && (0..3).all(|a| below[a] <= c[a]));
            }
        }
        assert!(Grid::Cube.permutes_axes() && !Grid::Sphere.permutes_axes());
        assert!(!Grid::Prism.permutes_axes() && !Grid::Hexagon.permutes_axes());
        assert!(Grid::Rhombic.permutes_axes() && Grid::TetraOcta.permutes_axes());
        assert!(Grid::Cube.symmetries_compose() && !Grid::Sphere.symmetries_compose());
        for g in [Grid::Prism, Grid::Rhombic, Grid::TetraOcta, Grid::Hexagon] {
            assert!(g.symmetries_compose());
        }
    }

    /// The prism grid: BurrTools' voxels are triangles pointing up where x + y is even, its
    /// 12 rotations and 12 reflections are a group that maps cells onto cells, moves keep a
    /// triangle's direction, and the typed frame's rows run downward.
    #[test]
    fn prisms_follow_burrtools_grid_1() {
        let g = Grid::Prism;
        // Pointing up: one corner above the centroid (the apex), two below.
        let up = |c: Cell| {
            let y = g.centre(c)[1];
            g.polygon(c).unwrap().iter().filter(|p| p[1] > y).count() == 1
        };
        for y in -3..4 {
            for x in -3..4 {
                let c = g.from_burrtools([x, y, 0]).unwrap();
                assert!(g.is_cell(c));
                assert_eq!(up(c), (x + y).rem_euclid(2) == 0, "voxel [{x}, {y}]");
                // BurrTools' face neighbours: x ± 1, and y - 1 (up) or y + 1 (down).
                let t = if (x + y).rem_euclid(2) == 0 { -1 } else { 1 };
                for n in [[x - 1, y, 0], [x + 1, y, 0], [x, y + t, 0], [x, y, 1]] {
                    let d = sub(g.from_burrtools(n).unwrap(), c);
                    assert!(g.neighbour_offsets().contains(&d), "{n:?} from [{x}, {y}]");
                }
                // Typed rows run down the page: typed [x, j] is voxel [x, -j].
                assert_eq!(g.to_user(c), [x, -y, 0]);
            }
        }
        let all = g.transforms();
        assert_eq!(all.len(), 24);
        let set: std::collections::HashSet<Transform> = all.iter().copied().collect();
        assert_eq!(set.len(), 24);
        for a in all {
            for b in all {
                assert!(set.contains(&a.compose(b)), "{a:?} * {b:?}");
            }
        }
        // A single triangle has two orientations (up and down), a rhombus of two triangles
        // three, the straight tetriamond six (flat parallelograms slanting either way, turned
        // over being a rotation), as many with mirror images; a column stays upright.
        let shape = |typed: &[Cell]| Shape::new_on(g, typed.iter().map(|&c| g.from_user(c)));
        assert_eq!(shape(&[[0, 0, 0]]).orientations(false).len(), 2);
        assert_eq!(shape(&[[0, 0, 0], [1, 0, 0]]).orientations(false).len(), 3);
        let bar = shape(&[[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]]);
        assert_eq!(bar.orientations(false).len(), 6);
        assert_eq!(bar.orientations(true).len(), 6);
        let column = shape(&[[0, 0, 0], [0, 0, 1]]);
        assert_eq!(column.orientations(false).len(), 2);
        // Moving keeps direction: an upward triangle moved by a translation stays upward.
        let c = g.from_user([0, 0, 0]);
        for d in [[2, 0, 0], [1, 3, 0], [-1, 3, 5], [0, -6, 0]] {
            assert!(g.is_translation(d));
            assert!(up(add(c, d)));
        }
        assert!(!g.is_translation([1, 1, 0]) && !g.is_translation([1, 0, 0]));
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

#[test]
fn slide_sweeps_lie_on_their_axis_and_end_with_the_step() {
    // What the disassembler and its replay rely on: each axis is a translation; a cell's
    // sweep ends where the step lands, holds only cells, and stays within one step along
    // the axis's lines (so a part further along every line than the rest is clear of it).
    for grid in Grid::ALL {
        let axes = grid.slide_axes();
        assert_eq!(grid.can_disassemble(), !axes.is_empty(), "{}", grid.name());
        for (a, &v) in axes.iter().enumerate() {
            assert!(grid.is_translation(v), "{} axis {a}", grid.name());
            assert_ne!(grid.direction_name(2 * a as u8), "?");
            assert_ne!(grid.direction_name(2 * a as u8 + 1), "?");
            for x in -3..4 {
                for y in -3..4 {
                    for z in -1..2 {
                        let c = [x, y, z];
                        if !grid.is_cell(c) {
                            continue;
                        }
                        let sweep = grid.slide_sweep(a, c);
                        assert_eq!(sweep.last(), Some(&v), "{} {c:?}", grid.name());
                        let (line, t) = grid.slide_line(a, c);
                        let (end, te) = grid.slide_line(a, add(c, v));
                        assert_eq!((end, te), (line, t + 1));
                        for &o in sweep {
                            let s = add(c, o);
                            assert!(grid.is_cell(s), "{} {c:?} + {o:?}", grid.name());
                            let ts = grid.slide_line(a, s).1;
                            assert!(ts == t || ts == t + 1, "{} {c:?} + {o:?}", grid.name());
                        }
                    }
                }
            }
        }
    }
}
