// Starts `toolc server` for the Markdown, YAML and JSON files of the workspace; the server
// reports on the tool definitions among them and ignores the rest.
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate() {
  const command = vscode.workspace.getConfiguration("toolc").get("path", "toolc");
  const serverOptions = { command, args: ["server"], transport: TransportKind.stdio };
  const clientOptions = {
    documentSelector: ["markdown", "yaml", "json"].map((language) => ({
      scheme: "file",
      language,
    })),
    // Files changed outside the editor (a checkout, a generator) are checked again.
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher(
        "**/{*.md,*.dops,*.yaml,*.yml,*.json,toolc.toml}"
      ),
    },
  };
  client = new LanguageClient("toolc", "toolc", serverOptions, clientOptions);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
