//! Remote targets for the tests: a program copied into a "remote" folder tree of its
//! own (a temporary folder standing for a container's or a host's `/srv/app`), built
//! there where it is compiled (so its debug info names the remote tree), and run
//! under each adapter's debug server on loopback. The agent's sources stay where they
//! are, in `examples/programs`.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::process::{Child, Command};

/// How long a debug server may take to say its port (a loaded machine).
const PORT_WAIT: Duration = Duration::from_secs(60);

/// A folder tree standing for the target's, removed when the test ends.
pub struct RemoteTree {
    root: PathBuf,
}

impl RemoteTree {
    /// A fresh tree for `name` (unique to this test binary and test).
    pub fn new(name: &str) -> Self {
        let root =
            std::env::temp_dir().join(format!("dapvisor-remote-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("srv/app")).unwrap();
        Self { root }
    }

    /// The target's application folder: `<tree>/srv/app`.
    pub fn app(&self) -> PathBuf {
        self.root.join("srv/app")
    }

    /// Copy `file` into the application folder; returns its remote path.
    pub fn copy(&self, file: &Path) -> PathBuf {
        let to = self.app().join(file.file_name().unwrap());
        std::fs::copy(file, &to).unwrap();
        to
    }

    /// Copy every file of `folder` (not its subfolders) into the application folder.
    pub fn copy_folder(&self, folder: &Path) {
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                self.copy(&path);
            }
        }
    }

    /// Build the C file `file` (copied already) in the tree with `-g -O0`.
    pub fn build_c(&self, file: &str, out: &str) -> PathBuf {
        let binary = self.app().join(out);
        let status = std::process::Command::new("cc")
            .args(["-g", "-O0", "-o"])
            .arg(&binary)
            .arg(self.app().join(file))
            .status()
            .expect("cc must be installed");
        assert!(
            status.success(),
            "building {file} in the remote tree failed"
        );
        binary
    }

    /// Build the Go module copied into the tree without optimizations.
    pub fn build_go(&self, out: &str) -> PathBuf {
        let binary = self.app().join(out);
        let status = std::process::Command::new("go")
            .args(["build", "-gcflags=all=-N -l", "-o"])
            .arg(&binary)
            .arg(".")
            .current_dir(self.app())
            .env("GOFLAGS", "-mod=mod")
            .status()
            .expect("go must be installed");
        assert!(
            status.success(),
            "building the Go module in the remote tree failed"
        );
        binary
    }
}

impl Drop for Target {
    fn drop(&mut self) {
        if let Some(pid) = self.child.id() {
            // SAFETY: as in `cut`.
            unsafe { libc::killpg(pid as i32, libc::SIGKILL) };
        }
    }
}

impl Drop for RemoteTree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// A debug server the test started, killed when the test ends however it ends.
pub struct Target {
    child: Child,
}

impl Target {
    /// Its pid.
    pub fn pid(&self) -> u32 {
        self.child.id().expect("the target runs")
    }

    /// Cut it off: kill its whole process group at once (the program and the debug
    /// server it runs, such as debugpy's adapter process), so that the connection
    /// drops with no word from it, as when a container or tunnel goes.
    pub async fn cut(&mut self) {
        // SAFETY: killpg takes plain integers; the group is the target's own.
        unsafe { libc::killpg(self.pid() as i32, libc::SIGKILL) };
        let _ = self.child.wait().await;
    }
}

/// Where a debug server says its port.
#[derive(Clone, Copy)]
pub enum Says {
    /// On stdout.
    Stdout,
    /// On stderr.
    Stderr,
    /// On stdout, as a number ended by a NUL byte (`lldb-server --pipe 1`).
    StdoutNul,
}

/// Start `command` and read its port from the first line of `says` that `port_in`
/// finds one in; the rest of its output is drained.
pub async fn serve(
    mut command: Command,
    says: Says,
    port_in: impl Fn(&str) -> Option<u16>,
) -> (Target, u16) {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        // A group of its own, so that the test can cut it off whole (`Target::cut`).
        .process_group(0);
    let mut child = command.spawn().expect("the debug server starts");
    let (said, other): (
        Box<dyn AsyncRead + Unpin + Send>,
        Box<dyn AsyncRead + Unpin + Send>,
    ) = match says {
        Says::Stdout | Says::StdoutNul => (
            Box::new(child.stdout.take().unwrap()),
            Box::new(child.stderr.take().unwrap()),
        ),
        Says::Stderr => (
            Box::new(child.stderr.take().unwrap()),
            Box::new(child.stdout.take().unwrap()),
        ),
    };
    let (seen_tx, seen) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        let mut other = BufReader::new(other).lines();
        let mut seen = String::new();
        while let Ok(Some(line)) = other.next_line().await {
            if seen.len() < 4096 {
                seen.push_str(&line);
                seen.push('\n');
            }
        }
        let _ = seen_tx.send(seen);
    });
    let end = if matches!(says, Says::StdoutNul) {
        0
    } else {
        b'\n'
    };
    let mut lines = BufReader::new(said).split(end);
    let read = async {
        while let Ok(Some(line)) = lines.next_segment().await {
            if let Some(port) = port_in(String::from_utf8_lossy(&line).trim()) {
                return Some(port);
            }
        }
        None
    };
    let port = tokio::time::timeout(PORT_WAIT, read)
        .await
        .expect("the debug server says its port");
    let Some(port) = port else {
        let why = seen.await.unwrap_or_default();
        panic!("the debug server ended before saying its port: {why}");
    };
    // Keep draining, so that it never blocks on a full pipe.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_segment().await {} });
    (Target { child }, port)
}

