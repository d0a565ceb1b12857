//! Real faults for the hardening tests: root, `unshare`, `chattr` and `strace` when the machine
//! has them (a test without them says "skipped: needs …" on stderr and returns; CI has them),
//! FIFOs, and running our binary with a deadline while measuring its peak memory.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Whether this test may use `tools` as root; says why not on stderr.
pub fn can(test: &str, tools: &[&str]) -> bool {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("{test}: skipped: needs root");
        return false;
    }
    for tool in tools {
        let found = Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !found {
            // .ci/run installs every tool these tests use: in CI a missing one is a broken
            // set-up, not a reason to pass without simulating the fault.
            assert!(std::env::var_os("CI").is_none(), "{test}: CI must install {tool} (see .ci/run)");
            eprintln!("{test}: skipped: needs {tool}");
            return false;
        }
    }
    true
}

/// `chattr <flag> path` (`+i`, `-i`), which must work (the test checked for root and chattr).
/// Some file systems (tmpfs before Linux 6.0, overlayfs) refuse attributes: then `false`.
pub fn chattr(flag: &str, path: &Path) -> bool {
    Command::new("chattr").arg(flag).arg(path).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}

/// Clears the immutable flag when dropped, so a failing test leaves a folder it can delete.
pub struct Immutable(pub std::path::PathBuf);

impl Immutable {
    /// `None` when the file system does not take the flag.
    pub fn set(path: &Path) -> Option<Immutable> {
        chattr("+i", path).then(|| Immutable(path.to_path_buf()))
    }
}

impl Drop for Immutable {
    fn drop(&mut self) {
        chattr("-i", &self.0);
    }
}

pub fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo {}", path.display());
}

/// The address space a bounded run may reserve: 2 GiB (`lab calibrate` needs well under one).
const ADDRESS_SPACE_CAP: libc::rlim_t = 2 << 30;

/// A finished (or stopped) run of the binary.
pub struct Bounded {
    /// The exit code; `None` when killed by a signal (the deadline's SIGKILL included).
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// Peak resident memory, KiB.
    pub max_rss_kib: i64,
    pub timed_out: bool,
    pub seconds: f64,
}

/// Runs the binary with `args` (stdin from `stdin`, or nothing), killing it by its pid at
/// `deadline`; measures its peak memory (`wait4`'s rusage). Its address space is capped
/// ([`ADDRESS_SPACE_CAP`]).
// The child is reaped by `wait4` (for its rusage), which clippy cannot see.
#[allow(clippy::zombie_processes)]
pub fn run_bounded(args: &[&str], stdin: Option<&Path>, deadline: Duration) -> Bounded {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(super::bin());
    cmd.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    // A cap on address space, far above what any command needs, so that an unbounded read
    // fails in the child instead of taking the machine's memory (the test then fails on it).
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let cap = libc::rlimit { rlim_cur: ADDRESS_SPACE_CAP, rlim_max: ADDRESS_SPACE_CAP };
            if libc::setrlimit(libc::RLIMIT_AS, &cap) == 0 { Ok(()) } else { Err(std::io::Error::last_os_error()) }
        });
    }
    cmd.stdin(match stdin {
        Some(p) => Stdio::from(std::fs::File::open(p).unwrap()),
        None => Stdio::null(),
    });
    let started = Instant::now();
    let mut child = cmd.spawn().expect("the binary starts");
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = Vec::new();
            let _ = r.read_to_end(&mut s);
            String::from_utf8_lossy(&s).into_owned()
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: rusage is plain data, filled by wait4.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut timed_out = false;
    loop {
        // SAFETY: our own child, reaped here and nowhere else.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break;
        }
        assert!(r == 0, "wait4: {}", std::io::Error::last_os_error());
        if started.elapsed() > deadline && !timed_out {
            timed_out = true;
            // SAFETY: our child, not yet reaped.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    Bounded {
        code,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        max_rss_kib: usage.ru_maxrss,
        timed_out,
        seconds: started.elapsed().as_secs_f64(),
    }
}
