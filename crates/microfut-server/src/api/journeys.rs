//! World 1's journeys on the server (seed 002): create one in a mode, play it command by command
//! (a person's commands or the automatic player's), export its record, and read its actors'
//! attributes — the CaptureOnly projections of `effects::project` over HTTP.
//!
//! Problem: the projections are reads of a run's *current* state, so the server must hold
//! effects runs that survive it, without a second kind of state file.
//!
//! Decision: a journey is stored as what it pins and its commands with the state hash after
//! each (store migration 4); the live `effects::Run` is rebuilt by replaying them on the pinned
//! revision — every hash checked, exactly as `microfut effects replay` does — and kept in
//! memory (at most `LIVE_CAP`) until evicted. A write applies its commands to a copy of the
//! live run, commits them in one transaction, and only then replaces the live run, so a refused
//! command or a failed commit leaves nothing behind. Combat ids are the run's own
//! (`<runId>.c<n>`, the n-th combat of the journey), so a combat id names its run; a combat's
//! step is the number of commands committed in it. Reads take the live run by shared reference
//! and call `effects::project`, which never draws a die, settles, changes a resource or commits.
//!
//! Limits: only the active combat's actors can be read (a finished combat's actors are gone
//! with it); reading a past point of a journey is `microfut effects attributes --at N`.

use super::live::LiveCache;
use super::runs::{random_hex, sha256_hex};
use crate::error::{ApiError, ApiResult};
use crate::store::{CommandRow, NewJourney, Store, StoredJourney};
use axum::http::StatusCode;
use microfut_core::catalog::{Catalog, Labels};
use microfut_effects::project::{self, AttributeRead, ReadError};
use microfut_effects::record::{self, EXECUTOR, JourneyRecord, PolicyPin, RecordOutcome};
use microfut_effects::{Command, CommandError, Event, Phase, Run, World, autopilot};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use utoipa::ToSchema;

