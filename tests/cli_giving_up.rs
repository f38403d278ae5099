//! `dapvisor debug` giving up on a program that runs on (a busy loop), on each real
//! adapter (debugpy, js-debug, lldb-dap, dlv): past `--timeout` (124), at a first SIGINT
//! (130), and at two (130). The first two pause the program and print where it was,
//! with what it printed; every way leaves no process behind: once the command has
//! exited, /proc holds none that carries its process-tree mark. Each way runs
//! [`ROUNDS`] times, as a process left behind was a race (3 runs in 10 left js-debug's
//! node spinning). A second SIGINT while the first still waits for a pause ends the
//! run at once.

mod agent;
mod cli_support;
mod common;

use std::path::{Path, PathBuf};

use cli_support::*;
use tokio::io::{AsyncBufReadExt, AsyncReadExt};

/// How many times each way of giving up runs on each adapter.
const ROUNDS: usize = 2;

/// A busy loop in one language: it prints `spinning`, writes `started` into the FIFO
/// named by its first argument, and spins.
struct Spinner {
    /// What `dapvisor debug` is given: the script, binary or package folder.
    program: PathBuf,
    /// The source line that prints `spinning`, as FILE:LINE.
    print_line: String,
    /// The FIFO the program says it started on, held open for reading (and writing,
    /// so that neither end waits for the other to open).
    fifo: PathBuf,
    started: tokio::net::unix::pipe::Receiver,
}

impl Spinner {
    fn new(dir: &Path, program: PathBuf, source: &Path) -> Self {
        let fifo = dir.join("started.fifo");
        let path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo reads the NUL-terminated path only.
        assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0, "mkfifo");
        let started = tokio::net::unix::pipe::OpenOptions::new()
            .read_write(true)
            .open_receiver(&fifo)
            .unwrap();
        let print_line = format!(
            "{}:{}",
            source.display(),
            common::line_of(source, "spinning")
        );
        Self {
            program,
            print_line,
            fifo,
            started,
        }
    }

    /// Wait for the program to say it spins.
    async fn spinning(&mut self) {
        let mut word = [0u8; 7];
        tokio::time::timeout(RUN_WAIT, self.started.read_exact(&mut word))
            .await
            .expect("the program starts spinning")
            .unwrap();
        assert_eq!(&word, b"started");
    }

    /// Forget what a run that was not waited on wrote.
    fn drain(&mut self) {
        let mut rest = [0u8; 64];
        while self.started.try_read(&mut rest).is_ok_and(|n| n > 0) {}
    }
}

fn python(dir: &Path) -> Spinner {
    let script = dir.join("spin.py");
    std::fs::write(
        &script,
        "import sys\nprint('spinning', flush=True)\nopen(sys.argv[1], 'w').write('started')\n\
         i = 0\nwhile True:\n    i += 1\n",
    )
    .unwrap();
    Spinner::new(dir, script.clone(), &script)
}

fn javascript(dir: &Path) -> Spinner {
    let script = dir.join("spin.js");
    std::fs::write(
        &script,
        "const fs = require('fs');\nconsole.log('spinning');\n\
         fs.writeFileSync(process.argv[2], 'started');\nlet i = 0;\nwhile (true) { i++; }\n",
    )
    .unwrap();
    Spinner::new(dir, script.clone(), &script)
}

fn c(dir: &Path) -> Spinner {
    let source = dir.join("spin.c");
    std::fs::write(
        &source,
        "#include <stdio.h>\nint main(int argc, char **argv) {\n\
         printf(\"spinning\\n\"); fflush(stdout);\n\
         FILE *f = fopen(argv[1], \"w\"); fputs(\"started\", f); fclose(f);\n\
         volatile long i = 0;\n    for (;;) i++;\n}\n",
    )
    .unwrap();
    let binary = dir.join("spin");
    let built = std::process::Command::new("cc")
        .args(["-g", "-O0", "-o"])
        .arg(&binary)
        .arg(&source)
        .status()
        .unwrap();
    assert!(built.success());
    Spinner::new(dir, binary, &source)
}

fn go(dir: &Path) -> Spinner {
    let module = dir.join("spin");
    std::fs::create_dir_all(&module).unwrap();
    std::fs::write(module.join("go.mod"), "module spin\n\ngo 1.19\n").unwrap();
    let source = module.join("main.go");
    std::fs::write(
        &source,
        "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\
         \tfmt.Println(\"spinning\")\n\
         \tos.WriteFile(os.Args[1], []byte(\"started\"), 0o600)\n\
         \ti := 0\n\tfor {\n\t\ti++\n\t}\n}\n",
    )
    .unwrap();
    Spinner::new(dir, module, &source)
}

