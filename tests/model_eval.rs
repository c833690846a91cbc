//! `rulesc eval` held to the reference model (`tests/model/`): random policies, compiled by
//! the real compiler, evaluate random event sequences, and every outcome (decision, stop
//! reason, message, `resolved_by`, evaluations, effects, the metadata carried over) must be
//! the model's, to the byte of its JSON.
//!
//! `RULESC_MODEL_CASES` sets the number of cases (10,000 by default); a failure prints the
//! seed, the policy and the events, and `RULESC_MODEL_SEED=<seed>` replays that one case.

use crate::model;

use crate::model::gen::{self, Rng};
use rulesc::events::evaluate_execution;
use rulesc::{compile_str, Limits};

/// Runs one case; `Err` describes the disagreement
fn case(seed: u64) -> Result<bool, String> {
    let mut rng = Rng::new(seed);
    let (source, setting) = gen::policy(&mut rng);
    let Ok(policy) = compile_str("p.rules", &source) else {
        return Ok(false);
    };
    let policy = policy.with_limits(Limits {
        max_retries: setting.max_retries,
        max_stop_requests: setting.max_stop_requests,
        ..Limits::default()
    });
    let mut events: Vec<rulesc::Event> = Vec::new();
    for _ in 0..=rng.below(8) {
        // A repeated event makes runs of the same tool call, for `same_call_count`.
        match events.last() {
            Some(last) if rng.chance(30) => events.push(last.clone()),
            // A tool's result with fragments in it, for `label result` and `from`.
            _ if rng.chance(20) => {
                let mut event = gen::event(&mut rng);
                event.kind = rulesc::EventKind::PostToolUse;
                event.result = Some(rulesc::ToolOutput::from_text(rng.pick(&gen::PROSE)));
                events.push(event);
            }
            _ => events.push(gen::event(&mut rng)),
        }
    }
    let expected = model::execution(policy.user_rules(), &setting, &events);
    let actual = evaluate_execution(&policy, &events);
    for ((want, got), event) in expected.iter().zip(&actual).zip(&events) {
        let got = serde_json::to_value(got).map_err(|err| err.to_string())?;
        if *want != got {
            return Err(format!(
                "seed {seed}\npolicy:\n{source}\nevent: {}\nmodel:   {want}\nruntime: {got}",
                serde_json::to_string(event).unwrap_or_default()
            ));
        }
    }
    Ok(true)
}

#[test]
fn eval_agrees_with_the_model() {
    if let Err(report) = gen::check_cases(0x005E_ED0F_E7A1, case) {
        panic!("{report}");
    }
}
