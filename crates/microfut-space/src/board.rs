//! The battlefield: squares, robots and the ball, mirroring for black, the initial board drawn
//! from a seed, and the board as JSON and as text.
//!
//! A board is two bitmasks a row (a bit per column, one mask per side) and the ball's square:
//! 150 bytes, so the search copies it per node and the referee mirrors it per turn for nothing.
//! Who holds the ball is not stored: a robot standing on the ball's square holds it, and a loose
//! ball's square is always empty (a robot that moves onto it takes it; nothing else can end there).

use super::compile::Rules;
use microfut_core::dice::Dice;
use microfut_core::state_hash::XorMul;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

pub use super::compile::{MAX_N, MAX_ROBOTS};
/// Rows 0..=n+1 of the largest field.
const ROWS: usize = MAX_N + 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::White, Side::Black];

    #[inline]
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }
    /// The row direction this side plays towards.
    #[inline]
    pub fn forward(self) -> i32 {
        match self {
            Side::White => 1,
            Side::Black => -1,
        }
    }
}

/// A square: row 0..=n+1, column 1..=n. Written `[row, col]` in JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "(u8, u8)", into = "(u8, u8)")]
pub struct Square {
    pub row: u8,
    pub col: u8,
}

impl From<(u8, u8)> for Square {
    fn from((row, col): (u8, u8)) -> Self {
        Square { row, col }
    }
}
impl From<Square> for (u8, u8) {
    fn from(s: Square) -> Self {
        (s.row, s.col)
    }
}

impl std::fmt::Display for Square {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.row, self.col)
    }
}

impl Square {
    pub const fn new(row: u8, col: u8) -> Square {
        Square { row, col }
    }
    /// The same square seen from the other side: the field turned half a circle.
    #[inline]
    pub fn mirrored(self, n: u8) -> Square {
        Square { row: n + 1 - self.row, col: n + 1 - self.col }
    }
}

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    n: u8,
    /// `occ[side][row]`: bit `col` set when a robot of that side stands there.
    occ: [[u32; ROWS]; 2],
    counts: [u8; 2],
    ball: Square,
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board(\n{})", self.text())
    }
}

impl Board {
    /// An empty field of `n` columns with the ball on (1, 1); `n` must be in 3..=MAX_N.
    pub fn empty(n: u8) -> Board {
        assert!((3..=MAX_N as u8).contains(&n), "n = {n} out of 3..={MAX_N}");
        Board { n, occ: [[0; ROWS]; 2], counts: [0; 2], ball: Square::new(1, 1) }
    }

    #[inline]
    pub fn n(&self) -> u8 {
        self.n
    }

    /// The row where `side` scores: n + 1 for white, 0 for black.
    #[inline]
    pub fn goal_row(&self, side: Side) -> u8 {
        match side {
            Side::White => self.n + 1,
            Side::Black => 0,
        }
    }

    /// Rows a robot of `side` on `row` has advanced from its own goal area.
    #[inline]
    pub fn progress(&self, side: Side, row: u8) -> u8 {
        match side {
            Side::White => row,
            Side::Black => self.n + 1 - row,
        }
    }

    /// Whether (row, col) is a square of the field (goal areas included).
    #[inline]
    pub fn on_field(&self, row: i32, col: i32) -> bool {
        row >= 0 && row <= i32::from(self.n) + 1 && col >= 1 && col <= i32::from(self.n)
    }

    #[inline]
    pub fn has(&self, side: Side, row: i32, col: i32) -> bool {
        self.on_field(row, col) && self.occ[side.index()][row as usize] >> col & 1 == 1
    }

    /// Whether (row, col) is on the field and no robot stands there.
    #[inline]
    pub fn free(&self, row: i32, col: i32) -> bool {
        self.on_field(row, col) && (self.occ[0][row as usize] | self.occ[1][row as usize]) >> col & 1 == 0
    }

    /// Who stands on a square.
    #[inline]
    pub fn at(&self, sq: Square) -> Option<Side> {
        let (r, c) = (i32::from(sq.row), i32::from(sq.col));
        if self.has(Side::White, r, c) {
            Some(Side::White)
        } else if self.has(Side::Black, r, c) {
            Some(Side::Black)
        } else {
            None
        }
    }

