// Starts `rulebook lsp` for YAML files; the server itself decides which files
// are rule files (a ruleset's files, mods, scenarios) and stays quiet on others,
// so the YAML extension's schema completion goes on beside it.
const path = require("path");
const { workspace } = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = workspace.getConfiguration("rulebook").get("command");
  const folder = workspace.workspaceFolders && workspace.workspaceFolders[0];
  const cwd = folder ? folder.uri.fsPath : undefined;
  // a relative command (".venv/bin/rulebook") is taken from the workspace folder
  const exe = cwd && command.includes("/") && !path.isAbsolute(command)
    ? path.join(cwd, command) : command;
  client = new LanguageClient(
    "rulebook",
    "Rulebook",
    { command: exe, args, options: { cwd } },
    { documentSelector: [{ scheme: "file", language: "yaml" }] },
  );
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
