//! The `dapvisor` binary: see [`dapvisor::cli`].

fn main() -> std::process::ExitCode {
    dapvisor::cli::main()
}
