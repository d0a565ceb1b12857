//! Issue 49, outputs: an output never replaces what it points at. Character devices, FIFOs, `-`
//! and `/dev/std*` are written in place; a folder, a block device, a socket, a read-only or an
//! immutable file is refused with a clear message; a multi-output command whose later output
//! fails puts the earlier ones back; a loop of symbolic links is named as one. Every command with
//! an output option is tried. Faults are real: a tmpfs `/dev` in a private mount namespace,
//! `chattr +i`, `strace -e inject`.

use crate::common;
use common::faults::*;
use common::*;
use std::fs;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A folder with what the commands read: a sheet and two lab shards.
struct Setup {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
}

fn setup() -> Setup {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sheets/youth.json"), dir.join("youth.json"))
        .unwrap();
    for i in 0..2 {
        let shard = dir.join(format!("s{i}.json"));
        let o = run(&[
            "lab",
            "trilha",
            "--games",
            "10",
            "--seed",
            "1",
            "--quiet",
            "--shard",
            &format!("{i}/2"),
            "--out",
            s(&shard),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    Setup { _tmp: tmp, dir }
}

/// Every command that writes an output, with `{}` where the output's path goes.
fn commands(dir: &Path) -> Vec<(&'static str, Vec<String>)> {
    let d = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let m = ["match", "--home", "esporte_clube_mandacaru", "--away", "uniao_pedra_branca", "--seed", "1"];
    let v = |parts: &[&str]| parts.iter().map(|p| p.to_string()).collect::<Vec<_>>();
    let with = |base: &[&str], extra: &[&str]| [v(base), v(extra)].concat();
    vec![
        ("match --out", with(&m, &["--out", "{}"])),
        ("match --decisions", with(&m, &["--decisions", "{}"])),
        (
            "play --out",
            v(&[
                "play",
                "--home",
                "esporte_clube_mandacaru",
                "--away",
                "uniao_pedra_branca",
                "--side",
                "home",
                "--seed",
                "1",
                "--out",
                "{}",
            ]),
        ),
        (
            "space match --out",
            v(&["space", "match", "--white", "@random", "--black", "@random", "--seed", "1", "--out", "{}"]),
        ),
        (
            "space championship --csv",
            v(&[
                "space",
                "championship",
                "--bot",
                "a=@random",
                "--bot",
                "b=@random",
                "--seed",
                "1",
                "--quiet",
                "--csv",
                "{}",
            ]),
        ),
        ("effects journey --out", v(&["effects", "journey", "--seed", "1", "--out", "{}"])),
        ("club generate --out", v(&["club", "generate", "--budget", "modest", "--seed", "1", "--out", "{}"])),
        (
            "train --out",
            with(&["train", &d("youth.json")], &["--xp", "passing=10", "--revision", "0.5.1", "--out", "{}"]),
        ),
        ("age --out", with(&["age", &d("youth.json")], &["--years", "1", "--revision", "0.5.1", "--out", "{}"])),
        ("lab --csv", v(&["lab", "trilha", "--games", "10", "--seed", "1", "--quiet", "--csv", "{}"])),
        ("lab --html", v(&["lab", "trilha", "--games", "10", "--seed", "1", "--quiet", "--html", "{}"])),
        (
            "lab --shard --out",
            v(&["lab", "trilha", "--games", "10", "--seed", "1", "--quiet", "--shard", "0/2", "--out", "{}"]),
        ),
        ("lab merge --csv", with(&["lab", "merge", &d("s0.json"), &d("s1.json")], &["--csv", "{}"])),
        ("lab merge --html", with(&["lab", "merge", &d("s0.json"), &d("s1.json")], &["--html", "{}"])),
    ]
}

fn args_for(template: &[String], out: &str) -> Vec<String> {
    template.iter().map(|a| if a == "{}" { out.to_string() } else { a.clone() }).collect()
}

fn run_strings(args: &[String]) -> std::process::Output {
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&a)
}

/// What each output holds, roughly: enough to tell it was written whole.
fn looks_written(name: &str, bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    match name {
        n if n.ends_with("--html") => text.starts_with("<!DOCTYPE html>") && text.trim_end().ends_with("</html>"),
        n if n.ends_with("--csv") => text.lines().count() > 1 && text.lines().next().unwrap().contains(','),
        _ => serde_json::from_slice::<serde_json::Value>(bytes).is_ok(),
    }
}

#[test]
fn dev_null_stays_a_character_device_as_root() {
    // The reproduction, for every command: /dev is a tmpfs of a private mount namespace,
    // so a broken command replaces only that /dev/null.
    if !can("dev_null_stays_a_character_device_as_root", &["unshare", "mknod", "stat"]) {
        return;
    }
    if !Command::new("unshare")
        .args(["-m", "mount", "-t", "tmpfs", "tmpfs", "/mnt"])
        .status()
        .is_ok_and(|s| s.success())
    {
        eprintln!("dev_null_stays_a_character_device_as_root: skipped: needs mount namespaces (CAP_SYS_ADMIN)");
        return;
    }
    let st = setup();
    let mut script = String::from("mount -t tmpfs tmpfs /dev || exit 90\n");
    for (name, template) in commands(&st.dir) {
        let args: Vec<String> = args_for(&template, "/dev/null").iter().map(|a| format!("'{a}'")).collect();
        script.push_str(&format!(
            "rm -f /dev/null; mknod -m 666 /dev/null c 1 3\n'{}' {} </dev/null >/tmp-out 2>&1 || {{ echo '{name}: exit' $?; cat /tmp-out; }}\necho '{name}:' $(stat -c %F /dev/null)\n",
            bin(),
            args.join(" ")
        ));
    }
    // The namespace's own scratch file, not the host's /tmp.
    let script = script.replace("/tmp-out", &format!("{}/cmd-out", st.dir.display()));
    let o = Command::new("unshare").args(["-m", "sh", "-c", &script]).output().unwrap();
    let out = stdout(&o);
    assert_ne!(o.status.code(), Some(90), "cannot mount a tmpfs on /dev: {}", stderr(&o));
    for (name, _) in commands(&st.dir) {
        let line = out.lines().find(|l| l.starts_with(&format!("{name}:"))).unwrap_or_else(|| panic!("{out}"));
        assert_eq!(line, format!("{name}: character special file"), "{out}");
    }
    assert!(!out.contains(": exit"), "a command failed writing /dev/null:\n{out}");
}

/// Reads a FIFO to its end in a `cat` of its own, into a file (a pipe back to this test would
/// fill up while the command runs), killed by pid if nothing ever opens the FIFO.
fn fifo_reader(fifo: &Path, into: &Path) -> std::process::Child {
    Command::new("cat").arg(fifo).stdout(fs::File::create(into).unwrap()).spawn().unwrap()
}

fn finish_reader(mut cat: std::process::Child, into: &Path) -> Vec<u8> {
    let deadline = Instant::now() + Duration::from_secs(10);
    while cat.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = cat.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    cat.wait().unwrap();
    fs::read(into).unwrap()
}

#[test]
fn a_fifo_is_written_through_by_every_command_and_stays_a_fifo() {
    let st = setup();
    for (name, template) in commands(&st.dir) {
        let fifo = st.dir.join("fifo");
        let _ = fs::remove_file(&fifo);
        mkfifo(&fifo);
        let got_file = st.dir.join("got");
        let cat = fifo_reader(&fifo, &got_file);
        let o = run_strings(&args_for(&template, s(&fifo)));
        let got = finish_reader(cat, &got_file);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "{name}: the FIFO was replaced");
        assert!(looks_written(name, &got), "{name}: the reader got {} bytes", got.len());
    }
    let left: Vec<_> = fs::read_dir(&st.dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(!left.iter().any(|n| n.to_string_lossy().contains("microfut-")), "{left:?}");
}

#[test]
fn a_fifo_that_streams_forever_as_an_input_stops_at_the_limit() {
    // (The reading side of a FIFO: a writer that never stops is cut at the limit.)
    let d = tempfile::tempdir().unwrap();
    let fifo = d.path().join("club.json");
    mkfifo(&fifo);
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            use std::io::Write;
            let mut f = fs::OpenOptions::new().write(true).open(&fifo).unwrap();
            let block = vec![b' '; 1 << 16];
            while f.write_all(&block).is_ok() {}
        })
    };
    let b = run_bounded(&["club", "validate", s(&fifo)], None, Duration::from_secs(30));
    writer.join().unwrap();
    assert!(!b.timed_out, "still reading after 30 s");
    assert_eq!(b.code, Some(2), "{}", b.stderr);
    assert!(b.stderr.contains(&format!("{} is larger than 8 MiB: not a club file?", fifo.display())), "{}", b.stderr);
}

