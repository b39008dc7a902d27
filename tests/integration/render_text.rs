//! Golden text renderings of the sample scenes (4x4x4 Tetris Cube, 10x6 pentominoes, two
//! 4x2x2 boxes, a hints-only view), plain and coloured.

use cubesat::render::{samples, text};

#[test]
fn tetris_cube_plain() {
    let want = "\
Tetris Cube, solution 1
z=0       z=1       z=2       z=3
D D C H   D C C H   I F C H   F F F F
D D C H   I K K G   I I K G   J I G G
A A C H   B B B G   I J K K   J J L E
B A A A   B L E G   L L E E   J L L E
legend: A = piece 0, B = piece 1, C = piece 2, D = piece 3, E = piece 4,
        F = piece 5, G = piece 6, H = piece 7, I = piece 8, J = piece 9,
        K = piece 10, L = piece 11
";
    assert_eq!(text(&samples::tetris_cube(), false), want);
}

#[test]
fn pentominoes_plain() {
    let want = "\
Pentominoes 10x6
z=0
F I I I I I L V V V
F F F L L L L Z Z V
Y F N N N U U U Z V
Y N N W T U X U Z Z
Y Y W W T X X X P P
Y W W T T T X P P P
legend: Y = Y pentomino, W = W pentomino, T = T pentomino, X = X pentomino,
        P = P pentomino, N = N pentomino, U = U pentomino, Z = Z pentomino,
        F = F pentomino, V = V pentomino, L = L pentomino, I = I pentomino
";
    assert_eq!(text(&samples::pentominoes_10x6(), false), want);
}

#[test]
fn two_boxes_plain_with_hint_lowercase() {
    let want = "\
Two 4x2x2 boxes
box 1 of 2: 4x2x2
z=0       z=1
o o L L   o o T L
I I I I   T T T L

box 2 of 2: 4x2x2
z=0       z=1
N S S Z   N J J J
S S Z Z   N N Z J
legend: I = tetracube I, o = tetracube O (hint), L = tetracube L,
        T = tetracube T, S = tetracube S, Z = tetracube Z, N = tetracube N,
        J = tetracube J
";
    assert_eq!(text(&samples::two_boxes(), false), want);
}

#[test]
fn hints_only_shows_empty_and_outside_cells() {
    let want = "\
Puzzle with hints
z=0     z=1     z=2
b . .   b b .   . . .
. . .   . . .   . . .
a a .   a . .   . .
legend: a = hint a (hint), b = hint b (hint), . = empty
";
    assert_eq!(text(&samples::hints_only(), false), want);
}

#[test]
fn colour_only_when_asked() {
    for s in [samples::tetris_cube(), samples::two_boxes()] {
        assert!(!text(&s, false).contains('\x1b'));
        let coloured = text(&s, true);
        assert!(coloured.contains("\x1b[48;2;"));
        // Stripping the escapes gives back the plain rendering.
        let mut stripped = String::new();
        let mut chars = coloured.chars();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                for d in chars.by_ref() {
                    if d == 'm' {
                        break;
                    }
                }
            } else {
                stripped.push(c);
            }
        }
        assert_eq!(stripped, text(&s, false));
    }
}
