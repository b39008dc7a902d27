//! The SVG of a scene of balls (BurrTools' sphere grid): shaded balls drawn far to near, ghosts for empty balls, a tray under each container.
//!
//! Balls are round, so drawing them in depth order hides exactly; balls of different pieces
//! interleave in depth, so each ball is its own group rather than each piece.

use super::{
    EXPLODE_FACTOR, GHOST, LABEL_WIDTH_PER_CHAR, Label, Layout, Legend, UNIT, num, write_head,
    write_labels,
};
use crate::render::{Occupant, Rgb, Scene, xml_escape};
use std::fmt::Write as _;

/// A ball of the picture: who it is, its centre in lattice coordinates (fractional) and its
/// depth towards the viewer.
struct Ball {
    owner: Occupant,
    a: f64,
    b: f64,
    depth: f64,
}

/// A point in space (ball diameters, [`crate::geometry::Grid::centre`]'s frame) seen as the
/// cube picture sees its space, after turning the scene 45° about z so that the layer frame's
/// columns and rows run along the picture's x and y axes (a square pyramid then shows two
/// faces): lattice coordinates `(a, b)` and depth.
fn ball_view(p: [f64; 3]) -> (f64, f64, f64) {
    let s = std::f64::consts::FRAC_1_SQRT_2;
    let (x, y, z) = ((p[0] + p[1]) * s, (p[1] - p[0]) * s, p[2]);
    (x + y, x - y - 2.0 * z, x - y + z)
}

/// The radius of a ball (diameter 1) in pixels: the picture maps a unit along any axis to
/// [`UNIT`] pixels, an orthographic view scaled by √(3/2).
fn ball_radius() -> f64 {
    0.5 * UNIT * 1.5f64.sqrt()
}

/// The SVG of a scene of balls ([`crate::geometry::CellShape::Ball`]): shaded balls with their
/// piece's mark, drawn far to near (balls are round, so drawing in depth order hides exactly),
/// empty target balls as pale see-through ghosts, each container's lowest layer on a pale
/// tray; exploded, every piece moves from its container's centre by [`EXPLODE_FACTOR`] times
/// its centroid's offset. Balls of different pieces interleave in depth, so each ball is its
/// own `<g class="ball">` with `data-piece` (its index in the scene; `-1` for an empty ball).
pub(super) fn svg(scene: &Scene, explode: bool) -> String {
    let balls = place(scene, explode);
    let trays = if explode { Vec::new() } else { trays(scene) };
    // Loose pieces (a puzzle sheet): each piece's mark and name under its balls.
    let labels = if scene.loose && !explode {
        labels(scene, &balls)
    } else {
        Vec::new()
    };
    let (lo, hi) = extent(&balls, &trays, &labels);
    let legend = Legend::new(scene);
    let layout = Layout::fit(scene, lo, hi, &legend);
    let floors: Vec<String> = trays
        .iter()
        .map(|t| {
            let [a, b, c, d] = t.map(|(x, y)| layout.at(x, y));
            format!("M{a} L{b} L{c} L{d} Z")
        })
        .collect();
    let mut s = String::new();
    write_head(
        &mut s,
        scene,
        explode,
        &layout,
        &floors,
        "isometric view of balls",
    );
    write_gradients(&mut s, scene);
    write_balls(&mut s, scene, &balls, &layout);
    write_labels(&mut s, &labels, &layout);
    legend.write(&mut s, &layout);
    let _ = writeln!(s, "</svg>");
    s
}

/// Every ball of the scene where it is drawn (pieces moved apart when `explode`, then the
/// empty balls), sorted far to near (ties by owner, so the order is fixed).
fn place(scene: &Scene, explode: bool) -> Vec<Ball> {
    let centre = |c: [i32; 3]| scene.grid.centre(c);
    let mut balls: Vec<Ball> = Vec::new();
    for (i, p) in scene.pieces.iter().enumerate() {
        let off = if explode {
            explode_offset(scene, i)
        } else {
            [0.0; 3]
        };
        for &c in &p.cells {
            let q = centre(c);
            let (a, b, depth) = ball_view(std::array::from_fn(|k| q[k] + off[k]));
            balls.push(Ball {
                owner: Occupant::Piece(i),
                a,
                b,
                depth,
            });
        }
    }
    for &c in &scene.empty {
        let (a, b, depth) = ball_view(centre(c));
        balls.push(Ball {
            owner: Occupant::Empty,
            a,
            b,
            depth,
        });
    }
    balls.sort_by(|x, y| x.depth.total_cmp(&y.depth).then(x.owner.cmp(&y.owner)));
    balls
}

