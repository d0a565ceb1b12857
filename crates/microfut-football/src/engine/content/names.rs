//! Looking up, by name, what the match engine needs of a revision. Every missing name is noted
//! and a stand-in returned, so a revision lacking several hears of all of them at once
//! ([`Names::finish`]); the stand-ins are never played, since `Rules::new` stops there first.

use super::{BY, ContentError, located};
use crate::engine::set_pieces::SetPieces;
use microfut_core::catalog::Diagnostic;
use microfut_core::ruleset::{Missing, Ruleset};
use std::cell::RefCell;

pub(super) struct Names<'a> {
    r: &'a Ruleset,
    /// Names the engine itself needs, reported where they belong.
    missing: RefCell<Vec<Missing>>,
    /// The NPC document, and the names it writes that the revision lacks, reported at its keys.
    npc_file: &'a str,
    misnamed: RefCell<Vec<Diagnostic>>,
}

impl<'a> Names<'a> {
    pub(super) fn new(r: &'a Ruleset, npc_file: &'a str) -> Self {
        Names { r, missing: RefCell::new(Vec::new()), npc_file, misnamed: RefCell::new(Vec::new()) }
    }

    fn noted<T>(&self, found: Result<T, Missing>, stand_in: T) -> T {
        found.unwrap_or_else(|m| {
            self.missing.borrow_mut().push(m);
            stand_in
        })
    }

    pub(super) fn pipeline(&self, id: &str) -> usize {
        self.noted(self.r.need_pipeline(id, BY), 0)
    }

    /// `id`, or `fallback` (looked up as needed) when the revision has no `id`.
    pub(super) fn pipeline_or(&self, id: &str, fallback: &str) -> usize {
        self.r.pipeline_index(id).unwrap_or_else(|| self.pipeline(fallback))
    }

    pub(super) fn var(&self, id: &str) -> usize {
        self.noted(self.r.need_var(id, BY), 0)
    }

    pub(super) fn param(&self, id: &str) -> f64 {
        self.noted(self.r.need_param(id, BY), f64::NAN)
    }

    /// A parameter, or for a published revision that predates it the value its entry in the
    /// ruleset's upgrades.json declares (content, keyed by fingerprint).
    pub(super) fn param_or_upgrade(&self, id: &str) -> f64 {
        let upgrade = self.r.revision.upgrade.as_ref();
        match self.r.param(id).or_else(|| upgrade.and_then(|u| u.params.get(id).copied())) {
            Some(v) => v,
            None => self.param(id),
        }
    }

    /// A pipeline the NPC document names at `pointer`.
    pub(super) fn npc_pipeline(&self, pointer: &str, id: &str) -> usize {
        super::named_pipeline(self.r, self.npc_file, pointer, id).unwrap_or_else(|d| {
            self.misnamed.borrow_mut().push(d);
            0
        })
    }

    pub(super) fn range_tables(&self, ids: &[&str]) {
        for id in ids {
            self.noted(self.r.need_range_table(id, BY).map(|_| ()), ());
        }
    }

    /// Every name looked up: reports all the missing ones together, each name the NPC document
    /// gives where it is written and each the engine itself needs where it belongs. The set
    /// pieces' names are checked here too, so a revision with several wrong names hears of all
    /// of them at once.
    pub(super) fn finish(
        self,
        set_pieces: Result<Option<SetPieces>, ContentError>,
    ) -> Result<Option<SetPieces>, ContentError> {
        let r = self.r;
        let missing = self.missing.into_inner();
        let mut misnamed = self.misnamed.into_inner();
        if !misnamed.is_empty() || (!missing.is_empty() && set_pieces.is_err()) {
            if let Err(e) = set_pieces {
                misnamed.extend(located(r, e));
            }
            misnamed.extend(missing.iter().map(|m| r.locate(m)));
            return Err(ContentError::Invalid(misnamed));
        }
        if !missing.is_empty() {
            return Err(ContentError::Missing(missing));
        }
        set_pieces
    }
}
