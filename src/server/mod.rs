//! `toolc server`: a Language Server over stdio on a [`Workspace`].
//!
//! One thread reads messages and answers them in order. Each batch of messages that arrived
//! together updates the editor buffers first and re-checks each changed file once, so a
//! burst of keystrokes costs one check. A check of a changed file also reports every file
//! whose cross-file findings changed with it (an agent whose tool was disabled); those are
//! published too. Requests are answered on an up-to-date check.
//!
//! The protocol layer is `lsp-server` and `lsp-types`, rust-analyzer's own scaffold: it is
//! synchronous (two stdio threads and channels), which fits a workspace that checks on the
//! calling thread and answers one message at a time; an async framework would add a runtime
//! and locking around the workspace for nothing.

mod convert;
mod handlers;
mod transport;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types as lsp;
use serde_json::{Value, json};

use crate::Workspace;
use crate::config::{self, Config, ConfigError};
use crate::diagnostics::Diagnostic;
use crate::fs::normalize;
use crate::pipeline::Report;
use crate::source::{FormatId, SourceFile};

/// How long the server waits for the next message of a burst before it checks.
const BURST_GAP: std::time::Duration = std::time::Duration::from_millis(2);

/// At most this many messages are taken into one batch, so a client that never pauses is
/// still answered.
const MAX_BATCH: usize = 256;

/// What `toolc server` is started with.
#[derive(Debug, Clone, Default)]
pub(crate) struct Options {
    /// `--config FILE`, instead of looking for `toolc.toml` from the workspace root up.
    pub config: Option<PathBuf>,
    /// The root when the client names none (the working directory).
    pub fallback_root: PathBuf,
}

/// Why the server stopped abnormally.
#[derive(Debug)]
pub(crate) struct ServerError(pub String);

impl std::fmt::Display for ServerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<lsp_server::ProtocolError> for ServerError {
    fn from(e: lsp_server::ProtocolError) -> Self {
        ServerError(e.to_string())
    }
}

/// Serve on stdin/stdout until the client says `exit`.
pub(crate) fn run_stdio(options: &Options) -> Result<(), ServerError> {
    let (connection, writer) = transport::stdio();
    serve(&connection, options)?;
    // The writer thread must flush the last response before the process ends.
    drop(connection);
    writer
        .join()
        .map_err(|e| ServerError(format!("stdio: {e}")))
}

/// Initialize, then answer messages on `connection` until `exit`.
pub(crate) fn serve(connection: &Connection, options: &Options) -> Result<(), ServerError> {
    let (id, params) = connection.initialize_start()?;
    let root = root_of(&params).unwrap_or_else(|| options.fallback_root.clone());
    let result = json!({
        "capabilities": capabilities(),
        "serverInfo": {"name": "toolc", "version": env!("CARGO_PKG_VERSION")},
    });
    finish_initialize(connection, id, result)?;
    let mut server = Server::new(root, options.config.clone());
    server.check_all(connection);
    server.main_loop(connection)
}

/// What a second `initialize` is answered.
const ALREADY_INITIALIZED: &str = "the server is already initialized";

/// Answer `initialize` with `result`, then wait for the client's `initialized`. Until then a
/// request (a second `initialize` too) is answered with an error and a notification is
/// dropped, as the protocol asks of a server, rather than ending the session (lsp-server's
/// own handshake ends it on any message but `initialized`).
fn finish_initialize(
    connection: &Connection,
    id: lsp_server::RequestId,
    result: Value,
) -> Result<(), ServerError> {
    send(connection, Response::new_ok(id, result).into());
    loop {
        match connection.receiver.recv() {
            Ok(Message::Notification(n)) if n.method == "initialized" => return Ok(()),
            Ok(Message::Notification(n)) if n.method == "exit" => {
                return Err(ServerError("`exit` before `shutdown`".to_string()));
            }
            Ok(Message::Request(request)) => {
                let message = if request.method == "initialize" {
                    ALREADY_INITIALIZED
                } else {
                    "the server waits for the `initialized` notification"
                };
                let error = Response::new_err(
                    request.id,
                    ErrorCode::InvalidRequest as i32,
                    message.to_string(),
                );
                send(connection, error.into());
            }
            Ok(_) => {}
            Err(_) => return Err(ServerError("the client closed the connection".to_string())),
        }
    }
}