/// The run of `args`, and what it left: nothing carrying its mark.
async fn ended(child: tokio::process::Child, args: &[&str]) -> Run {
    let pid = child.id().unwrap();
    let run = finished(child, args).await;
    let left = common::left_behind_by(pid).await;
    for (pid, _) in &left {
        // Not left spinning after the test, whatever it finds.
        send(libc::SIGKILL, *pid);
    }
    assert!(
        left.is_empty(),
        "dapvisor {args:?} left these running: {left:?}\n{}\n{}",
        run.stdout,
        run.stderr
    );
    run
}

/// Where the program was, printed on giving up: a pause, after what it printed.
fn shows_where_it_spun(run: &Run) {
    let out = &run.stdout;
    let paused = out
        .find("stopped (pause)")
        .unwrap_or_else(|| panic!("no pause shown:\n{out}\n{}", run.stderr));
    let printed = out
        .find("spinning")
        .unwrap_or_else(|| panic!("no output:\n{out}"));
    assert!(printed < paused, "the output comes before the stop:\n{out}");
}

/// Every way of giving up, [`ROUNDS`] times, on `spinner`.
async fn gives_up_and_leaves_nothing(mut spinner: Spinner) {
    let program = spinner.program.display().to_string();
    let fifo = spinner.fifo.display().to_string();
    for _ in 0..ROUNDS {
        // Past --timeout, counted from the first stop (so the program runs by then).
        let args = [
            "debug",
            &program,
            "--break",
            &spinner.print_line,
            "--timeout",
            "3",
            "--",
            &fifo,
        ];
        let run = ended(spawn_dapvisor(&args), &args).await;
        assert_eq!(run.code, Some(124), "{}\n{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains("within 3s (--timeout)"),
            "{}",
            run.stderr
        );
        shows_where_it_spun(&run);
        spinner.drain();

        // One SIGINT while it spins.
        let args = ["debug", &program, "--", &fifo];
        let child = spawn_dapvisor(&args);
        spinner.spinning().await;
        send(libc::SIGINT, child.id().unwrap());
        let run = ended(child, &args).await;
        assert_eq!(run.code, Some(130), "{}\n{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains("SIGINT: ending the session"),
            "{}",
            run.stderr
        );
        shows_where_it_spun(&run);

        // Two at once.
        let child = spawn_dapvisor(&args);
        spinner.spinning().await;
        send(libc::SIGINT, child.id().unwrap());
        send(libc::SIGINT, child.id().unwrap());
        let run = ended(child, &args).await;
        assert_eq!(run.code, Some(130), "{}\n{}", run.stdout, run.stderr);
    }
}

