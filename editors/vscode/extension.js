// Starts `rulesc lsp` for `.rules` files and stops it with the editor.
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("rulesc.server");
  const server = {
    command: config.get("path", "rulesc"),
    args: config.get("args", ["lsp"]),
  };
  client = new LanguageClient(
    "rulesc",
    "rulesc language server",
    { run: server, debug: server },
    { documentSelector: [{ language: "rules" }] },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
