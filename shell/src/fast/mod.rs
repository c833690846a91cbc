//! The fast reader: a hand-written reader of the shell lines agents write most, which
//! builds for them the very tree tree-sitter-bash builds, many times faster.
//!
//! tree-sitter-bash reads any line but takes about 20 µs per 150 bytes; a 1 KB line of
//! builds and pipelines takes over 100 µs. The fast reader reads a subset in one pass:
//!
//! - words: plain (with `\` escapes), `'...'`, `"..."`, `$NAME`, `${NAME}`, `$(...)` whose
//!   content is itself in the subset, and words glued from these (`--out="$dir"/x`);
//! - lists and pipelines: `&&`, `||`, `|`, and `;`, `&` or a line break between statements;
//! - redirections after a command: `>`, `>>`, `>|`, `&>`, `&>>`, `<`, `<&`, `>&`, each with
//!   an optional descriptor (`2>&1`), and here-strings (`<<< word`);
//! - assignments before a command (`LANG=C sort`) or alone (`X=1; Y=2 Z=3`).
//!
//! It gives up on anything else, and tree-sitter-bash reads the line as before: any other
//! byte outside quotes (`(`, `{`, `[`, `` ` ``, `#`, `!`, a control character, anything
//! past ASCII), a keyword where a command begins (`if`, `case`, `export`, ...), a
//! redirection before the command or after its redirections, a here-document, `$` before
//! anything but a name, `{` or `(` (so `$((`, `$1`, `$?`, `$'...'` too), `==` or `=~` as a
//! word, a line break anywhere but between statements, `\` before a blank or right after a
//! line break. When in doubt it defers: giving up costs only time, reading a line
//! differently would change decisions.
//!
//! The tree it builds has tree-sitter-bash's node kinds, fields and nesting, including its
//! precedences (a redirection after `a && b` applies to the whole list, `a | b > f | c` nests
//! a pipeline in a pipeline), so the one walk in `walk.rs` reads both trees the same way.
//! The differential tests (`shell/tests/fast.rs`) hold the two readers to the same
//! [`crate::Script`] on the corpus and on generated lines.

mod parse;
mod tree;

pub(crate) use parse::read;