/// What the server can do: full-text sync with save notifications, hover, code actions
/// (quick fixes and fix-all), go-to-definition and document symbols; UTF-16 positions.
fn capabilities() -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        position_encoding: Some(lsp::PositionEncodingKind::UTF16),
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(
            lsp::TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(lsp::TextDocumentSyncKind::FULL),
                save: Some(lsp::TextDocumentSyncSaveOptions::Supported(true)),
                ..lsp::TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Options(
            lsp::CodeActionOptions {
                code_action_kinds: Some(vec![
                    lsp::CodeActionKind::QUICKFIX,
                    handlers::fix_all_kind(),
                ]),
                ..lsp::CodeActionOptions::default()
            },
        )),
        definition_provider: Some(lsp::OneOf::Left(true)),
        document_symbol_provider: Some(lsp::OneOf::Left(true)),
        ..lsp::ServerCapabilities::default()
    }
}

/// The workspace root the client names: its first workspace folder, else `rootUri`, else
/// `rootPath`.
fn root_of(params: &Value) -> Option<PathBuf> {
    let uri = params["workspaceFolders"][0]["uri"]
        .as_str()
        .or_else(|| params["rootUri"].as_str());
    if let Some(uri) = uri.and_then(|u| u.parse::<lsp::Uri>().ok()) {
        return convert::path_of(&uri).map(|p| normalize(&p));
    }
    params["rootPath"].as_str().map(|p| normalize(Path::new(p)))
}

/// An editor document the server holds.
struct Document {
    uri: lsp::Uri,
    version: i32,
    text: String,
}

/// The server's state between messages.
struct Server {
    root: PathBuf,
    explicit_config: Option<PathBuf>,
    ws: Workspace,
    /// Open documents by path; their text is the workspace's buffer for that path.
    open: HashMap<PathBuf, Document>,
    /// The findings last published, by file (files without findings are absent).
    findings: HashMap<PathBuf, Vec<Diagnostic>>,
    /// Files changed since the last check.
    dirty: BTreeSet<PathBuf>,
    /// Findings of an invalid configuration, published on it while the defaults apply.
    config_errors: Vec<Diagnostic>,
    shutting_down: bool,
}

impl Server {
    fn new(root: PathBuf, explicit_config: Option<PathBuf>) -> Server {
        let (config, config_errors) =
            load_config(&root, explicit_config.as_deref(), None, &|_| None);
        Server {
            ws: Workspace::new(config, root.clone()),
            root,
            explicit_config,
            open: HashMap::new(),
            findings: HashMap::new(),
            dirty: BTreeSet::new(),
            config_errors,
            shutting_down: false,
        }
    }

    fn main_loop(&mut self, connection: &Connection) -> Result<(), ServerError> {
        while let Ok(first) = connection.receiver.recv() {
            let mut batch = vec![first];
            // The transport hands over one message at a time: what the client sent in a
            // burst (keystrokes) follows within a moment, and is taken into this batch.
            while batch.len() < MAX_BATCH {
                match connection.receiver.recv_timeout(BURST_GAP) {
                    Ok(message) => batch.push(message),
                    Err(_) => break,
                }
            }
            for message in batch {
                match message {
                    Message::Request(request) => {
                        let response = self.request(connection, request);
                        send(connection, response.into());
                    }
                    Message::Notification(n) if n.method == "exit" => {
                        return if self.shutting_down {
                            Ok(())
                        } else {
                            Err(ServerError("`exit` before `shutdown`".to_string()))
                        };
                    }
                    Message::Notification(n) => self.notification(n),
                    // Replies to requests of ours: the server sends none it waits for.
                    Message::Response(_) => {}
                }
            }
            self.flush(connection);
        }
        Err(ServerError("the client closed the connection".to_string()))
    }

    fn request(&mut self, connection: &Connection, request: Request) -> Response {
        if self.shutting_down {
            return Response::new_err(
                request.id,
                ErrorCode::InvalidRequest as i32,
                "the server is shutting down".to_string(),
            );
        }
        if request.method == "initialize" {
            return Response::new_err(
                request.id,
                ErrorCode::InvalidRequest as i32,
                ALREADY_INITIALIZED.to_string(),
            );
        }
        if request.method == "shutdown" {
            self.shutting_down = true;
            return Response::new_ok(request.id, ());
        }
        // Answers read the findings and files of the current buffers.
        self.flush(connection);
        handlers::answer(self, request)
    }

