//! Playing roles and the lines they belong to, as declared by a revision's `roles.json`.

use microfut_core::catalog::{Diagnostic, Labels, Revision, declared_schema};
use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
pub struct Line {
    pub id: String,
    pub label: Labels,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Role {
    pub id: String,
    pub line: String,
    pub label: Labels,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Roles {
    pub lines: Vec<Line>,
    pub roles: Vec<Role>,
    /// Without set pieces, the variable that picks the penalty taker (the outfield player
    /// best at it); a revision with set pieces names its own rule.
    #[serde(default)]
    pub penalty_taker_skill: Option<String>,
}

impl Roles {
    /// The roles of a revision; `None` when it declares none (0.5.0 predates them).
    pub fn from_revision(rev: &Revision) -> Result<Option<Roles>, Vec<Diagnostic>> {
        let Some((name, doc)) = rev.documents.iter().find(|(_, d)| declared_schema(d) == Some("roles.schema.json"))
        else {
            return Ok(None);
        };
        let file = rev.file(name);
        let roles: Roles =
            microfut_core::catalog::from_value_located(doc.clone(), "roles.schema.json").map_err(|e| {
                vec![Diagnostic::new(&file, e.pointer, format!("cannot read as roles.schema.json: {}", e.message))]
            })?;
        let mut out = Vec::new();
        for (i, r) in roles.roles.iter().enumerate() {
            if !roles.lines.iter().any(|l| l.id == r.line) {
                out.push(Diagnostic::new(&file, format!("/roles/{i}/line"), format!("unknown line '{}'", r.line)));
            }
            if roles.roles[..i].iter().any(|o| o.id == r.id) {
                out.push(Diagnostic::new(&file, format!("/roles/{i}/id"), format!("role '{}' declared twice", r.id)));
            }
        }
        if out.is_empty() { Ok(Some(roles)) } else { Err(out) }
    }

    pub fn role(&self, id: &str) -> Option<&Role> {
        self.roles.iter().find(|r| r.id == id)
    }

    pub fn line_of(&self, role: &str) -> Option<&str> {
        self.role(role).map(|r| r.line.as_str())
    }
}
