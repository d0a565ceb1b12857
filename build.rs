//! Embeds `content/` and `schemas/` into the binary so the main job runs on the default content
//! from anywhere, with no files beside it.

use std::fs;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "json") {
            out.push(p);
        }
    }
}

fn main() {
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let mut code = String::from("pub static FILES: &[(&str, &[u8])] = &[\n");
    for top in ["content", "schemas"] {
        let root = manifest_dir.join(top);
        println!("cargo:rerun-if-changed={}", root.display());
        let mut files = Vec::new();
        collect(&root, &mut files);
        for f in files {
            let rel = f.strip_prefix(&manifest_dir).unwrap().to_string_lossy().replace('\\', "/");
            code.push_str(&format!("    ({rel:?}, include_bytes!({:?})),\n", f.display().to_string()));
        }
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("embedded.rs");
    fs::write(out, code).unwrap();
}
