//! Whether debuggers may trace: Yama's `ptrace_scope`, and `CAP_SYS_PTRACE` (which
//! lifts Yama's limits, and which a container drops by default). lldb-dap, CodeLLDB,
//! dlv and gdb trace the programs they launch; attaching by pid traces a process
//! dapvisor did not start. debugpy and js-debug launch without ptrace.

use std::path::Path;

use super::report::{Check, Status};

/// `CAP_SYS_PTRACE`'s bit in the capability sets of `/proc/self/status`.
const CAP_SYS_PTRACE: u32 = 19;

/// What was read about tracing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PtraceReading {
    /// `/proc/sys/kernel/yama/ptrace_scope`; `None` without Yama.
    pub yama_scope: Option<String>,
    /// Whether this process's effective capabilities hold `CAP_SYS_PTRACE`.
    pub cap_sys_ptrace: bool,
    /// Whether this runs inside a container.
    pub in_container: bool,
    /// Whether an adapter checked as needed traces what it launches (lldb-dap,
    /// CodeLLDB, dlv, gdb); if none does, tracing is needed for attaching only.
    pub launch_traces: bool,
}

const NAME: &str = "ptrace";

/// How tracing stands.
pub fn check(r: &PtraceReading) -> Check {
    let scope = r.yama_scope.as_deref().map(str::trim);
    let fix_scope = |to: u8| {
        format!(
            "`sudo sysctl kernel.yama.ptrace_scope={to}` (until reboot; put \
             `kernel.yama.ptrace_scope = {to}` in /etc/sysctl.d/10-ptrace.conf to keep it), \
             or run dapvisor with CAP_SYS_PTRACE"
        )
    };
    let checked = match scope {
        Some("3") => Check::fail_if(
            r.launch_traces,
            NAME,
            "ptrace_scope is 3: no process may trace another until reboot, so native \
             debuggers (lldb-dap, CodeLLDB, dlv, gdb) cannot launch or attach",
            "put `kernel.yama.ptrace_scope = 1` in /etc/sysctl.d/10-ptrace.conf and reboot \
             (3 cannot be lowered while the system runs)",
        ),
        Some("2") if !r.cap_sys_ptrace => Check::fail_if(
            r.launch_traces,
            NAME,
            "ptrace_scope is 2 and this process lacks CAP_SYS_PTRACE: only an administrator \
             may trace, so native debuggers (lldb-dap, CodeLLDB, dlv, gdb) cannot launch or \
             attach",
            fix_scope(1),
        ),
        Some("1") if !r.cap_sys_ptrace => Check::warn(
            NAME,
            "ptrace_scope is 1: launching works, but attaching by pid to a process \
             dapvisor did not start is refused",
            fix_scope(0),
        ),
        Some(other @ ("0" | "1" | "2")) => Check::ok(
            NAME,
            match other {
                "0" => "ptrace_scope is 0: your own processes can be traced".to_string(),
                _ => format!("ptrace_scope is {other}, and CAP_SYS_PTRACE lifts it"),
            },
        ),
        Some(other) => Check::warn(
            NAME,
            format!("ptrace_scope reads `{other}`, which Yama does not define"),
            "check /proc/sys/kernel/yama/ptrace_scope (0 to 3)",
        ),
        None => Check::ok(NAME, "no Yama: your own processes can be traced"),
    };
    // A container that dropped the capability may also filter what lldb does.
    let checked = if checked.status == Status::Ok && r.in_container && !r.cap_sys_ptrace {
        Check::warn(
            NAME,
            "inside a container without CAP_SYS_PTRACE: attaching by pid is refused, and \
             the default seccomp profile may refuse lldb's launch (it turns off address \
             randomization)",
            "start the container with `--cap-add=SYS_PTRACE` (and `--security-opt \
             seccomp=unconfined` if a launch under lldb-dap fails)",
        )
    } else {
        checked
    };
    checked
        .fact("ptrace_scope", scope.map(str::to_string))
        .fact("cap_sys_ptrace", r.cap_sys_ptrace)
        .fact("in_container", r.in_container)
}

