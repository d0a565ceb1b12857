"""Runs tools/k8s/lab-job.yaml and merge-job.yaml as a cluster would, on this machine.

No Kubernetes here, so the manifests' own containers are played out: for each completion index
the shard Job's command, arguments and environment (plus JOB_COMPLETION_INDEX, as Kubernetes
sets it), then the merge Job's, with the shared volume's mount path mapped to a temporary folder
and `microfut` resolving to the binary under test. The results must be byte for byte what the
same lab arguments give on one machine. Also checks what the manifests must agree on: the shard
count (completions = MICROFUT_SHARD_COUNT, in both Jobs), the image, the volume, Indexed mode.

    python3 tests/k8s/emulate.py path/to/microfut [--games N]

--games replaces the study's size (the manifest's 10 million games would take minutes here).
"""

import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
K8S = ROOT / "tools" / "k8s"


def load(name):
    with open(K8S / name, encoding="utf-8") as f:
        return yaml.safe_load(f)


def container(job):
    (c,) = job["spec"]["template"]["spec"]["containers"]
    return c


def env_of(c):
    return {e["name"]: e["value"] for e in c.get("env", [])}


def mount_of(job, c):
    (m,) = c["volumeMounts"]
    (v,) = job["spec"]["template"]["spec"]["volumes"]
    assert m["name"] == v["name"], "the container mounts the Job's volume"
    return m["mountPath"], v["persistentVolumeClaim"]["claimName"]


def fail(message):
    print(f"not ok - {message}")
    sys.exit(1)


def check(ok, message):
    if not ok:
        fail(message)
    print(f"ok - {message}")


def main():
    binary = pathlib.Path(sys.argv[1]).resolve()
    games = sys.argv[sys.argv.index("--games") + 1] if "--games" in sys.argv else None
    shards, merge, pvc = load("lab-job.yaml"), load("merge-job.yaml"), load("lab-results-pvc.yaml")
    sc, mc = container(shards), container(merge)
    n = shards["spec"]["completions"]

    check(shards["spec"].get("completionMode") == "Indexed", "the shard Job is Indexed")
    check(env_of(sc).get("MICROFUT_SHARD_COUNT") == str(n), f"MICROFUT_SHARD_COUNT is the shard Job's completions ({n})")
    check(env_of(mc).get("MICROFUT_SHARD_COUNT") == str(n), "the merge Job merges that many shards")
    check(sc["image"] == mc["image"], "both Jobs run the same image")
    s_mount, s_claim = mount_of(shards, sc)
    m_mount, m_claim = mount_of(merge, mc)
    check(s_claim == m_claim == pvc["metadata"]["name"], "both Jobs mount the results claim")
    check("ReadWriteMany" in pvc["spec"]["accessModes"], "the results volume is writable from many nodes")
    check(sc["command"] == ["microfut"], "the shard container runs microfut")
    args = list(sc["args"])
    check(args[args.index("--shard") + 1] == "env", "shards come from the environment (--shard env)")
    out = args[args.index("--out") + 1]
    check(out.rstrip("/") == s_mount.rstrip("/"), "shards are written to the shared volume")
    threads = args[args.index("--threads") + 1] if "--threads" in args else None
    check(threads is not None and threads == str(sc["resources"]["limits"]["cpu"]), "--threads matches the CPU limit")
    if games is not None:
        for flag in ("--games", "--matches"):
            if flag in args:
                args[args.index(flag) + 1] = games

    work = pathlib.Path(tempfile.mkdtemp(prefix="microfut-k8s."))
    try:
        bin_dir = work / "bin"
        bin_dir.mkdir()
        (bin_dir / "microfut").symlink_to(binary)
        volume = work / "volume"
        volume.mkdir()
        base_env = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM_", "JOB_COMPLETION", "MICROFUT_"))}
        base_env["PATH"] = f"{bin_dir}:{base_env.get('PATH', '/usr/bin:/bin')}"

        def mapped(words, mount):
            return [w.replace(mount, str(volume)) for w in words]

        # The shard pods, in a scrambled order, as a cluster may run them.
        for i in sorted(range(n), key=lambda i: (i * 5) % n):
            env = dict(base_env, **env_of(sc), JOB_COMPLETION_INDEX=str(i))
            run = subprocess.run(sc["command"] + mapped(args, s_mount), env=env, cwd=work, capture_output=True, text=True)
            if run.returncode != 0:
                fail(f"pod {i} exited {run.returncode}: {run.stderr}")
        files = sorted(p.name for p in volume.iterdir())
        check(files == sorted(f"lab-shard-{i}-of-{n}.json" for i in range(n)), f"{n} pods wrote {n} shards")

        env = dict(base_env, **env_of(mc))
        script = mc["args"][0].replace(m_mount, str(volume))
        run = subprocess.run(mc["command"] + [script], env=env, cwd=work, capture_output=True, text=True)
        if run.returncode != 0:
            fail(f"the merge pod exited {run.returncode}: {run.stderr}")

        # One machine: the same lab arguments without the cluster's.
        single_args = list(args)
        for flag in ("--shard", "--out"):
            k = single_args.index(flag)
            del single_args[k : k + 2]
        single = work / "single"
        single.mkdir()
        env = dict(base_env)
        table = subprocess.run(
            ["microfut", *single_args, "--csv", "results.csv", "--html", "report.html"],
            env=env, cwd=single, capture_output=True, check=True,
        ).stdout
        (single / "results.md").write_bytes(table)
        (single / "results.json").write_bytes(
            subprocess.run(["microfut", *single_args, "--json"], env=env, cwd=single, capture_output=True, check=True).stdout
        )
        for f in ("results.md", "results.json", "results.csv", "report.html"):
            check((volume / f).read_bytes() == (single / f).read_bytes(), f"merged {f} is byte for byte the one-machine {f}")
        check(run.stdout.encode() == table, "the merge pod's log shows the table")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
