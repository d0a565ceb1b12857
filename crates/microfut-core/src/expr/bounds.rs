//! How big and how deep a content expression may be, checked on its text before anything parses it.
//!
//! The problem: evalexpr's parser, the drop of its tree, our lowering, typing and compiled
//! closures all recurse once per level of the expression, so 20,000 unary minus signs, 100,000
//! nested parentheses or a 200,000-term sum overflowed the stack and aborted the process (no file
//! named, and `validate` stopped on the first such draft). The decision: one linear, iterative
//! scan of the text bounds the number of tokens and the depth of the tree any parse of it can
//! build, and refuses an expression over either limit before evalexpr sees it; every recursion
//! after that is then at most a few hundred frames. Limits: `MAX_TOKENS` and `MAX_DEPTH` below —
//! the longest expression in content (0.6.21's threat map, `derived.json#/derived/19/base/expr`)
//! has 50 tokens and is 13 levels deep by this count (the same since 0.5.1).

/// The most tokens (names, numbers, operators, parentheses, commas) an expression may have.
pub const MAX_TOKENS: usize = 4096;
/// The most levels an expression's tree may have: each operator applied to the result of
/// another, each call and each pair of parentheses counts one, so a chain such as
/// `a + b + c + …` of more than 64 terms is as deep as 64 nested parentheses.
pub const MAX_DEPTH: usize = 64;

/// Why an expression's text is refused before parsing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exceeded {
    Tokens,
    Depth,
}

/// What the scan found: tokens, and an upper bound of the tree's depth (evalexpr's tree is at
/// most about twice as deep: it adds a node for each pair of parentheses).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Size {
    pub tokens: usize,
    pub depth: usize,
}

/// One level of parentheses while scanning: the operators written directly in it (any tree of
/// k operators over operands is at most k deep) and the deepest group inside it.
#[derive(Default)]
struct Level {
    operators: usize,
    deepest_group: usize,
}

impl Level {
    fn depth(&self) -> usize {
        self.operators + self.deepest_group
    }
}

/// Scans `text` once, without recursion, and stops as soon as a limit is passed.
pub fn measure(text: &str) -> Result<Size, Exceeded> {
    let bytes = text.as_bytes();
    let mut levels: Vec<Level> = vec![Level::default()];
    let mut tokens = 0usize;
    // Whether the previous token ends an operand (a name, a number, a closing parenthesis): a
    // name followed by another operand is a call without parentheses (`round x`), one level.
    let mut after_name = false;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        tokens += 1;
        if tokens > MAX_TOKENS {
            return Err(Exceeded::Tokens);
        }
        let top = levels.last_mut().expect("the root level is never closed");
        // (A name before a parenthesis is a call too, counted by the group it opens.)
        let starts_operand = c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'"') || c >= 0x80;
        if starts_operand && after_name {
            top.operators += 1;
        }
        match c {
            b'(' => {
                levels.push(Level::default());
                if levels.len() > MAX_DEPTH + 1 {
                    return Err(Exceeded::Depth);
                }
                after_name = false;
                i += 1;
                continue;
            }
            b')' => {
                // An unmatched parenthesis is evalexpr's error to report.
                if levels.len() > 1 {
                    let closed = levels.pop().expect("more than the root");
                    let parent = levels.last_mut().expect("the root");
                    parent.deepest_group = parent.deepest_group.max(closed.depth() + 1);
                }
                after_name = false;
                i += 1;
                continue;
            }
            b',' | b';' => {
                after_name = false;
                i += 1;
                continue;
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                after_name = false;
                continue;
            }
            _ => {}
        }
        if c.is_ascii_digit() || (c == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            i = number_end(bytes, i);
            after_name = false;
        } else if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c >= 0x80 {
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || matches!(bytes[i], b'_' | b'.') || bytes[i] >= 0x80)
            {
                i += 1;
            }
            after_name = true;
        } else {
            // An operator: the two-character ones count once, anything else once per character
            // (over-counting keeps the bound an upper bound).
            let two = bytes.get(i..i + 2);
            let pair = matches!(two, Some(b"==" | b"!=" | b"<=" | b">=" | b"&&" | b"||"));
            i += if pair { 2 } else { 1 };
            top.operators += 1;
            after_name = false;
        }
        if levels.last().expect("root").operators > MAX_DEPTH {
            return Err(Exceeded::Depth);
        }
    }
    // Groups left open are evalexpr's error; they still count.
    while levels.len() > 1 {
        let closed = levels.pop().expect("more than the root");
        let parent = levels.last_mut().expect("the root");
        parent.deepest_group = parent.deepest_group.max(closed.depth() + 1);
    }
    let depth = levels[0].depth();
    if depth > MAX_DEPTH {
        return Err(Exceeded::Depth);
    }
    Ok(Size { tokens, depth })
}

