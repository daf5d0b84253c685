-- A headless check that the configuration in lsp/rulebook.lua starts the server, that it
-- attaches to a rule file and that its diagnostics arrive (docs/editors.md runs it):
--   nvim --headless -u NONE -c "luafile tools/nvim/check_attach.lua" FILE
-- Neovim 0.11 and later start it from the file itself (vim.lsp.config/enable); older
-- ones with vim.lsp.start_client and the same cmd, filetypes and root markers.
local here = debug.getinfo(1, "S").source:sub(2):match("(.*/)")
local config = dofile(here .. "lsp/rulebook.lua")
if os.getenv("RULEBOOK_CMD") then config.cmd = { os.getenv("RULEBOOK_CMD"), "lsp" } end
local buf = vim.api.nvim_get_current_buf()
vim.bo[buf].filetype = "yaml"
local function root_of(file)
  for _, marker in ipairs(config.root_markers) do
    local found = vim.fn.findfile(marker, vim.fn.fnamemodify(file, ":p:h") .. ";")
    if found == "" then found = vim.fn.finddir(marker, vim.fn.fnamemodify(file, ":p:h") .. ";") end
    if found ~= "" then return vim.fn.fnamemodify(found, ":p:h"):gsub("/%.git/?$", "") end
  end
  return vim.fn.getcwd()
end
local root = root_of(vim.api.nvim_buf_get_name(buf))
if vim.lsp.config and vim.lsp.enable then
  vim.lsp.config("rulebook", config)
  vim.lsp.enable("rulebook")
  vim.cmd("edit")  -- FileType again, so the enabled server attaches
else
  local id = vim.lsp.start_client({ name = "rulebook", cmd = config.cmd, root_dir = root })
  vim.lsp.buf_attach_client(buf, id)
end
local ok = vim.wait(60000, function() return #vim.diagnostic.get(buf) > 0 end, 200)
local clients = vim.lsp.get_active_clients({ bufnr = buf })
print(string.format("filetype %s in %s; attached: %s; root %s", vim.bo[buf].filetype,
  table.concat(config.filetypes, ","), clients[1] and clients[1].name or "none", root))
for _, d in ipairs(vim.diagnostic.get(buf)) do
  print(string.format("diagnostic line %d col %d: %s", d.lnum + 1, d.col + 1,
    d.message:gsub("\n", " ")))
end
io.stdout:write("\n")
vim.cmd(ok and "qall!" or "cquit!")
