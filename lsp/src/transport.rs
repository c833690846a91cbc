//! The base protocol: messages framed by a `Content-Length` header on a byte stream.
//!
//! Invariant: reading never fails on what a client sends. A frame whose header or body
//! cannot be read is a [`Frame::Malformed`] with the JSON-RPC error to answer, and the
//! stream goes on at the next frame; only the end of the stream or a failing read ends it.

use std::io::{self, BufRead, Read, Write};

use lsp_server::{ErrorCode, Message, ResponseError};
use serde::Serialize;
use serde_json::Value;

/// The largest message body read; a larger one is skipped and answered with an error, so a
/// client cannot make the server hold unbounded memory (the command line's input bound)
pub(crate) const MAX_BODY: usize = 64 * 1024 * 1024;

/// One frame read from the client
#[derive(Debug)]
pub(crate) enum Frame {
    /// A well-formed JSON-RPC message
    Message(Message),
    /// A frame that is not one, with the id it carried (if any could be read) and the error
    /// to answer it with
    Malformed {
        /// The request's id, or `null`
        id: Value,
        /// What was wrong
        error: ResponseError,
    },
}

/// Reads the next frame; `None` at the end of the stream
pub(crate) fn read_frame(input: &mut impl BufRead) -> io::Result<Option<Frame>> {
    let mut length: Option<Result<usize, String>> = None;
    let mut saw_header = false;
    let mut line = String::new();
    loop {
        line.clear();
        if read_header_line(input, &mut line)? == 0 {
            // The end of the stream inside a header is the end of the session.
            return Ok(None);
        }
        let header = line.trim_end_matches(['\r', '\n']);
        if header.is_empty() {
            if saw_header {
                break;
            }
            // Blank lines between frames are tolerated.
            continue;
        }
        saw_header = true;
        if let Some((name, value)) = header.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                let value = value.trim();
                length = Some(value.parse::<usize>().map_err(|_| value.to_owned()));
            }
        }
    }
    let length = match length {
        Some(Ok(length)) => length,
        Some(Err(value)) => {
            return Ok(Some(malformed(
                ErrorCode::ParseError,
                format!("the `Content-Length` header `{value}` is not a number of bytes"),
            )))
        }
        None => {
            return Ok(Some(malformed(
                ErrorCode::ParseError,
                "the message has no `Content-Length` header".to_owned(),
            )))
        }
    };
    if length > MAX_BODY {
        io::copy(&mut input.take(length as u64), &mut io::sink())?;
        return Ok(Some(malformed(
            ErrorCode::InvalidRequest,
            format!("the message has {length} bytes, more than the {MAX_BODY} a message may have"),
        )));
    }
    let mut body = vec![0; length];
    input.read_exact(&mut body)?;
    Ok(Some(parse_body(&body)))
}

/// Reads one header line, at most a few KiB of it: headers are short, and a stream of bytes
/// without a line end must not grow without bound
fn read_header_line(input: &mut impl BufRead, line: &mut String) -> io::Result<usize> {
    const MAX_HEADER_LINE: u64 = 8 * 1024;
    let mut bytes = Vec::new();
    let n_read = input.take(MAX_HEADER_LINE).read_until(b'\n', &mut bytes)?;
    line.push_str(&String::from_utf8_lossy(&bytes));
    Ok(n_read)
}

/// A body read whole: a message, or why it is not one
fn parse_body(body: &[u8]) -> Frame {
    let json: Value = match serde_json::from_slice(body) {
        Ok(json) => json,
        Err(err) => {
            return malformed(
                ErrorCode::ParseError,
                format!("the message is not JSON: {err}"),
            )
        }
    };
    let id = match json.get("id") {
        Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
        _ => Value::Null,
    };
    let has = |key: &str| json.get(key).is_some();
    // Checked before serde reads it: an untagged message would take an object with neither
    // `method` nor `result` for a response, and ignore an `id` it cannot read.
    let shaped = json.is_object()
        && (has("method") || has("result") || has("error"))
        && (!has("id") || !id.is_null());
    let message = if shaped {
        serde_json::from_value::<Message>(json).ok()
    } else {
        None
    };
    match message {
        Some(message) => Frame::Message(message),
        None => Frame::Malformed {
            id,
            error: error(
                ErrorCode::InvalidRequest,
                "the message is not a JSON-RPC request, response or notification: it needs a \
                 `method` or a `result`, and an `id` that is an integer or a string"
                    .to_owned(),
            ),
        },
    }
}

