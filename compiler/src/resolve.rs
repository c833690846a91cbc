//! Names to meanings: events, verbs, stop reasons and field paths, with "did you mean".
//!
//! Invariant: visibility of fields on events comes from the runtime's single table
//! ([`Field::visible_on`]); this module only reports what it says, with spans.

use rulesc_grammar::{print, Ident, Path, PathSegment as AstSegment, Span};
use rulesc_runtime::{
    EventKind, Field, FieldPath, PathSegment, StopReason, Verb, MAX_PATH_SEGMENTS,
};

use crate::codes;
use crate::diagnostic::Diagnostic;
use crate::hint;
use crate::source::FileId;

/// The known name nearest to `name`, if it is close enough to be a typo
///
/// Close enough: at most a third of the longer name's length in edits (at least one), so
/// `stpes` finds `steps` and `pre_tool` finds `pre_tool_use`, but `x` finds nothing.
pub(crate) fn suggest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let name_len = name.chars().count();
    candidates
        .into_iter()
        .map(|candidate| (strsim::damerau_levenshtein(name, candidate), candidate))
        .filter(|(distance, candidate)| {
            *distance <= (name_len.max(candidate.chars().count()) / 3).max(1)
        })
        .min_by_key(|(distance, candidate)| (*distance, *candidate))
        .map(|(_, candidate)| candidate)
}

/// The event named by `ident`, or E010 in `diags`; a host's name for an event
/// (`before_tool`) suggests that event
pub(crate) fn event(file: FileId, ident: &Ident, diags: &mut Vec<Diagnostic>) -> Option<EventKind> {
    named(
        file,
        ident,
        &EventKind::ALL,
        (EventKind::name, |name| {
            hint::host_event(name).map(EventKind::name)
        }),
        codes::unknown_event,
        diags,
    )
}

/// The verb named by `ident`, or E013 in `diags`; another tool's word for a verb (`deny`)
/// suggests that verb
pub(crate) fn verb(file: FileId, ident: &Ident, diags: &mut Vec<Diagnostic>) -> Option<Verb> {
    named(
        file,
        ident,
        &Verb::ALL,
        (Verb::name, |name| hint::verb_alias(name).map(Verb::name)),
        codes::unknown_verb,
        diags,
    )
}

/// The stop reason named by `ident`, or E015 in `diags`
pub(crate) fn stop_reason(
    file: FileId,
    ident: &Ident,
    diags: &mut Vec<Diagnostic>,
) -> Option<StopReason> {
    named(
        file,
        ident,
        &StopReason::ALL,
        (StopReason::name, |_| None),
        codes::unknown_stop_reason,
        diags,
    )
}

/// How a kind of name is spelt: the name of each known value, and the known name another
/// word stands for
type Spelling<T> = (fn(T) -> &'static str, fn(&str) -> Option<&'static str>);

/// The one of `known` that `ident` names, or the diagnostic `unknown` builds, with the known
/// name `ident` stands for or else the nearest one, in `diags`
fn named<T: Copy>(
    file: FileId,
    ident: &Ident,
    known: &[T],
    (name_of, alias): Spelling<T>,
    unknown: fn(FileId, Span, &str, Option<&str>) -> Diagnostic,
    diags: &mut Vec<Diagnostic>,
) -> Option<T> {
    let names = known.iter().map(|candidate| name_of(*candidate));
    let found = known
        .iter()
        .copied()
        .find(|candidate| name_of(*candidate) == ident.name);
    if found.is_none() {
        diags.push(unknown(
            file,
            ident.span,
            &ident.name,
            alias(&ident.name).or_else(|| suggest(&ident.name, names)),
        ));
    }
    found
}

/// The field a path names (a fixed field, `error.kind`, `arg.<path>`, `metadata.<path>` or
/// `result.<path>`), or E011 in `diags`
pub(crate) fn field(file: FileId, path: &Path, diags: &mut Vec<Diagnostic>) -> Option<Field> {
    let text = print::path(path);
    let help = match path.segments.split_first() {
        Some((AstSegment::Name(root), rest)) => match root.name.as_str() {
            "arg" | "metadata" if rest.is_empty() => {
                Some(format!("`{0}` needs a key: `{0}.<key>`", root.name))
            }
            "arg" | "metadata" | "result" if !rest.is_empty() => {
                let json_path = json_path(file, rest, diags)?;
                return Some(match root.name.as_str() {
                    "arg" => Field::Arg(json_path),
                    "metadata" => Field::Metadata(json_path),
                    _ => Field::ResultPath(json_path),
                });
            }
            _ => match Field::from_name(&text) {
                Some(field) => return Some(field),
                None => field_help(root, rest, &text),
            },
        },
        _ => None,
    };
    diags.push(codes::unknown_field(file, path.span, &text, help));
    None
}

/// The help of an unknown field: the nearest field, the nearest root (`args.command` is
/// `arg.command`), or that a fixed field has no parts
fn field_help(root: &Ident, rest: &[AstSegment], text: &str) -> Option<String> {
    if let Some(name) = suggest(text, Field::names()) {
        return codes::unknown_field_help(Some(name));
    }
    if rest.is_empty() {
        return None;
    }
    if let Some(name) = suggest(&root.name, ["arg", "metadata", "error"]) {
        let tail = text.get(root.name.len()..).unwrap_or_default();
        return codes::unknown_field_help(Some(&format!("{name}{tail}")));
    }
    Field::from_name(&root.name).map(|_| format!("`{}` has no parts; use it alone", root.name))
}

