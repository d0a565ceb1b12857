//! Space Football documents → compiled [`Rules`], with every meaning check the schemas cannot
//! express: the field formulas are evaluated for every n of the column range, once, so a board
//! draw is a table lookup and a formula that misbehaves for one n is reported with that n.

use super::doc::*;
use microfut_core::catalog::{Diagnostic, Labels, Revision};
use microfut_core::expr::{self, Frame, Lookup, Scope, Slot};
use std::sync::Arc;

// The board's limits live with the rules that hold content to them, so the board depends on
// the rules and not back.

/// The most columns the engine plays (content may ask for 3..=MAX_N).
pub const MAX_N: usize = 16;
/// The most robots a side may have.
pub const MAX_ROBOTS: usize = 64;

pub use super::doc::ActionsDoc as Actions;
pub use super::doc::EvaluationDoc as Evaluation;
pub use super::doc::FinalGradeDoc as FinalGrade;
pub use super::doc::GroupADoc as GroupA;
pub use super::doc::GroupBDoc as GroupB;
pub use super::doc::LimitsDoc as Limits;
pub use super::doc::PointsDoc as Points;
pub use super::doc::SearchDoc as SearchParams;

/// Where each side starts for one n: rows (inclusive) and the range of robots per side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setup {
    pub n: u8,
    pub white_rows: (u8, u8),
    pub black_rows: (u8, u8),
    pub robots: (u8, u8),
}

/// The championship's rules and a bot's limits.
#[derive(Debug, Clone)]
pub struct Championship {
    pub time_limit_ms: u64,
    pub validity_threshold: f64,
    pub group_a: GroupA,
    pub group_b: GroupB,
    pub final_grade: FinalGrade,
    pub limits: Limits,
}

/// A compiled Space Football revision.
#[derive(Debug, Clone)]
pub struct Rules {
    /// `space 1.0.0`
    pub revision: String,
    pub version: String,
    pub fingerprint: String,
    pub label: Labels,
    /// The column range n is drawn from.
    pub columns: (u8, u8),
    setups: Vec<Setup>,
    pub actions: Actions,
    pub points: Points,
    pub championship: Championship,
    pub evaluation: Evaluation,
    pub search: SearchParams,
    /// The two built-in bots the lab plays by default (`random`, `greedy`, `search`).
    pub lab_bots: [String; 2],
}

impl Rules {
    /// The setup for `n` columns, if n is in the revision's range.
    pub fn setup(&self, n: u8) -> Option<&Setup> {
        n.checked_sub(self.columns.0).and_then(|i| self.setups.get(usize::from(i)))
    }

    /// Whether the carrier may attack under these rules.
    pub fn carrier_attacks(&self) -> bool {
        self.actions.attack && self.actions.carrier_attacks
    }
}

/// The names a field formula may read: only `n`.
struct NScope;

impl Scope for NScope {
    fn variable(&self, name: &str) -> Option<Slot> {
        (name == "n").then_some(Slot::Input(0))
    }
    fn function(&self, _: &str) -> Option<Arc<dyn Lookup>> {
        None
    }
    fn variable_names(&self) -> Vec<String> {
        vec!["n".into()]
    }
    fn function_names(&self) -> Vec<String> {
        Vec::new()
    }
}

/// A formula of n compiled, or a diagnostic at its pointer.
fn formula(file: &str, pointer: &str, text: &str, out: &mut Vec<Diagnostic>) -> Option<expr::Compiled> {
    let compiled = expr::parse(text)
        .map_err(|e| e.to_string())
        .and_then(|ast| expr::compile(&ast, &NScope).map_err(|e| e.to_string()));
    match compiled {
        Ok(c) => Some(c),
        Err(e) => {
            let text = expr::excerpt(text);
            out.push(Diagnostic::new(file, pointer, format!("'{text}': {e} (a field formula may read only n)")));
            None
        }
    }
}

/// The formula's value for `n` as a whole number, or a diagnostic naming n.
fn whole(file: &str, pointer: &str, text: &str, f: &expr::Compiled, n: u8, out: &mut Vec<Diagnostic>) -> Option<i64> {
    let v = f.eval(&Frame { inputs: &[f64::from(n)], locals: &[] });
    let r = v.round();
    if !v.is_finite() || (v - r).abs() > 1e-9 || r.abs() > 1e6 {
        out.push(Diagnostic::new(file, pointer, format!("'{text}' is {v} for n = {n}: it must be a whole number")));
        return None;
    }
    Some(r as i64)
}

