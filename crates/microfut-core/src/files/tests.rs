use super::*;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};

fn leftovers(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("microfut-"))
        .collect()
}

#[test]
fn writes_every_output_or_none_and_leaves_no_temporary_file() {
    let d = tempfile::tempdir().unwrap();
    let (a, b) = (d.path().join("a.json"), d.path().join("b"));
    fs::create_dir(&b).unwrap();
    // A folder as a target is refused before any work.
    let e = Plan::new(&[("--out", &a), ("--decisions", &b)], &[]).unwrap_err();
    assert_eq!(e.to_string(), format!("cannot write {}: it is a folder", b.display()));
    // It becomes a folder after planning: nothing is written, nothing is left.
    fs::remove_dir(&b).unwrap();
    let plan = Plan::new(&[("--out", &a), ("--decisions", &b)], &[]).unwrap();
    fs::create_dir(&b).unwrap();
    let e = plan.write(&[b"1", b"2"]).unwrap_err().to_string();
    assert!(e.starts_with(&format!("cannot write {}:", b.display())), "{e}");
    assert!(!a.exists());
    assert!(leftovers(d.path()).is_empty(), "{:?}", leftovers(d.path()));
}

#[test]
fn the_same_file_twice_or_over_an_input_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let a = d.path().join("a.json");
    let dotted = d.path().join(".").join("a.json");
    let e = Plan::new(&[("--out", &a), ("--decisions", &dotted)], &[]).unwrap_err();
    assert!(matches!(e, WriteError::SameFile { .. }), "{e}");
    fs::write(&a, "{}").unwrap();
    let link = d.path().join("link.json");
    std::os::unix::fs::symlink(&a, &link).unwrap();
    let e = Plan::new(&[("--out", &link)], &[("--home", &a)]).unwrap_err().to_string();
    assert!(e.contains("--out") && e.contains("--home") && e.contains("destroy an input"), "{e}");
    let missing = d.path().join("nowhere/x.json");
    let e = Plan::single("--out", &missing).unwrap_err().to_string();
    assert!(e.contains("does not exist"), "{e}");
    // Standard output twice, spelt two ways.
    let e = Plan::new(&[("--out", Path::new("-")), ("--decisions", Path::new("/dev/stdout"))], &[]).unwrap_err();
    assert!(matches!(e, WriteError::SameFile { .. }), "{e}");
}

#[test]
fn a_symbolic_link_is_written_through_and_the_mode_is_kept() {
    let d = tempfile::tempdir().unwrap();
    let real = d.path().join("real.json");
    fs::write(&real, "old").unwrap();
    fs::set_permissions(&real, fs::Permissions::from_mode(0o600)).unwrap();
    let link = d.path().join("link.json");
    std::os::unix::fs::symlink("real.json", &link).unwrap();
    write_one("the sheet", &link, b"new").unwrap();
    assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(fs::read_to_string(&real).unwrap(), "new");
    assert_eq!(fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o600);
    assert!(leftovers(d.path()).is_empty());
}

#[test]
fn a_fifo_is_written_in_place_not_replaced() {
    let d = tempfile::tempdir().unwrap();
    let fifo = d.path().join("fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o644)).unwrap();
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read(&fifo).unwrap())
    };
    write_one("--out", &fifo, b"through the pipe").unwrap();
    assert_eq!(reader.join().unwrap(), b"through the pipe");
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "the FIFO was replaced");
    assert!(leftovers(d.path()).is_empty());
}

#[test]
fn a_read_only_file_and_a_loop_of_links_are_refused_up_front() {
    let d = tempfile::tempdir().unwrap();
    let ro = d.path().join("ro.json");
    fs::write(&ro, "keep").unwrap();
    fs::set_permissions(&ro, fs::Permissions::from_mode(0o444)).unwrap();
    let e = Plan::single("--out", &ro).unwrap_err().to_string();
    assert!(e.contains("read-only (mode 0444)"), "{e}");
    assert_eq!(fs::read_to_string(&ro).unwrap(), "keep");
    std::os::unix::fs::symlink("b", d.path().join("a")).unwrap();
    std::os::unix::fs::symlink("a", d.path().join("b")).unwrap();
    let e = Plan::single("--out", &d.path().join("a")).unwrap_err().to_string();
    assert!(e.ends_with("a loop of symbolic links (ELOOP)"), "{e}");
    assert!(fs::symlink_metadata(d.path().join("a")).unwrap().file_type().is_symlink());
    let e = Plan::single("--out", &d.path().join("a/x.json")).unwrap_err().to_string();
    assert!(e.contains("a loop of symbolic links"), "{e}");
}

#[test]
fn a_later_failure_puts_back_what_was_replaced() {
    // /dev/full refuses every write (ENOSPC) after the file output has been renamed into place.
    let d = tempfile::tempdir().unwrap();
    let a = d.path().join("a.json");
    fs::write(&a, "original").unwrap();
    let plan = Plan::new(&[("--out", &a), ("--decisions", Path::new("/dev/full"))], &[]).unwrap();
    let e = plan.write(&[b"new", b"log"]).unwrap_err();
    assert!(matches!(e, WriteError::Cannot { .. }), "{e}");
    assert!(e.to_string().starts_with("cannot write /dev/full: No space left on device"), "{e}");
    assert_eq!(fs::read_to_string(&a).unwrap(), "original");
    // A file that did not exist is removed again.
    let b = d.path().join("b.json");
    let plan = Plan::new(&[("--out", &b), ("--decisions", Path::new("/dev/full"))], &[]).unwrap();
    plan.write(&[b"new", b"log"]).unwrap_err();
    assert!(!b.exists());
    assert_eq!(leftovers(d.path()), Vec::<String>::new());
}

#[test]
fn leftovers_are_recognised_by_name() {
    assert_eq!(leftover(".catalog.json.4242-1.microfut-tmp"), Some(4242));
    assert_eq!(leftover(".manifest.json.7-0.microfut-bak"), Some(7));
    assert_eq!(leftover("catalog.json"), None);
    assert_eq!(leftover(".x.json.tmp"), None);
    assert_eq!(leftover("..1-0.microfut-tmp"), None);
    assert!(is_running(std::process::id()));
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("x.json");
    assert_eq!(
        leftover(hidden_beside(&p, 3, TEMPORARY).file_name().unwrap().to_str().unwrap()),
        Some(std::process::id())
    );
}