/// Live journeys kept in memory; older ones are rebuilt from the store on their next request.
const LIVE_CAP: usize = 256;
/// The most commands one autoplay request commits (a whole journey is a few hundred).
const MAX_AUTOPLAY: usize = 5_000;

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateJourney {
    /// A mode of the revision (`GET /effects/modes`); default `w1_journey`.
    #[serde(default)]
    pub mode: Option<String>,
    /// The dice seed; random when absent.
    #[serde(default)]
    pub seed: Option<u64>,
    /// The effects revision; default the newest published.
    #[serde(default)]
    pub revision: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CommandKind {
    Advance,
    Play,
    EndTurn,
}

/// A person's command: `advance` to the next encounter, `play` the card at hand position
/// `card` (on `target`, an enemy's actor id, when it needs one), or `end_turn`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CommandRequest {
    pub kind: CommandKind,
    #[serde(default)]
    pub card: Option<u32>,
    #[serde(default)]
    pub target: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AutoplayUntil {
    /// One command.
    Command,
    /// Until the hero's turn ends (or the combat does).
    Turn,
    /// Until the active combat ends (starting the next one first when none is active).
    Combat,
    /// To the end of the journey.
    End,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AutoplayRequest {
    pub until: AutoplayUntil,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ModeView {
    pub mode: String,
    pub label: Labels,
    /// The policy it selects (`effectResolutionPolicyId`), or none.
    pub policy: Option<String>,
    pub journey: String,
    pub encounters: usize,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ModesView {
    pub ruleset: String,
    pub version: String,
    pub fingerprint: String,
    pub label: Labels,
    pub modes: Vec<ModeView>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedJourney {
    /// Every write to this journey needs `Authorization: Bearer <token>`; it is shown once.
    pub token: String,
    #[serde(flatten)]
    pub journey: JourneyView,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActorView {
    pub actor_id: String,
    pub label: Labels,
    /// `hero` or `enemy`.
    pub side: String,
    pub defeated: bool,
    /// Its own values (life, block, mana…), without providers.
    pub values: BTreeMap<String, f64>,
    pub statuses: Vec<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HandCard {
    /// Its position in the hand: `card` of a `play` command.
    pub position: usize,
    pub card: String,
    pub label: Labels,
    pub upgrades: Vec<String>,
    pub cost: u32,
    pub needs_target: bool,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CombatView {
    pub combat_id: String,
    /// Commands committed in this combat.
    pub combat_step: u64,
    /// The journey step it plays (0-based).
    pub step: usize,
    pub encounter: String,
    pub encounter_label: Labels,
    pub turn: u32,
    pub actors: Vec<ActorView>,
    pub hand: Vec<HandCard>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JourneyView {
    pub run_id: String,
    pub content_revision: project::ContentRevision,
    pub mode: String,
    pub policy: Option<project::PolicyRef>,
    pub journey: String,
    pub seed: u64,
    /// Commands committed so far.
    pub run_sequence: u64,
    /// `between`, `combat` or `finished`.
    pub phase: String,
    pub encounters: usize,
    pub encounters_won: u32,
    pub victory: Option<bool>,
    pub combat: Option<CombatView>,
    /// The hero between encounters: what persists.
    pub hero: BTreeMap<String, f64>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CommandsResult {
    /// The commands committed by this request, in order.
    #[schema(value_type = Vec<Object>)]
    pub commands: Vec<Command>,
    /// What they did.
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<Event>,
    pub journey: JourneyView,
}

/// What a test compares before and after a read: the dice drawn, the state hash, the commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Probe {
    pub draws: u64,
    pub state_hash: u64,
    pub sequence: u64,
}

struct Live {
    run: Run,
    token_sha256: String,
}

type Slot = Arc<Mutex<Option<Live>>>;

pub struct Journeys {
    pub catalog: Arc<Catalog>,
    pub store: Arc<Store>,
    worlds: Mutex<HashMap<String, Arc<World>>>,
    live: Mutex<LiveCache<Mutex<Option<Live>>>>,
}

fn store_err(e: crate::store::StoreError) -> ApiError {
    ApiError::unavailable(e.to_string())
}

fn command_err(e: CommandError, field: &str) -> ApiError {
    let status = match e {
        CommandError::Finished | CommandError::NoCombat | CommandError::InCombat => StatusCode::CONFLICT,
        _ => StatusCode::UNPROCESSABLE_ENTITY,
    };
    let code = if status == StatusCode::CONFLICT { "wrong_phase" } else { "invalid_field" };
    ApiError::new(status, code, e.to_string(), Some(field))
}

/// The field a refused command names: the card for a card problem, the target for a target one.
fn command_field(e: &CommandError) -> &'static str {
    match e {
        CommandError::NoCard { .. } | CommandError::TooExpensive { .. } => "/card",
        CommandError::NeedsTarget { .. } | CommandError::BadTarget { .. } | CommandError::NoTarget { .. } => "/target",
        _ => "/kind",
    }
}

impl CommandRequest {
    fn command(&self) -> ApiResult<Command> {
        match self.kind {
            CommandKind::Advance | CommandKind::EndTurn => {
                if self.card.is_some() {
                    return Err(ApiError::invalid("/card", "only a `play` command names a card"));
                }
                if self.target.is_some() {
                    return Err(ApiError::invalid("/target", "only a `play` command names a target"));
                }
                Ok(if self.kind == CommandKind::Advance { Command::Advance } else { Command::EndTurn })
            }
            CommandKind::Play => {
                let card = self.card.ok_or_else(|| {
                    ApiError::invalid("/card", "a `play` command names the hand position of its card")
                })?;
                Ok(Command::Play { card: card as usize, target: self.target.clone() })
            }
        }
    }
}

/// The journey's view of a run: phase, active combat (actors, hand), the persistent hero.
pub fn view(run: &Run) -> JourneyView {
    let world = run.world();
    let combat = run.combat().map(|c| {
        let actor = |a: &microfut_effects::ActorState, side: &str| ActorView {
            actor_id: a.id.clone(),
            label: a.label.clone(),
            side: side.into(),
            defeated: a.defeated,
            values: a.values.clone(),
            statuses: a.statuses.iter().map(|s| s.status.clone()).collect(),
        };
        CombatView {
            combat_id: c.id.clone(),
            combat_step: c.commands,
            step: c.step,
            encounter: c.encounter.clone(),
            encounter_label: world.encounters[&c.encounter].label.clone(),
            turn: c.turn,
            actors: std::iter::once(actor(&c.hero, "hero"))
                .chain(c.enemies.iter().map(|e| actor(e, "enemy")))
                .collect(),
            hand: c
                .hand
                .iter()
                .enumerate()
                .map(|(k, inst)| {
                    let p = run.playable(inst);
                    HandCard {
                        position: k,
                        card: inst.card.clone(),
                        label: p.label.clone(),
                        upgrades: inst.upgrades.clone(),
                        cost: p.cost,
                        needs_target: p.effects.iter().any(|e| e.target == microfut_effects::TargetKind::Enemy),
                    }
                })
                .collect(),
        }
    });
    JourneyView {
        run_id: run.id().into(),
        content_revision: project::ContentRevision {
            ruleset: world.rs.id.clone(),
            version: world.rs.version.to_string(),
            fingerprint: world.rs.fingerprint.clone(),
        },
        mode: run.mode().id.clone(),
        policy: run.policy().map(|p| project::PolicyRef { id: p.id.clone(), fingerprint: p.fingerprint.clone() }),
        journey: run.journey().id.clone(),
        seed: run.seed(),
        run_sequence: run.sequence(),
        phase: match run.phase() {
            Phase::Between { .. } => "between",
            Phase::Combat(_) => "combat",
            Phase::Finished { .. } => "finished",
        }
        .into(),
        encounters: run.journey().steps.len(),
        encounters_won: run.encounters_won(),
        victory: run.victory(),
        combat,
        hero: run.hero().values.clone(),
    }
}

fn forbidden() -> ApiError {
    ApiError::new(StatusCode::FORBIDDEN, "forbidden", "this token does not open this journey", Some("Authorization"))
}

/// `<runId>.c<n>` → `runId`.
fn run_of_combat(combat: &str) -> ApiResult<&str> {
    combat
        .rsplit_once(".c")
        .filter(|(run, n)| !run.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .map(|(run, _)| run)
        .ok_or_else(|| {
            ApiError::not_found(
                "combat_id",
                format!("'{combat}' is not a combat id (<runId>.c<n>, as a journey names them)"),
            )
        })
}

impl Journeys {
    pub fn new(catalog: Arc<Catalog>, store: Arc<Store>) -> Journeys {
        Journeys { catalog, store, worlds: Mutex::new(HashMap::new()), live: Mutex::new(LiveCache::new(LIVE_CAP)) }
    }

    /// The effects world of a revision (by version, or the newest published), compiled once.
    fn world(&self, version: Option<&str>, field: &str) -> ApiResult<Arc<World>> {
        let rev = self.catalog.revision("effects", version).map_err(|e| ApiError::invalid(field, e.to_string()))?;
        if let Some(w) = self.worlds.lock().unwrap_or_else(|p| p.into_inner()).get(&rev.fingerprint) {
            return Ok(w.clone());
        }
        let world = microfut_effects::compile(rev).map_err(|d| {
            ApiError::invalid(field, format!("{} has {} content error(s), first: {}", rev.label(), d.len(), d[0]))
        })?;
        let world = Arc::new(world);
        self.worlds.lock().unwrap_or_else(|p| p.into_inner()).insert(rev.fingerprint.clone(), world.clone());
        Ok(world)
    }

    pub fn modes(&self) -> ApiResult<ModesView> {
        let world = self.world(None, "revision")?;
        Ok(ModesView {
            ruleset: world.rs.id.clone(),
            version: world.rs.version.to_string(),
            fingerprint: world.rs.fingerprint.clone(),
            label: world.label.clone(),
            modes: world
                .modes
                .values()
                .map(|m| ModeView {
                    mode: m.id.clone(),
                    label: m.label.clone(),
                    policy: world.mode_policy(m).map(|p| p.id.clone()),
                    journey: m.journey.clone(),
                    encounters: world.journeys[&m.journey].steps.len(),
                })
                .collect(),
        })
    }

    pub fn create(&self, req: CreateJourney) -> ApiResult<CreatedJourney> {
        let world = self.world(req.revision.as_deref(), "/revision")?;
        let mode = req.mode.as_deref().unwrap_or("w1_journey");
        let seed = match req.seed {
            Some(s) => s,
            None => u64::from_str_radix(&random_hex(8)?, 16).unwrap_or(0) >> 11,
        };
        let id = random_hex(16)?;
        let token = random_hex(32)?;
        let run =
            Run::new(world.clone(), mode, seed, id.clone()).map_err(|e| ApiError::invalid("/mode", e.to_string()))?;
        let new = NewJourney {
            id: id.clone(),
            token_sha256: sha256_hex(&token),
            ruleset: world.rs.id.clone(),
            revision: world.rs.version.to_string(),
            fingerprint: world.rs.fingerprint.clone(),
            engine_version: microfut_core::catalog::ENGINE_VERSION.into(),
            executor: EXECUTOR,
            mode: mode.into(),
            policy: run.policy().map(|p| (p.id.clone(), p.fingerprint.clone())),
            journey: run.journey().id.clone(),
            seed,
        };
        self.store.create_journey(&new).map_err(|e| super::runs::create_err(e, super::runs::Created::Journey))?;
        let journey = view(&run);
        self.remember(&id, Arc::new(Mutex::new(Some(Live { run, token_sha256: new.token_sha256 }))));
        Ok(CreatedJourney { token, journey })
    }

    fn remember(&self, id: &str, slot: Slot) {
        self.live.lock().unwrap_or_else(|p| p.into_inner()).insert(id, slot);
    }

    /// The stored journey, or a 404 naming `field`.
    fn stored(&self, id: &str, field: &str) -> ApiResult<StoredJourney> {
        if let Some(j) = self.store.journey(id).map_err(store_err)? {
            return Ok(j);
        }
        if self.store.run(id).map_err(store_err)?.is_some() {
            return Err(ApiError::not_found(
                field,
                format!(
                    "'{id}' is a Microfut match, not a World 1 journey: its players' attributes are at \
                     /api/v1/runs/{id}/players/{{playerId}}/attributes"
                ),
            ));
        }
        Err(ApiError::not_found(field, format!("no journey '{id}' (POST /api/v1/effects/journeys makes one)")))
    }

    /// The stored journey as a record skeleton (what it pins), for `record::pinned_world`.
    fn pins(j: &StoredJourney) -> JourneyRecord {
        JourneyRecord {
            format: record::FORMAT.into(),
            ruleset: j.run.ruleset.clone(),
            revision: j.run.revision.clone(),
            fingerprint: j.run.fingerprint.clone(),
            engine_version: j.run.engine_version.clone(),
            executor: j.run.executor,
            run_id: j.run.id.clone(),
            mode: j.run.mode.clone(),
            policy: j.run.policy.as_ref().map(|(id, fp)| PolicyPin { id: id.clone(), fingerprint: fp.clone() }),
            journey: j.run.journey.clone(),
            seed: j.run.seed,
            commands: Vec::new(),
            state_hashes: Vec::new(),
            outcome: RecordOutcome { victory: None, encounters_won: 0, hero: BTreeMap::new() },
            events: Vec::new(),
            seal: None,
        }
    }

    /// Rebuilds a journey from the store: its pinned world, every command replayed and its
    /// state hash checked.
    fn rebuild(&self, j: &StoredJourney) -> ApiResult<Live> {
        let frozen = |why: String| {
            ApiError::conflict(
                "journey_frozen",
                Some("run_id"),
                format!("journey {} cannot be continued: {why}", j.run.id),
            )
        };
        let pins = Self::pins(j);
        let cached = self.worlds.lock().unwrap_or_else(|p| p.into_inner()).get(&j.run.fingerprint).cloned();
        let world = match cached {
            Some(w) => w,
            None => {
                let w = record::pinned_world(&self.catalog, &pins).map_err(|e| frozen(e.to_string()))?;
                self.worlds.lock().unwrap_or_else(|p| p.into_inner()).insert(j.run.fingerprint.clone(), w.clone());
                w
            }
        };
        let mut run = Run::new(world, &j.run.mode, j.run.seed, j.run.id.clone()).map_err(|e| frozen(e.to_string()))?;
        for (k, row) in self.store.journey_commands(&j.run.id).map_err(store_err)?.iter().enumerate() {
            let command: Command =
                serde_json::from_str(&row.body).map_err(|e| frozen(format!("command {}: {e}", k + 1)))?;
            run.apply(&command).map_err(|e| frozen(format!("command {} is refused on replay: {e}", k + 1)))?;
            let hash = format!("{:016x}", run.hashes()[k]);
            if hash != row.hash {
                return Err(frozen(format!("command {} replays to state {hash}, stored {}", k + 1, row.hash)));
            }
        }
        Ok(Live { run, token_sha256: j.run.token_sha256.clone() })
    }

    /// Runs `f` on the live journey `id` (rebuilt when not in memory).
    fn with_live<T>(&self, id: &str, field: &str, f: impl FnOnce(&mut Live) -> ApiResult<T>) -> ApiResult<T> {
        let slot = self.live.lock().unwrap_or_else(|p| p.into_inner()).get(id);
        let slot = match slot {
            Some(s) => s,
            None => {
                let stored = self.stored(id, field)?;
                let s: Slot = Arc::new(Mutex::new(None));
                let mut guard = s.lock().unwrap_or_else(|p| p.into_inner());
                *guard = Some(self.rebuild(&stored)?);
                drop(guard);
                self.remember(id, s.clone());
                s
            }
        };
        let mut guard = slot.lock().unwrap_or_else(|p| p.into_inner());
        if guard.is_none() {
            let stored = self.stored(id, field)?;
            *guard = Some(self.rebuild(&stored)?);
        }
        f(guard.as_mut().expect("rebuilt above"))
    }

    /// `DELETE /effects/journeys/{id}`: the journey and its commands, with its token. Waits for
    /// a command in progress on it (its slot's lock), deletes in one transaction, then drops the
    /// live journey, so a request waiting for the lock finds it gone (404).
    pub fn delete(&self, id: &str, token: &str) -> ApiResult<()> {
        let slot = self.live.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert_with(id, || Mutex::new(None));
        let mut guard = slot.lock().unwrap_or_else(|p| p.into_inner());
        let out = self.stored(id, "run_id").and_then(|stored| {
            if sha256_hex(token) != stored.run.token_sha256 {
                return Err(forbidden());
            }
            self.store.delete_journey(id).map_err(|e| super::runs::write_err(e, "the journey was not deleted"))?;
            Ok(())
        });
        if out.is_ok() || out.as_ref().is_err_and(|e| e.status == StatusCode::NOT_FOUND) {
            *guard = None;
            self.live.lock().unwrap_or_else(|p| p.into_inner()).remove(id);
        }
        out
    }

    pub fn get(&self, id: &str) -> ApiResult<JourneyView> {
        self.with_live(id, "run_id", |l| Ok(view(&l.run)))
    }

    /// Applies `commands` (produced one at a time from the run as it goes) to a copy of the
    /// live journey, commits them in one transaction, then makes the copy live.
    fn write(
        &self,
        id: &str,
        token: &str,
        mut next: impl FnMut(&Run) -> ApiResult<Option<Command>>,
    ) -> ApiResult<CommandsResult> {
        let out = self.with_live(id, "run_id", |live| {
            if sha256_hex(token) != live.token_sha256 {
                return Err(forbidden());
            }
            let mut run = live.run.clone();
            let first = run.sequence() as usize;
            let first_event = run.events().len();
            while let Some(command) = next(&run)? {
                run.apply(&command).map_err(|e| {
                    let field = command_field(&e);
                    command_err(e, field)
                })?;
            }
            let commands = run.commands()[first..].to_vec();
            let rows = commands
                .iter()
                .enumerate()
                .map(|(k, c)| CommandRow {
                    body: serde_json::to_string(c).expect("commands serialise"),
                    hash: format!("{:016x}", run.hashes()[first + k]),
                })
                .collect::<Vec<_>>();
            if !rows.is_empty() {
                self.store
                    .commit_commands(id, first as u64 + 1, rows, run.is_finished())
                    .map_err(|e| super::runs::write_err(e, "nothing of these commands was kept"))?;
            }
            let events = run.events()[first_event..].to_vec();
            live.run = run;
            Ok(CommandsResult { commands, events, journey: view(&live.run) })
        });
        if let Err(e) = &out
            && e.status == StatusCode::SERVICE_UNAVAILABLE
        {
            // The store may hold less than memory: rebuild from it next time.
            self.live.lock().unwrap_or_else(|p| p.into_inner()).remove(id);
        }
        out
    }

    pub fn command(&self, id: &str, token: &str, req: CommandRequest) -> ApiResult<CommandsResult> {
        let command = req.command()?;
        let mut once = Some(command);
        self.write(id, token, |run| {
            if let Some(c) = &once
                && let Err(e) = run.check(c)
            {
                let field = command_field(&e);
                return Err(command_err(e, field));
            }
            Ok(once.take())
        })
    }

    pub fn autoplay(&self, id: &str, token: &str, req: AutoplayRequest) -> ApiResult<CommandsResult> {
        let mut played = 0usize;
        // The combat being played: the active one, or the one the first command starts.
        let mut playing: Option<String> = None;
        self.write(id, token, |run| {
            let now = run.combat().map(|c| c.id.clone());
            if played == 0 || (played == 1 && playing.is_none()) {
                playing = now.clone();
            }
            if played > 0 {
                let stop = match req.until {
                    AutoplayUntil::Command => true,
                    AutoplayUntil::Turn => matches!(run.commands().last(), Some(Command::EndTurn)) || now != playing,
                    AutoplayUntil::Combat => now != playing,
                    AutoplayUntil::End => false,
                };
                if stop || played >= MAX_AUTOPLAY {
                    return Ok(None);
                }
            }
            let next = autopilot::choose(run);
            if next.is_none() && played == 0 {
                return Err(ApiError::conflict("journey_over", Some("/until"), "the journey is over"));
            }
            played += 1;
            Ok(next)
        })
    }

    /// The journey as the record `microfut effects replay` reads.
    pub fn record(&self, id: &str) -> ApiResult<JourneyRecord> {
        self.with_live(id, "run_id", |l| Ok(JourneyRecord::of(&l.run)))
    }

    /// `GET /runs/{runId}/character-attributes`.
    pub fn character_attributes(&self, id: &str) -> ApiResult<AttributeRead> {
        self.with_live(id, "run_id", |l| Ok(project::character_attributes(&l.run)))
    }

    /// `GET /combats/{combatId}/actors/{actorId}/attributes`.
    pub fn actor_attributes(&self, combat: &str, actor: &str) -> ApiResult<AttributeRead> {
        let run = run_of_combat(combat)?;
        self.with_live(run, "combat_id", |l| {
            project::combat_actor_attributes(&l.run, combat, actor).map_err(|e| match e {
                ReadError::NotActive { .. } => {
                    ApiError::conflict("combat_not_active", Some("combat_id"), e.to_string())
                }
                ReadError::UnknownActor { .. } => ApiError::not_found("actor_id", e.to_string()),
            })
        })
    }

    /// The live journey's dice draws, state hash and commands (for tests that prove a read
    /// changes none of them).
    pub fn probe(&self, id: &str) -> ApiResult<Probe> {
        self.with_live(id, "run_id", |l| {
            Ok(Probe { draws: l.run.dice_draws(), state_hash: l.run.state_hash(), sequence: l.run.sequence() })
        })
    }
}
