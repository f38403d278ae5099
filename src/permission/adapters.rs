//! What each adapter family does with the text a call hands it, as far as the
//! permission gate cares: whether its expressions stay in the debuggee, what its
//! console (`evaluate` in the `repl` context) runs, and which other arguments it
//! evaluates. One row per [`AdapterFlavor`], from each adapter's documented or
//! observed behaviour; [`Generic`](AdapterFlavor::Generic) adapters are assumed to do
//! what DAP allows.

use crate::registry::AdapterFlavor;

use super::effect::Effect;

/// How an adapter family treats expressions and console input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AdapterTraits {
    /// The family.
    pub flavor: AdapterFlavor,
    /// What an expression (evaluate, a breakpoint condition or log message, a new
    /// value) can do, and how to say so.
    pub expressions: (Effect, &'static str),
    /// What `evaluate` in the `repl` context runs, and how to say so.
    pub console: (Effect, &'static str),
    /// Whether the names in an exception option's `path` are evaluated (pydevd
    /// `eval`s them to find the exception classes).
    pub evaluates_exception_names: bool,
    /// Whether an instruction breakpoint's `instruction_reference` is evaluated (gdb
    /// turns it into the location `*REFERENCE`, an expression).
    pub evaluates_instruction_references: bool,
    /// What computing completions can do: a read where only names are looked up.
    pub completions: (Effect, &'static str),
}

const READS_NAMES: (Effect, &str) = (Effect::Read, "reads the debuggee");

/// One row per family. Why each is what it is:
/// - debugpy: expressions and console input are Python run in the program; pydevd
///   `eval`s exception-option names; completions evaluate only the dotted name before
///   the cursor (as reading a variable does).
/// - lldb-dap: expressions run in the debuggee; console input is an lldb command when
///   it starts with the command escape (a backquote) or, in the default auto mode,
///   when its first word is a command (`platform shell`, `script`), and the mode
///   itself can be switched from the console: every `repl` call counts as commands.
/// - dlv: expressions (function calls with `call`) run in the debuggee; its console
///   commands (`dlv help|config|sources`) change only the debugger's settings.
/// - gdb: expressions can run shell commands (`$_shell`, gdb 14) and the console is
///   gdb's command line (`shell`, `python`); instruction references are expressions.
/// - CodeLLDB: any expression may be Python run inside the adapter (`/py ...`), and
///   its console takes lldb commands by default.
/// - js-debug: expressions and console input are JavaScript run in the program.
/// - rdbg: expressions are Ruby `eval`ed in the program, in every context it serves
///   (its `repl` runs no debugger commands over DAP); its completions are IRB's, which
///   `eval` the text before a dot to find the receiver's methods.
/// - java (JdiDapServer): expressions are its own small Java evaluator's, which calls
///   methods in the program (`invokeMethod`: any code the program has), in every
///   context; its breakpoint conditions are the same expressions. It has no console
///   commands and no completions.
/// - Generic: expressions in the debuggee, console input a debugger's commands, and
///   every argument DAP lets an adapter read as an expression is assumed to be one.
const TABLE: [AdapterTraits; 9] = [
    AdapterTraits {
        flavor: AdapterFlavor::Debugpy,
        expressions: (Effect::Code, "runs Python code in the debuggee"),
        console: (Effect::Code, "runs Python code in the debuggee"),
        evaluates_exception_names: true,
        evaluates_instruction_references: false,
        completions: READS_NAMES,
    },
    AdapterTraits {
        flavor: AdapterFlavor::LldbDap,
        expressions: (Effect::Code, "runs code in the debuggee"),
        console: (Effect::Host, "runs lldb commands on the host"),
        evaluates_exception_names: false,
        evaluates_instruction_references: false,
        completions: READS_NAMES,
    },
    AdapterTraits {
        flavor: AdapterFlavor::Delve,
        expressions: (Effect::Code, "runs Go code in the debuggee"),
        console: (Effect::Code, "runs Go code in the debuggee"),
        evaluates_exception_names: false,
        evaluates_instruction_references: false,
        completions: READS_NAMES,
    },
    AdapterTraits {
        flavor: AdapterFlavor::Gdb,
        expressions: (
            Effect::Host,
            "runs gdb expressions, which can run shell commands, on the host",
        ),
        console: (Effect::Host, "runs gdb commands on the host"),
        evaluates_exception_names: false,
        evaluates_instruction_references: true,
        completions: READS_NAMES,
    },
    AdapterTraits {
        flavor: AdapterFlavor::CodeLldb,
        expressions: (
            Effect::Host,
            "runs CodeLLDB expressions, which can be Python run by the adapter, on the host",
        ),
        console: (Effect::Host, "runs lldb commands on the host"),
        evaluates_exception_names: false,
        evaluates_instruction_references: false,
        completions: READS_NAMES,
    },
    AdapterTraits {
        flavor: AdapterFlavor::JsDebug,
        expressions: (Effect::Code, "runs JavaScript in the debuggee"),
        console: (Effect::Code, "runs JavaScript in the debuggee"),
        evaluates_exception_names: false,
        evaluates_instruction_references: false,
        completions: READS_NAMES,
    },
    AdapterTraits {
        flavor: AdapterFlavor::Rdbg,
        expressions: (Effect::Code, "runs Ruby code in the debuggee"),
        console: (Effect::Code, "runs Ruby code in the debuggee"),
        evaluates_exception_names: false,
        evaluates_instruction_references: false,
        completions: (Effect::Code, "may run Ruby code in the debuggee"),
    },
    AdapterTraits {
        flavor: AdapterFlavor::Jdi,
        expressions: (Effect::Code, "runs Java methods in the debuggee"),
        console: (Effect::Code, "runs Java methods in the debuggee"),
        evaluates_exception_names: false,
        evaluates_instruction_references: false,
        completions: READS_NAMES,
    },
    AdapterTraits {
        flavor: AdapterFlavor::Generic,
        expressions: (Effect::Code, "runs code in the debuggee"),
        console: (
            Effect::Host,
            "runs the adapter's console commands on the host",
        ),
        evaluates_exception_names: true,
        evaluates_instruction_references: true,
        completions: (Effect::Code, "may evaluate the text in the debuggee"),
    },
];

/// The row of `flavor`.
pub(crate) fn traits(flavor: AdapterFlavor) -> &'static AdapterTraits {
    TABLE
        .iter()
        .find(|t| t.flavor == flavor)
        .unwrap_or(&TABLE[TABLE.len() - 1])
}

/// The adapter's name as people know it.
pub(crate) fn flavor_name(flavor: AdapterFlavor) -> &'static str {
    match flavor {
        AdapterFlavor::Debugpy => "debugpy",
        AdapterFlavor::LldbDap => "lldb-dap",
        AdapterFlavor::Delve => "dlv",
        AdapterFlavor::Gdb => "gdb",
        AdapterFlavor::CodeLldb => "codelldb",
        AdapterFlavor::JsDebug => "js-debug",
        AdapterFlavor::Rdbg => "rdbg",
        AdapterFlavor::Jdi => "java (JdiDapServer)",
        AdapterFlavor::Generic => "a generic adapter",
        _ => "an adapter",
    }
}