    /// Puts a robot of `side` on a free field square.
    #[inline]
    pub fn place(&mut self, side: Side, sq: Square) {
        debug_assert!(self.free(i32::from(sq.row), i32::from(sq.col)), "{sq} taken or off the field");
        self.occ[side.index()][usize::from(sq.row)] |= 1 << sq.col;
        self.counts[side.index()] += 1;
    }

    #[inline]
    pub fn remove(&mut self, side: Side, sq: Square) {
        debug_assert!(self.has(side, i32::from(sq.row), i32::from(sq.col)), "no {} robot on {sq}", side.name());
        self.occ[side.index()][usize::from(sq.row)] &= !(1 << sq.col);
        self.counts[side.index()] -= 1;
    }

    #[inline]
    pub fn ball(&self) -> Square {
        self.ball
    }

    #[inline]
    pub fn set_ball(&mut self, sq: Square) {
        self.ball = sq;
    }

    /// The side whose robot holds the ball; `None` when it is loose.
    #[inline]
    pub fn holder(&self) -> Option<Side> {
        self.at(self.ball)
    }

    #[inline]
    pub fn count(&self, side: Side) -> u32 {
        u32::from(self.counts[side.index()])
    }

    /// The column mask of `side` on `row` (bit c for column c).
    #[inline]
    pub fn row_mask(&self, side: Side, row: u8) -> u32 {
        self.occ[side.index()][usize::from(row)]
    }