/// How far piece `i` moves in the exploded view: [`EXPLODE_FACTOR`] times its centroid's
/// offset from the centre of its container's box (none for a piece without balls).
fn explode_offset(scene: &Scene, i: usize) -> [f64; 3] {
    let p = &scene.pieces[i];
    if p.cells.is_empty() {
        return [0.0; 3];
    }
    let centre = |c: [i32; 3]| scene.grid.centre(c);
    // The centre of a container's box, in space.
    let box_centre = |k: usize| -> [f64; 3] {
        let c = &scene.containers[k];
        std::array::from_fn(|a| {
            (f64::from(c.origin[a]) + f64::from(c.size[a] - 1) / 2.0)
                * std::f64::consts::FRAC_1_SQRT_2
        })
    };
    let n = p.cells.len() as f64;
    let mid: [f64; 3] =
        std::array::from_fn(|a| p.cells.iter().map(|&c| centre(c)[a]).sum::<f64>() / n);
    let home = match p.cells.first().and_then(|&c| scene.container_of(c)) {
        Some(k) => box_centre(k),
        None => mid,
    };
    std::array::from_fn(|a| (mid[a] - home[a]) * EXPLODE_FACTOR)
}

/// The trays under each container's lowest layer, in the layer frame (half a ball beyond the
/// outer balls' centres, half a ball below them), as lattice coordinates of their corners.
fn trays(scene: &Scene) -> Vec<[(f64, f64); 4]> {
    let mut span: Vec<Option<([i32; 3], [i32; 3])>> = vec![None; scene.containers.len()];
    let cells = scene
        .pieces
        .iter()
        .flat_map(|p| &p.cells)
        .chain(&scene.empty);
    for &c in cells {
        if let Some(k) = scene.container_of(c) {
            let l = scene.grid.to_user(c);
            let (lo, hi) = span[k].get_or_insert((l, l));
            for a in 0..3 {
                lo[a] = lo[a].min(l[a]);
                hi[a] = hi[a].max(l[a]);
            }
        }
    }
    let mut trays = Vec::new();
    for (lo, hi) in span.into_iter().flatten() {
        // Layer-frame ball [i, j, k] is at (i + k/2, j + k/2, k/√2) in the turned space;
        // back to Grid::centre's frame for ball_view.
        let corner = |i: f64, j: f64| {
            let k = f64::from(lo[2]);
            let (u, v, w) = (
                i + k / 2.0,
                j + k / 2.0,
                k * std::f64::consts::FRAC_1_SQRT_2 - 0.5,
            );
            let s = std::f64::consts::FRAC_1_SQRT_2;
            let p = [(u + v) * s, (u - v) * s, w];
            let (a, b, _) = ball_view(p);
            (a, b)
        };
        let (i0, i1) = (f64::from(lo[0]) - 0.5, f64::from(hi[0]) + 0.5);
        let (j0, j1) = (f64::from(lo[1]) - 0.5, f64::from(hi[1]) + 0.5);
        trays.push([
            corner(i0, j0),
            corner(i1, j0),
            corner(i1, j1),
            corner(i0, j1),
        ]);
    }
    trays
}

/// A ball's radius in lattice units along `a` and along `b`.
fn radius_ab() -> (f64, f64) {
    let r = ball_radius();
    (r / (UNIT * 3f64.sqrt() / 2.0), r / (UNIT / 2.0))
}

/// Each piece's mark and name, centred under its balls.
fn labels(scene: &Scene, balls: &[Ball]) -> Vec<Label> {
    let copies = scene.copies();
    let (_, rb) = radius_ab();
    let mut labels: Vec<Label> = Vec::new();
    for (i, &copy) in copies.iter().enumerate() {
        let mine: Vec<&Ball> = balls
            .iter()
            .filter(|b| b.owner == Occupant::Piece(i))
            .collect();
        if mine.is_empty() {
            continue;
        }
        let a0 = mine.iter().map(|b| b.a).fold(f64::INFINITY, f64::min);
        let a1 = mine.iter().map(|b| b.a).fold(f64::NEG_INFINITY, f64::max);
        let b1 = mine.iter().map(|b| b.b).fold(f64::NEG_INFINITY, f64::max);
        let text = super::label_text(scene, i, copy);
        labels.push(Label {
            a: (a0 + a1) / 2.0,
            b: b1 + rb + 2.0,
            text,
        });
    }
    labels
}

/// The lowest and highest lattice coordinates of everything drawn (balls, trays, labels with
/// their text's width and a unit below the baseline), or the origin twice for an empty picture.
fn extent(balls: &[Ball], trays: &[[(f64, f64); 4]], labels: &[Label]) -> ((f64, f64), (f64, f64)) {
    let (ra, rb) = radius_ab();
    let mut lo = (f64::INFINITY, f64::INFINITY);
    let mut hi = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    let mut extend = |a: f64, b: f64| {
        lo = (lo.0.min(a), lo.1.min(b));
        hi = (hi.0.max(a), hi.1.max(b));
    };
    for ball in balls {
        extend(ball.a - ra, ball.b - rb);
        extend(ball.a + ra, ball.b + rb);
    }
    for t in trays {
        t.iter().for_each(|&(a, b)| extend(a, b));
    }
    for label in labels {
        let half = label.text.chars().count() as f64 * LABEL_WIDTH_PER_CHAR
            / 2.0
            / (UNIT * 3f64.sqrt() / 2.0);
        extend(label.a - half, label.b + 1.0);
        extend(label.a + half, label.b);
    }
    if lo.0 > hi.0 {
        return ((0.0, 0.0), (0.0, 0.0));
    }
    (lo, hi)
}