/// The adapters a call can reach: one (a session's, an attach's, a named one), the
/// candidates of a launch, or any (a session the runtime does not know yet).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Adapters {
    /// These families, any of which may serve the call.
    Some(Vec<AdapterFlavor>),
    /// Not known: every family.
    Any,
}

impl Adapters {
    /// The rows that may apply.
    pub(crate) fn rows(&self) -> Vec<&'static AdapterTraits> {
        match self {
            Adapters::Some(list) if !list.is_empty() => list.iter().map(|f| traits(*f)).collect(),
            _ => TABLE.iter().collect(),
        }
    }

    /// The strongest of what `pick` says over the rows that may apply, as one
    /// finding's effect and wording: the rows' own words when they agree, else the
    /// effect's meaning and the adapters that give it.
    pub(crate) fn strongest(
        &self,
        pick: impl Fn(&AdapterTraits) -> (Effect, &'static str),
    ) -> (Effect, String) {
        self.strongest_where(|_| true, pick)
            .unwrap_or((Effect::Host, Effect::Host.meaning().to_string()))
    }

    /// [`strongest`](Self::strongest) over the rows for which `keep` holds; `None`
    /// when it holds for none of the adapters the call may reach.
    pub(crate) fn strongest_where(
        &self,
        keep: impl Fn(&AdapterTraits) -> bool,
        pick: impl Fn(&AdapterTraits) -> (Effect, &'static str),
    ) -> Option<(Effect, String)> {
        let picked: Vec<(AdapterFlavor, Effect, &str)> = self
            .rows()
            .into_iter()
            .filter(|t| keep(t))
            .map(|t| {
                let (effect, what) = pick(t);
                (t.flavor, effect, what)
            })
            .collect();
        let first = picked.first()?;
        if picked.iter().all(|p| p.1 == first.1 && p.2 == first.2) {
            return Some((first.1, first.2.to_string()));
        }
        let top = picked.iter().map(|p| p.1).max()?;
        let names: Vec<&str> = picked
            .iter()
            .filter(|p| p.1 == top)
            .map(|p| flavor_name(p.0))
            .collect();
        let which = match self {
            Adapters::Any => "the session's adapter is not known",
            Adapters::Some(_) => "the adapter is chosen when it starts",
        };
        Some((
            top,
            format!("{} with {} ({which})", top.meaning(), names.join(" or ")),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_has_its_own_row_and_each_phrase_says_its_effect() {
        for flavor in AdapterFlavor::ALL {
            let row = traits(flavor);
            assert_eq!(row.flavor, flavor);
            for (effect, what) in [row.expressions, row.console, row.completions] {
                let place = if effect == Effect::Host {
                    "host"
                } else {
                    "debuggee"
                };
                assert!(what.contains(place), "{flavor:?}: {what}");
            }
        }
    }

    #[test]
    fn consoles_that_take_debugger_commands_run_them_on_the_host() {
        let host: Vec<AdapterFlavor> = AdapterFlavor::ALL
            .into_iter()
            .filter(|f| traits(*f).console.0 == Effect::Host)
            .collect();
        assert_eq!(
            host,
            [
                AdapterFlavor::LldbDap,
                AdapterFlavor::Gdb,
                AdapterFlavor::CodeLldb,
                AdapterFlavor::Generic
            ]
        );
        assert_eq!(
            traits(AdapterFlavor::Debugpy).console.0,
            Effect::Code,
            "debugpy's console is Python in the program"
        );
    }

    #[test]
    fn one_adapter_speaks_its_own_words_and_several_name_the_strongest() {
        let lldb = Adapters::Some(vec![AdapterFlavor::LldbDap]);
        assert_eq!(
            lldb.strongest(|t| t.console),
            (Effect::Host, "runs lldb commands on the host".to_string())
        );
        let natives = Adapters::Some(vec![
            AdapterFlavor::LldbDap,
            AdapterFlavor::Gdb,
            AdapterFlavor::CodeLldb,
        ]);
        let (effect, what) = natives.strongest(|t| t.expressions);
        assert_eq!(effect, Effect::Host);
        assert_eq!(
            what,
            "runs commands on the host with gdb or codelldb (the adapter is chosen when it \
             starts)"
        );
        let (effect, what) = Adapters::Any.strongest(|t| t.expressions);
        assert_eq!(effect, Effect::Host, "{what}");
        assert!(what.contains("not known"), "{what}");
        // Every row's value is at most what "any adapter" says.
        for flavor in AdapterFlavor::ALL {
            let one = Adapters::Some(vec![flavor]);
            for pick in [
                |t: &AdapterTraits| t.expressions,
                |t: &AdapterTraits| t.console,
                |t: &AdapterTraits| t.completions,
            ] {
                assert!(one.strongest(pick).0 <= Adapters::Any.strongest(pick).0);
            }
        }
    }
}
