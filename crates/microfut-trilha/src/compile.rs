//! Trilha documents → compiled [`Rules`], with every meaning check the schemas cannot express.

use super::doc::*;
use microfut_core::catalog::{Diagnostic, Labels, Revision, escape_token};

/// Engine limits (not rules): the schemas enforce them; the game keeps pawns and dice on the stack.
pub const MAX_SEATS: usize = 16;
pub const MAX_DICE: usize = 8;

#[derive(Debug, Clone)]
pub struct Special {
    pub id: String,
    pub label: Labels,
    pub squares: Vec<i32>,
    pub move_by: i32,
    pub chain: bool,
    pub color: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Seat {
    pub id: String,
    pub label: Labels,
    pub start: i32,
    pub strategy: StrategyKind,
    pub strategy_id: String,
}

/// A compiled Trilha revision: everything the game and the board need, nothing else.
#[derive(Debug, Clone)]
pub struct Rules {
    /// `trilha 1.0.0`
    pub revision: String,
    pub fingerprint: String,
    pub label: Labels,
    pub first: i32,
    pub finish: i32,
    /// In id order.
    pub specials: Vec<Special>,
    pub dice_count: u32,
    pub dice_sides: u32,
    /// In turn order.
    pub seats: Vec<Seat>,
    pub end: EndRule,
    pub beyond_finish: BeyondFinish,
    pub ties: Ties,
    /// Where a pawn ends up when a move lands it on square `first + i`, effects applied; covers
    /// every square a move can reach (up to `finish - 1 + sides`).
    pub(crate) landing: Vec<i32>,
}

impl Rules {
    /// The square a pawn ends on when a move lands it on `square`.
    #[inline]
    pub fn land(&self, square: i32) -> i32 {
        self.landing[(square - self.first) as usize]
    }

