//! The `path_mappings` of an attach (`debug.attach`, `dapvisor debug --map`): each
//! local folder must be absolute, and under a root it must resolve inside it (it is
//! where the agent's breakpoints and reads land); the remote one must be absolute.
//! What else makes mappings inexact (two of one folder, folders that overlap) the
//! runtime refuses (`dapvisor_actors::path_map::check`), and this checks first so
//! that the agent hears it before an approval is asked.

use std::path::Path;

use crate::tools::access::paths::PathPolicy;
use crate::tools::catalogue::spec::ToolError;
use crate::tools::start::attach::MappingArg;
use crate::PathMapping;

/// `given` as the runtime's mappings, or why not.
pub(crate) fn resolve(
    paths: &PathPolicy,
    given: &[MappingArg],
) -> Result<Vec<PathMapping>, ToolError> {
    let mut mappings = Vec::with_capacity(given.len());
    for m in given {
        for (side, path) in [("local", &m.local), ("remote", &m.remote)] {
            let absolute = match side {
                "remote" => dapvisor_actors::path_map::is_target_absolute(path),
                _ => Path::new(path).is_absolute(),
            };
            if !absolute {
                return Err(ToolError::invalid(
                    format!("the {side} folder {path:?} of a path mapping is not absolute"),
                    "give both folders of each mapping as absolute paths, such as \
                     {\"local\": \"/home/me/app\", \"remote\": \"/app\"}",
                ));
            }
        }
        let local = paths.resolve(&m.local, "path_mappings local")?;
        mappings.push(PathMapping::new(local, &m.remote));
    }
    dapvisor_actors::path_map::check(&mappings)
        .map_err(|why| ToolError::invalid(why, "fix `path_mappings` and attach again"))?;
    Ok(mappings)
}

/// A CLI `--map LOCAL=REMOTE` as a mapping argument, or why it is not one.
pub(crate) fn parse_flag(flag: &str) -> Result<MappingArg, String> {
    match flag.split_once('=') {
        Some((local, remote)) if !local.is_empty() && !remote.is_empty() => Ok(MappingArg {
            local: local.to_string(),
            remote: remote.to_string(),
        }),
        _ => Err(format!(
            "--map {flag:?} is not LOCAL=REMOTE: give your folder, `=`, and the same folder \
             on the target, such as --map /home/me/app=/app"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arg(local: &str, remote: &str) -> MappingArg {
        MappingArg {
            local: local.into(),
            remote: remote.into(),
        }
    }

    #[test]
    fn mappings_are_absolute_inside_the_root_and_exact() {
        let dir = std::env::temp_dir().join(format!("dapvisor-mappings-{}", std::process::id()));
        let inside = dir.join("root/app");
        std::fs::create_dir_all(&inside).unwrap();
        std::fs::create_dir_all(dir.join("elsewhere")).unwrap();
        let free = PathPolicy::unrestricted();
        let ok = resolve(&free, &[arg(inside.to_str().unwrap(), "/srv/app")]).unwrap();
        assert_eq!(ok, [PathMapping::new(&inside, "/srv/app")]);
        let relative = resolve(&free, &[arg("app", "/srv")]).unwrap_err();
        assert!(
            relative.error.contains("local folder \"app\""),
            "{relative}"
        );
        let relative = resolve(&free, &[arg("/w", "srv")]).unwrap_err();
        assert!(
            relative.error.contains("remote folder \"srv\""),
            "{relative}"
        );
        let twice = resolve(&free, &[arg("/w/a", "/srv"), arg("/w/b", "/srv")]).unwrap_err();
        assert!(twice.error.contains("mapped twice"), "{twice}");
        // A Windows target's folder is absolute there.
        let windows = resolve(&free, &[arg(inside.to_str().unwrap(), r"C:\app\src")]).unwrap();
        assert_eq!(windows, [PathMapping::new(&inside, r"C:\app\src")]);

        let rooted = PathPolicy::rooted(dir.join("root")).unwrap();
        let real = inside.canonicalize().unwrap();
        let ok = resolve(&rooted, &[arg(inside.to_str().unwrap(), "/srv/app")]).unwrap();
        assert_eq!(ok, [PathMapping::new(real, "/srv/app")]);
        let outside = dir.join("elsewhere");
        let refused = resolve(&rooted, &[arg(outside.to_str().unwrap(), "/srv")]).unwrap_err();
        assert_eq!(refused.kind, "forbidden", "{refused}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_map_flag_is_local_equals_remote() {
        let m = parse_flag("/home/me/app=/app").unwrap();
        assert_eq!(
            (m.local.as_str(), m.remote.as_str()),
            ("/home/me/app", "/app")
        );
        for bad in ["/home/me/app", "=/app", "/a="] {
            assert!(
                parse_flag(bad).unwrap_err().contains("LOCAL=REMOTE"),
                "{bad}"
            );
        }
    }
}
