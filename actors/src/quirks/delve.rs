//! Delve (`dlv dap`, Go).
//! - It sends no `exited` event: the program's exit status is only in its `console`
//!   line `Process 18664 has exited with status 5`, which it sends while it is being
//!   let go.
//! - dlv 1.20 lets its debuggee inherit its own stdout and stderr instead of sending
//!   the program's output as events: the transport forwards those pipes, in order with
//!   dlv's own events (`transport/output_order.rs`).
//! - dlv stops on an unrecovered panic by itself: no exception filter is set for it.

use super::Quirks;

pub(super) const QUIRKS: Quirks = Quirks {
    exit_status_in_console: Some(exit_status_in),
    debuggee_output_on_adapter_pipes: true,
    ..Quirks::NONE
};

/// The exit status in a console line such as `Process 18664 has exited with status 5`.
fn exit_status_in(text: &str) -> Option<i64> {
    const SAID: &str = "has exited with status ";
    let rest = &text[text.find(SAID)? + SAID.len()..];
    let digits: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '-')
        .collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::exit_status_in;

    #[test]
    fn exit_status_is_read_from_dlv_console_output() {
        assert_eq!(
            exit_status_in("Process 18664 has exited with status 5\n"),
            Some(5)
        );
        assert_eq!(
            exit_status_in("Process 1 has exited with status -1"),
            Some(-1)
        );
        assert_eq!(exit_status_in("Detaching\n"), None);
    }
}