fn malformed(code: ErrorCode, message: String) -> Frame {
    Frame::Malformed {
        id: Value::Null,
        error: error(code, message),
    }
}

/// A JSON-RPC error
pub(crate) fn error(code: ErrorCode, message: String) -> ResponseError {
    ResponseError {
        code: code as i32,
        message,
        data: None,
    }
}

/// Writes `message` as one frame
pub(crate) fn write_message(output: &mut impl Write, message: &Message) -> io::Result<()> {
    write_frame(output, message)
}

/// Writes the answer to a malformed frame; its id may be `null`, which [`Message`] cannot hold
pub(crate) fn write_error(
    output: &mut impl Write,
    id: &Value,
    error: &ResponseError,
) -> io::Result<()> {
    #[derive(Serialize)]
    struct ErrorResponse<'a> {
        id: &'a Value,
        error: &'a ResponseError,
    }
    write_frame(output, &ErrorResponse { id, error })
}

/// Writes one JSON-RPC 2.0 object, framed
fn write_frame(output: &mut impl Write, body: &impl Serialize) -> io::Result<()> {
    #[derive(Serialize)]
    struct JsonRpc<'a, T> {
        jsonrpc: &'static str,
        #[serde(flatten)]
        body: &'a T,
    }
    let text = serde_json::to_string(&JsonRpc {
        jsonrpc: "2.0",
        body,
    })?;
    write!(output, "Content-Length: {}\r\n\r\n{text}", text.len())?;
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(bytes: &[u8]) -> Vec<Frame> {
        let mut input = bytes;
        let mut found = Vec::new();
        while let Some(frame) = read_frame(&mut input).unwrap() {
            found.push(frame);
        }
        found
    }

    fn framed(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    fn error_code(frame: &Frame) -> Option<i32> {
        match frame {
            Frame::Malformed { error, .. } => Some(error.code),
            Frame::Message(_) => None,
        }
    }

    #[test]
    fn a_bad_frame_is_answered_and_the_next_one_read() {
        let stream = [
            framed("{not json"),
            "Content-Length: ten\r\n\r\n".to_owned(),
            framed(r#"{"jsonrpc":"2.0","id":[1],"method":"x"}"#),
            framed(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#),
        ]
        .concat();
        let found = frames(stream.as_bytes());
        let codes: Vec<Option<i32>> = found.iter().map(error_code).collect();
        assert_eq!(codes, [Some(-32700), Some(-32700), Some(-32600), None]);
    }

    #[test]
    fn an_invalid_request_keeps_its_id() {
        let found = frames(framed(r#"{"jsonrpc":"2.0","id":7,"params":{}}"#).as_bytes());
        let [Frame::Malformed { id, error }] = found.as_slice() else {
            panic!("one malformed frame: {found:?}");
        };
        assert_eq!(id, &Value::from(7));
        assert_eq!(error.code, -32600);
    }

    #[test]
    fn an_oversized_body_is_skipped() {
        let stream = format!("Content-Length: {}\r\n\r\n", MAX_BODY + 1);
        let mut bytes = stream.into_bytes();
        bytes.resize(bytes.len() + MAX_BODY + 1, b' ');
        bytes.extend(framed(r#"{"jsonrpc":"2.0","method":"exit"}"#).bytes());
        let found = frames(&bytes);
        let codes: Vec<Option<i32>> = found.iter().map(error_code).collect();
        assert_eq!(codes, [Some(-32600), None]);
    }

    #[test]
    fn a_frame_is_written_with_its_length_in_bytes() {
        let mut out = Vec::new();
        let message = Message::Notification(lsp_server::Notification::new("x".to_owned(), "é"));
        write_message(&mut out, &message).unwrap();
        let text = String::from_utf8(out).unwrap();
        let (header, body) = text.split_once("\r\n\r\n").unwrap();
        assert_eq!(header, format!("Content-Length: {}", body.len()));
        let json: Value = serde_json::from_str(body).unwrap();
        assert_eq!(json["jsonrpc"], "2.0");
        assert_eq!(json["params"], "é");
    }
}
