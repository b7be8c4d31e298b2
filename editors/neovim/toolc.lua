-- toolc language server for Neovim 0.11+: diagnostics as you type, hover, quick fixes,
-- go-to-definition and document symbols in tool definition files.
vim.filetype.add({ extension = { dops = "markdown" } })

vim.lsp.config("toolc", {
  cmd = { "toolc", "server" },
  filetypes = { "markdown", "yaml", "json" },
  root_markers = { "toolc.toml", ".git" },
})
vim.lsp.enable("toolc")
