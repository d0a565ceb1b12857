//! Microfut's match engine: whole matches and their replay, the NPC's choices, set pieces and
//! shots, the order of the play-by-play, the same-seed goldens and the recorded runs.
//!
//! One test binary per area (CONTRIBUTING.md, "Tests"); each module is named for what it checks.

#[path = "../common/mod.rs"]
mod common;

mod beaten_defender_window;
mod content_pieces;
mod events_in_order_of_play;
mod keeper_sets_for_the_header;
mod npc_expected_keeper;
mod npc_invariants;
mod npc_plans_without_the_crowd;
mod npc_possession_value;
mod npc_prices_a_typical_striker;
mod npc_pruning;
mod npc_side_behind_pushes;
mod npc_speed_levers;
mod packed_box;
mod penalties_aimed_at_corners;
mod replay_corpus;
mod same_seed_goldens;
mod shots_blocked_and_walls;
mod shots_by_zone;
mod whole_matches;
