//! Passwords written into a command that hands them to a program asking for one:
//! `echo 'pw' | sudo -S …`, `sudo -S … <<< 'pw'`, `sshpass -p 'pw' ssh …`. The program's
//! prompt exists to keep the password out of the command; a password written there is the
//! machine's or the server's own, whatever it looks like (`admin` included).

use std::sync::LazyLock;

use regex::Regex;

use super::{MAX_SECRETS_PER_LINE, Secret, SecretKind};

/// A literal word: single-quoted, double-quoted without expansions, or bare.
macro_rules! literal {
    () => {
        r#"(?:'([^'\n$`]+)'|"([^"\n$`\\]+)"|([^\s|;&$`'"<>()]+))"#
    };
}

/// The three ways, each with the password in groups 1–3.
static PIPED: LazyLock<Option<[Regex; 3]>> = LazyLock::new(|| {
    Some([
        Regex::new(concat!(
            r"\b(?:echo|printf)\s+(?:-[neE]+\s+)*",
            literal!(),
            r"\s*\|\s*sudo\s+(?:-[A-Za-z]+\s+)*?(?:-[A-Za-z]*S[A-Za-z]*|--stdin)\b"
        ))
        .ok()?,
        Regex::new(concat!(
            r"\bsudo\s+(?:-[A-Za-z]*S[A-Za-z]*|--stdin)\b[^\n|;&]*?<<<\s*",
            literal!()
        ))
        .ok()?,
        Regex::new(concat!(r"\bsshpass\s+-p\s*", literal!())).ok()?,
    ])
});

/// The passwords `line` hands to `sudo -S` or `sshpass -p` as literals.
pub(super) fn piped_passwords(line: &str, out: &mut Vec<Secret>) {
    if !(line.contains("sudo") || line.contains("sshpass")) {
        return;
    }
    let Some(res) = PIPED.as_ref() else {
        return;
    };
    for (re, program) in res.iter().zip(["sudo", "sudo", "sshpass"]) {
        for c in re.captures_iter(line) {
            if out.len() >= MAX_SECRETS_PER_LINE {
                return;
            }
            let Some(pw) = c.get(1).or_else(|| c.get(2)).or_else(|| c.get(3)) else {
                continue;
            };
            if stands_for_one(pw.as_str()) || out.iter().any(|h| h.holds(pw.start())) {
                continue;
            }
            out.push(Secret::new(
                pw.start(),
                pw.end(),
                SecretKind::GivenPassword { program },
            ));
        }
    }
}

/// A value that stands for a password rather than being one (`<password>`, `YOUR_PASS`,
/// `%s\n`, `...`).
fn stands_for_one(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    value.len() < 3
        || value.starts_with(['<', '{', '%', '[', '*'])
        || value.contains('%')
        || value
            .bytes()
            .all(|b| b == b'.' || b == b'x' || b == b'X' || b == b'*')
        || [
            "your",
            "password",
            "passwd",
            "placeholder",
            "redacted",
            "changeme",
        ]
        .iter()
        .any(|w| lower.contains(w))
}

#[cfg(test)]
mod tests {
    use super::super::tests::reported as found;

    #[test]
    fn passwords_handed_to_a_prompting_program() {
        assert_eq!(
            found("echo 'admin' | sudo -S apt-get install -y jq"),
            ["admin"]
        );
        assert_eq!(
            found("echo hunter2 | sudo --stdin systemctl restart x"),
            ["hunter2"]
        );
        assert_eq!(found("sudo -S true <<< \"s3cret!\""), ["s3cret!"]);
        assert_eq!(
            found("sshpass -p 'Winter2024' ssh deploy@host"),
            ["Winter2024"]
        );
    }

    #[test]
    fn a_password_from_elsewhere_is_none() {
        for line in [
            "echo \"$SUDO_PASSWORD\" | sudo -S apt-get update",
            "echo '<your password>' | sudo -S true",
            "printf '%s\\n' \"$PW\" | sudo -S true",
            "sshpass -e ssh deploy@host",
            "echo done | sudo tee /etc/motd",
            "sudo -S true < /run/secrets/pw",
        ] {
            assert!(found(line).is_empty(), "{line}");
        }
    }
}
