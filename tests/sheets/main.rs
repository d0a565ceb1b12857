//! Players and clubs: sheet ledgers, progression, the properties of sheets and of the squad
//! generator, club validation and identities.
//!
//! One test binary per area (CONTRIBUTING.md, "Tests"); each module is named for what it checks.

#[path = "../common/mod.rs"]
mod common;

mod club_identities_are_styles;
mod clubs;
mod ledgers;
mod progression;
mod properties;