/// One radial gradient per piece (and the ghosts): light upper left, dark rim.
fn write_gradients(s: &mut String, scene: &Scene) {
    let copies = scene.copies();
    let _ = writeln!(s, "<defs>");
    let shades: Vec<(String, Rgb)> = (0..scene.pieces.len())
        .map(|i| (format!("ball-{i}"), scene.colour(i, copies[i])))
        .chain([("ball-empty".to_string(), GHOST)])
        .collect();
    for (id, c) in &shades {
        let _ = writeln!(
            s,
            r#"<radialGradient id="{id}" cx="0.38" cy="0.32" r="0.72"><stop offset="0" stop-color="{}"/><stop offset="0.5" stop-color="{}"/><stop offset="1" stop-color="{}"/></radialGradient>"#,
            c.lightened(0.55).hex(),
            c.hex(),
            c.scaled(0.55).hex()
        );
    }
    let _ = writeln!(s, "</defs>");
}

/// The balls, far to near: a piece's ball with its mark (lower case and a dashed white rim for
/// a hint), an empty ball as a pale ghost.
fn write_balls(s: &mut String, scene: &Scene, balls: &[Ball], layout: &Layout) {
    let copies = scene.copies();
    let r = ball_radius();
    let _ = writeln!(s, r#"<g id="balls" font-size="12" text-anchor="middle">"#);
    for ball in balls {
        let (x, y) = layout.xy(ball.a, ball.b);
        let (cx, cy, rr) = (num(x), num(y), num(r));
        match ball.owner {
            Occupant::Piece(i) => {
                let p = &scene.pieces[i];
                let colour = scene.colour(i, copies[i]);
                let ink = if colour.luminance() > 0.5 {
                    "#000000"
                } else {
                    "#ffffff"
                };
                let mark = scene.mark(i, copies[i]);
                let mark = if p.hint { mark.to_lowercase() } else { mark };
                let hint = if p.hint {
                    r##" stroke="#ffffff" stroke-width="2.4" stroke-dasharray="4 2""##
                } else {
                    r##" stroke="#222222" stroke-width="1""##
                };
                let _ = writeln!(
                    s,
                    r#"<g class="ball" data-piece="{i}"><circle cx="{cx}" cy="{cy}" r="{rr}" fill="url(#ball-{i})"{hint}/><text x="{cx}" y="{}" fill="{ink}">{}</text></g>"#,
                    num(y + 4.0),
                    xml_escape(&mark)
                );
            }
            Occupant::Empty => {
                let _ = writeln!(
                    s,
                    r##"<g class="ball" data-piece="-1"><circle cx="{cx}" cy="{cy}" r="{rr}" fill="url(#ball-empty)" fill-opacity="0.55" stroke="#888888" stroke-width="0.8" stroke-dasharray="3 2"/></g>"##
                );
            }
        }
    }
    let _ = writeln!(s, "</g>");
}

#[cfg(test)]
mod tests {
    use crate::render::svg;

    #[test]
    fn balls_are_circles_far_to_near() {
        let scene = crate::render::samples::small_pyramid();
        let s = svg(&scene, false);
        assert_eq!(s.matches("<circle").count(), 14, "{s}");
        assert_eq!(s.matches(r#"data-piece="-1""#).count(), 1);
        for (i, p) in scene.pieces.iter().enumerate() {
            let n = s.matches(&format!(r#"data-piece="{i}""#)).count();
            assert_eq!(n, p.cells.len(), "piece {i}");
        }
        // A ball resting on another is nearer the viewer, so drawn after it whatever the
        // pieces' order.
        let mut two = scene.clone();
        two.pieces.truncate(2);
        two.pieces[0].cells = vec![crate::geometry::Grid::Sphere.from_user([0, 0, 1])];
        two.pieces[1].cells = vec![[0, 0, 0]];
        two.empty.clear();
        let t = svg(&two, false);
        assert!(
            t.find(r#"data-piece="1""#) < t.find(r#"data-piece="0""#),
            "{t}"
        );
        assert!(s.contains("isometric view of balls"));
        assert_eq!(s.matches("<radialGradient").count(), 5);
        assert_eq!(svg(&scene, true), svg(&scene, true));
        assert_ne!(svg(&scene, true), s);
    }
}
