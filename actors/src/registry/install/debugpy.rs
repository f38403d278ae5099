//! debugpy, from PyPI, into a virtual environment dapvisor owns (`<dapvisor home>/venv`),
//! where the registry looks for it first after `DAPVISOR_PYTHON`.

use std::path::PathBuf;

use crate::clean_start::std_command;
use crate::registry::detect::dapvisor_home;

use super::run;

/// Create `<dapvisor home>/venv` with the first `python3`/`python` on PATH and install
/// debugpy into it with pip. Returns the venv's Python. Blocking: it runs pip, which
/// downloads from the package index; call it off async threads.
pub fn install_debugpy() -> Result<PathBuf, String> {
    let venv = dapvisor_home().join("venv");
    let python = venv.join("bin/python");
    if !python.exists() {
        let base = ["python3", "python"]
            .into_iter()
            .find(|p| std_command(p).arg("--version").output().is_ok())
            .ok_or(
                "no python3 on PATH: install Python 3 first (apt-get install python3 python3-venv)",
            )?;
        std::fs::create_dir_all(&venv)
            .map_err(|e| format!("could not create {}: {e}", venv.display()))?;
        run(
            std_command(base).args(["-m", "venv"]).arg(&venv),
            "create a venv",
        )
        .map_err(|e| format!("{e} (on Debian, apt-get install python3-venv)"))?;
    }
    run(
        std_command(&python).args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "debugpy",
        ]),
        "pip install debugpy",
    )?;
    Ok(python)
}
