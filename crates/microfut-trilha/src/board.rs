//! The printable board: an A4-landscape SVG drawn from the same compiled rules the lab plays.

use super::compile::Rules;
use super::doc::{EndRule, Ties};
use microfut_core::catalog::Labels;
use microfut_core::markup::escape;
use std::fmt::Write;

/// Board language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    En,
    PtBr,
}

// Page geometry in millimetres (A4 landscape) and areas for title, track and legend.
const PAGE_W: f64 = 297.0;
const PAGE_H: f64 = 210.0;
const MARGIN: f64 = 12.0;
const TRACK_TOP: f64 = 30.0;
const LEGEND_H: f64 = 38.0;

fn tr(l: &Labels, lang: Lang) -> &str {
    match lang {
        Lang::En => &l.en,
        Lang::PtBr => &l.pt_br,
    }
}

/// The grid that makes squares largest in the track area: (columns, rows, cell size).
fn grid(squares: usize, w: f64, h: f64) -> (usize, usize, f64) {
    (1..=squares)
        .map(|c| {
            let r = squares.div_ceil(c);
            (c, r, (w / c as f64).min(h / r as f64))
        })
        .fold((1, squares, 0.0), |best, x| if x.2 > best.2 { x } else { best })
}

fn effect_text(move_by: i32, chain: bool, lang: Lang) -> String {
    let n = move_by.unsigned_abs();
    let mut s = match (lang, move_by < 0) {
        (Lang::En, true) => format!("move back {n} square{}", if n == 1 { "" } else { "s" }),
        (Lang::En, false) => format!("move forward {n} more square{}", if n == 1 { "" } else { "s" }),
        (Lang::PtBr, true) => format!("volte {n} casa{}", if n == 1 { "" } else { "s" }),
        (Lang::PtBr, false) => format!("avance mais {n} casa{}", if n == 1 { "" } else { "s" }),
    };
    if !chain {
        s.push_str(match lang {
            Lang::En => "; the square you reach has no effect",
            Lang::PtBr => "; a casa alcançada não tem efeito",
        });
    }
    s
}

/// The rules in two lines: how to move, and how the race ends.
fn rules_text(r: &Rules, lang: Lang) -> [String; 2] {
    let dice = r.dice_count;
    let sides = r.dice_sides;
    let roll = match (lang, dice) {
        (Lang::En, 1) => format!("Roll one die (d{sides}) and move."),
        (Lang::En, _) => format!("Roll {dice} dice (d{sides}) and move by one of them."),
        (Lang::PtBr, 1) => format!("Role um dado (d{sides}) e ande."),
        (Lang::PtBr, _) => format!("Role {dice} dados (d{sides}) e ande o valor de um deles."),
    };
    let end = match (lang, r.end) {
        (Lang::En, EndRule::FirstToFinish) => format!("The first to reach square {} wins.", r.finish),
        (Lang::En, EndRule::CompleteTheRound) => {
            format!("When someone reaches square {}, finish the round: the pawn farthest along wins.", r.finish)
        }
        (Lang::PtBr, EndRule::FirstToFinish) => format!("Vence quem chegar primeiro à casa {}.", r.finish),
        (Lang::PtBr, EndRule::CompleteTheRound) => {
            format!("Quando alguém chegar à casa {}, complete a rodada: vence o peão mais adiantado.", r.finish)
        }
    };
    let ties = match (lang, r.end, r.ties) {
        (_, EndRule::FirstToFinish, _) => "",
        (Lang::En, _, Ties::Shared) => " Tied pawns share the win.",
        (Lang::En, _, Ties::EarlierSeat) => " A tie goes to the player who plays first.",
        (Lang::En, _, Ties::LaterSeat) => " A tie goes to the player who plays last.",
        (Lang::PtBr, _, Ties::Shared) => " Empatados dividem a vitória.",
        (Lang::PtBr, _, Ties::EarlierSeat) => " No empate vence quem joga antes.",
        (Lang::PtBr, _, Ties::LaterSeat) => " No empate vence quem joga depois.",
    };
    [roll, format!("{end}{ties}")]
}