/// The port after the last `:` of the first word of `line` that follows `marker`
/// (`... listening at: 127.0.0.1:40123`, `ws://127.0.0.1:9229/uuid`).
pub fn port_after(line: &str, marker: &str) -> Option<u16> {
    let rest = &line[line.find(marker)? + marker.len()..];
    let address = rest.split_whitespace().next()?;
    let address = address.split('/').next().unwrap_or(address);
    address.rsplit(':').next()?.parse().ok()
}

/// `script` (a remote path) run under `debugpy.listen` on a free loopback port, as
/// `python -m debugpy --listen 127.0.0.1:PORT script` runs it (debugpy's command
/// line does not say a port it chose, so the port is printed here).
pub async fn debugpy_server(python: &str, script: &Path) -> (Target, u16) {
    let serve_it = format!(
        "import debugpy, runpy\n\
         host, port = debugpy.listen(('127.0.0.1', 0))\n\
         print('listening on port', port, flush=True)\n\
         runpy.run_path({:?}, run_name='__main__')\n",
        script.display().to_string()
    );
    let mut command = Command::new(python);
    command.args(["-Xfrozen_modules=off", "-c", &serve_it]);
    command.current_dir(script.parent().unwrap());
    serve(command, Says::Stdout, |line| {
        line.strip_prefix("listening on port ")?.trim().parse().ok()
    })
    .await
}

/// A TCP tunnel on loopback to a debug server, as `kubectl port-forward` or `ssh -L`
/// make one: it listens on a port of its own and forwards each connection. Cutting it
/// drops the connections through it while it keeps listening, as a tunnel whose far
/// end went does.
pub struct Tunnel {
    /// The tunnel's own port, which the agent attaches to.
    pub port: u16,
    cut: tokio_util::sync::CancellationToken,
    listener: tokio::task::JoinHandle<()>,
}

impl Tunnel {
    /// A tunnel to `127.0.0.1:to`.
    pub async fn open(to: u16) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let cut = tokio_util::sync::CancellationToken::new();
        let cutting = cut.clone();
        let listener = tokio::spawn(async move {
            while let Ok((mut near, _)) = listener.accept().await {
                let cut = cutting.clone();
                tokio::spawn(async move {
                    let Ok(mut far) = tokio::net::TcpStream::connect(("127.0.0.1", to)).await
                    else {
                        return;
                    };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut near, &mut far) => {}
                        () = cut.cancelled() => {}
                    }
                });
            }
        });
        Self {
            port,
            cut,
            listener,
        }
    }

    /// Drop every connection through the tunnel; it still accepts new ones.
    pub fn cut(&self) {
        self.cut.cancel();
    }
}

impl Drop for Tunnel {
    fn drop(&mut self) {
        self.cut.cancel();
        self.listener.abort();
    }
}

/// `binary` run under a headless dlv server on a free loopback port, as `dlv exec
/// --headless --accept-multiclient --listen 127.0.0.1:PORT binary` runs it: held at its
/// start until a debugger attaches and lets it run.
pub async fn dlv_server(binary: &Path) -> (Target, u16) {
    let mut command = Command::new("dlv");
    command
        .args(["exec", "--headless", "--accept-multiclient"])
        .args(["--api-version", "2", "--listen", "127.0.0.1:0"])
        .arg(binary)
        .current_dir(binary.parent().unwrap());
    serve(command, Says::Stdout, |line| {
        port_after(line, "API server listening at: ")
    })
    .await
}

/// `binary` started under `lldb-server gdbserver` on a free loopback port (stopped at
/// its entry until a debugger lets it run).
pub async fn lldb_server(binary: &Path) -> (Target, u16) {
    let mut command = Command::new("lldb-server-22");
    command
        .args(["gdbserver", "127.0.0.1:0", "--pipe", "1", "--"])
        .arg(binary)
        .current_dir(binary.parent().unwrap());
    serve(command, Says::StdoutNul, |said| said.parse().ok()).await
}

/// `script` run by `node --inspect=127.0.0.1:0`, whose inspector port node says on
/// stderr (`Debugger listening on ws://127.0.0.1:PORT/<id>`).
pub async fn node_inspect(script: &Path) -> (Target, u16) {
    let mut command = Command::new("node");
    command
        .arg("--inspect=127.0.0.1:0")
        .arg(script)
        .current_dir(script.parent().unwrap());
    serve(command, Says::Stderr, |line| port_after(line, "ws://")).await
}
