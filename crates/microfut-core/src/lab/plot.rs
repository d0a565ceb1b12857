//! Dot-and-whisker plots as inline SVG, for the lab's HTML report.
//!
//! Problem: a designer reads a study by looking, and the report must open anywhere, offline, and
//! be the same bytes for the same results (a merged sharded run renders like one machine's).
//! Decision: the plots are SVG written here from the estimates — no plotting library, no
//! script, no fonts fetched — one row per estimate: its value as a dot, its 95 % interval as a
//! whisker, its label on the left and its value as the table prints it on the right. Every
//! marker carries its numbers in `data-*` attributes (as the JSON output prints them), so a
//! browser test reads back what is drawn. Limits: a linear axis only; labels longer than the
//! left column are cut with an ellipsis (the tooltip has them whole).

use crate::markup::escape;
use std::fmt::Write;

/// Colour-blind-safe colours (Okabe & Ito), for parts and arms.
pub(super) const PALETTE: [&str; 8] =
    ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#56B4E9", "#E69F00", "#000000", "#F0E442"];

/// One estimate drawn as a row.
pub(super) struct Row {
    /// Left label (empty on a scenario's later rows).
    pub label: String,
    /// Small second label under the first, or beside it on later rows (a part, an arm).
    pub sublabel: String,
    /// The tooltip.
    pub title: String,
    pub value: Option<f64>,
    pub interval: Option<(f64, f64)>,
    /// The value as the table shows it.
    pub text: String,
    pub colour: &'static str,
    /// A hollow marker (the `--against` revision; a difference that does not exclude zero).
    pub hollow: bool,
    /// `data-*` attributes of the marker group.
    pub data: Vec<(&'static str, String)>,
    /// Starts a new scenario: a gap and a separating line above it.
    pub group_start: bool,
    /// The scenario the row belongs to (hovering highlights it everywhere).
    pub scenario: String,
}

/// How axis values are written: multiplied by `factor`, with `unit` after them.
pub(super) struct Axis {
    pub factor: f64,
    pub unit: &'static str,
    pub decimal_comma: bool,
    /// Draw a reference line at zero (forest plots).
    pub zero: bool,
}

const WIDTH: f64 = 900.0;
const LEFT: f64 = 270.0;
const RIGHT: f64 = 175.0;
const ROW: f64 = 17.0;
const GAP: f64 = 7.0;
const TOP: f64 = 6.0;
const AXIS: f64 = 30.0;

/// The step of about `target` ticks over `span`: 1, 2 or 5 times a power of ten.
fn nice_step(span: f64, target: f64) -> f64 {
    let raw = span / target;
    let magnitude = libm::pow(10.0, libm::floor(libm::log10(raw)));
    let f = raw / magnitude;
    let nice = if f < 1.5 {
        1.0
    } else if f < 3.0 {
        2.0
    } else if f < 7.0 {
        5.0
    } else {
        10.0
    };
    nice * magnitude
}

/// Axis domain and ticks covering every interval (and zero when asked): ends on ticks.
fn domain(rows: &[Row], zero: bool, factor: f64) -> (f64, f64, f64) {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for r in rows {
        for x in r.value.iter().chain(r.interval.iter().flat_map(|(a, b)| [a, b])) {
            lo = lo.min(*x);
            hi = hi.max(*x);
        }
    }
    if zero {
        lo = lo.min(0.0);
        hi = hi.max(0.0);
    }
    if !lo.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    if hi - lo <= 0.0 {
        // One unit as shown (1 pp for a share) around a lone zero.
        let pad = if lo == 0.0 { 1.0 / factor } else { lo.abs() * 0.1 };
        (lo, hi) = (lo - pad, hi + pad);
    }
    let step = nice_step(hi - lo, 5.0);
    let (mut lo, mut hi) = (libm::floor(lo / step) * step, libm::ceil(hi / step) * step);
    // Zero as a reference must be seen: a step inside the frame, not on its edge.
    if hi <= 0.0 {
        hi += step;
    }
    if lo >= 0.0 {
        lo -= step;
    }
    (lo, hi, step)
}

fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max { s.to_string() } else { s.chars().take(max - 1).collect::<String>() + "…" }
}

