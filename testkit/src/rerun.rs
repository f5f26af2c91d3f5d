//! Running the current test binary again, in a child process, the way cargo ran it: through
//! the runner configured for the target (`CARGO_TARGET_<TRIPLE>_RUNNER`, as for a
//! cross-compiled test run under `qemu-aarch64`), or directly where there is none.
//!
//! Cargo starts the test binary through the runner but does not tell the binary about it;
//! the variable is read from the environment, which the test inherits from cargo's. (A
//! runner set only in a `.cargo/config.toml` is not seen, and the binary is run directly.)

use std::ffi::OsString;
use std::process::Command;

/// The target triple this crate (and so the test binary) is compiled for.
pub const TARGET: &str = env!("SIMDCRYPT_TESTKIT_TARGET");

/// The name of cargo's runner variable for `triple`: `CARGO_TARGET_`, the triple in upper
/// case with `-` and `.` as `_`, then `_RUNNER`.
pub fn runner_var(triple: &str) -> String {
    let t: String = triple
        .chars()
        .map(|c| match c {
            '-' | '.' => '_',
            c => c.to_ascii_uppercase(),
        })
        .collect();
    format!("CARGO_TARGET_{t}_RUNNER")
}

/// The words of a runner value: the program and its arguments, split on whitespace (as
/// cargo splits a runner given as a string). `None` for a value with no words.
pub fn runner_words(value: &str) -> Option<Vec<String>> {
    let words: Vec<String> = value.split_whitespace().map(str::to_owned).collect();
    (!words.is_empty()).then_some(words)
}

/// The runner configured for this target in the environment, as words; `None` if unset or
/// empty.
pub fn runner() -> Option<Vec<String>> {
    runner_words(&std::env::var(runner_var(TARGET)).ok()?)
}

/// A command that runs the program `exe` through `runner` (its words), or directly.
pub fn command_through(runner: Option<&[String]>, exe: impl Into<OsString>) -> Command {
    match runner {
        Some([program, args @ ..]) => {
            let mut c = Command::new(program);
            c.args(args).arg(exe.into());
            c
        }
        _ => Command::new(exe.into()),
    }
}

/// A command that runs the current executable (this test binary) again, through the
/// target's runner where one is configured ([`runner`]). Add the test harness's arguments
/// and the environment as for the binary itself.
pub fn rerun_self() -> Command {
    let exe = std::env::current_exe().expect("the path of the current test binary");
    command_through(runner().as_deref(), exe)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runner_var_spells_the_triple_as_cargo_does() {
        assert_eq!(
            runner_var("aarch64-unknown-linux-gnu"),
            "CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER"
        );
        assert_eq!(
            runner_var("thumbv7em-none-eabihf"),
            "CARGO_TARGET_THUMBV7EM_NONE_EABIHF_RUNNER"
        );
        assert_eq!(
            runner_var("x86_64-custom.v2"),
            "CARGO_TARGET_X86_64_CUSTOM_V2_RUNNER"
        );
    }

    #[test]
    fn runner_value_splits_on_whitespace() {
        assert_eq!(
            runner_words("  qemu-aarch64 -cpu max\t-L /usr/aarch64-linux-gnu "),
            Some(
                [
                    "qemu-aarch64",
                    "-cpu",
                    "max",
                    "-L",
                    "/usr/aarch64-linux-gnu"
                ]
                .map(String::from)
                .to_vec()
            )
        );
        assert_eq!(runner_words(" \t"), None);
        assert_eq!(runner_words(""), None);
    }

    #[test]
    fn the_command_puts_the_runner_first() {
        let words = ["qemu-s390x", "-L", "/usr/s390x-linux-gnu"].map(String::from);
        let c = command_through(Some(&words), "/t/bin");
        assert_eq!(c.get_program(), "qemu-s390x");
        let args: Vec<_> = c.get_args().collect();
        assert_eq!(args, ["-L", "/usr/s390x-linux-gnu", "/t/bin"]);
        let c = command_through(None, "/t/bin");
        assert_eq!(c.get_program(), "/t/bin");
        assert_eq!(c.get_args().count(), 0);
    }
}