/// The board as an SVG document, 297 × 210 mm.
pub fn svg(r: &Rules, lang: Lang) -> String {
    let squares = (r.finish - r.first + 1) as usize;
    let (area_w, area_h) = (PAGE_W - 2.0 * MARGIN, PAGE_H - TRACK_TOP - LEGEND_H);
    let (cols, rows, cell) = grid(squares, area_w, area_h);
    let x0 = MARGIN + (area_w - cols as f64 * cell) / 2.0;
    let y0 = TRACK_TOP + (area_h - rows as f64 * cell) / 2.0;
    let side = cell * 0.84;
    // Snake through the rows so consecutive squares always touch.
    let centre = |i: usize| {
        let (row, k) = (i / cols, i % cols);
        let col = if row % 2 == 0 { k } else { cols - 1 - k };
        (x0 + (col as f64 + 0.5) * cell, y0 + (row as f64 + 0.5) * cell)
    };
    let (start_word, finish_word) = match lang {
        Lang::En => ("START", "FINISH"),
        Lang::PtBr => ("INÍCIO", "CHEGADA"),
    };

    let mut s = String::new();
    let _ = writeln!(s, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{PAGE_W}mm" height="{PAGE_H}mm" viewBox="0 0 {PAGE_W} {PAGE_H}" font-family="DejaVu Sans, Arial, sans-serif">"#
    );
    let _ = writeln!(s, "  <title>{} — {}</title>", escape(tr(&r.label, lang)), escape(&r.revision));
    let _ = writeln!(s, r##"  <rect width="{PAGE_W}" height="{PAGE_H}" fill="#fdf8ec"/>"##);
    let _ = writeln!(
        s,
        r##"  <text x="{MARGIN}" y="20" font-size="11" font-weight="bold" fill="#3b2a1a">{}</text>"##,
        escape(tr(&r.label, lang))
    );
    let _ = writeln!(
        s,
        r##"  <text x="{:.2}" y="20" font-size="3.5" text-anchor="end" fill="#7a6650">{}</text>"##,
        PAGE_W - MARGIN,
        escape(&r.revision)
    );

    // The path behind the squares.
    let points: Vec<String> = (0..squares)
        .map(|i| {
            let (x, y) = centre(i);
            format!("{x:.2},{y:.2}")
        })
        .collect();
    let _ = writeln!(
        s,
        r##"  <polyline class="path" points="{}" fill="none" stroke="#b89b72" stroke-width="{:.2}" stroke-linejoin="round"/>"##,
        points.join(" "),
        cell * 0.18
    );

    for i in 0..squares {
        let square = r.first + i as i32;
        let (cx, cy) = centre(i);
        let (x, y) = (cx - side / 2.0, cy - side / 2.0);
        let special = r.special_at(square);
        let fill = match special {
            Some(sp) => sp.color.clone().unwrap_or_else(|| "#d9d2c5".into()),
            None if square == r.finish => "#f4d35e".into(),
            None if square == r.first => "#c9e4b4".into(),
            None => "#fffaf0".into(),
        };
        let kind = special.map(|sp| sp.id.as_str()).unwrap_or("plain");
        let _ = writeln!(s, r#"  <g class="square" data-square="{square}" data-kind="{}">"#, escape(kind));
        let _ = writeln!(
            s,
            r##"    <rect x="{x:.2}" y="{y:.2}" width="{side:.2}" height="{side:.2}" rx="{:.2}" fill="{}" stroke="#5a4632" stroke-width="0.6"/>"##,
            side * 0.08,
            escape(&fill)
        );
        let _ = writeln!(
            s,
            r##"    <text x="{:.2}" y="{:.2}" font-size="{:.2}" font-weight="bold" fill="#3b2a1a">{square}</text>"##,
            x + side * 0.08,
            y + side * 0.30,
            side * 0.26
        );
        let mut lines: Vec<(String, f64)> = Vec::new();
        if let Some(sp) = special {
            lines.push((tr(&sp.label, lang).to_uppercase(), 0.17));
            let sign = if sp.move_by < 0 { "−" } else { "+" };
            lines.push((format!("{sign}{}", sp.move_by.unsigned_abs()), 0.22));
        }
        if square == r.first {
            lines.push((start_word.into(), 0.15));
        }
        if square == r.finish {
            lines.push((finish_word.into(), 0.15));
        }
        for seat in r.seats.iter().filter(|st| st.start == square && square != r.first) {
            lines.push((tr(&seat.label, lang).to_string(), 0.11));
        }
        let mut ty = y + side * 0.58;
        for (text, size) in lines {
            let _ = writeln!(
                s,
                r##"    <text x="{cx:.2}" y="{ty:.2}" font-size="{:.2}" text-anchor="middle" fill="#3b2a1a">{}</text>"##,
                side * size,
                escape(&text)
            );
            ty += side * (size + 0.05);
        }
        let _ = writeln!(s, "  </g>");
    }

    // Legend: each special kind with its squares and effect, then the rules in one line.
    let mut ly = PAGE_H - LEGEND_H + 7.0;
    for sp in &r.specials {
        let squares: Vec<String> = sp.squares.iter().map(i32::to_string).collect();
        let _ = writeln!(
            s,
            r##"  <rect x="{MARGIN}" y="{:.2}" width="6" height="6" rx="0.8" fill="{}" stroke="#5a4632" stroke-width="0.4"/>"##,
            ly - 4.8,
            escape(sp.color.as_deref().unwrap_or("#d9d2c5"))
        );
        let _ = writeln!(
            s,
            r##"  <text x="{:.2}" y="{ly:.2}" font-size="4.2" fill="#3b2a1a"><tspan font-weight="bold">{}</tspan> ({}): {}</text>"##,
            MARGIN + 9.0,
            escape(tr(&sp.label, lang)),
            squares.join(", "),
            escape(&effect_text(sp.move_by, sp.chain, lang))
        );
        ly += 7.0;
    }
    for line in rules_text(r, lang) {
        let _ = writeln!(
            s,
            r##"  <text x="{MARGIN}" y="{ly:.2}" font-size="4.2" fill="#3b2a1a">{}</text>"##,
            escape(&line)
        );
        ly += 6.0;
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirty_one_squares_make_eight_columns_of_four_rows() {
        let (c, r, cell) = grid(31, PAGE_W - 2.0 * MARGIN, PAGE_H - TRACK_TOP - LEGEND_H);
        assert_eq!((c, r), (8, 4));
        assert!(cell > 30.0, "{cell}");
    }

    #[test]
    fn effects_read_naturally() {
        assert_eq!(effect_text(-3, false, Lang::En), "move back 3 squares; the square you reach has no effect");
        assert_eq!(effect_text(2, true, Lang::PtBr), "avance mais 2 casas");
    }
}
