//! gdb's own DAP mode (`gdb -i dap`, gdb 14 or newer). Defined and unproven here: no
//! gdb this new is packaged for these machines, so nothing is known of it beyond DAP
//! (its launch dialect, `stopAtBeginningOfMainSubprogram`, is the registry's).

use super::Quirks;

pub(super) const QUIRKS: Quirks = Quirks::NONE;
