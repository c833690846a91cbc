//! The server's lifecycle and the dispatch of each message to its handler.
//!
//! Before `initialize`, a request gets `ServerNotInitialized` and a notification is dropped
//! (the protocol's rule); after `shutdown`, a request gets `InvalidRequest`; `exit` ends the
//! loop. A handler's failure is an error response with a code and a message in user words.

use std::io::{self, BufRead, Write};

use lsp_server::{ErrorCode, Message, Notification, Request, Response, ResponseError};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, LogMessage,
    Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    Completion, DocumentSymbolRequest, Formatting, GotoDefinition, HoverRequest, Initialize,
    Request as _, Shutdown,
};
use lsp_types::{
    CompletionOptions, CompletionResponse, DocumentSymbolResponse, GotoDefinitionResponse,
    InitializeResult, LogMessageParams, MessageType, OneOf, Position, PublishDiagnosticsParams,
    ServerCapabilities, ServerInfo, TextDocumentSyncCapability, TextDocumentSyncKind, TextEdit,
    Uri,
};
use rulesc_compiler::{FormatError, SourceFile};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::documents::Documents;
use crate::position::Lines;
use crate::transport::{self, Frame};
use crate::{completion, diagnostics, hover, symbols};

/// How the session ended
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// `exit` after `shutdown`: exit status 0
    Clean,
    /// `exit` without `shutdown`, or the input ended: exit status 1, as the protocol says
    WithoutShutdown,
}

/// Where the session is
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lifecycle {
    Uninitialized,
    Running,
    ShuttingDown,
}

/// Serves one client: reads messages from `input`, writes answers and notifications to
/// `output`, until `exit` or the end of `input`
///
/// # Errors
///
/// Only when reading `input` or writing `output` fails.
pub fn run(mut input: impl BufRead, mut output: impl Write) -> io::Result<End> {
    let mut server = Server {
        lifecycle: Lifecycle::Uninitialized,
        documents: Documents::default(),
        output: &mut output,
    };
    while let Some(frame) = transport::read_frame(&mut input)? {
        match frame {
            Frame::Malformed { id, error } => transport::write_error(server.output, &id, &error)?,
            Frame::Message(Message::Request(request)) => server.request(request)?,
            Frame::Message(Message::Notification(notification)) => {
                if notification.method == "exit" {
                    return Ok(match server.lifecycle {
                        Lifecycle::ShuttingDown => End::Clean,
                        Lifecycle::Uninitialized | Lifecycle::Running => End::WithoutShutdown,
                    });
                }
                server.notification(notification)?;
            }
            // The server sends no requests, so a response answers nothing.
            Frame::Message(Message::Response(_)) => {}
        }
    }
    Ok(End::WithoutShutdown)
}

/// The session's state and where it writes
struct Server<'out, W: Write> {
    lifecycle: Lifecycle,
    documents: Documents,
    output: &'out mut W,
}

/// A handler's answer: a result, or the error to answer with
type Answer = Result<Value, ResponseError>;

