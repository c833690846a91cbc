//! The shipped policy library `rules/`: every file compiles (its compiled JSON is pinned),
//! the set is lint-clean and formatted, and its inline tests and scenarios pass, as a set
//! and file by file.

#![expect(
    clippy::unwrap_used,
    reason = "a library file that cannot be read or compiled should stop the test"
)]

use crate::common;

use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The `.rules` files of the library, sorted
fn library_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(Path::new(ROOT).join("rules"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "rules"))
        .collect();
    files.sort();
    files
}

/// Exit code, stdout and stderr of `rulesc args...` run at the repository's root
fn rulesc(args: &[&str]) -> (i32, String, String) {
    common::rulesc(ROOT, args)
}

#[test]
fn every_file_compiles_to_the_pinned_json() {
    let files = library_files();
    assert_eq!(files.len(), 17, "{files:?}");
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let policy = rulesc::compile_str(&name, &text)
            .unwrap_or_else(|diagnostics| panic!("{name} does not compile:\n{diagnostics}"));
        let json: serde_json::Value = serde_json::from_str(&policy.to_json()).unwrap();
        insta::with_settings!({prepend_module_to_snapshot => false, omit_expression => true}, {
            insta::assert_snapshot!(
                format!("library_{}", name.trim_end_matches(".rules")),
                // Keys sorted whatever serde_json's features: the pinned text is the policy's
                // content, not the order its fields are declared in.
                format!("{:#}", rulesc::SortedJson(&json))
            );
        });
    }
}

#[test]
fn the_set_is_lint_clean() {
    let (code, stdout, stderr) = rulesc(&["check", "--deny-warnings", "rules/"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(stdout, "0 errors, 0 warnings\n");
}

#[test]
fn every_file_is_formatted() {
    let (code, stdout, stderr) = rulesc(&["fmt", "--check", "rules/"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
}

#[test]
fn tests_and_scenarios_pass_as_a_set() {
    let (code, stdout, stderr) = rulesc(&["test", "rules/"]);
    insta::with_settings!({prepend_module_to_snapshot => false, omit_expression => true}, {
        insta::assert_snapshot!(
            "library_test",
            format!("exit: {code}\n--- stdout\n{stdout}--- stderr\n{stderr}")
        );
    });
    assert_eq!(code, 0);
}

#[test]
fn each_file_passes_its_own_tests_alone() {
    for path in library_files() {
        let shown = path
            .strip_prefix(ROOT)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let (code, stdout, stderr) = rulesc(&["test", &shown]);
        assert_eq!(code, 0, "{shown}: {stdout}{stderr}");
        assert!(stdout.ends_with(" passed, 0 failed\n"), "{shown}: {stdout}");
    }
}
