//! How a program an adapter asks us to run (`runInTerminal`) is run: what it reads as
//! stdin, which of its runtime's lines about the debugger are left out of its output,
//! and, for an adapter that cannot tell how such a program ended (js-debug), the
//! line its launcher would have said, once the program has exited and its output is
//! all in.
//!
//! Nothing is run in a terminal: stdin is a file (`/dev/null` unless the launch names
//! one), never the terminal dapvisor itself runs in.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use serde_json::json;
use tokio::task::JoinHandle;

use crate::registry::ResolvedAdapter;
use crate::transport::messages::FrameCredit;
use crate::wire::Event;

/// How long the end of a program is held back for its last output to be read, once it
/// has exited (a process it left behind may hold its pipes open): 1 s.
const OUTPUT_AFTER_EXIT: Duration = Duration::from_secs(1);

/// How the transport runs `runInTerminal` commands for its adapter.
#[derive(Debug, Clone, Default)]
pub struct Terminal {
    /// The file the command reads as stdin; `/dev/null` when `None`.
    pub stdin: Option<PathBuf>,
    /// Whole lines left out of the command's stderr.
    pub noise: &'static [&'static str],
    /// Says how the command ended, as the adapter's launcher would (see
    /// [`Quirks::terminal_exit_line`](crate::quirks::Quirks::terminal_exit_line)).
    pub exit_line: Option<crate::quirks::ExitLine>,
}

impl Terminal {
    /// How `adapter`'s commands are run.
    pub fn of(adapter: &ResolvedAdapter) -> Self {
        let quirks = adapter.flavor.quirks();
        Self {
            stdin: adapter.stdin.clone(),
            noise: quirks.terminal_noise,
            exit_line: quirks.terminal_exit_line,
        }
    }

    /// The command's stdin, opened.
    pub fn stdin(&self) -> Result<Stdio, String> {
        match &self.stdin {
            None => Ok(Stdio::null()),
            Some(path) => std::fs::File::open(path)
                .map(Stdio::from)
                .map_err(|e| format!("cannot read {} as the program's stdin: {e}", path.display())),
        }
    }

    /// `text` read from the command's `category` stream, without the noise lines.
    pub fn clean(&self, category: &str, text: String) -> String {
        if category != "stderr" || !self.noise.iter().any(|n| text.contains(n)) {
            return text;
        }
        text.split_inclusive('\n')
            .filter(|line| !self.noise.iter().any(|n| line.trim_end() == n.trim_end()))
            .collect()
    }

    /// Once the command `pid` (a child of ours) has exited, call `on_exit` with its
    /// pid (how it ended is read by then, so it may be reaped); then, once its output
    /// readers (`readers`) are done, or [`OUTPUT_AFTER_EXIT`] later, say how it ended
    /// through `on_output`, in the launcher's line (nothing for an adapter that tells
    /// this itself).
    pub fn watch_end(
        &self,
        pid: u32,
        readers: Vec<JoinHandle<()>>,
        on_output: impl Fn(Event, FrameCredit) + Send + 'static,
        on_exit: impl FnOnce(u32) + Send + 'static,
    ) {
        let exit_line = self.exit_line;
        crate::transport::io::watch_exit(pid, move |exit| {
            on_exit(pid);
            let Some(exit_line) = exit_line else {
                return;
            };
            tokio::spawn(async move {
                let all_read = futures::future::join_all(readers);
                let _ = tokio::time::timeout(OUTPUT_AFTER_EXIT, all_read).await;
                if let Some(line) = exit_line(exit.code, exit.signal) {
                    // The launcher's line, not the program's output: its console.
                    let body = json!({ "category": "console", "output": line });
                    on_output(Event::new("output", Some(body)), FrameCredit::none());
                }
            });
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_lines_are_left_out_whole() {
        let terminal = Terminal {
            noise: &["Debugger attached."],
            ..Terminal::default()
        };
        let text = "Debugger attached.\nreal error\n".to_string();
        assert_eq!(terminal.clean("stderr", text.clone()), "real error\n");
        assert_eq!(terminal.clean("stdout", text.clone()), text, "stderr only");
        let said = "he said Debugger attached. twice\n".to_string();
        assert_eq!(
            terminal.clean("stderr", said.clone()),
            said,
            "whole lines only"
        );
    }
}