/// Compiles a Space Football revision, reporting every problem with file and JSON pointer.
pub fn compile(rev: &Revision) -> Result<Rules, Vec<Diagnostic>> {
    let mut out = Vec::new();
    let game = rev.one_document::<GameDoc>(GAME_SCHEMA, "a Space Football revision", &mut out);
    let champ = rev.one_document::<ChampionshipDoc>(CHAMPIONSHIP_SCHEMA, "a Space Football revision", &mut out);
    let bots = rev.one_document::<BotsDoc>(BOTS_SCHEMA, "a Space Football revision", &mut out);
    let (Some((gfile, game)), Some((cfile, champ)), Some((bfile, bots))) = (game, champ, bots) else {
        return Err(out);
    };

    // The column range, then the field of every n in it.
    let b = &game.board;
    let (lo, hi) = (b.columns.min, b.columns.max);
    if lo > hi {
        out.push(Diagnostic::new(
            &gfile,
            "/board/columns",
            format!("min {lo} is above max {hi}: n is drawn from an empty range"),
        ));
    }
    if lo < 3 || hi > MAX_N as i64 {
        out.push(Diagnostic::new(&gfile, "/board/columns", format!("the engine plays 3 to {MAX_N} columns")));
    }
    let texts = [
        ("/board/white_rows/from", &b.white_rows.from),
        ("/board/white_rows/to", &b.white_rows.to),
        ("/board/black_rows/from", &b.black_rows.from),
        ("/board/black_rows/to", &b.black_rows.to),
        ("/board/robots_per_side/min", &b.robots_per_side.min),
        ("/board/robots_per_side/max", &b.robots_per_side.max),
    ];
    let compiled: Vec<Option<expr::Compiled>> = texts.iter().map(|(p, t)| formula(&gfile, p, t, &mut out)).collect();
    let mut setups = Vec::new();
    if out.is_empty() {
        for n in lo as u8..=hi as u8 {
            let mut v = [0i64; 6];
            let mut ok = true;
            for (i, ((p, t), f)) in texts.iter().zip(&compiled).enumerate() {
                match whole(&gfile, p, t, f.as_ref().expect("compiled above"), n, &mut out) {
                    Some(x) => v[i] = x,
                    None => ok = false,
                }
            }
            if !ok {
                break;
            }
            let [wf, wt, bf, bt, rmin, rmax] = v;
            let n64 = i64::from(n);
            let mut bad = |pointer: &str, why: String| {
                out.push(Diagnostic::new(&gfile, pointer, format!("for n = {n}: {why}")));
            };
            if wf < 1 || wf > wt {
                bad("/board/white_rows", format!("white's rows {wf}..{wt} must be a non-empty span from row 1 up"));
            } else if bf <= wt {
                bad("/board/black_rows", format!("black's rows {bf}..{bt} must lie above white's {wf}..{wt}"));
            } else if bf > bt || bt > n64 {
                bad("/board/black_rows", format!("black's rows {bf}..{bt} must be a non-empty span up to row n = {n}"));
            } else if rmin < 1 || rmin > rmax {
                bad(
                    "/board/robots_per_side",
                    format!("the robots per side {rmin}..{rmax} must be a non-empty range from 1"),
                );
            } else {
                let room = n64 * (wt - wf + 1).min(bt - bf + 1);
                if rmax > room {
                    bad(
                        "/board/robots_per_side/max",
                        format!("{rmax} robots do not fit in a side's field of {room} squares"),
                    );
                } else if rmax > MAX_ROBOTS as i64 {
                    bad("/board/robots_per_side/max", format!("the engine plays at most {MAX_ROBOTS} robots a side"));
                } else {
                    setups.push(Setup {
                        n,
                        white_rows: (wf as u8, wt as u8),
                        black_rows: (bf as u8, bt as u8),
                        robots: (rmin as u8, rmax as u8),
                    });
                }
            }
        }
    }

    // Grades.
    if champ.group_a.most_points < champ.group_a.fewest_points {
        out.push(Diagnostic::new(
            &cfile,
            "/group_a",
            "most_points is below fewest_points: more points would earn a lower grade",
        ));
    }
    if champ.final_grade.grade_at_max < champ.final_grade.grade_at_min {
        out.push(Diagnostic::new(
            &cfile,
            "/final_grade",
            "grade_at_max is below grade_at_min: a higher total would earn a lower final grade",
        ));
    }
    if bots.lab.bots.len() != 2 {
        out.push(Diagnostic::new(&bfile, "/lab/bots", "the lab plays exactly two bots"));
    }
    if !out.is_empty() {
        return Err(out);
    }
    Ok(Rules {
        revision: rev.label(),
        version: rev.version.to_string(),
        fingerprint: rev.fingerprint.clone(),
        label: game.label,
        columns: (lo as u8, hi as u8),
        setups,
        actions: game.actions,
        points: game.points,
        championship: Championship {
            time_limit_ms: champ.time_limit_ms,
            validity_threshold: champ.validity_threshold,
            group_a: champ.group_a,
            group_b: champ.group_b,
            final_grade: champ.final_grade,
            limits: champ.limits,
        },
        evaluation: bots.evaluation,
        search: bots.search,
        lab_bots: [bots.lab.bots[0].clone(), bots.lab.bots[1].clone()],
    })
}