#[test]
fn standard_output_is_written_in_place_whether_a_file_or_a_pipe() {
    let m = ["match", "--home", "esporte_clube_mandacaru", "--away", "uniao_pedra_branca", "--seed", "1"];
    let has_both = |text: &str, how: &str| {
        let record =
            text.find("{\"format\":\"microfut-run/1\"").unwrap_or_else(|| panic!("{how}: no record in {text:.300}"));
        let table = text.find("mean stamina at full time").unwrap_or_else(|| panic!("{how}: no table"));
        // The record is written before the table is printed, and both survive.
        assert!(record < table, "{how}");
        let line = &text[record..];
        let line = &line[..line.find('\n').unwrap_or(line.len())];
        assert!(serde_json::from_str::<serde_json::Value>(line).is_ok(), "{how}: the record is not whole");
    };
    let d = tempfile::tempdir().unwrap();
    for out in ["-", "/dev/stdout", "/dev/fd/1"] {
        let mut args = m.to_vec();
        args.extend(["--out", out]);
        // A pipe.
        let o = run(&args);
        assert!(o.status.success(), "{out} as a pipe: {}", stderr(&o));
        has_both(&stdout(&o), &format!("{out} as a pipe"));
        // A file the shell redirected stdout to.
        let file = d.path().join("redirected.txt");
        let status = Command::new(bin())
            .args(&args)
            .stdout(fs::File::create(&file).unwrap())
            .stderr(Stdio::inherit())
            .status()
            .unwrap();
        assert!(status.success(), "{out} as a file");
        has_both(&fs::read_to_string(&file).unwrap(), &format!("{out} as a file"));
    }
    // Standard error too, and two options on one stream are refused.
    let o = run(&["lab", "trilha", "--games", "10", "--seed", "1", "--quiet", "--csv", "/dev/stderr"]);
    assert!(o.status.success() && stderr(&o).starts_with("scenario,metric,"), "{}", stderr(&o));
    let mut args = m.to_vec();
    args.extend(["--out", "-", "--decisions", "/dev/stdout"]);
    let o = run(&args);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("are the same file"), "{}", stderr(&o));
}

