#!/usr/bin/env bash
# How big the code is: lines of Rust per crate, and the 15 longest files and functions, so a
# file or function that grows past its job shows in every CI log. Reads the files git tracks;
# a function's length runs from its `fn` line to its closing brace (strings, characters and
# comments do not count braces).
set -euo pipefail
cd "$(dirname "$0")/.."
most=${SIZE_MOST:-15}
crates=$(git ls-files '*Cargo.toml' | xargs -n1 dirname | sort)
files=$(git ls-files '*.rs')

# the crate of a path: the deepest folder with a Cargo.toml above it
crate_of() {
    awk -v crates="$crates" '
        BEGIN { n = split(crates, c, "\n") }
        {
            best = "."
            for (i = 1; i <= n; i++) {
                d = c[i]
                if (d != "." && (index($0, d "/") == 1) && length(d) > length(best)) best = d
            }
            print best "\t" $0
        }'
}

echo "Lines of Rust per crate (files, lines):"
for f in $files; do echo "$f"; done | crate_of | while IFS=$'\t' read -r crate f; do
    printf '%s\t%s\n' "$crate" "$(wc -l < "$f")"
done | awk -F'\t' '{ n[$1]++; l[$1] += $2 } END { for (c in n) printf "%8d %6d  %s\n", l[c], n[c], (c == "." ? "tg (root)" : c) }' | sort -rn

echo
echo "The $most longest files (lines):"
for f in $files; do printf '%8d  %s\n' "$(wc -l < "$f")" "$f"; done | sort -rn | awk -v n="$most" 'NR <= n'

echo
echo "The $most longest functions (lines):"
# a small lexer: strings (also raw, over lines), character literals and comments are blanked,
# then each `fn` is followed from its opening brace to the brace that closes it
for f in $files; do
    awk -v file="$f" '
        function blank(line,    out, i, c, n2) {
            out = ""
            i = 1
            while (i <= length(line)) {
                c = substr(line, i, 1)
                if (raw != "") {
                    if (substr(line, i, length(raw)) == raw) { i += length(raw); raw = "" } else i++
                    continue
                }
                if (instr) {
                    if (c == "\\") i += 2
                    else { if (c == "\"") instr = 0; i++ }
                    continue
                }
                if (incomment) {
                    if (substr(line, i, 2) == "*/") { incomment = 0; i += 2 } else i++
                    continue
                }
                if (substr(line, i, 2) == "//") break
                if (substr(line, i, 2) == "/*") { incomment = 1; i += 2; continue }
                if (match(substr(line, i), /^r#*"/)) {
                    n2 = RLENGTH - 2
                    raw = "\"" substr("##########", 1, n2)
                    i += RLENGTH
                    continue
                }
                if (c == "\"") { instr = 1; i++; continue }
                if (match(substr(line, i), /^'"'"'(\\.|[^\\'"'"'])'"'"'/)) { i += RLENGTH; out = out " "; continue }
                out = out c
                i++
            }
            return out
        }
        {
            code = blank($0)
            if (match(code, /(^|[^A-Za-z0-9_])fn [A-Za-z_][A-Za-z0-9_]*/)) {
                name = substr(code, RSTART, RLENGTH)
                sub(/^[^f]*fn /, "", name)
                pending = name; pending_line = NR
            }
            for (i = 1; i <= length(code); i++) {
                c = substr(code, i, 1)
                if (c == "{") {
                    depth++
                    if (pending != "") { top++; fname[top] = pending; fstart[top] = pending_line; fdepth[top] = depth; pending = "" }
                } else if (c == "}") {
                    if (top > 0 && fdepth[top] == depth) {
                        printf "%8d  %s:%d %s\n", NR - fstart[top] + 1, file, fstart[top], fname[top]
                        top--
                    }
                    depth--
                } else if (c == ";" && pending != "") {
                    pending = ""  # a declaration without a body (trait items, extern blocks)
                }
            }
        }' "$f"
done | sort -rn | awk -v n="$most" 'NR <= n'
