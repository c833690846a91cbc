//! What the runtime refuses of a rule is refused by `rulesc check` with the code of the
//! problem at its place in the source, and still refused by the loaders of compiled JSON,
//! which cannot trust what they read: each rule is checked once on each path, by the
//! runtime's one check.

use serde_json::Value;

use rulesc::{EventKind, Policy, PolicyError, Verb};

use crate::common;

/// A refused rule: its source, the code `rulesc check` reports with the text it
/// underlines, the compiled JSON of an accepted sibling made into the same rule by writing
/// one value at a JSON pointer, and the runtime's refusal of that JSON
struct Refused {
    source: &'static str,
    code: &'static str,
    underlined: &'static str,
    accepted: &'static str,
    made_refused: (&'static str, &'static str),
    refusal: PolicyError,
}

fn cases() -> Vec<Refused> {
    vec![
        Refused {
            source: "@id(\"r\")\non before_step when steps > 20 block\n",
            code: "E014",
            underlined: "block",
            accepted: "@id(\"r\")\non before_step when steps > 20 allow\n",
            made_refused: ("/rules/0/action/decide/verb", "block"),
            refusal: PolicyError::VerbNotAllowed {
                rule: "r".to_owned(),
                verb: Verb::Block,
                event: EventKind::BeforeStep,
            },
        },
        Refused {
            source: "@id(\"r\")\non pre_tool_use when tool == \"rm\" block completed\n",
            code: "E016",
            underlined: "completed",
            accepted: "@id(\"r\")\non pre_tool_use when tool == \"rm\" block\n",
            made_refused: ("/rules/0/action/decide/stop_reason", "completed"),
            refusal: PolicyError::StopReasonNotAllowed {
                rule: "r".to_owned(),
                verb: Verb::Block,
            },
        },
        Refused {
            source: "@id(\"prelude:r\")\non pre_tool_use when tool == \"rm\" block\n",
            code: "E033",
            underlined: "\"prelude:r\"",
            accepted: "@id(\"r\")\non pre_tool_use when tool == \"rm\" block\n",
            made_refused: ("/rules/0/id", "prelude:r"),
            refusal: PolicyError::ReservedId("prelude:r".to_owned()),
        },
        Refused {
            source: "@id(\"r\")\non pre_tool_use when tool == \"rm\" block\n\
                     @id(\"r\")\non pre_tool_use when tool == \"dd\" block\n",
            code: "E030",
            underlined: "\"r\"",
            accepted: "@id(\"r\")\non pre_tool_use when tool == \"rm\" block\n\
                       @id(\"s\")\non pre_tool_use when tool == \"dd\" block\n",
            made_refused: ("/rules/1/id", "r"),
            refusal: PolicyError::DuplicateId("r".to_owned()),
        },
    ]
}

#[test]
fn check_reports_a_refused_rule_with_its_own_code_at_its_place() {
    for case in cases() {
        let checked = rulesc::check_source("refused.rules", case.source);
        assert!(checked.policy.is_none(), "{}", case.source);
        let diagnostics = checked.diagnostics.diagnostics();
        let codes: Vec<&str> = diagnostics.iter().map(|diag| diag.code.id).collect();
        assert_eq!(codes, [case.code], "{}", case.source);
        let span = diagnostics.first().unwrap().primary.span;
        assert_eq!(
            case.source.get(span.range()),
            Some(case.underlined),
            "{}",
            case.source
        );
    }
}

#[test]
fn the_loaders_of_compiled_json_refuse_the_same_rule() {
    let folder = tempfile::tempdir().unwrap();
    for case in cases() {
        let accepted = rulesc::compile_str("accepted.rules", case.accepted).unwrap();
        let mut json: Value = serde_json::from_str(&accepted.to_json()).unwrap();
        let (pointer, value) = case.made_refused;
        *json.pointer_mut(pointer).unwrap() = value.into();
        let refused = json.to_string();
        let expected = format!("invalid compiled policy: {}", case.refusal);
        let err = Policy::from_json(&refused).unwrap_err();
        assert_eq!(err.to_string(), expected);
        let path = folder.path().join("refused.json");
        std::fs::write(&path, &refused).unwrap();
        let (code, stdout, stderr) =
            common::rulesc(folder.path(), &["check", path.to_str().unwrap()]);
        assert_eq!(code, 2, "{stdout}{stderr}");
        assert!(stderr.contains(&expected), "{stderr}");
    }
}
