//! Bot processes: spawn a command in its own process group with limits, send it a line, read a
//! line back within a deadline, freeze it between turns, and kill its whole group at the end.
//!
//! Problem: a bot is someone else's program. It may hang, crash, print forever, fork helpers that
//! ignore signals, or think on its opponent's time; none of that may stall a championship or
//! leave a process behind. Decision: each bot runs in a process group of its own (so one signal
//! reaches everything it forked) with an address-space and a CPU-time limit (`setrlimit`, set in
//! the child before `exec`) and no core dumps; it is frozen (SIGSTOP to the group) whenever it is
//! not its turn, so it can neither ponder on the opponent's time nor take a core from another
//! match; its stdin, stdout and stderr are non-blocking pipes served by `poll` on this thread —
//! a line longer than the limit, or silence past the deadline, is noticed without threads, and
//! stderr is drained while waiting so a chatty bot cannot block on it (its first and last bytes
//! are kept, bounded). At the end: stdin closed, SIGTERM, a grace period, then SIGKILL to the
//! whole group, the leader reaped, and — this process being a child subreaper — every orphan of
//! the group reaped too, until the group is empty.
//!
//! Limits: a program that deliberately leaves its process group (`setsid`, `setpgid`) escapes
//! the group kill (cgroups would be the airtight answer); RLIMIT_AS counts address space, not
//! resident memory, so runtimes that reserve large virtual areas need a higher limit; Unix only.

use nix::fcntl::{FcntlArg, OFlag, fcntl};
use nix::poll::{PollFd, PollFlags, poll};
use nix::sys::resource::{Resource, setrlimit};
use nix::sys::signal::{Signal, killpg};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::Pid;
use std::ffi::OsString;
use std::io::{Read, Write};
use std::os::fd::{AsFd, BorrowedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// What a bot process may use.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Address-space limit of each process (RLIMIT_AS), bytes.
    pub memory_bytes: u64,
    /// CPU-time limit of each process (RLIMIT_CPU), seconds.
    pub cpu_seconds: u64,
    /// The longest line read back, bytes (without the newline).
    pub line_bytes: usize,
    /// Standard error kept, bytes (first and last halves).
    pub stderr_bytes: usize,
    /// Time between SIGTERM and SIGKILL at the end.
    pub kill_grace: Duration,
}

/// What to run: a shell command line (`sh -c`), or a program and its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Program {
    Shell(String),
    Argv(Vec<OsString>),
}

/// Why no line came back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadFailure {
    /// Nothing (or no newline) before the deadline.
    Timeout,
    /// A line longer than the limit; its first bytes.
    TooLong(String),
    /// Standard output closed, or the bot's process ended: how it ended, when known.
    Closed(String),
}

/// Standard error kept within a bound: the first half as it came, then the latest bytes.
#[derive(Debug, Default)]
struct Kept {
    limit: usize,
    head: Vec<u8>,
    tail: std::collections::VecDeque<u8>,
    dropped: u64,
}

impl Kept {
    fn push(&mut self, mut bytes: &[u8]) {
        let head_room = (self.limit / 2).saturating_sub(self.head.len());
        let take = head_room.min(bytes.len());
        self.head.extend_from_slice(&bytes[..take]);
        bytes = &bytes[take..];
        let tail_limit = self.limit - self.limit / 2;
        for &b in bytes {
            if self.tail.len() == tail_limit {
                if tail_limit == 0 {
                    self.dropped += 1;
                    continue;
                }
                self.tail.pop_front();
                self.dropped += 1;
            }
            self.tail.push_back(b);
        }
    }

    fn text(&self) -> String {
        let mut s = String::from_utf8_lossy(&self.head).into_owned();
        if self.dropped > 0 {
            s.push_str(&format!("\n[… {} bytes of standard error not kept …]\n", self.dropped));
        }
        let tail: Vec<u8> = self.tail.iter().copied().collect();
        s.push_str(&String::from_utf8_lossy(&tail));
        s
    }
}

/// A running bot.
pub struct BotProcess {
    child: Child,
    pgid: Pid,
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    stderr: ChildStderr,
    limits: Limits,
    /// Bytes read from stdout not yet returned as a line.
    pending: Vec<u8>,
    stdout_closed: bool,
    stderr_closed: bool,
    kept: Kept,
    frozen: bool,
    status: Option<ExitStatus>,
    done: bool,
}