/// The JSON path of the segments after `arg` or `metadata`, or E021 in `diags` for an
/// index too large or a quoted key with a bad escape, E017 for too many segments
pub(crate) fn json_path(
    file: FileId,
    segments: &[AstSegment],
    diags: &mut Vec<Diagnostic>,
) -> Option<FieldPath> {
    if segments.len() > MAX_PATH_SEGMENTS {
        let start = segments.first().map_or(Span::default(), AstSegment::span);
        let end = segments.last().map_or(Span::default(), AstSegment::span);
        diags.push(codes::path_too_long(
            file,
            Span::new(start.start, end.end),
            segments.len(),
            MAX_PATH_SEGMENTS,
        ));
        return None;
    }
    let mut path = FieldPath::default();
    for segment in segments {
        path.segments.push(match segment {
            AstSegment::Name(ident) => PathSegment::Key(ident.name.clone()),
            AstSegment::Quoted { key, .. } => {
                PathSegment::Key(crate::literal::string(file, &key.name, key.span, diags)?)
            }
            AstSegment::Index { text, span } if text == "*" => {
                diags.push(codes::invalid_literal(
                    file,
                    *span,
                    "`[*]` stands for every element of a list only in the path of a `label`"
                        .to_owned(),
                    Some(
                        "test the elements of a list with `any` or `all`: `any arg.to ~ \"*@example.com\"`"
                            .to_owned(),
                    ),
                ));
                return None;
            }
            AstSegment::Index { text, span } => {
                let index = crate::types::decode_int(text, *span)
                    .ok()
                    .and_then(|index| u64::try_from(index).ok());
                let Some(index) = index else {
                    diags.push(codes::invalid_literal(
                        file,
                        *span,
                        format!("index `{text}` is too large"),
                        None,
                    ));
                    return None;
                };
                PathSegment::Index(index)
            }
        });
    }
    Some(path)
}

/// E012 when `field` (written at `span`) is not visible on some of `events`
pub(crate) fn check_visible(
    file: FileId,
    field: &Field,
    span: Span,
    events: &[(EventKind, Span)],
) -> Option<Diagnostic> {
    let blind: Vec<(EventKind, Span)> = events
        .iter()
        .filter(|(kind, _)| !field.visible_on(*kind))
        .copied()
        .collect();
    (!blind.is_empty()).then(|| codes::field_not_visible(file, span, field, &blind))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ident(name: &str) -> Ident {
        Ident {
            name: name.to_owned(),
            span: Span::new(0, u32::try_from(name.len()).unwrap()),
        }
    }

    fn path(parts: &[&str]) -> Path {
        Path {
            segments: parts
                .iter()
                .map(|part| match part.parse::<u64>() {
                    Ok(_) => AstSegment::Index {
                        text: (*part).to_owned(),
                        span: Span::new(0, 1),
                    },
                    Err(_) => AstSegment::Name(ident(part)),
                })
                .collect(),
            span: Span::new(0, 10),
        }
    }

    #[test]
    fn typos_get_the_nearest_name() {
        assert_eq!(suggest("stpes", Field::names()), Some("steps"));
        assert_eq!(
            suggest("pre_tool", EventKind::ALL.map(EventKind::name)),
            Some("pre_tool_use")
        );
        assert_eq!(suggest("x", Field::names()), None);
        assert_eq!(suggest("completely_else", Field::names()), None);
    }

    fn field_of(parts: &[&str]) -> Result<Field, Box<Diagnostic>> {
        let mut diags = Vec::new();
        field(FileId(0), &path(parts), &mut diags).ok_or_else(|| Box::new(diags.remove(0)))
    }

    #[test]
    fn fixed_fields_and_error_parts() {
        assert_eq!(field_of(&["steps"]), Ok(Field::Steps));
        assert_eq!(field_of(&["error", "kind"]), Ok(Field::ErrorKind));
        let err = field_of(&["stpes"]).unwrap_err();
        assert_eq!(err.code, codes::UNKNOWN_FIELD);
        assert_eq!(err.help.as_deref(), Some("did you mean `steps`?"));
    }

    #[test]
    fn arg_and_metadata_paths() {
        let arg = field_of(&["arg", "paths", "0"]).unwrap();
        assert_eq!(arg.to_string(), "arg.paths[0]");
        let meta = field_of(&["metadata", "tainted"]).unwrap();
        assert_eq!(meta.to_string(), "metadata.tainted");
        let bare = field_of(&["metadata"]).unwrap_err();
        assert!(bare.help.unwrap().contains("metadata.<key>"));
    }

    #[test]
    fn a_near_root_is_suggested_with_its_path() {
        let err = field_of(&["args", "command"]).unwrap_err();
        assert_eq!(err.help.as_deref(), Some("did you mean `arg.command`?"));
    }

    #[test]
    fn parts_of_fixed_fields_are_unknown() {
        let err = field_of(&["tool", "name"]).unwrap_err();
        assert_eq!(err.message, "unknown field `tool.name`");
    }

    #[test]
    fn visibility_names_the_blind_events() {
        let events = [
            (EventKind::PreToolUse, Span::new(3, 15)),
            (EventKind::BeforeStep, Span::new(17, 28)),
        ];
        let diag = check_visible(FileId(0), &Field::Tool, Span::new(34, 38), &events).unwrap();
        assert_eq!(diag.message, "field `tool` is not visible in `before_step`");
        assert_eq!(diag.secondary.len(), 1);
        assert!(check_visible(FileId(0), &Field::Steps, Span::new(0, 1), &events).is_none());
    }
}