    /// The special kind of a square, if any.
    pub fn special_at(&self, square: i32) -> Option<&Special> {
        self.specials.iter().find(|s| s.squares.contains(&square))
    }
}

fn small(v: i64) -> i32 {
    v.clamp(-1_000_000, 1_000_000) as i32
}

/// Compiles a Trilha revision, reporting every problem with file and JSON pointer.
pub fn compile(rev: &Revision) -> Result<Rules, Vec<Diagnostic>> {
    let mut out = Vec::new();
    let board = rev.one_document::<BoardDoc>(BOARD_SCHEMA, "a Trilha revision", &mut out);
    let play = rev.one_document::<PlayDoc>(PLAY_SCHEMA, "a Trilha revision", &mut out);
    let strategies = rev.one_document::<StrategiesDoc>(STRATEGIES_SCHEMA, "a Trilha revision", &mut out);
    let (Some((bfile, board)), Some((pfile, play)), Some((_, strategies))) = (board, play, strategies) else {
        return Err(out);
    };

    // Track.
    let (first, finish) = (small(board.track.first), small(board.track.finish));
    if finish <= first {
        out.push(Diagnostic::new(
            &bfile,
            "/track/finish",
            format!("the finish {finish} must come after the first square {first}"),
        ));
        return Err(out);
    }

    // Specials: on the track, one kind per square, destinations on the track.
    let mut specials = Vec::new();
    for (id, s) in &board.specials {
        let at = format!("/specials/{}", escape_token(id));
        let mut squares = Vec::new();
        for (i, &sq) in s.squares.iter().enumerate() {
            let sq = small(sq);
            let p = format!("{at}/squares/{i}");
            if sq <= first || sq >= finish {
                out.push(Diagnostic::new(
                    &bfile,
                    p,
                    format!(
                        "square {sq} is off the track for specials: they lie strictly between the first square {first} and the finish {finish}"
                    ),
                ));
                continue;
            }
            if let Some(other) = specials.iter().find(|o: &&Special| o.squares.contains(&sq)) {
                out.push(Diagnostic::new(&bfile, p, format!("square {sq} is already a {} square", other.id)));
                continue;
            }
            let dest = sq + small(s.move_by);
            if dest < first {
                out.push(Diagnostic::new(
                    &bfile,
                    format!("{at}/move"),
                    format!("moves a pawn from square {sq} to {dest}, before the first square {first}"),
                ));
            }
            squares.push(sq);
        }
        specials.push(Special {
            id: id.clone(),
            label: s.label.clone(),
            squares,
            move_by: small(s.move_by),
            chain: s.chain,
            color: s.color.clone(),
        });
    }

    // Seats in turn order, starts on the track, strategies known.
    let mut seats: Vec<(u32, Seat)> = Vec::new();
    for (id, s) in &play.seats {
        let at = format!("/seats/{}", escape_token(id));
        if let Some((_, other)) = seats.iter().find(|(o, _)| *o == s.order) {
            out.push(Diagnostic::new(
                &pfile,
                format!("{at}/order"),
                format!("order {} is also {}'s: every seat needs its own place in the turn order", s.order, other.id),
            ));
        }
        let start = small(s.start);
        if start >= finish {
            out.push(Diagnostic::new(
                &pfile,
                format!("{at}/start"),
                format!("start square {start} is at or beyond the finish {finish}"),
            ));
        } else if start < first {
            out.push(Diagnostic::new(
                &pfile,
                format!("{at}/start"),
                format!("start square {start} is before the first square {first}"),
            ));
        }
        let strategy = match strategies.strategies.get(&s.strategy) {
            Some(st) => st.kind,
            None => {
                let known: Vec<&str> = strategies.strategies.keys().map(String::as_str).collect();
                out.push(Diagnostic::new(
                    &pfile,
                    format!("{at}/strategy"),
                    format!("unknown strategy '{}' (strategies: {})", s.strategy, known.join(", ")),
                ));
                StrategyKind::Uniform
            }
        };
        seats.push((
            s.order,
            Seat { id: id.clone(), label: s.label.clone(), start, strategy, strategy_id: s.strategy.clone() },
        ));
    }
    seats.sort_by_key(|(o, _)| *o);
    let seats: Vec<Seat> = seats.into_iter().map(|(_, s)| s).collect();

    let (count, sides) = (play.dice.count, play.dice.sides);
    if seats.len() > MAX_SEATS || count as usize > MAX_DICE {
        out.push(Diagnostic::new(&pfile, "", format!("at most {MAX_SEATS} seats and {MAX_DICE} dice")));
    }
    if !out.is_empty() {
        return Err(out);
    }

    // Landing table, following chained effects (and refusing loops).
    let last = finish - 1 + sides as i32;
    let mut landing = Vec::with_capacity((last - first + 1) as usize);
    for sq in first..=last {
        let mut at = sq;
        let mut path = vec![sq];
        while let Some(s) = specials.iter().find(|s| s.squares.contains(&at)) {
            at += s.move_by;
            if !s.chain {
                break;
            }
            if path.contains(&at) {
                path.push(at);
                let shown: Vec<String> = path.iter().map(i32::to_string).collect();
                out.push(Diagnostic::new(
                    &bfile,
                    "/specials",
                    format!("chained effects loop forever: {}", shown.join(" → ")),
                ));
                return Err(out);
            }
            path.push(at);
        }
        landing.push(at);
    }
    let rules = Rules {
        revision: rev.label(),
        fingerprint: rev.fingerprint.clone(),
        label: board.label,
        first,
        finish,
        specials,
        dice_count: count,
        dice_sides: sides,
        seats,
        end: play.end.rule,
        beyond_finish: play.end.beyond_finish,
        ties: play.ties,
        landing,
    };

    // Every game must be able to end: from each square before the finish some face moves the pawn
    // forward (when all dice show it, every strategy takes it), so the finish is reached with
    // probability one.
    for sq in first..finish {
        if !(1..=sides as i32).any(|f| rules.land(sq + f) > sq) {
            out.push(Diagnostic::new(
                &bfile,
                "/specials",
                format!("from square {sq} no roll moves a pawn forward, so a game could never end"),
            ));
        }
    }
    if out.is_empty() { Ok(rules) } else { Err(out) }
}
