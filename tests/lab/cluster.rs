//! The lab on a cluster and its report, end to end: `--shard env` picks the same slice from a
//! Slurm array task's or a Kubernetes Indexed Job pod's variables as `--shard i/n` does, refuses
//! a task that cannot know its slice (writing nothing), a shard can go into a folder, and the
//! HTML report is one self-contained page that carries the run's identity and numbers.
//! (The real one-node Slurm cluster is `tests/slurm/cluster.sh`; the Kubernetes manifests are
//! checked by `tests/k8s/check.sh`; the page in a browser by `tests/browser/lab-report.test.mjs`.)

use crate::common;
use common::*;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

const STUDY: &[&str] = &["lab", "trilha", "--games", "2000", "--seed", "5", "--scenario", "D,G", "--quiet"];

/// Every variable `--shard env` reads, so the test machine's own environment cannot leak in.
const CLUSTER_VARS: &[&str] = &[
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_MAX",
    "JOB_COMPLETION_INDEX",
    "MICROFUT_SHARD_COUNT",
];

fn run_env(args: &[&str], vars: &[(&str, String)], dir: &Path) -> Output {
    let mut c = Command::new(bin());
    c.args(args).current_dir(dir);
    for v in CLUSTER_VARS {
        c.env_remove(v);
    }
    for (k, v) in vars {
        c.env(k, v);
    }
    c.output().expect("binary runs")
}

fn with(base: &[&str], more: &[&str]) -> Vec<String> {
    base.iter().chain(more).map(|s| s.to_string()).collect()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

fn shard_by_spec(dir: &Path, i: u64, n: u64) -> Vec<u8> {
    let out = dir.join(format!("spec-{i}.json"));
    let spec = format!("{i}/{n}");
    let o = run_env(&strs(&with(STUDY, &["--shard", &spec, "--out", out.to_str().unwrap()])), &[], dir);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::read(out).unwrap()
}

fn shard_by_env(dir: &Path, vars: &[(&str, String)]) -> (Output, Vec<u8>) {
    let folder = dir.join("env");
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir(&folder).unwrap();
    let o = run_env(&strs(&with(STUDY, &["--shard", "env", "--out", folder.to_str().unwrap()])), vars, dir);
    let files: Vec<_> = std::fs::read_dir(&folder).unwrap().map(|e| e.unwrap().path()).collect();
    let bytes = match files.as_slice() {
        [] => Vec::new(),
        [one] => std::fs::read(one).unwrap(),
        many => panic!("one shard file expected, got {many:?}"),
    };
    (o, bytes)
}

#[test]
fn env_shard_selection_gives_the_same_shards_as_i_of_n() {
    let tmp = tempfile::tempdir().unwrap();
    let n = 4;
    for i in 0..n {
        let expected = shard_by_spec(tmp.path(), i, n);
        let slurm = [
            ("SLURM_ARRAY_TASK_ID", i.to_string()),
            ("SLURM_ARRAY_TASK_COUNT", n.to_string()),
            ("SLURM_ARRAY_TASK_MIN", "0".to_string()),
            ("SLURM_ARRAY_TASK_MAX", (n - 1).to_string()),
        ];
        let kubernetes = [("JOB_COMPLETION_INDEX", i.to_string()), ("MICROFUT_SHARD_COUNT", n.to_string())];
        // A Slurm task re-run alone: Slurm says 1 task, from i to i; the script says n.
        let rerun = [
            ("SLURM_ARRAY_TASK_ID", i.to_string()),
            ("SLURM_ARRAY_TASK_COUNT", "1".to_string()),
            ("SLURM_ARRAY_TASK_MIN", i.to_string()),
            ("SLURM_ARRAY_TASK_MAX", i.to_string()),
            ("MICROFUT_SHARD_COUNT", n.to_string()),
        ];
        for (name, vars) in [("slurm", &slurm[..]), ("kubernetes", &kubernetes[..]), ("slurm re-run", &rerun[..])] {
            let (o, bytes) = shard_by_env(tmp.path(), vars);
            assert!(o.status.success(), "{name} {i}/{n}: {}", stderr(&o));
            assert_eq!(bytes, expected, "{name} {i}/{n}: not the bytes of --shard {i}/{n}");
            assert!(stdout(&o).is_empty(), "--quiet");
        }
        // And the file is named for its slice in the folder --out names.
        assert!(tmp.path().join(format!("env/lab-shard-{i}-of-{n}.json")).is_file());
    }
}

#[test]
fn a_task_that_cannot_know_its_slice_is_refused_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let cases: Vec<(Vec<(&str, String)>, &str)> = vec![
        (vec![], "outside a cluster give --shard i/n"),
        (vec![("JOB_COMPLETION_INDEX", "1".into())], "set it to the Job's completions"),
        (
            vec![
                ("SLURM_ARRAY_TASK_ID", "2".into()),
                ("SLURM_ARRAY_TASK_COUNT", "1".into()),
                ("SLURM_ARRAY_TASK_MIN", "2".into()),
            ],
            "set MICROFUT_SHARD_COUNT to n",
        ),
        (vec![("JOB_COMPLETION_INDEX", "4".into()), ("MICROFUT_SHARD_COUNT", "4".into())], "numbered from 0 to n-1"),
        (vec![("JOB_COMPLETION_INDEX", "one".into()), ("MICROFUT_SHARD_COUNT", "4".into())], "not a whole number"),
    ];
    for (vars, needle) in cases {
        let (o, bytes) = shard_by_env(tmp.path(), &vars);
        assert_eq!(o.status.code(), Some(2), "{vars:?}");
        assert!(stderr(&o).contains("--shard 'env'") && stderr(&o).contains(needle), "{vars:?}: {}", stderr(&o));
        assert!(bytes.is_empty(), "{vars:?} wrote a shard");
    }
}

