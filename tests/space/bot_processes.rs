//! Bots as processes: each fault reason, limits, standard error kept within bounds, bots frozen
//! outside their turn, and no process left behind — not a forked helper, not one that ignores
//! SIGTERM.

use crate::space_support;
use microfut::bot_process::Program;
use microfut::dice::Dice;
use microfut::space::bots::{BotKind, Builtin, Thinking};
use microfut::space::protocol::{ProcessBot, limits};
use microfut::space::referee::{self, Answer, Ask, Fault, Finished, Player, Reason};
use microfut::space::{BOARD_LABEL, Board, Side};
use space_support::*;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_microfut")
}

fn builtin(kind: &str) -> String {
    format!("{} space bot {kind} --revision {VERSION}", exe())
}

fn start_board() -> Board {
    Board::draw(&rules(), &mut Dice::derived(4, BOARD_LABEL), Some(6)).unwrap()
}

/// Whether a process still exists (a zombie counts: nobody reaped it).
fn exists(pid: i32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

fn group_empty(pgid: i32) -> bool {
    // SAFETY: signal 0 only asks whether a process of the group exists.
    unsafe { libc::kill(-pgid, 0) != 0 }
}

fn read_pid(path: &Path) -> i32 {
    for _ in 0..200 {
        if let Ok(t) = std::fs::read_to_string(path)
            && let Ok(p) = t.trim().parse()
        {
            return p;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("{} was never written", path.display());
}

/// Plays `white` (a shell command) against the built-in greedy bot in this process; returns
/// the finished match and white's process group.
fn against_greedy(white: &str, time_limit: Duration) -> (Finished, i32) {
    let r = rules();
    let mut w = ProcessBot::start(&Program::Shell(white.into()), limits(&r), r.actions);
    let pgid = w.pgid().expect("started");
    let mut b = Builtin::new(BotKind::Greedy, &r, Dice::new(1), Thinking::Nodes);
    let players: [&mut dyn Player; 2] = [&mut w, &mut b];
    let f = referee::play(&r, start_board(), players, &referee::Options { time_limit, record: true });
    (f, pgid)
}

fn fault(f: &Finished) -> &Fault {
    assert_eq!(f.outcome.winner, Some(Side::Black), "{:?}", f.outcome);
    assert_eq!(f.outcome.valid, [false, true]);
    &f.outcome.reasons[&Side::White]
}

fn scratch() -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let p = t.path().to_path_buf();
    (t, p)
}

#[test]
fn a_bot_that_forks_a_sleeping_child_leaves_nothing_behind() {
    let (_t, dir) = scratch();
    let pidfile = dir.join("child.pid");
    let cmd = format!("sleep 1000 & echo $! > {}; exec {}", pidfile.display(), builtin("greedy"));
    let (f, pgid) = against_greedy(&cmd, Duration::from_secs(5));
    assert!(f.outcome.valid[0], "{:?}", f.outcome);
    let child = read_pid(&pidfile);
    assert!(!exists(child), "the forked sleep ({child}) outlived its match");
    assert!(group_empty(pgid), "a process of group {pgid} outlived its match");
}

#[test]
fn a_bot_and_its_helper_that_ignore_sigterm_are_killed_at_the_end() {
    let (_t, dir) = scratch();
    let pidfile = dir.join("child.pid");
    // The shell ignores SIGTERM and so does everything it starts; the helper sleeps forever.
    let cmd = format!("trap '' TERM; (sleep 1000; true) & echo $! > {}; exec {}", pidfile.display(), builtin("random"));
    let (f, pgid) = against_greedy(&cmd, Duration::from_secs(5));
    assert!(f.outcome.valid[0], "{:?}", f.outcome);
    let helper = read_pid(&pidfile);
    assert!(!exists(helper), "the helper ({helper}) that ignores SIGTERM outlived its match");
    assert!(group_empty(pgid));
}

#[test]
fn a_silent_bot_that_ignores_sigterm_times_out_and_is_killed() {
    let (_t, dir) = scratch();
    let pidfile = dir.join("bot.pid");
    let cmd = format!("trap '' TERM; echo $$ > {}; while true; do sleep 1; done", pidfile.display());
    let (f, pgid) = against_greedy(&cmd, Duration::from_millis(300));
    let x = fault(&f);
    assert_eq!(x.reason, Reason::Timeout);
    assert_eq!(x.detail, "no answer line within 300 ms");
    assert_eq!(f.outcome.actions, 0);
    assert!(!exists(read_pid(&pidfile)));
    assert!(group_empty(pgid));
}

#[test]
fn a_line_that_is_not_an_answer_is_malformed() {
    let (f, pgid) = against_greedy("read l; echo 'move forward please'; sleep 1000", Duration::from_secs(5));
    let x = fault(&f);
    assert_eq!(x.reason, Reason::Malformed);
    assert!(x.detail.starts_with("malformed JSON at line 1 column 1"), "{}", x.detail);
    assert_eq!(x.answer.as_deref(), Some("move forward please"));
    assert!(group_empty(pgid));
    let (f, _) =
        against_greedy(r#"read l; echo '{"from":[1,1],"to":[2,1],"why":"x"}'; sleep 1000"#, Duration::from_secs(5));
    let x = fault(&f);
    assert_eq!(x.reason, Reason::Malformed);
    assert!(x.detail.contains("unknown field `why`"), "{}", x.detail);
    let (f, _) =
        against_greedy(r#"read l; echo '{"from":[1,1],"from":[1,2],"to":[2,1]}'; sleep 1000"#, Duration::from_secs(5));
    assert!(fault(&f).detail.contains("twice"), "{}", fault(&f).detail);
}

#[test]
fn a_bot_that_exits_crashes_and_its_stderr_is_kept() {
    let (f, pgid) = against_greedy("read l; echo 'Traceback: it broke' >&2; exit 3", Duration::from_secs(5));
    let x = fault(&f);
    assert_eq!(x.reason, Reason::Crash);
    assert_eq!(x.detail, "its process exited with code 3");
    assert_eq!(f.stderr[0].as_deref(), Some("Traceback: it broke\n"));
    assert!(group_empty(pgid));
}

#[test]
fn a_command_that_does_not_exist_crashes() {
    let (f, _) = against_greedy("no-such-space-bot-xyz", Duration::from_secs(5));
    let x = fault(&f);
    assert_eq!(x.reason, Reason::Crash);
    assert!(f.stderr[0].as_deref().unwrap_or("").contains("not found"), "{:?}", f.stderr);
}

#[test]
fn a_line_longer_than_the_limit_is_an_output_limit() {
    let r = rules();
    assert_eq!(r.championship.limits.line_bytes, 65536);
    let (f, pgid) =
        against_greedy("read l; head -c 100000 /dev/zero | tr '\\0' x; echo; sleep 1000", Duration::from_secs(5));
    let x = fault(&f);
    assert_eq!(x.reason, Reason::OutputLimit);
    assert_eq!(x.detail, "a line longer than 65536 bytes");
    assert!(x.answer.as_deref().unwrap().starts_with("xxxxxxxx"));
    assert!(group_empty(pgid));
}

#[test]
fn an_illegal_answer_is_illegal_action_with_the_line_kept() {
    let (f, pgid) =
        against_greedy(r#"while read l; do echo '{"from":[3,3],"to":[2,3]}'; done"#, Duration::from_secs(5));
    let x = fault(&f);
    assert_eq!(x.reason, Reason::IllegalAction);
    assert_eq!(x.answer.as_deref(), Some(r#"{"from":[3,3],"to":[2,3]}"#));
    assert!(group_empty(pgid));
}

#[test]
fn standard_error_is_kept_within_its_bound() {
    let cmd = format!("head -c 1000000 /dev/zero | tr '\\0' e >&2; echo END >&2; exec {}", builtin("random"));
    let (f, _) = against_greedy(&cmd, Duration::from_secs(5));
    let kept = f.stderr[0].as_deref().unwrap();
    let limit = rules().championship.limits.stderr_bytes as usize;
    assert!(kept.len() < limit + 100, "{} bytes kept", kept.len());
    assert!(kept.starts_with("eeee"));
    assert!(kept.ends_with("END\n"));
    assert!(kept.contains("bytes of standard error not kept"));
}

#[test]
fn the_memory_limit_applies() {
    let r = rules();
    assert_eq!(r.championship.limits.memory_mb, 1024);
    let (f, _) = against_greedy("python3 -c 'x = bytearray(3 * 1024 ** 3)'", Duration::from_secs(5));
    let x = fault(&f);
    assert_eq!(x.reason, Reason::Crash);
    assert!(f.stderr[0].as_deref().unwrap_or("").contains("MemoryError"), "{:?}", f.stderr);
}

/// Black, in this process: at each of its turns it looks at white's process state.
struct Watcher {
    pid: i32,
    states: Vec<char>,
    inner: Builtin,
}

impl Player for Watcher {
    fn act(&mut self, ask: &Ask) -> Result<Answer, Fault> {
        let state = |pid: i32| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
            stat.rsplit(')').next().unwrap().trim().chars().next().unwrap()
        };
        // SIGSTOP takes effect asynchronously; give it a moment.
        let mut s = state(self.pid);
        for _ in 0..100 {
            if s == 'T' {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
            s = state(self.pid);
        }
        self.states.push(s);
        self.inner.act(ask)
    }
}

#[test]
fn a_bot_is_frozen_while_its_opponent_thinks() {
    let r = rules();
    let argv = [exe(), "space", "bot", "greedy", "--revision", VERSION].map(Into::into).to_vec();
    let mut w = ProcessBot::start(&Program::Argv(argv), limits(&r), r.actions);
    let pid = w.pgid().unwrap();
    let mut b =
        Watcher { pid, states: Vec::new(), inner: Builtin::new(BotKind::Greedy, &r, Dice::new(1), Thinking::Nodes) };
    let players: [&mut dyn Player; 2] = [&mut w, &mut b];
    let f = referee::play(
        &r,
        start_board(),
        players,
        &referee::Options { time_limit: Duration::from_secs(5), record: true },
    );
    assert!(f.outcome.valid[0]);
    assert!(!b.states.is_empty());
    assert!(b.states.iter().all(|&s| s == 'T'), "white's states during black's turns: {:?}", b.states);
    assert!(group_empty(pid));
}

#[test]
fn the_example_bots_play_valid_matches() {
    let root = env!("CARGO_MANIFEST_DIR");
    let py = format!("python3 {root}/examples/space_bot.py");
    let (f, _) = against_greedy(&py, Duration::from_secs(5));
    assert!(f.outcome.valid[0], "{:?} {:?}", f.outcome, f.stderr);
    // The Rust example is built by `cargo test` next to the test binaries.
    let deps = std::env::current_exe().unwrap();
    let rust = deps.parent().unwrap().parent().unwrap().join("examples/space_bot");
    assert!(rust.exists(), "{} not built", rust.display());
    let (f, _) = against_greedy(&rust.display().to_string(), Duration::from_secs(5));
    assert!(f.outcome.valid[0], "{:?} {:?}", f.outcome, f.stderr);
}
