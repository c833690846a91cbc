-- rulesc for Neovim 0.7 and newer: the `rules` filetype for rulesc's `.rules` files, and the
-- language server `rulesc lsp` for them (docs/editors.md).
--
-- `.rules` is not rulesc's alone: udev rules, Firebase security rules and hog use it too.
-- A file is rulesc's when it is in a `.rulesc/` folder (what `rulesc init` writes), or when
-- its first line that is not blank or a `#` comment starts an item of the language: `on `,
-- `test `, `default `, `policy ` or `@`. Any other `.rules` file keeps Neovim's own detection.

local function is_rulesc(path, bufnr)
  if path:find("/%.rulesc/") or path:find("^%.rulesc/") then
    return true
  end
  for _, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, 200, false)) do
    if not line:match("^%s*$") and not line:match("^%s*#") then
      return line:match("^%s*@") ~= nil
        or line:match("^%s*on%s") ~= nil
        or line:match("^%s*test%s") ~= nil
        or line:match("^%s*default%s") ~= nil
        or line:match("^%s*policy%s") ~= nil
    end
  end
  return false
end

if vim.fn.has("nvim-0.8") == 1 then
  vim.filetype.add({
    extension = {
      rules = function(path, bufnr)
        if is_rulesc(path, bufnr) then
          return "rules"
        end
        -- Not rulesc's: what Neovim would have said (udev, javascript, hog).
        local ok, detect = pcall(require, "vim.filetype.detect")
        if ok and detect.rules then
          return detect.rules(path)
        end
      end,
    },
  })
else
  -- 0.7 detects filetypes with filetype.vim, whose `*.rules` sets udev, javascript or hog
  -- with `:setfiletype`, which does nothing once this has set `rules`.
  vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, {
    pattern = "*.rules",
    callback = function(args)
      if is_rulesc(vim.api.nvim_buf_get_name(args.buf), args.buf) then
        vim.bo[args.buf].filetype = "rules"
      end
    end,
  })
end

-- One server per root folder (the nearest `.git`, else the file's folder), attached to
-- every `rules` buffer under it.
local clients = {}

vim.api.nvim_create_autocmd("FileType", {
  pattern = "rules",
  callback = function(args)
    vim.bo[args.buf].commentstring = "# %s"
    local file = vim.api.nvim_buf_get_name(args.buf)
    local dir = vim.fn.fnamemodify(file, ":p:h")
    local git = vim.fn.finddir(".git", dir .. ";")
    local root = git ~= "" and vim.fn.fnamemodify(git, ":p:h:h") or dir
    local config = { name = "rulesc", cmd = { "rulesc", "lsp" }, root_dir = root }
    if vim.lsp.start then
      vim.lsp.start(config, { bufnr = args.buf })
    else
      -- 0.7 has no `vim.lsp.start`.
      clients[root] = clients[root] or vim.lsp.start_client(config)
      if clients[root] then
        vim.lsp.buf_attach_client(args.buf, clients[root])
      end
    end
  end,
})