fn html_of(args: &[&str], dir: &Path) -> String {
    let path = dir.join("report.html");
    let o = run_env(&strs(&with(args, &["--html", path.to_str().unwrap()])), &[], dir);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::read_to_string(path).unwrap()
}

/// The `data-*` numbers of every marker for `metric`, by (scenario, part, arm).
fn markers(html: &str, metric: &str) -> Vec<(String, String, String, f64, f64, f64)> {
    let attr = |tag: &str, name: &str| -> Option<String> {
        let k = tag.find(&format!(" data-{name}=\""))? + name.len() + 8;
        Some(tag[k..k + tag[k..].find('"')?].to_string())
    };
    html.split("<g class=\"est\"")
        .skip(1)
        .map(|t| &t[..t.find('>').unwrap()])
        .filter(|t| attr(t, "metric").as_deref() == Some(metric))
        .map(|t| {
            let n = |k: &str| attr(t, k).unwrap().parse::<f64>().unwrap();
            (
                attr(t, "scenario").unwrap(),
                attr(t, "part").unwrap(),
                attr(t, "arm").unwrap(),
                n("mean"),
                n("lo"),
                n("hi"),
            )
        })
        .collect()
}

#[test]
fn the_report_is_one_self_contained_page_with_the_runs_identity_and_numbers() {
    let tmp = tempfile::tempdir().unwrap();
    let html = html_of(STUDY, tmp.path());
    assert!(html.starts_with("<!DOCTYPE html>") && html.ends_with("</html>\n"));
    // Nothing fetched: no external script, style, image, font or link.
    for needle in ["http://", "https://", " src=", "href=", "@import", "url("] {
        assert!(!html.contains(needle), "the page refers to something outside it: {needle}");
    }
    assert!(html.contains("<style>") && html.contains("<script>"), "styles and script inline");
    // Command, seed, revision and every scenario's fingerprint.
    let json = run_env(&strs(&with(STUDY, &["--json"])), &[], tmp.path());
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(html.contains(
        "<code id=\"command\">microfut lab trilha --revision 1.0.0 --scenario D,G --games 2000 --seed 5</code>"
    ));
    assert!(html.contains("<span id=\"seed\">5</span>"));
    assert!(html.contains(v["revision"]["fingerprint"].as_str().unwrap()));
    for s in v["scenarios"].as_array().unwrap() {
        assert!(html.contains(s["fingerprint"].as_str().unwrap()), "{}", s["id"]);
    }
    // The JSON output is embedded as it is.
    let start = html.find("<script type=\"application/json\" id=\"lab-data\">").unwrap();
    let embedded = &html[start..];
    let embedded = &embedded[embedded.find('>').unwrap() + 1..embedded.find("</script>").unwrap()];
    assert_eq!(serde_json::from_str::<Value>(&embedded.replace("<\\/", "</")).unwrap(), v);
    // Every plotted number is the JSON's, interval included (Wilson's for shares).
    let mut seen = 0;
    for (si, s) in v["scenarios"].as_array().unwrap().iter().enumerate() {
        for (metric, parts) in [("win_share", 3), ("mean_rounds", 0), ("shared_wins", 0)] {
            let m = &s["metrics"][metric];
            for p in 0..parts.max(1) {
                let pick = |x: &Value| if parts > 0 { x[p].clone() } else { x.clone() };
                let (mean, ci) = (pick(&m["mean"]), pick(&m["ci95"]));
                let part = if parts > 0 { format!("p{}", p + 1) } else { String::new() };
                let found: Vec<_> = markers(&html, metric)
                    .into_iter()
                    .filter(|(sc, pa, arm, ..)| sc == s["id"].as_str().unwrap() && *pa == part && arm == "revision")
                    .collect();
                assert_eq!(found.len(), 1, "{metric} {part} in scenario {si}");
                let (_, _, _, mu, lo, hi) = found[0];
                assert_eq!((mu, lo, hi), (mean.as_f64().unwrap(), ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap()));
                seen += 1;
            }
        }
    }
    assert_eq!(seen, 2 * 5);
    // The table is the terminal's.
    let table = stdout(&run_env(STUDY, &[], tmp.path()));
    for line in table.lines().filter(|l| l.starts_with("| D") || l.starts_with("| G")) {
        for cell in line.split('|').map(str::trim).filter(|c| !c.is_empty()) {
            assert!(html.contains(&format!(">{}</td>", cell.replace('&', "&amp;"))), "table cell {cell}");
        }
    }
}

