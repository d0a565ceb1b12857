//! Helpers shared by the Space Football tests: the revision, boards drawn as diagrams, scripted
//! players.
#![allow(dead_code)]

use microfut::catalog::{Catalog, ContentTree, Revision};
use microfut::space::referee::{Answer, Ask, Fault, Player};
use microfut::space::{Action, Board, Kind, Rules, Side, Square, compile};

pub const VERSION: &str = "1.0.0";

pub fn revision() -> Revision {
    static REV: std::sync::OnceLock<Revision> = std::sync::OnceLock::new();
    REV.get_or_init(|| {
        Catalog::load(&ContentTree::embedded()).revision("space", Some(VERSION)).expect("space 1.0.0").clone()
    })
    .clone()
}

pub fn rules() -> Rules {
    compile(&revision()).expect("compiles")
}

/// A board from a diagram drawn as `Board::text` draws it: row n + 1 on top, row 0 at the
/// bottom, one token per column — `w`/`b` robots, `W`/`B` the robot with the ball, `o` a loose
/// ball, `.` or `=` nothing.
pub fn board(diagram: &str) -> Board {
    let rows: Vec<Vec<&str>> =
        diagram.lines().map(str::trim).filter(|l| !l.is_empty()).map(|l| l.split_whitespace().collect()).collect();
    let n = rows[0].len() as u8;
    assert_eq!(rows.len(), usize::from(n) + 2, "a field of n columns has n + 2 rows");
    let mut b = Board::empty(n);
    let mut ball = None;
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), usize::from(n), "row {i} of the diagram");
        let r = n + 1 - i as u8;
        for (j, t) in row.iter().enumerate() {
            let sq = Square::new(r, j as u8 + 1);
            match *t {
                "w" => b.place(Side::White, sq),
                "b" => b.place(Side::Black, sq),
                "W" => {
                    b.place(Side::White, sq);
                    ball = Some(sq);
                }
                "B" => {
                    b.place(Side::Black, sq);
                    ball = Some(sq);
                }
                "o" => ball = Some(sq),
                "." | "=" => {}
                other => panic!("unknown token {other}"),
            }
        }
    }
    b.set_ball(ball.expect("the diagram shows the ball"));
    b
}

pub fn sq(row: u8, col: u8) -> Square {
    Square::new(row, col)
}

pub fn act(kind: Kind, from: (u8, u8), to: (u8, u8)) -> Action {
    Action::new(kind, sq(from.0, from.1), sq(to.0, to.1))
}

/// A player that answers from a list (in its own, white, view), then fails.
pub struct Scripted {
    pub answers: std::collections::VecDeque<Result<Answer, Fault>>,
    pub seen: Vec<Board>,
}

impl Scripted {
    pub fn new(answers: Vec<Result<Answer, Fault>>) -> Scripted {
        Scripted { answers: answers.into(), seen: Vec::new() }
    }
}

impl Player for Scripted {
    fn act(&mut self, ask: &Ask) -> Result<Answer, Fault> {
        self.seen.push(ask.view.clone());
        self.answers.pop_front().expect("the script has an answer for every turn")
    }
}