    /// The robots of a side, row by row, column by column.
    pub fn robots(&self, side: Side) -> impl Iterator<Item = Square> + '_ {
        (0..=self.n + 1).flat_map(move |r| {
            let mut m = self.occ[side.index()][usize::from(r)];
            std::iter::from_fn(move || {
                (m != 0).then(|| {
                    let c = m.trailing_zeros() as u8;
                    m &= m - 1;
                    Square::new(r, c)
                })
            })
        })
    }

    /// The board as the other side sees it, playing white: the field turned half a circle and the
    /// colours swapped. Mirroring twice gives the board back.
    pub fn mirrored(&self) -> Board {
        let n = self.n;
        let mut out =
            Board { n, occ: [[0; ROWS]; 2], counts: [self.counts[1], self.counts[0]], ball: self.ball.mirrored(n) };
        // Column c goes to n + 1 - c: reversing 32 bits sends c to 31 - c, then shift by 30 - n.
        let shift = 30 - u32::from(n);
        for r in 0..=usize::from(n) + 1 {
            let to = usize::from(n) + 1 - r;
            out.occ[1][to] = self.occ[0][r].reverse_bits() >> shift;
            out.occ[0][to] = self.occ[1][r].reverse_bits() >> shift;
        }
        out
    }

    /// The position's hash (robots and ball; [`XorMul`] over one word per row), stable across
    /// platforms. Records and positions store it.
    pub fn hash64(&self) -> u64 {
        let mut h = XorMul::new();
        h.u64(u64::from(self.n));
        for r in 0..=usize::from(self.n) + 1 {
            h.u64(u64::from(self.occ[0][r]) | u64::from(self.occ[1][r]) << 32);
        }
        h.u64(u64::from(self.ball.row) << 8 | u64::from(self.ball.col));
        h.finish()
    }

    /// Draws an initial board: n uniform in the revision's range (unless given), the same number
    /// of robots a side uniform in the setup's range, each side's robots on distinct squares of
    /// its rows chosen uniformly, the ball with a robot chosen uniformly among all of them.
    /// The dice are drawn in that order (a golden test freezes it).
    pub fn draw(rules: &Rules, dice: &mut Dice, n: Option<u8>) -> Result<Board, String> {
        let (lo, hi) = rules.columns;
        let n = match n {
            Some(n) if (lo..=hi).contains(&n) => n,
            Some(n) => return Err(format!("n = {n} is outside {}'s column range {lo}..={hi}", rules.revision)),
            None => lo + dice.below(u32::from(hi - lo) + 1) as u8,
        };
        let setup = *rules.setup(n).expect("every n of the range has a setup");
        let (rmin, rmax) = setup.robots;
        let k = usize::from(rmin) + dice.below(u32::from(rmax - rmin) + 1) as usize;
        let mut board = Board::empty(n);
        let mut chosen: [Vec<Square>; 2] = [Vec::new(), Vec::new()];
        for (side, (first, last)) in [(Side::White, setup.white_rows), (Side::Black, setup.black_rows)] {
            let mut squares: Vec<Square> =
                (first..=last).flat_map(|r| (1..=n).map(move |c| Square::new(r, c))).collect();
            for i in 0..k {
                let j = i + dice.below((squares.len() - i) as u32) as usize;
                squares.swap(i, j);
                board.place(side, squares[i]);
            }
            squares.truncate(k);
            chosen[side.index()] = squares;
        }
        let b = dice.below(2 * k as u32) as usize;
        board.ball = if b < k { chosen[0][b] } else { chosen[1][b - k] };
        Ok(board)
    }

    /// The board in its JSON form.
    pub fn to_json(&self) -> BoardJson {
        BoardJson {
            n: self.n,
            white: self.robots(Side::White).collect(),
            black: self.robots(Side::Black).collect(),
            ball: self.ball,
            holder: self.holder(),
        }
    }

    /// A board from its JSON form, checked: every problem names its field (`black[2]`).
    pub fn from_json(j: &BoardJson) -> Result<Board, String> {
        if !(3..=MAX_N as u8).contains(&j.n) {
            return Err(format!("n: {} is outside the engine's 3..={MAX_N} columns", j.n));
        }
        let mut b = Board::empty(j.n);
        for (side, list) in [(Side::White, &j.white), (Side::Black, &j.black)] {
            if list.is_empty() {
                return Err(format!("{}: a side needs at least one robot", side.name()));
            }
            if list.len() > MAX_ROBOTS {
                return Err(format!("{}: {} robots, the engine plays at most {MAX_ROBOTS}", side.name(), list.len()));
            }
            for (i, &sq) in list.iter().enumerate() {
                let at = format!("{}[{i}]", side.name());
                if sq.col < 1 || sq.col > j.n || sq.row > j.n + 1 {
                    return Err(format!("{at}: {sq} is off a field of {} columns and {} rows", j.n, j.n + 2));
                }
                if sq.row == 0 || sq.row == j.n + 1 {
                    return Err(format!("{at}: {sq} is in a goal area, where no robot stands"));
                }
                if let Some(other) = b.at(sq) {
                    return Err(format!("{at}: {sq} already has a {} robot", other.name()));
                }
                b.place(side, sq);
            }
        }
        let ball = j.ball;
        if ball.col < 1 || ball.col > j.n || ball.row < 1 || ball.row > j.n {
            return Err(format!("ball: {ball} is not a square of rows 1..={} and columns 1..={}", j.n, j.n));
        }
        b.ball = ball;
        if let Some(h) = j.holder
            && b.holder() != Some(h)
        {
            return Err(format!(
                "holder: says {} but {}",
                h.name(),
                match b.at(ball) {
                    Some(s) => format!("a {} robot stands on the ball's square {ball}", s.name()),
                    None => format!("no robot stands on the ball's square {ball} (it is loose)"),
                }
            ));
        }
        Ok(b)
    }

    /// The board drawn in text, row n + 1 at the top: `w`/`b` robots, `W`/`B` the one with the
    /// ball, `o` a loose ball, `=` the goal areas.
    pub fn text(&self) -> String {
        let n = self.n;
        let mut s = String::new();
        let _ = write!(s, "     ");
        for c in 1..=n {
            let _ = write!(s, "{c:>3}");
        }
        s.push('\n');
        for r in (0..=n + 1).rev() {
            let _ = write!(s, "{r:>4} ");
            for c in 1..=n {
                let sq = Square::new(r, c);
                let ch = match (self.at(sq), sq == self.ball) {
                    (Some(Side::White), false) => 'w',
                    (Some(Side::White), true) => 'W',
                    (Some(Side::Black), false) => 'b',
                    (Some(Side::Black), true) => 'B',
                    (None, true) => 'o',
                    (None, false) if r == 0 || r == n + 1 => '=',
                    (None, false) => '.',
                };
                let _ = write!(s, "{ch:>3}");
            }
            match r {
                _ if r == n + 1 => s.push_str("   black's goal area: white scores here"),
                0 => s.push_str("   white's goal area: black scores here"),
                _ => {}
            }
            s.push('\n');
        }
        s
    }
}

/// A board as JSON: `{"n": 5, "white": [[1, 2], …], "black": […], "ball": [1, 2], "holder": "white"}`.
/// `holder` is redundant (the robot on the ball's square holds it; none: loose) and, when given,
/// checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardJson {
    pub n: u8,
    pub white: Vec<Square>,
    pub black: Vec<Square>,
    pub ball: Square,
    #[serde(default)]
    pub holder: Option<Side>,
}
