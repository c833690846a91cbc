//! The documents the client has open, with the text it last sent for each.
//!
//! The server syncs whole documents (`TextDocumentSyncKind::FULL`): every change carries the
//! full text, so no edit is ever applied to a stale copy.

use std::collections::BTreeMap;

use lsp_types::Uri;
use rulesc_compiler::SourceFile;

/// The open documents, by URI
#[derive(Debug, Default)]
pub(crate) struct Documents {
    open: BTreeMap<String, SourceFile>,
}

impl Documents {
    /// Opens `uri` with `text`, or replaces its text
    pub(crate) fn set(&mut self, uri: &Uri, text: String) {
        let path = uri.path().as_str().to_owned();
        let source = SourceFile::new(file_name(uri), path, text);
        self.open.insert(uri.as_str().to_owned(), source);
    }

    /// Forgets `uri`
    pub(crate) fn close(&mut self, uri: &Uri) {
        self.open.remove(uri.as_str());
    }

    /// The open document `uri`
    pub(crate) fn get(&self, uri: &Uri) -> Option<&SourceFile> {
        self.open.get(uri.as_str())
    }
}

/// The name a file given alone to `rulesc check` has: its base name, percent-decoded
/// (`file:///p/my%20guard.rules` is `my guard.rules`), so default rule ids agree
fn file_name(uri: &Uri) -> String {
    let segment = uri.path().segments().next_back();
    segment
        .and_then(|segment| segment.decode().into_string().ok())
        .map(|name| name.into_owned())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| uri.as_str().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name_of(uri: &str) -> String {
        file_name(&uri.parse().unwrap())
    }

    #[test]
    fn a_document_is_named_by_its_decoded_base_name() {
        assert_eq!(name_of("file:///home/a/guard.rules"), "guard.rules");
        assert_eq!(name_of("file:///home/a/my%20guard.rules"), "my guard.rules");
        assert_eq!(name_of("untitled:Untitled-1"), "Untitled-1");
    }
}
