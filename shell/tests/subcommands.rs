//! The subcommand of a command is its first operand after the program's own options, as
//! each program's manual gives those that take a value.

use rulesc_shell::{read, Context, Reading};

/// The subcommand of each simple command of `line`; none for a line that cannot be read
fn subcommands(line: &str) -> Vec<Option<String>> {
    match read(line, &Context::default()) {
        Reading::Read(script) => script
            .commands
            .into_iter()
            .map(|command| command.subcommand)
            .collect(),
        Reading::Unreadable(_) => Vec::new(),
    }
}

#[test]
fn global_options_with_a_value_come_before_the_subcommand() {
    for (line, expected) in [
        ("git -C repo push", "push"),
        ("docker --context live system prune", "system"),
        ("kubectl -n prod delete ns web", "delete"),
        ("oc -n prod delete project web", "delete"),
        ("helm -n prod uninstall api", "uninstall"),
        ("flux --context live delete ks apps", "delete"),
        ("talosctl -n 10.0.0.5 reset --graceful=false", "reset"),
        ("gcloud --project p compute instances delete vm1", "compute"),
        ("az --subscription s group delete -n rg", "group"),
        ("doctl -t T compute droplet delete d", "compute"),
        ("aws --profile prod s3 rb s3://b", "s3"),
    ] {
        assert_eq!(
            subcommands(line).first().cloned().flatten().as_deref(),
            Some(expected),
            "{line}"
        );
    }
}