    fn notification(&mut self, n: Notification) {
        use lsp::notification::{
            DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument,
            DidOpenTextDocument, DidSaveTextDocument, Notification as _,
        };
        let method = n.method.clone();
        match method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Some(p) = params::<lsp::DidOpenTextDocumentParams>(n) {
                    let doc = p.text_document;
                    self.set_document(doc.uri, doc.version, doc.text);
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Some(p) = params::<lsp::DidChangeTextDocumentParams>(n) {
                    self.change(p);
                }
            }
            DidSaveTextDocument::METHOD => {
                if let Some(p) = params::<lsp::DidSaveTextDocumentParams>(n) {
                    self.save(p);
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Some(p) = params::<lsp::DidCloseTextDocumentParams>(n)
                    && let Some(path) = self.path_in_root(&p.text_document.uri)
                {
                    self.open.remove(&path);
                    self.ws.remove_buffer(&path);
                    self.dirty.insert(path);
                }
            }
            DidChangeWatchedFiles::METHOD => {
                for change in params::<lsp::DidChangeWatchedFilesParams>(n)
                    .map(|p| p.changes)
                    .unwrap_or_default()
                {
                    // An open document's buffer wins over the disk.
                    if let Some(path) = self.path_in_root(&change.uri)
                        && !self.open.contains_key(&path)
                    {
                        self.dirty.insert(path);
                    }
                }
            }
            _ => {}
        }
    }

    fn change(&mut self, p: lsp::DidChangeTextDocumentParams) {
        let Some(path) = self.path_in_root(&p.text_document.uri) else {
            return;
        };
        let text = self
            .open
            .get(&path)
            .map(|d| d.text.clone())
            .unwrap_or_default();
        let text = convert::apply_changes(text, &p.content_changes);
        self.set_document(p.text_document.uri, p.text_document.version, text);
    }

    fn save(&mut self, p: lsp::DidSaveTextDocumentParams) {
        let Some(path) = self.path_in_root(&p.text_document.uri) else {
            return;
        };
        match (p.text, self.open.get(&path)) {
            (Some(text), Some(doc)) => {
                let (uri, version) = (doc.uri.clone(), doc.version);
                self.set_document(uri, version, text);
            }
            // The buffer is what was saved; saving may still matter to files that read
            // it from disk.
            _ => {
                self.dirty.insert(path);
            }
        }
    }

    /// The normalized path of a `file:` URI inside the workspace root; files elsewhere are
    /// not the repository's, and are neither read nor checked.
    fn path_in_root(&self, uri: &lsp::Uri) -> Option<PathBuf> {
        let path = normalize(&convert::path_of(uri)?);
        path.starts_with(&self.root).then_some(path)
    }

    fn set_document(&mut self, uri: lsp::Uri, version: i32, text: String) {
        let Some(path) = self.path_in_root(&uri) else {
            return;
        };
        self.ws.set_buffer(&path, text.as_bytes());
        self.open
            .insert(path.clone(), Document { uri, version, text });
        self.dirty.insert(path);
    }

    /// Re-check every changed file, publishing what changed.
    fn flush(&mut self, connection: &Connection) {
        let dirty = std::mem::take(&mut self.dirty);
        if dirty.iter().any(|p| self.is_config(p)) {
            self.reload_config();
            self.check_all(connection);
            return;
        }
        for path in dirty {
            let report = self.ws.check_file(&path);
            self.publish(connection, report, Some(&path));
        }
    }

    /// A configuration file: the one in force, a nested one, or a file either `extend`s
    /// (its custom rules and settings change the whole check).
    fn is_config(&self, path: &Path) -> bool {
        self.is_root_config(path)
            || path.file_name().is_some_and(|n| n == config::FILE_NAME)
            || self.ws.config().extends.iter().any(|e| e == path)
            || self.ws.nested_configs_extend(path)
    }

    fn is_root_config(&self, path: &Path) -> bool {
        let in_force = self.ws.config().file.as_ref().map(|f| f.path.as_path());
        in_force == Some(path)
            || self.explicit_config.is_none() && *path == self.root.join(config::FILE_NAME)
    }

