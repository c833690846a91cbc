//! The shape every engine is compared on: N rules "block when the tool name matches
//! `tool{i}_*`", and two requests, one that matches nothing (every rule must be considered)
//! and one that matches exactly one rule.

/// Which request is decided
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Request {
    /// A tool no rule names: `toolbox_list` shares the rules' `tool` prefix but no rule's
    /// `tool{i}_` prefix
    NoMatch,
    /// `tool{n/2}_run`: exactly the rule in the middle matches
    OneMatch,
}

impl Request {
    /// Both requests
    pub const ALL: [Request; 2] = [Request::NoMatch, Request::OneMatch];

    /// The name used in benchmark ids
    pub fn name(self) -> &'static str {
        match self {
            Request::NoMatch => "no_match",
            Request::OneMatch => "one_match",
        }
    }

    /// The tool name this request calls, against a policy of `n_rules` rules
    pub fn tool(self, n_rules: usize) -> String {
        match self {
            Request::NoMatch => "toolbox_list".to_owned(),
            Request::OneMatch => format!("tool{}_run", n_rules / 2),
        }
    }

    /// How many rules match this request
    pub fn n_matches(self) -> usize {
        match self {
            Request::NoMatch => 0,
            Request::OneMatch => 1,
        }
    }
}

/// The shape in rulesc: `on pre_tool_use when tool ~ "tool{i}_*" block`, with an id and no
/// message, as the peers' rules have
pub fn rulesc_source(n_rules: usize) -> String {
    let mut source = String::from("policy \"tools\"\n");
    for rule_idx in 0..n_rules {
        source.push_str(&format!(
            "\n@id(\"tool{rule_idx}\")\non pre_tool_use when tool ~ \"tool{rule_idx}_*\" block\n"
        ));
    }
    source
}

/// The shape in Cedar: one `permit` for everything and one `forbid` per rule, `like` on the
/// tool name carried in the context
pub fn cedar_source(n_rules: usize) -> String {
    let mut source = String::from("permit (principal, action, resource);\n");
    for rule_idx in 0..n_rules {
        source.push_str(&format!(
            "@id(\"tool{rule_idx}\")\nforbid (principal, action == Action::\"call\", resource) when {{ context.tool like \"tool{rule_idx}_*\" }};\n"
        ));
    }
    source
}

/// The shape in Rego: a partial set `deny` with one `startswith` rule per entry
pub fn rego_source(n_rules: usize) -> String {
    let mut source = String::from("package agent\n\nimport rego.v1\n\n");
    for rule_idx in 0..n_rules {
        source.push_str(&format!(
            "deny contains \"tool{rule_idx}\" if startswith(input.tool, \"tool{rule_idx}_\")\n"
        ));
    }
    source
}

/// The shape as globs, for one `globset::GlobSet`: the floor of what matching costs
pub fn globs(n_rules: usize) -> Vec<String> {
    (0..n_rules)
        .map(|rule_idx| format!("tool{rule_idx}_*"))
        .collect()
}