impl<W: Write> Server<'_, W> {
    fn send(&mut self, message: Message) -> io::Result<()> {
        transport::write_message(self.output, &message)
    }

    fn request(&mut self, request: Request) -> io::Result<()> {
        let answer = match (self.lifecycle, request.method.as_str()) {
            (Lifecycle::Uninitialized, Initialize::METHOD) => {
                self.lifecycle = Lifecycle::Running;
                to_value(&initialize_result())
            }
            (Lifecycle::Uninitialized, method) => Err(transport::error(
                ErrorCode::ServerNotInitialized,
                format!("`{method}` came before `initialize`; send `initialize` first"),
            )),
            (Lifecycle::ShuttingDown, method) => Err(transport::error(
                ErrorCode::InvalidRequest,
                format!("`{method}` came after `shutdown`; only `exit` is accepted now"),
            )),
            (Lifecycle::Running, Initialize::METHOD) => Err(transport::error(
                ErrorCode::InvalidRequest,
                "the server is already initialized".to_owned(),
            )),
            (Lifecycle::Running, Shutdown::METHOD) => {
                self.lifecycle = Lifecycle::ShuttingDown;
                Ok(Value::Null)
            }
            (Lifecycle::Running, _) => self.handle(&request),
        };
        let response = match answer {
            Ok(result) => Response {
                id: request.id,
                result: Some(result),
                error: None,
            },
            Err(error) => Response {
                id: request.id,
                result: None,
                error: Some(error),
            },
        };
        self.send(Message::Response(response))
    }

    /// A request of a running server
    fn handle(&self, request: &Request) -> Answer {
        match request.method.as_str() {
            Formatting::METHOD => {
                let params: lsp_types::DocumentFormattingParams = params_of(request)?;
                let source = self.document(&params.text_document.uri)?;
                to_value(&formatting(source)?)
            }
            HoverRequest::METHOD => {
                let params: lsp_types::HoverParams = params_of(request)?;
                let at = params.text_document_position_params;
                let (source, lines, offset) = self.at(&at.text_document.uri, at.position)?;
                to_value(&hover::hover(&source.text, &lines, offset))
            }
            Completion::METHOD => {
                let params: lsp_types::CompletionParams = params_of(request)?;
                let at = params.text_document_position;
                let (source, _, offset) = self.at(&at.text_document.uri, at.position)?;
                let items = completion::completions(&source.text, offset);
                to_value(&CompletionResponse::Array(items))
            }
            DocumentSymbolRequest::METHOD => {
                let params: lsp_types::DocumentSymbolParams = params_of(request)?;
                let source = self.document(&params.text_document.uri)?;
                let found = symbols::document_symbols(source, &Lines::new(&source.text));
                to_value(&DocumentSymbolResponse::Nested(found))
            }
            GotoDefinition::METHOD => {
                let params: lsp_types::GotoDefinitionParams = params_of(request)?;
                let at = params.text_document_position_params;
                let uri = &at.text_document.uri;
                let (source, lines, offset) = self.at(uri, at.position)?;
                let found = symbols::definition(uri, source, &lines, offset);
                to_value(&found.map(GotoDefinitionResponse::Scalar))
            }
            method => Err(transport::error(
                ErrorCode::MethodNotFound,
                format!("the server does not handle `{method}`"),
            )),
        }
    }

    /// The open document `uri`
    fn document(&self, uri: &Uri) -> Result<&SourceFile, ResponseError> {
        self.documents.get(uri).ok_or_else(|| {
            transport::error(
                ErrorCode::InvalidParams,
                format!(
                    "`{}` is not open; send `textDocument/didOpen` first",
                    uri.as_str()
                ),
            )
        })
    }

    /// The open document `uri`, its lines, and the byte offset of `position` in it
    fn at(
        &self,
        uri: &Uri,
        position: Position,
    ) -> Result<(&SourceFile, Lines<'_>, u32), ResponseError> {
        let source = self.document(uri)?;
        let lines = Lines::new(&source.text);
        let offset = lines.offset(position).ok_or_else(|| {
            transport::error(
                ErrorCode::InvalidParams,
                format!(
                    "line {} is past the end of `{}`",
                    position.line,
                    uri.as_str()
                ),
            )
        })?;
        Ok((source, lines, offset))
    }

    fn notification(&mut self, notification: Notification) -> io::Result<()> {
        if self.lifecycle == Lifecycle::Uninitialized {
            return Ok(());
        }
        let changed = match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                extract::<lsp_types::DidOpenTextDocumentParams>(&notification).map(|params| {
                    let document = params.text_document;
                    self.documents.set(&document.uri, document.text);
                    Some((document.uri, Some(document.version)))
                })
            }
            DidChangeTextDocument::METHOD => {
                extract::<lsp_types::DidChangeTextDocumentParams>(&notification).and_then(
                    |params| {
                        // Full sync: the last change holds the whole text.
                        let text = params
                            .content_changes
                            .into_iter()
                            .last()
                            .ok_or_else(|| "it has no change in `contentChanges`".to_owned())?;
                        let document = params.text_document;
                        if self.documents.get(&document.uri).is_none() {
                            return Err(format!("`{}` is not open", document.uri.as_str()));
                        }
                        self.documents.set(&document.uri, text.text);
                        Ok(Some((document.uri, Some(document.version))))
                    },
                )
            }
            DidCloseTextDocument::METHOD => {
                extract::<lsp_types::DidCloseTextDocumentParams>(&notification).map(|params| {
                    let uri = params.text_document.uri;
                    self.documents.close(&uri);
                    // A closed document's diagnostics are cleared.
                    Some((uri, None))
                })
            }
            // Other notifications (`initialized`, `$/cancelRequest`, saves) change nothing.
            _ => Ok(None),
        };
        match changed {
            Ok(Some((uri, version))) => self.publish(uri, version),
            Ok(None) => Ok(()),
            Err(reason) => self.log_error(&format!("ignored `{}`: {reason}", notification.method)),
        }
    }

    /// Publishes the diagnostics of `uri`: none when it is closed (`version` is `None`)
    fn publish(&mut self, uri: Uri, version: Option<i32>) -> io::Result<()> {
        let found = match (version, self.documents.get(&uri)) {
            (Some(_), Some(source)) => diagnostics::diagnostics(&uri, source),
            _ => Vec::new(),
        };
        let params = PublishDiagnosticsParams {
            uri,
            diagnostics: found,
            version,
        };
        self.send(Message::Notification(Notification::new(
            PublishDiagnostics::METHOD.to_owned(),
            params,
        )))
    }

    /// Tells the client why a notification was ignored: a notification has no response
    fn log_error(&mut self, message: &str) -> io::Result<()> {
        let params = LogMessageParams {
            typ: MessageType::ERROR,
            message: message.to_owned(),
        };
        self.send(Message::Notification(Notification::new(
            LogMessage::METHOD.to_owned(),
            params,
        )))
    }
}

