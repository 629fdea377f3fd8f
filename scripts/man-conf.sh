#!/bin/sh
# Writes waypointd.conf(5) to standard output: man/waypointd.conf.5.in with its KEYS line
# replaced by every key of config/waypointd.conf (the shipped file, which a test holds to the
# parser's key table), each with its default and its comment. One source for both, so the page
# cannot drift from the file or the parser.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
awk '
function escape(text) {
    gsub(/\\/, "\\e", text)
    if (text ~ /^[.'"'"']/) text = "\\&" text
    return text
}
# mdoc wants each sentence on a line of its own.
function sentences(line) {
    while (match(line, /\. +[A-Z(`]/)) {
        print escape(substr(line, 1, RSTART))
        line = substr(line, RSTART + RLENGTH - 1)
    }
    if (line != "") print escape(line)
}
function flush(   i) {
    for (i = 1; i <= nkeys; i++) print ".It Cm " keys[i] (defaults[i] == "" ? "" : " Ar " defaults[i])
    inliteral = 0
    for (i = 1; i <= ntext; i++) {
        if (text[i] == "") {
            if (inliteral) { print ".Ed"; inliteral = 0 }
            if (i > 1 && i < ntext) print ".Pp"
        } else if (text[i] ~ /^  /) {
            if (!inliteral) { print ".Bd -literal -offset indent"; inliteral = 1 }
            print escape(substr(text[i], 3))
        } else {
            if (inliteral) { print ".Ed"; inliteral = 0 }
            sentences(text[i])
        }
    }
    if (inliteral) print ".Ed"
    nkeys = 0; ntext = 0
}
/^# --------------------*$/ { rule++; next }
rule == 0 { next }
rule % 2 == 1 && /^# [A-Z]/ {
    if (inlist) { flush(); print ".El" }
    print ".Ss " substr($0, 3)
    print ".Bl -tag -width Ds"
    inlist = 1
    next
}
/^#[a-z][a-z0-9-]*( |$)/ {
    line = substr($0, 2)
    split(line, parts, " ")
    keys[++nkeys] = parts[1]
    defaults[nkeys] = substr(line, length(parts[1]) + 2)
    next
}
/^#( |$)/ {
    if (nkeys > 0) flush()
    text[++ntext] = substr($0, 3)
    next
}
/^$/ { if (nkeys > 0) flush(); next }
END { if (nkeys > 0) flush(); if (inlist) print ".El" }
' "$root/config/waypointd.conf" > "${TMPDIR:-/tmp}/waypointd-keys.$$"
awk -v keys="${TMPDIR:-/tmp}/waypointd-keys.$$" '
$0 == ".\\\" KEYS" { while ((getline line < keys) > 0) print line; next }
{ print }
' "$root/man/waypointd.conf.5.in"
rm -f "${TMPDIR:-/tmp}/waypointd-keys.$$"