fn set_nonblocking(fd: BorrowedFd) -> std::io::Result<()> {
    let flags = OFlag::from_bits_retain(fcntl(fd, FcntlArg::F_GETFL)?);
    fcntl(fd, FcntlArg::F_SETFL(flags | OFlag::O_NONBLOCK))?;
    Ok(())
}

/// Makes this process the reaper of its descendants' orphans, once: a bot's helper whose parent
/// died is then reparented here, and [`BotProcess::finish`] reaps it (whatever PID 1 does).
fn become_subreaper() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // Without it (a kernel before 3.4) orphans go to PID 1 as before: nothing to report.
        #[cfg(target_os = "linux")]
        let _ = nix::sys::prctl::set_child_subreaper(true);
    });
}

/// Signals every process of the group. A group already gone (ESRCH) is what the end wants.
fn signal_group(pgid: Pid, sig: Signal) {
    let _ = killpg(pgid, sig);
}

/// Whether any process (zombies included) is left in the group.
fn group_alive(pgid: Pid) -> bool {
    killpg(pgid, None).is_ok()
}

/// How a process ended, in words.
pub fn describe_exit(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with code {code}"),
        (None, Some(sig)) => match Signal::try_from(sig) {
            Ok(Signal::SIGXCPU) => "killed by SIGXCPU: its CPU-time limit".into(),
            Ok(Signal::SIGKILL) => "killed by SIGKILL".into(),
            Ok(Signal::SIGSEGV) => "killed by SIGSEGV (a memory fault; its memory limit?)".into(),
            _ => format!("killed by signal {sig}"),
        },
        (None, None) => "ended".into(),
    }
}

