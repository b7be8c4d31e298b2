//! Frames a hostile client sends: each refused with the error JSON-RPC names, and the next
//! message still taken.

use super::*;

/// Everything `input` gives: the messages for the server and the refusals, in order.
fn read_all(input: &[u8]) -> (Vec<Message>, Vec<Value>) {
    let (to_server, messages) = crossbeam_channel::unbounded();
    let (to_report, refusals) = crossbeam_channel::unbounded();
    read_loop(&mut std::io::Cursor::new(input), &to_server, &to_report);
    drop((to_server, to_report));
    let refusals = refusals
        .iter()
        .map(|r| serde_json::from_str(&r).expect("a JSON response"))
        .collect();
    (messages.iter().collect(), refusals)
}

fn frame(body: &str) -> String {
    format!("Content-Length: {}\r\n\r\n{body}", body.len())
}

#[test]
fn bad_frames_are_refused_and_the_session_goes_on() {
    let ping = r#"{"jsonrpc":"2.0","id":7,"method":"shutdown"}"#;
    let mut input = String::new();
    input.push_str(&frame("this is not JSON"));
    input.push_str(&frame(r#"{"jsonrpc":"2.0","id":3,"nonsense":true}"#));
    input.push_str(&frame(ping));
    input.push_str("Content-Type: x\r\n\r\n");
    input.push_str(&frame(ping));
    let (messages, refusals) = read_all(input.as_bytes());
    assert_eq!(messages.len(), 2, "{messages:?}");
    let codes: Vec<(i64, Value)> = refusals
        .iter()
        .map(|r| (r["error"]["code"].as_i64().unwrap_or(0), r["id"].clone()))
        .collect();
    assert_eq!(
        codes,
        [
            (PARSE_ERROR, Value::Null),
            (INVALID_REQUEST, json!(3)),
            (INVALID_REQUEST, Value::Null)
        ]
    );
}

#[test]
fn a_length_past_the_limit_is_refused_without_holding_the_body() {
    let ping = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
    // The largest length a header can say: nothing is allocated for it, and what follows
    // is skipped as its body until the input ends.
    let input = format!("Content-Length: 18446744073709551615\r\n\r\n{ping}");
    let (messages, refusals) = read_all(input.as_bytes());
    assert!(messages.is_empty());
    assert_eq!(refusals.len(), 1);
    assert!(
        refusals[0]["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("18446744073709551615 bytes")),
        "{refusals:?}"
    );
    // A length that is not a number, and a header line longer than any header.
    let long = "X".repeat(20_000);
    let input = format!(
        "Content-Length: -1\r\n\r\n{long}\r\nContent-Length: {}\r\n\r\n{ping}",
        ping.len()
    );
    let (messages, refusals) = read_all(input.as_bytes());
    assert_eq!(messages.len(), 1, "{refusals:?}");
    assert_eq!(refusals.len(), 1, "{refusals:?}");
}

#[test]
fn a_body_of_more_values_than_any_message_is_refused_unparsed() {
    let many = vec!["1"; MAX_VALUES + 1].join(",");
    let body = format!(r#"{{"jsonrpc":"2.0","id":2,"method":"x","params":[{many}]}}"#);
    // Commas inside a string are text, not values: a file of them is one string.
    let text = ",".repeat(MAX_VALUES * 2);
    let change = format!(
        r#"{{"jsonrpc":"2.0","method":"textDocument/didChange","params":{{"text":"\"{text}"}}}}"#
    );
    let (messages, refusals) = read_all((frame(&body) + &frame(&change)).as_bytes());
    assert_eq!(messages.len(), 1, "{refusals:?}");
    assert_eq!(refusals.len(), 1);
    assert_eq!(refusals[0]["error"]["code"], INVALID_REQUEST);
}