/// Whether the capability set named `set` (`CapEff`) in `/proc/self/status`'s text
/// holds capability number `bit`.
pub fn has_capability(status: &str, set: &str, bit: u32) -> bool {
    status
        .lines()
        .find_map(|line| line.strip_prefix(set)?.strip_prefix(':'))
        .and_then(|hex| u64::from_str_radix(hex.trim(), 16).ok())
        .is_some_and(|caps| caps & (1 << bit) != 0)
}

/// Whether `/proc/1/cgroup`'s text, or the marker files, say this is a container.
pub fn container_signs(markers: &[bool], pid1_cgroup: &str) -> bool {
    markers.iter().any(|&m| m)
        || ["docker", "kubepods", "containerd", "lxc", "libpod"]
            .iter()
            .any(|word| pid1_cgroup.contains(word))
}

/// Read this machine's tracing settings; `launch_traces` as the adapter checks say.
pub fn read(launch_traces: bool) -> PtraceReading {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let markers = ["/.dockerenv", "/run/.containerenv"].map(|p| Path::new(p).exists());
    PtraceReading {
        yama_scope: std::fs::read_to_string("/proc/sys/kernel/yama/ptrace_scope").ok(),
        cap_sys_ptrace: has_capability(&status, "CapEff", CAP_SYS_PTRACE),
        in_container: container_signs(
            &markers,
            &std::fs::read_to_string("/proc/1/cgroup").unwrap_or_default(),
        ),
        launch_traces,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(scope: Option<&str>, cap: bool, container: bool) -> PtraceReading {
        PtraceReading {
            yama_scope: scope.map(|s| format!("{s}\n")),
            cap_sys_ptrace: cap,
            in_container: container,
            launch_traces: true,
        }
    }

    #[test]
    fn each_scope_with_and_without_the_capability() {
        let status = |scope, cap| check(&reading(scope, cap, false)).status;
        assert_eq!(status(None, false), Status::Ok);
        assert_eq!(status(Some("0"), false), Status::Ok);
        assert_eq!(status(Some("1"), false), Status::Warn);
        assert_eq!(status(Some("1"), true), Status::Ok);
        assert_eq!(status(Some("2"), false), Status::Fail);
        assert_eq!(status(Some("2"), true), Status::Ok);
        assert_eq!(status(Some("3"), true), Status::Fail, "3 binds root too");
        assert_eq!(status(Some("7"), true), Status::Warn);
    }

    #[test]
    fn scope_3_names_the_reboot_and_scope_2_only_fails_when_a_launch_traces() {
        let three = check(&reading(Some("3"), false, false));
        assert!(
            three.detail.contains("ptrace_scope is 3"),
            "{}",
            three.detail
        );
        assert!(three.fix.unwrap().contains("reboot"));
        let two = PtraceReading {
            launch_traces: false,
            ..reading(Some("2"), false, false)
        };
        let two = check(&two);
        assert_eq!(
            two.status,
            Status::Warn,
            "debugpy alone launches without ptrace"
        );
        assert!(two.fix.unwrap().contains("ptrace_scope=1"));
    }

    #[test]
    fn a_container_without_the_capability_warns_with_the_docker_flag() {
        let boxed = check(&reading(Some("0"), false, true));
        assert_eq!(boxed.status, Status::Warn);
        assert!(boxed.fix.unwrap().contains("--cap-add=SYS_PTRACE"));
        assert_eq!(check(&reading(Some("0"), true, true)).status, Status::Ok);
    }

    #[test]
    fn capabilities_and_container_signs_are_read_from_their_text() {
        let status = "Name:\tx\nCapPrm:\t0000000000000000\nCapEff:\t000001fffeffffff\n";
        assert!(has_capability(status, "CapEff", CAP_SYS_PTRACE));
        assert!(!has_capability(status, "CapPrm", CAP_SYS_PTRACE));
        let docker_default = "CapEff:\t00000000a80425fb\n";
        assert!(!has_capability(docker_default, "CapEff", CAP_SYS_PTRACE));
        assert!(!has_capability("", "CapEff", CAP_SYS_PTRACE));
        assert!(container_signs(&[false, true], "0::/"));
        assert!(container_signs(&[false], "12:pids:/docker/0f3a"));
        assert!(!container_signs(&[false, false], "0::/init.scope"));
    }
}
