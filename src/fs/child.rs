//! External programs run on repository input (ShellCheck, git): confined so a hostile input
//! cannot make them outlive toolc or take the machine's memory, and stopped with everything
//! they started.

use std::process::{Child, Command};

/// Start the child in a process group of its own (so what it starts is stopped with it),
/// with `memory_bytes` of data at most, and (Linux) killed when the thread that started it
/// ends: a killed `toolc server` leaves no child running.
pub(crate) fn confine(command: &mut Command, memory_bytes: u64) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{
            Resource, Rlimit, Signal, set_parent_process_death_signal, setrlimit,
        };
        use std::os::unix::process::CommandExt;
        // SAFETY: between fork and exec only async-signal-safe system calls are made (prctl
        // and setrlimit, through rustix, which allocates nothing); their errors are ignored,
        // as the time limit still holds.
        unsafe {
            command.pre_exec(move || {
                let _ = set_parent_process_death_signal(Some(Signal::KILL));
                let limit = Rlimit {
                    current: Some(memory_bytes),
                    maximum: Some(memory_bytes),
                };
                let _ = setrlimit(Resource::Data, limit);
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = memory_bytes;
}

/// Kill the child and its process group, and reap it.
pub(crate) fn stop(child: &mut Child) {
    kill_group(child.id());
    let _ = child.kill();
    let _ = child.wait();
}

/// Kill the process group `id` leads.
pub(crate) fn kill_group(id: u32) {
    #[cfg(target_os = "linux")]
    if let Some(group) = rustix::process::Pid::from_raw(id as i32) {
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = id;
}