#[test]
fn an_ab_report_has_a_forest_plot_of_the_differences() {
    let tmp = tempfile::tempdir().unwrap();
    let (_keep, content) = content_copy();
    // A draft where only player 2 plays smart (scenario D's seats under the final rules).
    let draft = content.join("trilha/1.0.1");
    copy_dir(&content.join("trilha/1.0.0"), &draft);
    edit_json(&draft.join("manifest.json"), |m| {
        m["version"] = "1.0.1".into();
        m["parent"] = "1.0.0".into();
        m["status"] = "draft".into();
        m["change_note"] = "test draft".into();
    });
    edit_json(&draft.join("play.json"), |p| {
        p["seats"]["p1"]["strategy"] = "random".into();
        p["seats"]["p3"]["strategy"] = "random".into();
    });
    let args = [
        "lab",
        "trilha",
        "--revision",
        "1.0.1",
        "--against",
        "1.0.0",
        "--games",
        "3000",
        "--seed",
        "2",
        "--scenario",
        "G",
        "--quiet",
        "--content",
    ];
    let mut args: Vec<&str> = args.to_vec();
    args.push(content.to_str().unwrap());
    let html = html_of(&args, tmp.path());
    let v: Value = serde_json::from_slice(&run_env(&strs(&with(&args, &["--json"])), &[], tmp.path()).stdout).unwrap();
    assert!(html.contains("<section id=\"differences\">"));
    let g = &v["scenarios"][0]["win_share"];
    let diffs: Vec<_> = markers(&html, "win_share").into_iter().filter(|m| m.2 == "difference").collect();
    assert_eq!(diffs.len(), 3);
    let mut significant = 0;
    for (p, (_, part, _, d, lo, hi)) in diffs.iter().enumerate() {
        assert_eq!(*part, format!("p{}", p + 1));
        assert_eq!(*d, g["difference"][p].as_f64().unwrap());
        assert_eq!(
            (*lo, *hi),
            (g["difference_ci95"][p][0].as_f64().unwrap(), g["difference_ci95"][p][1].as_f64().unwrap())
        );
        significant += usize::from(*lo > 0.0 || *hi < 0.0);
    }
    assert_eq!(significant, 3, "only player 2 smart moves every win share: {g}");
    // Both revisions plotted per scenario, and both fingerprints shown.
    assert_eq!(markers(&html, "mean_rounds").iter().filter(|m| m.2 != "difference").count(), 2);
    assert!(html.contains(v["revision"]["fingerprint"].as_str().unwrap()));
    assert!(html.contains(v["against"]["fingerprint"].as_str().unwrap()));
}
