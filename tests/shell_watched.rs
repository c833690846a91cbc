//! A program only a policy names is watched behind a program the shell reader has no row
//! for, as the reader's own are (docs/shell.md): `eatmydata terraform destroy` runs
//! `terraform destroy` as far as a guard on `terraform` can tell, in the policy as compiled
//! and as the hook's cache reads it back; the same words given as data, or no such word,
//! run nothing.

#![expect(
    clippy::unwrap_used,
    reason = "a policy that does not compile should fail the test"
)]

use serde_json::json;

const POLICY: &str =
    r#"on pre_tool_use when shell(program == "terraform" and operand == "destroy") block "x""#;

fn blocks(policy: &rulesc::Policy, command: &str) -> bool {
    let event: rulesc::Event = serde_json::from_value(json!({
        "event": "pre_tool_use", "tool": "Bash", "arg": {"command": command},
        "cwd": "/home/user/project",
    }))
    .unwrap();
    policy.evaluate(&event).resolution.decision == rulesc::Decision::Block
}

#[test]
fn a_program_the_policy_tests_is_read_behind_an_unlisted_program() {
    let compiled = rulesc::compile_str("terraform.rules", POLICY).unwrap();
    let cached = rulesc::Policy::from_checked_compact(&compiled.to_compact()).unwrap();
    for policy in [&compiled, &cached] {
        for command in [
            "terraform destroy",
            "eatmydata terraform destroy",
            "trickle -d 10 terraform destroy",
            "./run.sh /usr/local/bin/terraform destroy -auto-approve",
        ] {
            assert!(blocks(policy, command), "{command}");
        }
        for command in [
            "eatmydata make build",
            "echo terraform destroy",
            "man terraform",
            "which terraform",
            "notify 'terraform destroy'",
            "terraform plan",
        ] {
            assert!(!blocks(policy, command), "{command}");
        }
    }
}

#[test]
fn a_program_no_policy_tests_is_not() {
    let policy = rulesc::compile_str(
        "helm.rules",
        r#"on pre_tool_use when shell(program == "helm" and operand == "destroy") block "x""#,
    )
    .unwrap();
    assert!(!blocks(&policy, "eatmydata terraform destroy"));
    assert!(blocks(&policy, "eatmydata helm destroy"));
}