/// An expression as a message may quote it: whole when short, else its start and its length,
/// so a problem stays one readable line whatever was pasted.
pub fn excerpt(text: &str) -> std::borrow::Cow<'_, str> {
    const SHOWN: usize = 60;
    match text.char_indices().nth(SHOWN) {
        None => text.into(),
        Some((end, _)) => format!("{}… ({} characters)", &text[..end], text.chars().count()).into(),
    }
}

/// The end of a number literal starting at `i` (`12`, `0.5`, `1e-3`, `2.5E+4`).
fn number_end(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() {
        let c = bytes[i];
        let exponent_sign = matches!(c, b'+' | b'-') && i > 0 && matches!(bytes[i - 1], b'e' | b'E');
        if c.is_ascii_alphanumeric() || c == b'.' || c == b'_' || exponent_sign {
            i += 1;
        } else {
            break;
        }
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_tokens_and_depth() {
        assert_eq!(measure("1").unwrap(), Size { tokens: 1, depth: 0 });
        assert_eq!(measure("a + b * c").unwrap(), Size { tokens: 5, depth: 2 });
        assert_eq!(measure("max(a, b) <= 1e-3").unwrap(), Size { tokens: 8, depth: 2 });
        assert_eq!(measure("((x))").unwrap().depth, 2);
        assert_eq!(measure("round x").unwrap().depth, 1);
        assert_eq!(measure("-(-(-x))").unwrap().depth, 5);
    }

    #[test]
    fn refuses_what_would_recurse_too_deep() {
        // Whichever limit is passed first: a chain is too deep long before it is too long.
        assert_eq!(measure(&format!("{}1", "-".repeat(20_000))), Err(Exceeded::Depth));
        assert_eq!(measure(&format!("{}1", "-".repeat(65))), Err(Exceeded::Depth));
        assert_eq!(measure(&format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000))), Err(Exceeded::Depth));
        assert_eq!(measure(&format!("{}1{}", "(".repeat(65), ")".repeat(65))), Err(Exceeded::Depth));
        assert_eq!(measure(&format!("{}1{}", "(".repeat(64), ")".repeat(64))).unwrap().depth, 64);
        let sum = |n: usize| (0..n).map(|i| format!("x{i}")).collect::<Vec<_>>().join(" + ");
        assert_eq!(measure(&sum(200_000)), Err(Exceeded::Depth));
        assert_eq!(measure(&sum(66)), Err(Exceeded::Depth));
        assert!(measure(&sum(65)).is_ok());
        // Calls without parentheses chain one level each.
        assert_eq!(measure(&"f ".repeat(70)), Err(Exceeded::Depth));
        // Wide but shallow is fine up to the token limit.
        let wide = |n: usize| format!("max({})", (0..n).map(|i| format!("(x{i})")).collect::<Vec<_>>().join(", "));
        assert_eq!(measure(&wide(1000)).unwrap(), Size { tokens: 4002, depth: 2 });
        assert_eq!(measure(&wide(1100)), Err(Exceeded::Tokens));
    }
}
