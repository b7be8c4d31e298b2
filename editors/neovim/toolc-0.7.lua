-- toolc language server for Neovim 0.7 (Debian stable's), which has neither `vim.lsp.start`
-- nor `vim.fs`: one client for the session, attached to every Markdown, YAML and JSON buffer.
vim.filetype.add({ extension = { dops = "markdown" } })

local toolc_client = nil
vim.api.nvim_create_autocmd("FileType", {
  pattern = { "markdown", "yaml", "json" },
  callback = function(args)
    if toolc_client == nil then
      local here = vim.fn.expand("%:p:h") .. ";"
      local config = vim.fn.findfile("toolc.toml", here)
      local git = vim.fn.finddir(".git", here)
      local root = vim.fn.getcwd()
      if config ~= "" then
        root = vim.fn.fnamemodify(config, ":p:h")
      elseif git ~= "" then
        root = vim.fn.fnamemodify(git, ":p:h:h")
      end
      toolc_client = vim.lsp.start_client({
        name = "toolc",
        cmd = { "toolc", "server" },
        root_dir = root,
      })
    end
    if toolc_client then
      vim.lsp.buf_attach_client(args.buf, toolc_client)
    end
  end,
})
