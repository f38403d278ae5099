//! The redaction flags `dapvisor mcp` and `dapvisor debug` share, and the rules they
//! make together with the config file's `[redact]` table: the flags' level wins, their
//! names and patterns add to the file's.

use clap::Args;

use crate::redact::{RedactLevel, RedactRules};

use super::config::RedactSection;

/// What `--redact off` says on stderr: what it turns off.
pub const REDACT_OFF_WARNING: &str = "dapvisor: redaction is off: keys, passwords and tokens \
     in the debugged program's values and output are shown as they are, not hidden";

/// `--redact`, `--no-redact`, `--redact-name`, `--redact-pattern`.
#[derive(Debug, Clone, Default, Args)]
pub struct RedactFlags {
    /// How much of the program's values and output to hide: default (credentials by
    /// their format, values under secret names), strict (also every key-like string,
    /// under any name), off [default: default].
    #[arg(long, value_name = "LEVEL", value_parser = level)]
    pub redact: Option<RedactLevel>,
    /// Show values as the program holds them (the same as --redact off).
    #[arg(long, conflicts_with = "redact")]
    pub no_redact: bool,
    /// Also hide the values of variables, fields and keys named NAME: words (`ssn`
    /// hides `user_ssn` and `userSsn`) or a glob (`*_pin`). Repeatable.
    #[arg(long = "redact-name", value_name = "NAME")]
    pub names: Vec<String>,
    /// Also hide whatever REGEX matches, anywhere (Rust `regex` syntax, matched in
    /// linear time). Repeatable.
    #[arg(long = "redact-pattern", value_name = "REGEX")]
    pub patterns: Vec<String>,
}

fn level(text: &str) -> Result<RedactLevel, String> {
    text.parse()
}

impl RedactFlags {
    /// The rules these flags and the config file's `[redact]` table (if any) make.
    pub fn rules(&self, file: Option<&RedactSection>) -> Result<RedactRules, String> {
        let file_level = match file.and_then(|f| f.level.as_deref()) {
            Some(text) => Some(
                text.parse::<RedactLevel>()
                    .map_err(|e| format!("the config file's [redact] level: {e}"))?,
            ),
            None => None,
        };
        let level = if self.no_redact {
            RedactLevel::Off
        } else {
            self.redact.or(file_level).unwrap_or_default()
        };
        let mut rules = RedactRules::new(level);
        let file_names = file.map_or(&[][..], |f| &f.names[..]);
        let file_patterns = file.map_or(&[][..], |f| &f.patterns[..]);
        for name in file_names.iter().chain(&self.names) {
            rules = rules.with_name(name)?;
        }
        for pattern in file_patterns.iter().chain(&self.patterns) {
            rules = rules.with_pattern(pattern)?;
        }
        if level == RedactLevel::Off && rules.added() > 0 {
            return Err(
                "--redact-name and --redact-pattern hide values, which redaction \
                 turned off does not: drop them, or --redact off"
                    .into(),
            );
        }
        Ok(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(args: &[&str]) -> RedactFlags {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            flags: RedactFlags,
        }
        use clap::Parser;
        Cli::try_parse_from(std::iter::once("dapvisor").chain(args.iter().copied()))
            .unwrap()
            .flags
    }

    #[test]
    fn the_flags_level_wins_and_their_rules_add_to_the_files() {
        let file = RedactSection {
            level: Some("strict".into()),
            names: vec!["ssn".into()],
            patterns: vec![r"ACME-\d+".into()],
        };
        let rules = flags(&["--redact-name", "*_pin"])
            .rules(Some(&file))
            .unwrap();
        assert_eq!(rules.level(), RedactLevel::Strict);
        assert_eq!(rules.added(), 3);
        assert!(rules.is_secret_name("user_ssn") && rules.is_secret_name("card_pin"));
        let rules = flags(&["--redact", "default"]).rules(Some(&file)).unwrap();
        assert_eq!(rules.level(), RedactLevel::Default);
        assert_eq!(
            flags(&[]).rules(None).unwrap().level(),
            RedactLevel::Default
        );
        assert_eq!(
            flags(&["--no-redact"]).rules(None).unwrap().level(),
            RedactLevel::Off
        );
    }

    #[test]
    fn bad_rules_are_refused_saying_which() {
        let err = flags(&["--redact-pattern", "(unclosed"])
            .rules(None)
            .unwrap_err();
        assert!(
            err.contains("(unclosed") && err.contains("not a valid pattern"),
            "{err}"
        );
        let err = flags(&["--redact-pattern", "a*"]).rules(None).unwrap_err();
        assert!(err.contains("empty string"), "{err}");
        let err = flags(&["--redact", "off", "--redact-name", "ssn"])
            .rules(None)
            .unwrap_err();
        assert!(err.contains("--redact off"), "{err}");
        let file = RedactSection {
            level: Some("loud".into()),
            ..RedactSection::default()
        };
        let err = flags(&[]).rules(Some(&file)).unwrap_err();
        assert!(
            err.contains("[redact] level") && err.contains("loud"),
            "{err}"
        );
        let too_many: Vec<String> = (0..=crate::redact::MAX_ADDED_RULES)
            .flat_map(|i| ["--redact-name".to_string(), format!("name{i}x")])
            .collect();
        let too_many: Vec<&str> = too_many.iter().map(String::as_str).collect();
        let err = flags(&too_many).rules(None).unwrap_err();
        assert!(err.contains("at most"), "{err}");
    }
}
