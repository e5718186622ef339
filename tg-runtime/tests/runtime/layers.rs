//! tg-runtime's modules form a line, each using only the modules before it (ARCHITECTURE:
//! "Layers"): this reads every `crate::` path (and `super::` paths that leave a top-level
//! module) in `src/` and fails on one that runs upward, or on a module the line does not place.

use std::path::{Path, PathBuf};

/// The top-level modules, lowest first.
const LAYERS: &[&str] = &[
    "dtype", "ops", "error", "config", "stats", "compile", "device", "graph", "kernel", "target",
    "schedule", "codegen", "prepare", "tune", "realize",
];

/// What the crate root re-exports, by the module that defines it (`""`: another crate).
const ROOT_ITEMS: &[(&str, &str)] = &[
    ("ash", ""),
    ("bundle", "compile"),
    ("DType", "dtype"),
    ("Element", "dtype"),
    ("Scalar", "dtype"),
    ("Error", "error"),
    ("Result", "error"),
    ("Lazy", "graph"),
    ("BinaryOp", "ops"),
    ("ReduceOp", "ops"),
    ("TernaryOp", "ops"),
    ("UnaryOp", "ops"),
    ("Stats", "stats"),
    ("process_stats", "stats"),
    ("thread_stats", "stats"),
    ("Recording", "realize"),
    ("record", "realize"),
    ("Report", "realize"),
    ("realize", "realize"),
    ("realize_report", "realize"),
    ("synchronize", "realize"),
];

/// The source with comments and the insides of string and character literals blanked, so
/// only code is searched.
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &src[i..];
        if rest.starts_with("//") {
            let end = rest.find('\n').map_or(b.len(), |e| i + e);
            i = end;
        } else if rest.starts_with("/*") {
            let end = rest.find("*/").map_or(b.len(), |e| i + e + 2);
            out.push(' ');
            i = end;
        } else if let Some(hashes) = raw_string_start(rest) {
            let close = format!("\"{}", "#".repeat(hashes));
            let body = i + 2 + hashes;
            let end = src[body..]
                .find(&close)
                .map_or(b.len(), |e| body + e + close.len());
            out.push_str("\"\"");
            i = end;
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            i = j + 1;
        } else if b[i] == b'\'' && is_char_literal(rest) {
            let end = rest[1..].find('\'').map_or(b.len(), |e| i + e + 2);
            out.push_str("' '");
            i = end;
        } else {
            let c = rest.chars().next().expect("a character");
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// `r"`, `r#"`, ...: the number of `#`s.
fn raw_string_start(s: &str) -> Option<usize> {
    let after = s.strip_prefix('r')?;
    let hashes = after.len() - after.trim_start_matches('#').len();
    after[hashes..].starts_with('"').then_some(hashes)
}

/// A character literal (`'a'`, `'\n'`, `'\''`), not a lifetime.
fn is_char_literal(s: &str) -> bool {
    let mut chars = s[1..].chars();
    match chars.next() {
        Some('\\') => true,
        Some(_) => chars.next() == Some('\''),
        None => false,
    }
}

/// The identifier at the start of `s`.
fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The first identifiers of the items of a `{ .. }` group that `s` starts with.
fn group_items(s: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let mut depth = 0;
    let mut start = 1;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' | ',' if depth == 1 => {
                let item = s[start..i].trim();
                if !item.is_empty() {
                    items.push(ident(item));
                }
                start = i + 1;
                if c == '}' {
                    break;
                }
            }
            '}' => depth -= 1,
            _ => {}
        }
    }
    items
}

/// The top-level modules (or root items) a `crate::` or root-reaching `super::` path names
/// at `s` (what follows the path's root).
fn named(s: &str) -> Vec<&str> {
    let s = s.trim_start();
    if s.starts_with('{') {
        group_items(s)
    } else {
        vec![ident(s)]
    }
}

/// The layer an item of the crate root belongs to.
fn layer_of(name: &str) -> Option<&'static str> {
    if let Some(l) = LAYERS.iter().find(|l| **l == name) {
        return Some(l);
    }
    ROOT_ITEMS.iter().find(|(n, _)| *n == name).map(|(_, l)| *l)
}