#[tokio::test]
async fn debugpy_runs_leave_nothing_behind() {
    let dir = scratch("giving-up-py");
    gives_up_and_leaves_nothing(python(&dir)).await;
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn js_debug_runs_leave_nothing_behind() {
    let dir = scratch("giving-up-js");
    gives_up_and_leaves_nothing(javascript(&dir)).await;
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn lldb_dap_runs_leave_nothing_behind() {
    let dir = scratch("giving-up-c");
    gives_up_and_leaves_nothing(c(&dir)).await;
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn dlv_runs_leave_nothing_behind() {
    let dir = scratch("giving-up-go");
    gives_up_and_leaves_nothing(go(&dir)).await;
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn a_second_sigint_while_the_first_waits_for_a_pause_ends_at_once() {
    // Asleep in C, a Python program does not pause (debugpy pauses at the next Python
    // line), and the wait for it is long: only the second signal ends the run.
    let dir = scratch("giving-up-twice");
    let script = dir.join("sleeper.py");
    std::fs::write(
        &script,
        "import sys, time\nprint('spinning', flush=True)\n\
         open(sys.argv[1], 'w').write('started')\ntime.sleep(600)\n",
    )
    .unwrap();
    let mut sleeper = Spinner::new(&dir, script.clone(), &script);
    let (script, fifo) = (
        script.display().to_string(),
        sleeper.fifo.display().to_string(),
    );
    let args = ["debug", &script, "--pause-wait", "600", "--", &fifo];
    let mut child = spawn_dapvisor(&args);
    let pid = child.id().unwrap();
    let mut stderr = tokio::io::BufReader::new(child.stderr.take().unwrap()).lines();
    sleeper.spinning().await;
    send(libc::SIGINT, pid);
    let acknowledged = async {
        let mut said = String::new();
        while let Some(line) = stderr.next_line().await.unwrap() {
            said.push_str(&line);
            if line.contains("pausing the program") {
                return said;
            }
        }
        panic!("no word of the first SIGINT: {said}");
    };
    let said = tokio::time::timeout(RUN_WAIT, acknowledged).await.unwrap();
    assert!(said.contains("SIGINT again ends it at once"), "{said}");
    send(libc::SIGINT, pid);
    let mut rest = String::new();
    while let Some(line) = stderr.next_line().await.unwrap() {
        rest.push_str(&line);
        rest.push('\n');
    }
    let run = ended(child, &args).await;
    assert_eq!(run.code, Some(130), "{rest}");
    assert!(rest.contains("SIGINT again: ending at once"), "{rest}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn ctrl_c_at_a_terminal_reaches_dapvisor_not_the_program() {
    // debugpy's launcher makes its program the terminal's foreground group where it
    // can: Ctrl-C then raised KeyboardInterrupt in the program instead of pausing it.
    let dir = scratch("giving-up-tty");
    let script = dir.join("ticks.py");
    std::fs::write(
        &script,
        "import sys, time\nprint('spinning', flush=True)\n\
         open(sys.argv[1], 'w').write('started')\nwhile True:\n    time.sleep(0.05)\n",
    )
    .unwrap();
    let mut ticks = Spinner::new(&dir, script.clone(), &script);
    let fifo = ticks.fifo.display().to_string();
    let (mut run, terminal) = at_a_terminal(&["debug", script.to_str().unwrap(), "--", &fifo]);
    ticks.spinning().await;
    terminal.type_ctrl_c();
    let screen = terminal.read_to_end().await;
    let status = tokio::task::spawn_blocking(move || run.wait().unwrap())
        .await
        .unwrap();
    assert_eq!(status.code(), Some(130), "{screen}");
    assert!(screen.contains("stopped (pause)"), "{screen}");
    assert!(!screen.contains("KeyboardInterrupt"), "{screen}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The controlling side of a pseudo-terminal a `dapvisor` runs in.
struct Terminal(std::fs::File);

impl Terminal {
    /// Type Ctrl-C, which the terminal turns into SIGINT for its foreground group.
    fn type_ctrl_c(&self) {
        use std::io::Write as _;
        (&self.0).write_all(b"\x03").unwrap();
    }

    /// Everything shown until the last process on the terminal closes it.
    async fn read_to_end(self) -> String {
        let read = tokio::task::spawn_blocking(move || {
            use std::io::Read as _;
            let mut screen = Vec::new();
            let mut file = self.0;
            let mut buf = [0u8; 4096];
            // EIO once no process holds the terminal any more.
            while let Ok(n) = file.read(&mut buf) {
                if n == 0 {
                    break;
                }
                screen.extend_from_slice(&buf[..n]);
            }
            String::from_utf8_lossy(&screen).into_owned()
        });
        tokio::time::timeout(RUN_WAIT, read).await.unwrap().unwrap()
    }
}

/// `dapvisor ARGS` on a new pseudo-terminal, as a shell at a terminal runs it: its
/// session leader and foreground group.
fn at_a_terminal(args: &[&str]) -> (std::process::Child, Terminal) {
    use std::os::fd::{FromRawFd as _, OwnedFd};
    use std::os::unix::process::CommandExt as _;
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty writes two new fds into the given ints; the rest may be null.
    let opened = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(opened, 0, "openpty");
    // SAFETY: both fds were just opened for us and are owned by nobody else.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    let mut command = dapvisor::testing::clean_start::std_command(env!("CARGO_BIN_EXE_dapvisor"));
    command
        .args(args)
        .stdin(slave.try_clone().unwrap())
        .stdout(slave.try_clone().unwrap())
        .stderr(slave);
    // SAFETY: setsid and ioctl are async-signal-safe; nothing is allocated.
    unsafe {
        command.pre_exec(|| {
            if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let child = command.spawn().unwrap();
    // The command's copies are the only ones left: the terminal closes with them.
    drop(command);
    (child, Terminal(std::fs::File::from(master)))
}
