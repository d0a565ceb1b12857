//! The match engine in the lab: one simulation is one match between two clubs; its
//! observations are the statistics league averages are quoted in. The lab's side of the match
//! engine lives here, with calibration, so that the engine itself knows nothing of the lab.

use crate::engine::{Match, MatchSimulator, Options, Rules, TeamStats};
use microfut_core::catalog::{Diagnostic, Labels, Revision};
use microfut_core::dice::Dice;
use microfut_core::lab::{Format, Kind, Metric, Simulator, Unit};
use std::sync::Arc;

fn labels(pt: &str, en: &str) -> Labels {
    Labels { pt_br: pt.into(), en: en.into() }
}

fn metric(id: &str, pt: &str, en: &str, kind: Kind, scale: u64, format: Format) -> Metric {
    Metric { id: id.into(), label: labels(pt, en), kind, scale, format, parts: vec![] }
}

/// Observation slots, in the order `metrics` declares them.
const METRICS: usize = 38;

/// The two metrics observed in fractions of their unit, declared once for the metric and for
/// the observation: distance per team in metres (of km), mean stamina in hundredths.
const DISTANCE_SCALE: u64 = 1000;
const STAMINA_SCALE: u64 = 100;

/// A mean of the two sides in `1/scale` units (the halving is exact, so this is the product
/// rounded once, bit for bit what `(a + b) * (scale / 2)` gives).
fn scaled_mean(a: f64, b: f64, scale: u64) -> i64 {
    ((a + b) / 2.0 * scale as f64).round() as i64
}

impl Simulator for MatchSimulator {
    type Rules = Arc<Rules>;