/// The SVG of one plot. `aria` names it for screen readers.
pub(super) fn svg(rows: &[Row], axis: &Axis, aria: &str) -> String {
    let (lo, hi, step) = domain(rows, axis.zero, axis.factor);
    let plot_w = WIDTH - LEFT - RIGHT;
    let x = |v: f64| LEFT + (v - lo) / (hi - lo) * plot_w;
    // A row with both labels gets the first on a line of its own above it.
    let heading = |r: &Row| !r.label.is_empty() && !r.sublabel.is_empty();
    let mut ys = Vec::with_capacity(rows.len());
    let mut y = TOP;
    for (i, r) in rows.iter().enumerate() {
        if r.group_start && i > 0 {
            y += GAP;
        }
        if heading(r) {
            y += ROW;
        }
        ys.push(y + ROW / 2.0);
        y += ROW;
    }
    let height = y + AXIS;
    let bottom = y;
    let mut s = String::new();
    let _ =
        write!(s, r#"<svg class="plot" viewBox="0 0 {WIDTH} {height:.0}" role="img" aria-label="{}">"#, escape(aria));
    // Grid and tick labels.
    let ticks = libm::round((hi - lo) / step) as i64;
    let decimals = (-libm::floor(libm::log10(step * axis.factor) + 1e-9)).max(0.0) as usize;
    for t in 0..=ticks {
        let v = lo + t as f64 * step;
        let px = x(v);
        let mut label = format!("{:.*}", decimals, v * axis.factor + 0.0);
        if axis.decimal_comma {
            label = label.replace('.', ",");
        }
        let _ = write!(
            s,
            r#"<line class="grid" x1="{px:.1}" y1="{TOP}" x2="{px:.1}" y2="{bottom:.1}"/><text class="tick" x="{px:.1}" y="{:.1}" text-anchor="middle">{label}{}</text>"#,
            bottom + 14.0,
            escape(axis.unit)
        );
    }
    if axis.zero && lo < 0.0 && hi > 0.0 {
        let px = x(0.0);
        let _ = write!(s, r#"<line class="zero" x1="{px:.1}" y1="{TOP}" x2="{px:.1}" y2="{bottom:.1}"/>"#);
    }
    for (r, &cy) in rows.iter().zip(&ys) {
        let above = if heading(r) { ROW } else { 0.0 };
        if r.group_start {
            let top = cy - above - ROW / 2.0 - GAP / 2.0;
            if top > TOP {
                let _ = write!(s, r#"<line class="sep" x1="0" y1="{top:.1}" x2="{WIDTH}" y2="{top:.1}"/>"#);
            }
        }
        let _ = write!(s, r#"<g class="est" data-scenario="{}""#, escape(&r.scenario));
        for (k, v) in &r.data {
            let _ = write!(s, r#" data-{k}="{}""#, escape(v));
        }
        let _ = write!(s, "><title>{}</title>", escape(&r.title));
        let ty = cy + 4.0;
        if !r.label.is_empty() {
            let _ =
                write!(s, r#"<text class="label" x="4" y="{:.1}">{}</text>"#, ty - above, escape(&cut(&r.label, 40)));
        }
        if !r.sublabel.is_empty() {
            let _ = write!(
                s,
                r#"<text class="sublabel" x="18" y="{ty:.1}" fill="{}">{}</text>"#,
                r.colour,
                escape(&cut(&r.sublabel, 38))
            );
        }
        if let Some((a, b)) = r.interval {
            let (xa, xb) = (x(a), x(b));
            let _ = write!(
                s,
                r#"<line class="ci" x1="{xa:.1}" y1="{cy:.1}" x2="{xb:.1}" y2="{cy:.1}" stroke="{c}"/><line class="cap" x1="{xa:.1}" y1="{:.1}" x2="{xa:.1}" y2="{:.1}" stroke="{c}"/><line class="cap" x1="{xb:.1}" y1="{:.1}" x2="{xb:.1}" y2="{:.1}" stroke="{c}"/>"#,
                cy - 4.0,
                cy + 4.0,
                cy - 4.0,
                cy + 4.0,
                c = r.colour
            );
        }
        if let Some(v) = r.value {
            let fill = if r.hollow { "#fff" } else { r.colour };
            let _ = write!(
                s,
                r#"<circle class="dot" cx="{:.1}" cy="{cy:.1}" r="4" fill="{fill}" stroke="{}"/>"#,
                x(v),
                r.colour
            );
        }
        let _ = write!(
            s,
            r#"<text class="value" x="{:.1}" y="{ty:.1}" fill="{}">{}</text></g>"#,
            WIDTH - RIGHT + 10.0,
            r.colour,
            escape(&r.text)
        );
    }
    let _ =
        write!(s, r#"<line class="axis" x1="{LEFT}" y1="{bottom:.1}" x2="{:.1}" y2="{bottom:.1}"/>"#, WIDTH - RIGHT);
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_one_two_or_five_times_a_power_of_ten() {
        for (span, step) in [(1.0, 0.2), (0.23, 0.05), (0.37, 0.1), (7.0, 1.0), (0.0042, 0.001), (130.0, 20.0)] {
            let got = nice_step(span, 5.0);
            assert!((got - step).abs() < step * 1e-12, "{span}: {got}");
        }
    }

    fn row(value: f64, interval: (f64, f64)) -> Row {
        Row {
            label: "A <b>".into(),
            sublabel: String::new(),
            title: "t".into(),
            value: Some(value),
            interval: Some(interval),
            text: "x".into(),
            colour: PALETTE[0],
            hollow: false,
            data: vec![("mean", value.to_string())],
            group_start: true,
            scenario: "A".into(),
        }
    }

    #[test]
    fn the_domain_covers_every_interval_and_zero_when_asked() {
        let rows = [row(0.42, (0.40, 0.44)), row(0.31, (0.29, 0.33))];
        let (lo, hi, step) = domain(&rows, false, 1.0);
        assert!(lo <= 0.29 && hi >= 0.44 && step > 0.0);
        assert!(hi - lo < 0.3, "zoomed on the data: [{lo}, {hi}]");
        let (lo, hi, step) = domain(&rows, true, 1.0);
        assert!(lo < 0.0 && lo >= -step && hi >= 0.44, "zero a step inside: [{lo}, {hi}]");
        // Differences all on one side: zero is still inside the frame, and its line is drawn.
        let below = [row(-6.95, (-7.68, -6.22)), row(-4.54, (-5.23, -3.85))];
        let (lo, hi, step) = domain(&below, true, 1.0);
        assert!(lo <= -7.68 && hi > 0.0 && hi <= step, "[{lo}, {hi}]");
        let forest = svg(&below, &Axis { factor: 1.0, unit: "", decimal_comma: false, zero: true }, "d");
        assert!(forest.contains("class=\"zero\""), "{forest}");
        // A single point still gets an axis.
        let (lo, hi, _) = domain(&[row(0.0, (0.0, 0.0))], false, 100.0);
        assert!(lo < 0.0 && hi > 0.0 && hi <= 0.02, "[{lo}, {hi}]: one unit shown around it");
    }

    #[test]
    fn markup_is_escaped_and_markers_sit_inside_their_whiskers() {
        let svg = svg(
            &[row(0.42, (0.40, 0.44))],
            &Axis { factor: 100.0, unit: " %", decimal_comma: false, zero: false },
            "a",
        );
        assert!(svg.contains("A &lt;b&gt;") && !svg.contains("<b>"), "{svg}");
        let number_after = |from: &str, attr: &str| -> f64 {
            let rest = &svg[svg.find(from).unwrap()..];
            let k = rest.find(&format!(" {attr}=\"")).unwrap() + attr.len() + 3;
            rest[k..].split('"').next().unwrap().parse().unwrap()
        };
        let (a, b) = (number_after("class=\"ci\"", "x1"), number_after("class=\"ci\"", "x2"));
        let cx = number_after("class=\"dot\"", "cx");
        assert!(LEFT <= a && a < cx && cx < b && b <= WIDTH - RIGHT, "{a} {cx} {b}");
    }
}