#[test]
fn a_dash_is_standard_output_for_every_command() {
    let st = setup();
    for (name, template) in commands(&st.dir) {
        // Run in the test's folder, where a file named `-` would be made.
        let o = Command::new(bin()).args(args_for(&template, "-")).current_dir(&st.dir).output().unwrap();
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        assert!(!st.dir.join("-").exists(), "{name}: wrote a file named -");
        let out = stdout(&o);
        let found = match name {
            n if n.ends_with("--html") => out.contains("<!DOCTYPE html>"),
            n if n.ends_with("--csv") => out.contains(','),
            _ => out.contains('{'),
        };
        assert!(found, "{name}: {out:.300}");
    }
}

#[test]
fn read_only_targets_are_refused_even_as_root() {
    let st = setup();
    for (name, template) in commands(&st.dir) {
        let target = st.dir.join("read-only");
        let _ = fs::set_permissions(&target, fs::Permissions::from_mode(0o644));
        fs::write(&target, "keep me").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o444)).unwrap();
        let o = run_strings(&args_for(&template, s(&target)));
        assert_eq!(o.status.code(), Some(2), "{name}: {}{}", stdout(&o), stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains(&format!("cannot write {}: it is read-only (mode 0444)", target.display())),
            "{name}: {err}"
        );
        assert_eq!(fs::read_to_string(&target).unwrap(), "keep me", "{name}");
    }
    // A sheet trained in place.
    let sheet = st.dir.join("youth.json");
    let before = fs::read(&sheet).unwrap();
    fs::set_permissions(&sheet, fs::Permissions::from_mode(0o444)).unwrap();
    let o = run(&["train", s(&sheet), "--xp", "passing=10", "--revision", "0.5.1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("read-only (mode 0444)"), "{}", stderr(&o));
    assert_eq!(fs::read(&sheet).unwrap(), before);
}

#[test]
fn a_folder_a_block_device_or_a_socket_is_never_replaced() {
    let d = tempfile::tempdir().unwrap();
    let m = ["match", "--home", "esporte_clube_mandacaru", "--away", "uniao_pedra_branca", "--seed", "1", "--out"];
    let socket = d.path().join("socket");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let mut cases = vec![(socket.clone(), "it is a socket")];
    if can("a_folder_a_block_device_or_a_socket_is_never_replaced (block device)", &["mknod"]) {
        let block = d.path().join("block");
        let made = Command::new("mknod").arg(&block).args(["b", "7", "200"]).status().unwrap();
        assert!(made.success());
        cases.push((block, "it is a block device"));
    }
    for (target, reason) in cases {
        let mut args = m.to_vec();
        args.push(s(&target));
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{}", target.display());
        assert!(stderr(&o).contains(reason), "{}", stderr(&o));
        let t = fs::symlink_metadata(&target).unwrap().file_type();
        assert!(t.is_socket() || t.is_block_device(), "{} was replaced", target.display());
    }
}

#[test]
fn an_immutable_later_output_refuses_the_command_and_changes_nothing() {
    if !can("an_immutable_later_output_refuses_the_command_and_changes_nothing", &["chattr"]) {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let (decisions, out) = (d.path().join("decisions.json"), d.path().join("run.json"));
    fs::write(&decisions, "old decisions").unwrap();
    fs::write(&out, "old run").unwrap();
    // `match` writes --decisions first, --out second: the second one is immutable.
    let Some(_guard) = Immutable::set(&out) else {
        eprintln!("skipped: this file system takes no immutable flag");
        return;
    };
    let o = run(&[
        "match",
        "--home",
        "esporte_clube_mandacaru",
        "--away",
        "uniao_pedra_branca",
        "--seed",
        "1",
        "--decisions",
        s(&decisions),
        "--out",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.contains(&format!("cannot write {}: it is immutable or append-only", out.display())), "{err}");
    assert_eq!(fs::read_to_string(&decisions).unwrap(), "old decisions", "the first output was replaced");
    assert_eq!(fs::read_to_string(&out).unwrap(), "old run");
    let names: Vec<_> = fs::read_dir(d.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn a_rename_that_fails_late_puts_the_first_output_back() {
    // strace makes the second rename fail (EIO) after the first has replaced its file: a fault
    // no check can foresee.
    if !can("a_rename_that_fails_late_puts_the_first_output_back", &["strace"]) {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let (decisions, out) = (d.path().join("decisions.json"), d.path().join("run.json"));
    fs::write(&decisions, "old decisions").unwrap();
    fs::write(&out, "old run").unwrap();
    let o = Command::new("strace")
        .args(["-f", "-o", "/dev/null", "-e", "trace=rename", "-e", "inject=rename:error=EIO:when=2", bin()])
        .args(["match", "--home", "esporte_clube_mandacaru", "--away", "uniao_pedra_branca", "--seed", "1"])
        .args(["--decisions", s(&decisions), "--out", s(&out)])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.contains(&format!("cannot write {}: Input/output error", out.display())), "{err}");
    assert_eq!(fs::read_to_string(&decisions).unwrap(), "old decisions", "the first output was not put back");
    assert_eq!(fs::read_to_string(&out).unwrap(), "old run");
    let names: Vec<_> = fs::read_dir(d.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 2, "temporaries or backups left: {names:?}");
}

#[test]
fn a_loop_of_symbolic_links_is_named_as_one_for_inputs_and_outputs() {
    let st = setup();
    let (a, b) = (st.dir.join("a"), st.dir.join("b"));
    std::os::unix::fs::symlink("b", &a).unwrap();
    std::os::unix::fs::symlink("a", &b).unwrap();
    let looped = |o: &std::process::Output, what: &str| {
        assert_eq!(o.status.code(), Some(2), "{what}: {}", stdout(o));
        let err = stderr(o);
        assert!(err.contains(s(&a)) && err.contains("a loop of symbolic links (ELOOP)"), "{what}: {err}");
        assert!(!err.contains("No such file") && !err.contains("neither a file"), "{what}: {err}");
    };
    for (name, template) in commands(&st.dir) {
        looped(&run_strings(&args_for(&template, s(&a))), name);
        assert!(fs::symlink_metadata(&a).unwrap().file_type().is_symlink(), "{name}: the link was replaced");
    }
    let f = s(&a);
    for args in [
        vec!["match", "--home", f, "--away", "uniao_pedra_branca", "--seed", "1"],
        vec!["club", "validate", f],
        vec!["sheet", f],
        vec!["train", f, "--xp", "passing=1"],
        vec!["replay", f],
        vec!["lab", "merge", f],
        vec!["space", "replay", f],
        vec!["effects", "replay", f],
        vec!["validate", "--content", f],
    ] {
        looped(&run(&args), &args.join(" "));
    }
}
