//! What the margins of the match's tests mean, as tagged in content and mapped to engine
//! enums once per match setup.

/// What a pass's margin means (baseline §8), from the tags of `pass_quality`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassOutcome {
    OnTarget,
    Imprecise,
    Misplaced,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ControlOutcome {
    Clean,
    HeavyTouch,
    Loose,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShotOutcome {
    OnTarget,
    Weak,
    OffTarget,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaveOutcome {
    Hold,
    Parry,
    Beaten,
}

/// What a lost duel's margin says about the defender's contact (`foul_check` tags): a foul
/// (a direct free kick, a penalty in his box), impeding (an indirect free kick, 0.6) or nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FoulCall {
    Clean,
    Direct,
    Indirect,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DuelOutcome {
    CarrierKeeps,
    Loose,
    Steal,
}