    /// Read the configuration again (from its open buffer, if it has one) and start a new
    /// workspace on it with the open buffers.
    fn reload_config(&mut self) {
        let buffer = self
            .open
            .iter()
            .find(|(p, _)| self.is_root_config(p))
            .map(|(p, d)| (p.clone(), d.text.clone()));
        // The custom rules are declared again by the files read now (nested ones with the
        // check that follows): one taken out of them is known no more.
        crate::rules::custom::forget();
        let open = &self.open;
        let buffered = |p: &Path| open.get(p).map(|d| d.text.clone());
        let (config, errors) = load_config(
            &self.root,
            self.explicit_config.as_deref(),
            buffer,
            &buffered,
        );
        self.config_errors = errors;
        self.ws = Workspace::new(config, self.root.clone());
        for (path, doc) in &self.open {
            self.ws.set_buffer(path, doc.text.as_bytes());
        }
    }

    /// Check the whole repository and publish every file's findings, clearing the files
    /// that have none any more.
    fn check_all(&mut self, connection: &Connection) {
        let mut report = self.ws.check();
        report
            .diagnostics
            .extend(self.config_errors.iter().cloned());
        let stale: Vec<PathBuf> = self.findings.keys().cloned().collect();
        let mut by_file = group(report.diagnostics);
        for path in stale {
            by_file.entry(path).or_default();
        }
        self.publish_files(connection, by_file);
    }

    /// Publish the files of a re-check of `changed`.
    fn publish(&mut self, connection: &Connection, report: Report, changed: Option<&Path>) {
        let mut by_file = group(report.diagnostics);
        for f in &report.files {
            by_file.entry(f.path.clone()).or_default();
        }
        if let Some(path) = changed {
            by_file.entry(path.to_path_buf()).or_default();
        }
        self.publish_files(connection, by_file);
    }

    fn publish_files(
        &mut self,
        connection: &Connection,
        by_file: BTreeMap<PathBuf, Vec<Diagnostic>>,
    ) {
        use lsp::notification::{Notification as _, PublishDiagnostics};
        for (path, diagnostics) in by_file {
            let open = self.open.get(&path);
            // A file never reported on and not open has nothing to clear.
            if diagnostics.is_empty() && open.is_none() && !self.findings.contains_key(&path) {
                continue;
            }
            let Some(uri) = open
                .map(|d| d.uri.clone())
                .or_else(|| convert::uri_of(&path))
            else {
                continue;
            };
            let params = lsp::PublishDiagnosticsParams {
                uri,
                diagnostics: diagnostics.iter().map(convert::diagnostic).collect(),
                version: open.map(|d| d.version),
            };
            send(
                connection,
                Notification::new(PublishDiagnostics::METHOD.to_string(), params).into(),
            );
            if diagnostics.is_empty() {
                self.findings.remove(&path);
            } else {
                self.findings.insert(path, diagnostics);
            }
        }
    }
}

/// The configuration for `root` (from `buffer`, the unsaved text of the configuration
/// file, when there is one), and the findings that made it fall back to the defaults.
fn load_config(
    root: &Path,
    explicit: Option<&Path>,
    buffer: Option<(PathBuf, String)>,
    buffered: &dyn Fn(&Path) -> Option<String>,
) -> (Config, Vec<Diagnostic>) {
    let loaded = match buffer {
        Some((path, text)) => {
            let display = crate::fs::display_path(&path, root);
            let folder = path
                .parent()
                .map_or_else(|| root.to_path_buf(), Path::to_path_buf);
            let file = SourceFile::new(path, display, FormatId::Config, text);
            // The files it extends, from their buffers too.
            Config::load(file, folder, root, None, &|p| {
                Config::read_buffered(p, buffered)
            })
        }
        None => Config::discover_from(root, root, explicit, buffered),
    };
    match loaded {
        Ok(config) => (config, Vec::new()),
        Err(ConfigError::Invalid(errors)) => (Config::defaults_at(root), errors),
        // An unreadable configuration has no place to publish a finding: the defaults apply.
        Err(ConfigError::Io { .. }) => (Config::defaults_at(root), Vec::new()),
    }
}

/// The parameters of a notification, when they are what its method says.
fn params<P: serde::de::DeserializeOwned>(n: Notification) -> Option<P> {
    serde_json::from_value(n.params).ok()
}

/// Diagnostics by file.
fn group(diagnostics: Vec<Diagnostic>) -> BTreeMap<PathBuf, Vec<Diagnostic>> {
    let mut out: BTreeMap<PathBuf, Vec<Diagnostic>> = BTreeMap::new();
    for d in diagnostics {
        out.entry(d.file.path.clone()).or_default().push(d);
    }
    out
}

/// Send a message; a client that went away ends the loop on the next receive.
fn send(connection: &Connection, message: Message) {
    let _ = connection.sender.send(message);
}
