-- Rulebook's language server, as Neovim 0.11's vim.lsp.config and nvim-lspconfig read
-- a server's configuration: put this folder on 'runtimepath' (or copy this file to
-- ~/.config/nvim/lsp/rulebook.lua) and call vim.lsp.enable("rulebook").
return {
  cmd = { "rulebook", "lsp" },          -- or the full path to .venv/bin/rulebook
  filetypes = { "yaml" },
  root_markers = { "ruleset.yaml", ".git" },
}