/// For each byte of `code`, how many inline modules (`mod name { .. }`) enclose it.
fn inline_depths(code: &str) -> Vec<usize> {
    let mut depths = vec![0; code.len() + 1];
    // brace depth at which each open inline module started
    let mut open: Vec<usize> = Vec::new();
    let mut braces = 0usize;
    let mut module_next = false;
    let mut word = String::new();
    for (i, c) in code.char_indices() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else if !word.is_empty() {
            module_next |= word == "mod";
            word.clear();
        }
        match c {
            '{' => {
                braces += 1;
                if module_next {
                    open.push(braces);
                }
                module_next = false;
            }
            '}' => {
                if open.last() == Some(&braces) {
                    open.pop();
                }
                braces = braces.saturating_sub(1);
            }
            ';' => module_next = false,
            _ => {}
        }
        depths[i] = open.len();
    }
    depths
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every upward or unplaced import of the crate's sources, as lines for people.
fn violations(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut found = Vec::new();
    for file in files {
        let rel = file.strip_prefix(src).expect("under src");
        let mut module: Vec<String> = rel
            .with_extension("")
            .iter()
            .map(|c| c.to_string_lossy().into_owned())
            .collect();
        if module.last().is_some_and(|m| m == "mod") {
            module.pop();
        }
        if module == ["lib"] {
            continue; // the root wires the layers together
        }
        let own = module[0].as_str();
        let Some(rank) = LAYERS.iter().position(|l| *l == own) else {
            found.push(format!(
                "{}: module `{own}` is not placed in LAYERS",
                rel.display()
            ));
            continue;
        };
        let code = code_only(&std::fs::read_to_string(&file).expect("a readable source"));
        let mut names: Vec<&str> = Vec::new();
        for (at, _) in code.match_indices("crate::") {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue; // `$crate::`, `tg_runtime::crate` and the like are not ours
            }
            names.extend(named(&code[at + "crate::".len()..]));
        }
        // `super::` chains that climb past the top-level module reach the root
        let inline = inline_depths(&code);
        for (at, _) in code.match_indices("super::") {
            if code[..at].ends_with("super::") || code[..at].ends_with(char::is_alphanumeric) {
                continue;
            }
            let mut rest = &code[at..];
            let mut ups = 0;
            while let Some(r) = rest.strip_prefix("super::") {
                ups += 1;
                rest = r;
            }
            if ups >= module.len() + inline[at] {
                names.extend(named(rest));
            }
        }
        for name in names {
            match layer_of(name) {
                None => found.push(format!(
                    "{}: `{name}` is neither a placed module nor a known root item",
                    rel.display()
                )),
                Some("") => {}
                Some(layer) => {
                    let theirs = LAYERS.iter().position(|l| *l == layer).expect("placed");
                    if theirs > rank {
                        found.push(format!(
                            "{}: uses `{name}` (layer `{layer}`), above its own layer `{own}`",
                            rel.display()
                        ));
                    }
                }
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

#[test]
fn no_module_uses_one_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = violations(&src);
    assert!(found.is_empty(), "upward imports:\n{}", found.join("\n"));
}

/// The check itself sees what it must: grouped, nested and root-reaching paths, and nothing in
/// comments or strings.
#[test]
fn the_check_reads_paths_not_prose() {
    let code = code_only(
        "use crate::{error::Error, graph::{lazy::Lazy, node::Node}, Result};\n\
         // crate::realize in a comment\n\
         let s = \"crate::tune in a string\"; let c = '\"'; let r = r#\"crate::x\"#;\n\
         fn f<'a>(x: &'a str) { crate::device::lookup(x) }",
    );
    let names: Vec<&str> = code
        .match_indices("crate::")
        .flat_map(|(at, _)| named(&code[at + 7..]))
        .collect();
    assert_eq!(names, ["error", "graph", "Result", "device"]);
}