impl BotProcess {
    /// Starts a bot, frozen until it is first asked. A command that cannot start is an error.
    pub fn spawn(program: &Program, limits: Limits) -> std::io::Result<BotProcess> {
        become_subreaper();
        let mut cmd = match program {
            Program::Shell(line) => {
                let mut c = Command::new("/bin/sh");
                c.arg("-c").arg(line);
                c
            }
            Program::Argv(argv) => {
                let (first, rest) = argv
                    .split_first()
                    .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "an empty command"))?;
                let mut c = Command::new(first);
                c.args(rest);
                c
            }
        };
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).process_group(0);
        let (mem, cpu) = (limits.memory_bytes, limits.cpu_seconds);
        // SAFETY: `pre_exec` is unsafe because the closure runs in the child between fork and
        // exec, where only async-signal-safe calls are allowed. It calls only setrlimit (nix's
        // wrapper is the bare system call; its error is an errno turned into an io::Error
        // without allocating), and takes no lock.
        unsafe {
            cmd.pre_exec(move || {
                setrlimit(Resource::RLIMIT_AS, mem, mem)?;
                setrlimit(Resource::RLIMIT_CPU, cpu, cpu.saturating_add(1))?;
                setrlimit(Resource::RLIMIT_CORE, 0, 0)?;
                Ok(())
            });
        }
        let mut child = cmd.spawn()?;
        // The child called setpgid(0, 0) (`process_group(0)`): its pid is its group's id.
        let pgid = Pid::from_raw(child.id() as i32);
        let (stdin, stdout, stderr) = (
            child.stdin.take().expect("piped"),
            child.stdout.take().expect("piped"),
            child.stderr.take().expect("piped"),
        );
        let mut bot = BotProcess {
            child,
            pgid,
            stdin: Some(stdin),
            stdout,
            stderr,
            limits,
            pending: Vec::new(),
            stdout_closed: false,
            stderr_closed: false,
            kept: Kept { limit: limits.stderr_bytes, ..Kept::default() },
            frozen: false,
            status: None,
            done: false,
        };
        let nonblocking = [bot.stdout.as_fd(), bot.stderr.as_fd(), bot.stdin.as_ref().expect("just set").as_fd()]
            .into_iter()
            .try_for_each(set_nonblocking);
        if let Err(e) = nonblocking {
            bot.finish();
            return Err(e);
        }
        bot.freeze();
        Ok(bot)
    }

    /// The longest line [`read_line`](Self::read_line) accepts.
    pub fn line_limit(&self) -> usize {
        self.limits.line_bytes
    }

    /// The process group id (the leader's pid).
    pub fn pgid(&self) -> i32 {
        self.pgid.as_raw()
    }

    /// Stops every process of the bot (its turn is over).
    pub fn freeze(&mut self) {
        if !self.frozen && !self.done {
            signal_group(self.pgid, Signal::SIGSTOP);
            self.frozen = true;
        }
    }

    /// Lets it run again (its turn).
    pub fn thaw(&mut self) {
        if self.frozen && !self.done {
            signal_group(self.pgid, Signal::SIGCONT);
            self.frozen = false;
        }
    }

    fn drain_stderr(&mut self) {
        let mut buf = [0u8; 8192];
        while !self.stderr_closed {
            match self.stderr.read(&mut buf) {
                Ok(0) => self.stderr_closed = true,
                Ok(k) => self.kept.push(&buf[..k]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => break, // WouldBlock: nothing more for now
            }
        }
    }

    /// Waits until one of the bot's output pipes is readable (or `fds` writable) or `until`.
    fn wait_io(&mut self, write: bool, until: Instant) -> bool {
        let now = Instant::now();
        if now >= until {
            return false;
        }
        let ms = (until - now).as_millis().clamp(1, 50) as u8;
        // Only the pipes still open are watched (stderr first, so its result is known to be
        // fds[0]); with none, poll just sleeps until the deadline.
        let stderr = (!self.stderr_closed).then(|| PollFd::new(self.stderr.as_fd(), PollFlags::POLLIN));
        let stdout = (!self.stdout_closed).then(|| PollFd::new(self.stdout.as_fd(), PollFlags::POLLIN));
        let stdin = self.stdin.as_ref().filter(|_| write).map(|s| PollFd::new(s.as_fd(), PollFlags::POLLOUT));
        let mut fds: Vec<PollFd> = [stderr, stdout, stdin].into_iter().flatten().collect();
        let ready = poll(&mut fds, ms).is_ok_and(|n| n > 0);
        // Any event on stderr (data, or POLLHUP when it closed) means there is something to read.
        let stderr_ready = !self.stderr_closed && fds[0].revents() != Some(PollFlags::empty());
        drop(fds);
        if stderr_ready {
            self.drain_stderr();
        }
        ready
    }

    /// How the bot ended, if it has (waiting up to `patience` for the leader).
    fn ended(&mut self, patience: Duration) -> Option<String> {
        let until = Instant::now() + patience;
        loop {
            if let Ok(Some(s)) = self.child.try_wait() {
                self.status = Some(s);
                return Some(describe_exit(s));
            }
            if Instant::now() >= until {
                return None;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Sends one line (a newline is added), within the deadline. Lets the bot run.
    pub fn send_line(&mut self, line: &str, until: Instant) -> Result<(), ReadFailure> {
        self.thaw();
        let mut data = Vec::with_capacity(line.len() + 1);
        data.extend_from_slice(line.as_bytes());
        data.push(b'\n');
        let mut at = 0;
        while at < data.len() {
            let Some(stdin) = self.stdin.as_mut() else {
                return Err(ReadFailure::Closed("its standard input is closed".into()));
            };
            match stdin.write(&data[at..]) {
                Ok(k) => at += k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if !self.wait_io(true, until) && Instant::now() >= until {
                        return Err(ReadFailure::Timeout);
                    }
                }
                Err(_) => {
                    let how = self.ended(Duration::from_millis(100));
                    return Err(ReadFailure::Closed(how.unwrap_or_else(|| "it closed its standard input".into())));
                }
            }
        }
        Ok(())
    }

    /// Reads one line (without its newline) before `until`. The bot keeps running; call
    /// [`freeze`](Self::freeze) when its turn is over.
    pub fn read_line(&mut self, until: Instant) -> Result<Vec<u8>, ReadFailure> {
        let mut buf = [0u8; 8192];
        loop {
            if let Some(i) = self.pending.iter().position(|&b| b == b'\n') {
                if i > self.limits.line_bytes {
                    return Err(self.too_long());
                }
                let mut line: Vec<u8> = self.pending.drain(..=i).collect();
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Ok(line);
            }
            if self.pending.len() > self.limits.line_bytes {
                return Err(self.too_long());
            }
            if self.stdout_closed {
                let how = self.ended(Duration::from_millis(200));
                return Err(ReadFailure::Closed(match how {
                    Some(h) => format!("its process {h}"),
                    None => "it closed its standard output".into(),
                }));
            }
            match self.stdout.read(&mut buf) {
                Ok(0) => self.stdout_closed = true,
                Ok(k) => self.pending.extend_from_slice(&buf[..k]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if Instant::now() >= until {
                        return Err(ReadFailure::Timeout);
                    }
                    self.wait_io(false, until);
                    // A leader that died while a helper holds its stdout open is a crash too.
                    if let Ok(Some(s)) = self.child.try_wait() {
                        self.status = Some(s);
                        self.stdout_closed = self.pending.iter().all(|&b| b != b'\n');
                        if self.stdout_closed {
                            return Err(ReadFailure::Closed(format!("its process {}", describe_exit(s))));
                        }
                    }
                }
                Err(_) => self.stdout_closed = true,
            }
        }
    }

    fn too_long(&mut self) -> ReadFailure {
        let shown: String = String::from_utf8_lossy(&self.pending[..self.pending.len().min(80)]).into_owned();
        ReadFailure::TooLong(shown)
    }

    /// Ends the bot: stdin closed, SIGTERM, up to the grace period to exit, then SIGKILL to the
    /// whole group; reaps the leader and every orphan of the group. Returns its standard error
    /// (bounded) and how it ended. Idempotent.
    pub fn finish(&mut self) -> (String, Option<String>) {
        if !self.done {
            self.stdin = None;
            signal_group(self.pgid, Signal::SIGTERM);
            signal_group(self.pgid, Signal::SIGCONT);
            self.frozen = false;
            let until = Instant::now() + self.limits.kill_grace;
            while self.status.is_none() {
                if let Ok(Some(s)) = self.child.try_wait() {
                    self.status = Some(s);
                    break;
                }
                if Instant::now() >= until {
                    break;
                }
                self.wait_io(false, until.min(Instant::now() + Duration::from_millis(2)));
                self.drain_stdout_discard();
            }
            signal_group(self.pgid, Signal::SIGKILL);
            if self.status.is_none() {
                self.status = self.child.wait().ok();
            }
            self.reap_group();
            self.drain_stderr();
            self.done = true;
        }
        (self.kept.text(), self.status.map(describe_exit))
    }

    fn drain_stdout_discard(&mut self) {
        let mut buf = [0u8; 8192];
        while !self.stdout_closed {
            match self.stdout.read(&mut buf) {
                Ok(0) => self.stdout_closed = true,
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
    }

    /// Reaps the group's orphans (reparented here) until no process of the group is left; gives
    /// up after a few seconds only if something outside our control holds one.
    fn reap_group(&mut self) {
        let until = Instant::now() + Duration::from_secs(5);
        while group_alive(self.pgid) && Instant::now() < until {
            signal_group(self.pgid, Signal::SIGKILL);
            // A negative pid waits for any child in that group.
            let reaped = waitpid(Pid::from_raw(-self.pgid.as_raw()), Some(WaitPidFlag::WNOHANG));
            if matches!(reaped, Ok(WaitStatus::StillAlive) | Err(_)) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A status is described by its signal's name where the limits make one likely.
    #[test]
    fn exits_and_signals_in_words() {
        // A wait status: the exit code in the second byte, or the signal in the low seven bits.
        let by = |sig: Signal| describe_exit(ExitStatus::from_raw(sig as i32));
        assert_eq!(describe_exit(ExitStatus::from_raw(3 << 8)), "exited with code 3");
        assert_eq!(by(Signal::SIGXCPU), "killed by SIGXCPU: its CPU-time limit");
        assert_eq!(by(Signal::SIGKILL), "killed by SIGKILL");
        assert_eq!(by(Signal::SIGSEGV), "killed by SIGSEGV (a memory fault; its memory limit?)");
        assert_eq!(by(Signal::SIGTERM), format!("killed by signal {}", Signal::SIGTERM as i32));
    }
}