/// What the server can do
fn initialize_result() -> InitializeResult {
    InitializeResult {
        capabilities: ServerCapabilities {
            // The protocol's default, said outright: columns count UTF-16 code units.
            position_encoding: Some(lsp_types::PositionEncodingKind::UTF16),
            text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
            document_formatting_provider: Some(OneOf::Left(true)),
            hover_provider: Some(lsp_types::HoverProviderCapability::Simple(true)),
            completion_provider: Some(CompletionOptions {
                trigger_characters: Some(vec![" ".to_owned(), ",".to_owned(), "(".to_owned()]),
                ..CompletionOptions::default()
            }),
            document_symbol_provider: Some(OneOf::Left(true)),
            definition_provider: Some(OneOf::Left(true)),
            ..ServerCapabilities::default()
        },
        server_info: Some(ServerInfo {
            name: "rulesc".to_owned(),
            version: Some(env!("CARGO_PKG_VERSION").to_owned()),
        }),
    }
}

/// The edits that give the document what `rulesc fmt` writes: none when it is formatted
fn formatting(source: &SourceFile) -> Result<Vec<TextEdit>, ResponseError> {
    let formatted = rulesc_compiler::format_source(&source.text).map_err(|err: FormatError| {
        transport::error(
            ErrorCode::RequestFailed,
            format!(
                "cannot format `{}`: {}",
                source.name,
                err.reason(&source.name)
            ),
        )
    })?;
    if formatted == source.text {
        return Ok(Vec::new());
    }
    Ok(vec![TextEdit {
        range: Lines::new(&source.text).whole(),
        new_text: formatted,
    }])
}

/// A request's parameters, or an `InvalidParams` error saying what is wrong with them
fn params_of<P: DeserializeOwned>(request: &Request) -> Result<P, ResponseError> {
    serde_json::from_value(request.params.clone()).map_err(|err| {
        transport::error(
            ErrorCode::InvalidParams,
            format!(
                "the parameters of `{}` are malformed: {err}",
                request.method
            ),
        )
    })
}

/// A notification's parameters, or what is wrong with them
fn extract<P: DeserializeOwned>(notification: &Notification) -> Result<P, String> {
    serde_json::from_value(notification.params.clone())
        .map_err(|err| format!("its parameters are malformed: {err}"))
}

fn to_value(result: &impl serde::Serialize) -> Answer {
    serde_json::to_value(result).map_err(|err| {
        transport::error(
            ErrorCode::InternalError,
            format!("the answer could not be written: {err}"),
        )
    })
}