    fn ruleset(&self) -> &'static str {
        "microfut"
    }

    fn unit(&self) -> Unit {
        Unit { id: "matches".into(), label: labels("partidas", "matches") }
    }

    fn compile(&self, revision: &Revision) -> Result<Self::Rules, Vec<Diagnostic>> {
        let rs = Arc::new(microfut_core::ruleset::compile(revision)?);
        let rules = Rules::new(rs.clone()).map_err(|e| crate::engine::content::located(&rs, e))?;
        // Both squads must be able to take the field under this revision.
        for club in [&self.home, &self.away] {
            if let Err(e) = crate::engine::setup::select(&rules, club, None) {
                return Err(vec![Diagnostic::new(format!("club {}", club.id), "", e.to_string())]);
            }
        }
        Ok(Arc::new(rules))
    }

    fn setup(&self) -> Option<String> {
        let clubs = std::collections::BTreeMap::from([
            ("home".to_string(), serde_json::to_value(&self.home).expect("clubs serialise")),
            ("away".to_string(), serde_json::to_value(&self.away).expect("clubs serialise")),
        ]);
        let fp = microfut_core::catalog::fingerprint(&clubs);
        let short = &fp[..fp.len().min("sha256:".len() + 12)];
        Some(format!("{} v {} (clubs {short})", self.home.id, self.away.id))
    }

    fn metrics(&self, _rules: &Self::Rules) -> Vec<Metric> {
        use Format::{Number, Percent};
        use Kind::{Mean, Ratio};
        let m = vec![
            metric("goals_per_match", "gols por partida", "goals per match", Mean, 1, Number),
            metric("shots_per_match", "finalizações por partida", "shots per match", Mean, 1, Number),
            metric("shots_on_target_share", "finalizações no alvo", "shots on target", Ratio, 1, Percent),
            metric("shot_conversion", "conversão de finalizações", "shots scored", Ratio, 1, Percent),
            metric("pass_completion", "passes completos", "pass completion", Ratio, 1, Percent),
            metric("passes_per_match", "passes por partida", "passes per match", Mean, 1, Number),
            metric("crosses_per_match", "cruzamentos por partida", "crosses per match", Mean, 1, Number),
            metric(
                "dribbles_per_match",
                "duelos com a bola por partida",
                "duels on the ball per match",
                Mean,
                1,
                Number,
            ),
            metric("tackles_per_match", "desarmes por partida", "tackles per match", Mean, 1, Number),
            metric("fouls_per_match", "faltas por partida", "fouls per match", Mean, 1, Number),
            metric("home_win_share", "vitórias do mandante", "home wins", Mean, 1, Percent),
            metric("draw_share", "empates", "draws", Mean, 1, Percent),
            metric("away_win_share", "vitórias do visitante", "away wins", Mean, 1, Percent),
            metric("home_possession", "posse do mandante", "home possession", Ratio, 1, Percent),
            metric(
                "distance_km_per_team",
                "distância por time (km)",
                "distance per team (km)",
                Mean,
                DISTANCE_SCALE,
                Number,
            ),
            metric(
                "mean_stamina_full_time",
                "stamina média no fim",
                "mean stamina at full time",
                Mean,
                STAMINA_SCALE,
                Number,
            ),
            metric("saves_per_match", "defesas por partida", "saves per match", Mean, 1, Number),
            metric(
                "cross_completion",
                "cruzamentos que acham um companheiro",
                "crosses reaching a team-mate",
                Ratio,
                1,
                Percent,
            ),
            metric(
                "take_ons_per_match",
                "dribles tentados por partida",
                "dribbles attempted per match",
                Mean,
                1,
                Number,
            ),
            metric("dribble_success", "dribles vencidos", "dribbles won", Ratio, 1, Percent),
            metric("corners_per_match", "escanteios por partida", "corners per match", Mean, 1, Number),
            metric("penalties_per_match", "pênaltis por partida", "penalties per match", Mean, 1, Number),
            metric("penalty_conversion", "pênaltis convertidos", "penalties scored", Ratio, 1, Percent),
            metric("home_shots_share", "finalizações do mandante", "home share of shots", Ratio, 1, Percent),
            metric("home_goals_per_match", "gols do mandante por partida", "home goals per match", Mean, 1, Number),
            metric("away_goals_per_match", "gols do visitante por partida", "away goals per match", Mean, 1, Number),
            metric(
                "shots_outside_box_share",
                "finalizações de fora da área",
                "shots from outside the box",
                Ratio,
                1,
                Percent,
            ),
            metric("blocked_shot_share", "finalizações bloqueadas", "shots blocked", Ratio, 1, Percent),
        ];
        debug_assert_eq!(microfut_core::lab::slots(&m), METRICS);
        m
    }

    fn simulate(&self, rules: &Self::Rules, index: u64, dice: &mut Dice, out: &mut [i64]) -> Result<(), String> {
        let mut m = Match::with_dice(
            rules.clone(),
            &self.home,
            &self.away,
            dice.clone(),
            index,
            Options { retention: Some(0), ..Default::default() },
        )
        .expect("clubs were checked when the revision was compiled");
        m.run().map_err(|e| e.to_string())?;
        let [h, a]: &[TeamStats; 2] = m.stats();
        let sum = |f: fn(&TeamStats) -> u32| (f(h) + f(a)) as i64;
        let goals = sum(|s| s.goals);
        let shots = sum(|s| s.shots);
        let (hr, ar) = (m.state().possession_rounds[0] as i64, m.state().possession_rounds[1] as i64);
        let score = m.score();
        let values = [
            goals,
            shots,
            sum(|s| s.on_target),
            shots,
            goals,
            shots,
            sum(|s| s.passes_completed),
            sum(|s| s.passes),
            sum(|s| s.passes),
            sum(|s| s.crosses),
            sum(|s| s.dribbles_won + s.dribbles_lost),
            sum(|s| s.tackles),
            sum(|s| s.fouls),
            i64::from(score[0] > score[1]),
            i64::from(score[0] == score[1]),
            i64::from(score[0] < score[1]),
            hr,
            hr + ar,
            scaled_mean(h.distance_km, a.distance_km, DISTANCE_SCALE),
            scaled_mean(h.mean_stamina, a.mean_stamina, STAMINA_SCALE),
            sum(|s| s.saves),
            sum(|s| s.crosses_completed),
            sum(|s| s.crosses),
            sum(|s| s.take_ons),
            sum(|s| s.take_ons_won),
            sum(|s| s.take_ons),
            sum(|s| s.corners),
            sum(|s| s.penalties),
            sum(|s| s.penalty_goals),
            sum(|s| s.penalties),
            h.shots as i64,
            shots,
            h.goals as i64,
            a.goals as i64,
            sum(|s| s.shots_outside_box),
            shots,
            sum(|s| s.blocks),
            shots,
        ];
        out[..METRICS].copy_from_slice(&values);
        Ok(())
    }
}
