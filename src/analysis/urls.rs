//! URLs written in definitions: scheme and host, enough to tell an absolute URL from a
//! relative one, `https://` from plaintext, and this machine from another.

/// The parts of an absolute `scheme://authority/rest` URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Url<'s> {
    /// The scheme, as written (`https`).
    pub scheme: &'s str,
    /// The host, without user info, port or IPv6 brackets.
    pub host: &'s str,
    /// Byte offset of the host in the URL.
    pub host_start: usize,
}

/// True when `host` (a URL's host, IPv6 without brackets) is this machine: `localhost` (and
/// `*.localhost`), `127.x.x.x`, `::1`, `0.0.0.0`.
pub(crate) fn is_loopback_host(host: &str) -> bool {
    let host = host.to_ascii_lowercase();
    host == "localhost"
        || host.ends_with(".localhost")
        || host.starts_with("127.")
        || host == "::1"
        || host == "0.0.0.0"
}

impl<'s> Url<'s> {
    /// `s` as an absolute URL with a host, if it is one.
    pub(crate) fn parse(s: &'s str) -> Option<Url<'s>> {
        let (scheme, rest) = s.split_once("://")?;
        let scheme_ok = scheme
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
            && scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
        if !scheme_ok {
            return None;
        }
        let authority_start = scheme.len() + 3;
        let authority = rest.find(['/', '?', '#']).map_or(rest, |end| &rest[..end]);
        let host_at = authority.rfind('@').map_or(0, |i| i + 1);
        let host_port = &authority[host_at..];
        let host = if let Some(inner) = host_port.strip_prefix('[') {
            inner.split(']').next().unwrap_or("")
        } else {
            host_port.split(':').next().unwrap_or("")
        };
        if host.is_empty() || host.contains(char::is_whitespace) {
            return None;
        }
        let host_start = authority_start + host_at + usize::from(host_port.starts_with('['));
        Some(Url {
            scheme,
            host,
            host_start,
        })
    }

    /// True for `https`, any case.
    pub(crate) fn is_https(&self) -> bool {
        self.scheme.eq_ignore_ascii_case("https")
    }

    /// True for `http`, any case.
    pub(crate) fn is_http(&self) -> bool {
        self.scheme.eq_ignore_ascii_case("http")
    }

    /// True when the host is this machine: `localhost` (and `*.localhost`), `127.x.x.x`,
    /// `::1`, `0.0.0.0`.
    pub(crate) fn is_loopback(&self) -> bool {
        is_loopback_host(self.host)
    }

    /// True when the host is a name only this machine or its container or cluster network
    /// resolves: a name without a dot (a Compose service, `jenkins`), `host.docker.internal`
    /// and other `*.internal` names, `*.local` (mDNS), and Kubernetes service names
    /// (`*.svc`, `*.svc.cluster.local`). Traffic to it does not cross a network the
    /// definition's author does not run.
    pub(crate) fn is_local_name(&self) -> bool {
        let host = self.host.to_ascii_lowercase();
        let ip = host.contains(':') || host.bytes().all(|b| b.is_ascii_digit() || b == b'.');
        !ip && (!host.contains('.')
            || [".internal", ".local", ".svc", ".svc.cluster.local"]
                .iter()
                .any(|end| host.ends_with(end)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absolute_urls_and_their_hosts() {
        let u = Url::parse("https://user:pw@api.example.com:8443/mcp?x=1").expect("a URL");
        assert_eq!((u.scheme, u.host), ("https", "api.example.com"));
        assert_eq!(
            &"https://user:pw@api.example.com:8443/mcp?x=1"[u.host_start..][..3],
            "api"
        );
        assert!(u.is_https() && !u.is_loopback());
        let v6 = Url::parse("http://[::1]:3000/mcp").expect("a URL");
        assert!(v6.is_http() && v6.is_loopback());
        assert!(Url::parse("http://127.0.0.1:8080").is_some_and(|u| u.is_loopback()));
        assert!(Url::parse("/relative/path").is_none());
        assert!(Url::parse("https://").is_none());
        assert!(Url::parse("1http://x").is_none());
    }

    #[test]
    fn local_network_names() {
        let local = |u: &str| Url::parse(u).is_some_and(|u| u.is_local_name());
        for u in [
            "http://jenkins:8080/mcp",
            "http://host.docker.internal:3000",
            "http://printer.local/",
            "http://api.tools.svc.cluster.local:80",
            "http://api.tools.svc:80",
        ] {
            assert!(local(u), "{u}");
        }
        for u in [
            "http://docs.example.com/mcp",
            "http://10.0.0.5:8080",
            "http://203.0.113.9/",
            "http://[2001:db8::1]/",
            "http://internal.example.com/",
        ] {
            assert!(!local(u), "{u}");
        }
    }
}
