//! `microfut space`: Space Football's boards, matches between bot processes, championships with
//! their grades, replays, and the built-in bots as processes.

use super::lab::print_out;
use super::{CliError, CliResult};
use crate::bot_process::Program;
use crate::catalog::Catalog;
use crate::dice::Dice;
use crate::space::bots::{BotKind, Builtin, Thinking};
use crate::space::championship::{self, Entry, FinalGrade, Group, Standing};
use crate::space::protocol::{AnswerLine, ProcessBot, TurnLine, limits};
use crate::space::record::{self, Entrant, MatchRecord, Verdict};
use crate::space::referee::{self, Outcome, Player};
use crate::space::{BOARD_LABEL, Board, BoardJson, Rules, Side, compile, moves};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{Value, json};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(Debug, clap::Args)]
pub struct SpaceArgs {
    #[command(subcommand)]
    pub command: SpaceCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum SpaceCommand {
    /// Draw an initial board from a seed and show it (or --json).
    Board(BoardArgs),
    /// Play one match between two bots (commands, or @random, @greedy, @search).
    Match(MatchArgs),
    /// Play championships: every pair of bots twice, colours swapped; standings, grades, final grade.
    Championship(ChampionshipArgs),
    /// Re-check a recorded match: every action's legality and the outcome (exit 1 if they differ).
    Replay(ReplayArgs),
    /// Run a built-in bot speaking the protocol on stdin/stdout (what @NAME starts).
    Bot(BotArgs),
    /// Serve the battlefield page (play a built-in bot by clicking, step through recorded
    /// matches) and its API under /api/v1/space/.
    Serve(ServeArgs),
}

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on (loopback unless told otherwise; port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub bind: std::net::SocketAddr,
    #[arg(long)]
    pub revision: Option<String>,
    /// The SQLite file the games are stored in (created if missing; a restart keeps them).
    #[arg(long, default_value = "space.db")]
    pub db: PathBuf,
    #[command(flatten)]
    pub connections: super::serve::ConnectionArgs,
}

#[derive(Debug, clap::Args)]
pub struct BoardArgs {
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Columns (default: drawn from the revision's range).
    #[arg(long)]
    pub n: Option<u8>,
    #[arg(long)]
    pub json: bool,
    /// Content revision (default: the newest published).
    #[arg(long)]
    pub revision: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct MatchArgs {
    /// White's bot: a shell command (`python3 examples/space_bot.py`) or @random, @greedy, @search
    /// (with options: "@search --nodes 5000").
    #[arg(long)]
    pub white: String,
    /// Black's bot (it plays white on a mirrored board: the referee turns the field round).
    #[arg(long)]
    pub black: String,
    /// Draw the board from this seed (as `space board --seed`).
    #[arg(long, required_unless_present = "board", conflicts_with = "board")]
    pub seed: Option<u64>,
    /// Columns of the drawn board (default: drawn from the revision's range).
    #[arg(long, requires = "seed")]
    pub n: Option<u8>,
    /// Play from this board (JSON: {"n", "white", "black", "ball"}, as `space board --json` prints).
    #[arg(long, value_name = "FILE")]
    pub board: Option<PathBuf>,
    /// Time per action, wall clock (e.g. 1s, 250ms; default: the revision's).
    #[arg(long, value_parser = parse_duration)]
    pub time_limit: Option<Duration>,
    /// Write the match record here (for `space replay`; `-`: standard output).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Print {"winner", "victory", "reasons", "points", "valid", "actions"}.
    #[arg(long)]
    pub json: bool,
    #[arg(long)]
    pub revision: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct ChampionshipArgs {
    /// A bot: NAME=COMMAND (repeat; at least two). COMMAND as for `space match`.
    #[arg(long = "bot", value_name = "NAME=CMD", required = true)]
    pub bots: Vec<String>,
    /// Seed of the championships' boards.
    #[arg(long)]
    pub seed: u64,
    /// Championships to play (each on its own board); the final grade is over all of them.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub championships: u32,
    /// Matches at once (default: the machine's cores; see README on timing fairness).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// Time per action (default: the revision's).
    #[arg(long, value_parser = parse_duration)]
    pub time_limit: Option<Duration>,
    #[arg(long)]
    pub json: bool,
    /// Also write the standings and final grades as CSV (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write every match's record into this folder (c1-NAME-v-NAME.json).
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,
    /// No progress bar and no timing line.
    #[arg(long)]
    pub quiet: bool,
    #[arg(long)]
    pub revision: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// A record written by `space match --out` or `space championship --records`.
    pub record: PathBuf,
    /// Print {"identical": bool, …} as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum BotName {
    Random,
    Greedy,
    Search,
}

#[derive(Debug, clap::Args)]
pub struct BotArgs {
    pub name: BotName,
    /// The random bot's seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The search's node budget per action (default: the revision's × its process factor).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    #[arg(long)]
    pub revision: Option<String>,
}

/// "1s", "250ms", "1.5s".
fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let (num, scale) = if let Some(ms) = t.strip_suffix("ms") {
        (ms, 1e-3)
    } else if let Some(s) = t.strip_suffix('s') {
        (s, 1.0)
    } else {
        return Err(format!("'{text}' needs a unit: 1s, 250ms"));
    };
    let v: f64 = num.trim().parse().map_err(|_| format!("'{text}' is not a duration such as 1s or 250ms"))?;
    if !v.is_finite() || v <= 0.0 || v * scale > 3600.0 {
        return Err(format!("'{text}' must be more than 0 and at most an hour"));
    }
    Ok(Duration::from_secs_f64(v * scale))
}

/// The catalog holding only Space Football's content: a bot process starts in milliseconds
/// instead of validating every ruleset.
fn space_catalog(content: Option<&Path>) -> Result<Catalog, CliError> {
    let mut tree = super::content::content_tree(content)?;
    tree.files.retain(|path, _| path.starts_with("space/"));
    Ok(Catalog::load(&tree))
}

fn rules(content: Option<&Path>, version: Option<&str>) -> Result<Rules, CliError> {
    let catalog = space_catalog(content)?;
    let rev = catalog.revision("space", version).map_err(CliError::input)?;
    compile(rev).map_err(|d| {
        CliError::input(format!(
            "{} has {} content error(s), first: {}; run `microfut validate`",
            rev.label(),
            d.len(),
            d[0]
        ))
    })
}

/// A bot command as a program: `@NAME [options]` is this binary's built-in bot, anything else a
/// shell command line.
fn program(cmd: &str, content: Option<&Path>, rules: &Rules) -> Result<Program, CliError> {
    let cmd = cmd.trim();
    if cmd.is_empty() {
        return Err(CliError::input("a bot command is empty"));
    }
    let Some(rest) = cmd.strip_prefix('@') else {
        return Ok(Program::Shell(cmd.to_string()));
    };
    let mut words = rest.split_whitespace();
    let name = words.next().unwrap_or("");
    BotKind::parse(name).map_err(CliError::input)?;
    let exe = std::env::current_exe().map_err(|e| CliError::input(format!("cannot find this program: {e}")))?;
    let mut argv = vec![exe.into_os_string(), "space".into(), "bot".into(), name.into()];
    argv.extend(["--revision".into(), rules.version.clone().into()]);
    if let Some(dir) = content {
        argv.extend(["--content".into(), dir.as_os_str().to_owned()]);
    }
    argv.extend(words.map(Into::into));
    Ok(Program::Argv(argv))
}

pub fn run(content: Option<&Path>, args: SpaceArgs) -> CliResult {
    match args.command {
        SpaceCommand::Board(a) => board(content, a),
        SpaceCommand::Match(a) => play_match(content, a),
        SpaceCommand::Championship(a) => play_championship(content, a),
        SpaceCommand::Replay(a) => replay(content, a),
        SpaceCommand::Bot(a) => bot(content, a),
        SpaceCommand::Serve(a) => {
            let limits = a.connections.limits()?;
            let rules = rules(content, a.revision.as_deref())?;
            crate::space_web::serve(rules, a.bind, &a.db, limits).map_err(CliError::input)
        }
    }
}

fn board(content: Option<&Path>, a: BoardArgs) -> CliResult {
    let rules = rules(content, a.revision.as_deref())?;
    let b = Board::draw(&rules, &mut Dice::derived(a.seed, BOARD_LABEL), a.n).map_err(CliError::input)?;
    if a.json {
        return print_out(&(serde_json::to_string_pretty(&b.to_json()).expect("serialises") + "\n"));
    }
    outln!(
        "{} · seed {} · n = {}, {} robots a side · ball with {}",
        rules.revision,
        a.seed,
        b.n(),
        b.count(Side::White),
        b.holder().map_or("nobody", Side::name)
    );
    out!("{}", b.text());
    outln!("w, b: robots · W, B: the robot with the ball · =: goal areas");
    Ok(())
}

fn read_board(path: &Path) -> Result<Board, CliError> {
    let bytes = crate::files::read_input("a board", path, crate::files::FILE_LIMIT).map_err(CliError::input)?;
    let j: BoardJson = crate::catalog::from_json(&bytes)
        .map_err(|e| CliError::input(format!("{}: {}", path.display(), crate::catalog::describe_json_error(&e))))?;
    Board::from_json(&j).map_err(|e| CliError::input(format!("{}: {e}", path.display())))
}

fn outcome_json(o: &Outcome) -> Value {
    serde_json::to_value(o).expect("serialises")
}

fn play_match(content: Option<&Path>, a: MatchArgs) -> CliResult {
    let rules = rules(content, a.revision.as_deref())?;
    // The record's file is checked before the match is played (and may not be the board read).
    let inputs: Vec<(&str, &Path)> = a.board.iter().map(|b| ("--board", b.as_path())).collect();
    let outputs: Vec<(&str, &Path)> = a.out.iter().map(|o| ("--out", o.as_path())).collect();
    let plan = crate::files::Plan::new(&outputs, &inputs).map_err(CliError::input)?;
    let start = match (&a.board, a.seed) {
        (Some(path), _) => read_board(path)?,
        (None, Some(seed)) => {
            Board::draw(&rules, &mut Dice::derived(seed, BOARD_LABEL), a.n).map_err(CliError::input)?
        }
        (None, None) => unreachable!("clap requires --seed or --board"),
    };
    let (wp, bp) = (program(&a.white, content, &rules)?, program(&a.black, content, &rules)?);
    let time_limit = a.time_limit.unwrap_or(Duration::from_millis(rules.championship.time_limit_ms));
    let lim = limits(&rules);
    let mut white = ProcessBot::start(&wp, lim, rules.actions);
    let mut black = ProcessBot::start(&bp, lim, rules.actions);
    let players: [&mut dyn Player; 2] = [&mut white, &mut black];
    let finished = referee::play(&rules, start.clone(), players, &referee::Options { time_limit, record: true });
    let rec = MatchRecord::new(
        &rules,
        if a.board.is_some() { None } else { a.seed },
        &start,
        [
            Entrant { name: "white".into(), command: a.white.clone() },
            Entrant { name: "black".into(), command: a.black.clone() },
        ],
        time_limit.as_millis() as u64,
        &finished,
    );
    if !plan.is_empty() {
        let text = serde_json::to_string_pretty(&rec).expect("serialises") + "\n";
        plan.write(&[text.as_bytes()]).map_err(CliError::input)?;
    }
    let o = &finished.outcome;
    if a.json {
        return print_out(&(serde_json::to_string(&outcome_json(o)).expect("serialises") + "\n"));
    }
    outln!(
        "{} · {} · n = {}, {} robots a side",
        rules.revision,
        a.seed.filter(|_| a.board.is_none()).map_or_else(|| "board from file".to_string(), |s| format!("seed {s}")),
        start.n(),
        start.count(Side::White)
    );
    out!("{}", start.text());
    outln!("white: {}\nblack: {}", a.white, a.black);
    outln!("{}", record::summary(o));
    for (side, f) in &o.reasons {
        outln!("  {} — {}: {}", side.name(), f.reason.name(), f.detail);
        if let Some(ans) = &f.answer {
            outln!("    answer: {ans}");
        }
    }
    for side in Side::BOTH {
        if let Some(t) = rec.stderr.get(&side) {
            let lines: Vec<&str> = t.lines().collect();
            let shown = &lines[lines.len().saturating_sub(5)..];
            outln!("  {}'s stderr (last {} of {} lines):", side.name(), shown.len(), lines.len());
            for l in shown {
                outln!("    {l}");
            }
        }
    }
    if let Some(p) = &a.out {
        outln!("record written to {}", p.display());
    }
    Ok(())
}

fn parse_entry(spec: &str, content: Option<&Path>, rules: &Rules) -> Result<Entry, CliError> {
    let (name, cmd) =
        spec.split_once('=').ok_or_else(|| CliError::input(format!("--bot '{spec}': expected NAME=COMMAND")))?;
    let name = name.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || "_-.".contains(c)) {
        return Err(CliError::input(format!("--bot '{spec}': a name is letters, digits, '_', '-' or '.'")));
    }
    Ok(Entry { name: name.to_string(), command: cmd.trim().to_string(), program: program(cmd, content, rules)? })
}

fn play_championship(content: Option<&Path>, a: ChampionshipArgs) -> CliResult {
    let rules = rules(content, a.revision.as_deref())?;
    let entries = a.bots.iter().map(|s| parse_entry(s, content, &rules)).collect::<Result<Vec<_>, _>>()?;
    if entries.len() < 2 {
        return Err(CliError::input("a championship needs at least two bots (--bot NAME=CMD, repeated)"));
    }
    for (i, e) in entries.iter().enumerate() {
        if entries[..i].iter().any(|o| o.name == e.name) {
            return Err(CliError::input(format!("two bots are named '{}'", e.name)));
        }
    }
    if let Some(d) = &a.records
        && !d.is_dir()
    {
        return Err(CliError::input(format!("--records {}: not a folder", d.display())));
    }
    let c = a.championships as usize;
    let boards: Vec<Board> = (0..c).map(|i| championship::board(&rules, a.seed, i)).collect();
    let fixtures = championship::schedule(entries.len(), c);
    // Every output — each match's record, the CSV — is planned before the first match: a
    // championship that cannot write its results does not start, and one that fails writes none.
    let record_paths: Vec<PathBuf> = match &a.records {
        Some(dir) => fixtures
            .iter()
            .map(|f| {
                dir.join(format!("c{}-{}-v-{}.json", f.championship + 1, entries[f.white].name, entries[f.black].name))
            })
            .collect(),
        None => Vec::new(),
    };
    let mut outputs: Vec<(&str, &Path)> = record_paths.iter().map(|p| ("--records", p.as_path())).collect();
    if let Some(p) = &a.csv {
        outputs.push(("--csv", p.as_path()));
    }
    let plan = crate::files::Plan::new(&outputs, &[]).map_err(CliError::input)?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = a.jobs.map_or(cores, usize::from);
    let time_limit = a.time_limit.unwrap_or(Duration::from_millis(rules.championship.time_limit_ms));
    let run = championship::Run {
        rules: &rules,
        entries: &entries,
        boards: &boards,
        time_limit,
        jobs,
        records: a.records.is_some(),
    };
    let bar = if a.quiet || !std::io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        let b = ProgressBar::with_draw_target(Some(fixtures.len() as u64), ProgressDrawTarget::stderr());
        b.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} matches · {elapsed} · eta {eta}")
                .expect("valid template"),
        );
        b
    };
    let started = Instant::now();
    let played = championship::play(&run, &fixtures, &|_| bar.inc(1));
    bar.finish_and_clear();
    if !a.quiet {
        let rechecked = played.iter().filter(|p| p.rechecked).count();
        eprintln!(
            "{} matches in {:.2} s, {jobs} at a time on {cores} core(s){}",
            fixtures.len(),
            started.elapsed().as_secs_f64(),
            if rechecked > 0 { format!("; {rechecked} with a timeout played again alone") } else { String::new() }
        );
    }

    let tables: Vec<Vec<Standing>> = (0..c)
        .map(|ci| {
            let results: Vec<(usize, usize, &Outcome)> = played
                .iter()
                .filter(|p| p.fixture.championship == ci)
                .map(|p| (p.fixture.white, p.fixture.black, &p.outcome))
                .collect();
            championship::standings(&rules, entries.len(), &results)
        })
        .collect();
    let grades: Vec<Vec<f64>> = tables.iter().map(|t| t.iter().map(|s| s.grade).collect()).collect();
    let finals = championship::final_grades(&rules, &grades);

    if !plan.is_empty() {
        // `played` is in fixture order, as `record_paths` is.
        let mut texts: Vec<String> = Vec::with_capacity(plan.outputs().count());
        if a.records.is_some() {
            for p in &played {
                let rec = p.record.as_ref().expect("records kept");
                texts.push(serde_json::to_string_pretty(rec).expect("serialises") + "\n");
            }
        }
        if a.csv.is_some() {
            texts.push(csv(&entries, &tables, &finals));
        }
        let bytes: Vec<&[u8]> = texts.iter().map(String::as_bytes).collect();
        plan.write(&bytes).map_err(CliError::input)?;
    }
    if a.json {
        let v = json!({
            "ruleset": "space",
            "revision": rules.version,
            "fingerprint": rules.fingerprint,
            "seed": a.seed,
            "time_limit_ms": time_limit.as_millis() as u64,
            "jobs": jobs,
            "bots": entries.iter().map(|e| json!({"name": e.name, "command": e.command})).collect::<Vec<_>>(),
            "championships": (0..c).map(|ci| json!({
                "index": ci + 1,
                "board": boards[ci].to_json(),
                "matches": played.iter().filter(|p| p.fixture.championship == ci).map(|p| {
                    let mut m = outcome_json(&p.outcome);
                    m["white_bot"] = json!(entries[p.fixture.white].name);
                    m["black_bot"] = json!(entries[p.fixture.black].name);
                    m["rechecked"] = json!(p.rechecked);
                    m["think_ms"] = json!({
                        "white": {"max": p.think_ms[0].0, "total": p.think_ms[0].1},
                        "black": {"max": p.think_ms[1].0, "total": p.think_ms[1].1},
                    });
                    m
                }).collect::<Vec<_>>(),
                "standings": tables[ci].iter().map(|s| standing_json(s, &entries)).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "final": finals.iter().map(|f| json!({"bot": entries[f.bot].name, "total": f.total, "grade": f.grade})).collect::<Vec<_>>(),
        });
        return print_out(&(serde_json::to_string_pretty(&v).expect("serialises") + "\n"));
    }
    for (ci, table) in tables.iter().enumerate() {
        let b = &boards[ci];
        let here: Vec<_> = played.iter().filter(|p| p.fixture.championship == ci).cloned().collect();
        let ends: Vec<String> = championship::victories(&here)
            .iter()
            .filter(|(_, k)| *k > 0)
            .map(|(v, k)| format!("{k} {}", v.name()))
            .collect();
        outln!(
            "Championship {} of {c} · {} · n = {}, {} robots a side · {} matches ({})",
            ci + 1,
            rules.revision,
            b.n(),
            b.count(Side::White),
            here.len(),
            ends.join(", ")
        );
        outln!("| bot | points | matches | W | D | L | valid | group | grade |\n|---|---|---|---|---|---|---|---|---|");
        let mut order: Vec<&Standing> = table.iter().collect();
        order.sort_by(|x, y| y.grade.total_cmp(&x.grade).then(y.points.cmp(&x.points)).then(x.bot.cmp(&y.bot)));
        for s in order {
            outln!(
                "| {} | {} | {} | {} | {} | {} | {:.1} % | {} | {:.2} |",
                entries[s.bot].name,
                s.points,
                s.matches,
                s.wins,
                s.draws,
                s.losses,
                100.0 * s.valid_share,
                if s.group == Group::A { "A" } else { "B" },
                s.grade
            );
        }
        outln!("");
    }
    if c > 1 {
        outln!(
            "Final grade over {c} championships (P = Σ grade/10, Min = {})",
            c as f64 * rules.championship.final_grade.min_share
        );
        outln!("| bot | P | final grade |\n|---|---|---|");
        let mut order: Vec<&FinalGrade> = finals.iter().collect();
        order.sort_by(|x, y| y.grade.total_cmp(&x.grade).then(x.bot.cmp(&y.bot)));
        for f in order {
            outln!("| {} | {:.3} | {:.2} |", entries[f.bot].name, f.total, f.grade);
        }
    }
    Ok(())
}

fn standing_json(s: &Standing, entries: &[Entry]) -> Value {
    json!({
        "bot": entries[s.bot].name,
        "points": s.points,
        "matches": s.matches,
        "wins": s.wins,
        "draws": s.draws,
        "losses": s.losses,
        "valid": s.valid,
        "valid_share": s.valid_share,
        "group": s.group,
        "grade": s.grade,
    })
}

fn csv(entries: &[Entry], tables: &[Vec<Standing>], finals: &[FinalGrade]) -> String {
    let mut s =
        String::from("scope,bot,points,matches,wins,draws,losses,valid_matches,valid_share,group,grade,total\n");
    let quote =
        |t: &str| if t.contains([',', '"', '\n']) { format!("\"{}\"", t.replace('"', "\"\"")) } else { t.to_string() };
    for (ci, t) in tables.iter().enumerate() {
        for st in t {
            s.push_str(&format!(
                "{},{},{},{},{},{},{},{},{},{},{},\n",
                ci + 1,
                quote(&entries[st.bot].name),
                st.points,
                st.matches,
                st.wins,
                st.draws,
                st.losses,
                st.valid,
                st.valid_share,
                if st.group == Group::A { "A" } else { "B" },
                st.grade
            ));
        }
    }
    for f in finals {
        s.push_str(&format!("final,{},,,,,,,,,{},{}\n", quote(&entries[f.bot].name), f.grade, f.total));
    }
    s
}

/// `space replay`: `microfut replay` with the game given; `--json` keeps its own form (the
/// outcome, or the difference in words).
fn replay(content: Option<&Path>, a: ReplayArgs) -> CliResult {
    if !a.json {
        let name = a.record.display().to_string();
        let kind = "a Space Football match record";
        let value = super::replay::read_record_json(content, &a.record, "a match record", kind)?;
        let report = super::replay::replay(content, &crate::space::Space, &name, value)?;
        return super::replay::print(&report, false);
    }
    let name = a.record.display().to_string();
    let rec = MatchRecord::parse(
        &crate::files::read_input("a match record", &a.record, crate::files::RECORD_LIMIT).map_err(CliError::input)?,
    )
    .map_err(|e| CliError::input(record::refusal(&name, e).message))?;
    let catalog = space_catalog(content)?;
    match record::replay(&catalog, &rec).map_err(|e| CliError::input(record::refusal(&name, e).message))? {
        Verdict::Identical(o) => {
            print_out(&(json!({"identical": true, "outcome": outcome_json(&o)}).to_string() + "\n"))
        }
        Verdict::Differs(what) => {
            print_out(&(json!({"identical": false, "difference": what}).to_string() + "\n"))?;
            Err(CliError::Found(String::new()))
        }
    }
}

fn bot(content: Option<&Path>, a: BotArgs) -> CliResult {
    let rules = rules(content, a.revision.as_deref())?;
    let kind = match a.name {
        BotName::Random => BotKind::Random,
        BotName::Greedy => BotKind::Greedy,
        BotName::Search => BotKind::Search,
    };
    let mut me =
        Builtin::new(kind, &rules, Dice::derived(a.seed, b"space/bot/random"), Thinking::Clock).with_nodes(a.nodes);
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for (i, line) in crate::files::bounded_lines(stdin.lock(), crate::files::LINE_LIMIT).enumerate() {
        let line = line.map_err(|e| CliError::input(format!("cannot read standard input: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let at = |why: String| CliError::input(format!("standard input line {}: {why}", i + 1));
        let turn: TurnLine =
            crate::catalog::from_json(line.as_bytes()).map_err(|e| at(crate::catalog::describe_json_error(&e)))?;
        let view = Board::from_json(&turn.board).map_err(|e| at(format!("board: {e}")))?;
        me.set_actions(turn.actions);
        if !moves::has_legal(&view, Side::White, &turn.actions) {
            return Err(at("white has no legal action: the referee passes such a turn instead of asking".into()));
        }
        let act = me.choose(&view, Duration::from_millis(turn.time_ms));
        let answer = AnswerLine { action: Some(act.kind), from: act.from, to: act.to };
        let text = serde_json::to_string(&answer).expect("serialises");
        if writeln!(stdout, "{text}").and_then(|()| stdout.flush()).is_err() {
            return Ok(()); // the referee has gone
        }
    }
    Ok(())
}
