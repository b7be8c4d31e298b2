//! The `toolc` binary: the command line lives in the library (`toolc::cli`).

fn main() -> std::process::ExitCode {
    toolc::cli::main()
}
