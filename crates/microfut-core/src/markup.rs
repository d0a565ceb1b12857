//! Escaping text for HTML and XML (the lab's HTML report and its SVG plots, Trilha's board SVG).
//!
//! One function for both: the five characters that can end a text node or a quoted attribute
//! (`&`, `<`, `>`, `"`, `'`) become entities, everything else is kept as it is (UTF-8 needs no
//! escaping in a UTF-8 document). The entities are fixed — `&#39;`, not `&apos;` (HTML 4 has no
//! `&apos;`) nor `&#x27;` — because reports are compared byte for byte.

/// `s` with `&`, `<`, `>`, `"` and `'` as `&amp;`, `&lt;`, `&gt;`, `&quot;` and `&#39;`: safe in
/// text and in an attribute quoted with either quote.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn the_five_characters_and_nothing_else() {
        assert_eq!(
            escape(r#"<a href="x">Tom & Jerry's</a>"#),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;"
        );
        assert_eq!(escape("Açude −3 ✓ \n\t/="), "Açude −3 ✓ \n\t/=");
        assert_eq!(escape(""), "");
    }

    /// Escaping is not idempotent on purpose: an entity in the text is text, shown as written.
    #[test]
    fn an_entity_in_the_text_stays_visible() {
        assert_eq!(escape("&amp;"), "&amp;amp;");
    }
}
