-- A stand-in for BizHawk's Lua API, enough to run tools/capture/bizhawk_capture.lua under a
-- plain Lua interpreter. Usage: lua fake_bizhawk.lua FRAMES.lua SCRIPT.lua OUT.cap
-- FRAMES.lua returns {system=, romname=, romhash=, kernel=, rom=, frames={{frame=, rng=,
-- pressed={names}, ranges={[offset]=hex}}, ...}}; after the last frame the exit handlers run.
local data = dofile(arg[1])
local index, exits = 1, {}
EMUCORE_CAPTURE = arg[3]

local function bytes_of(raw, length)
  local out = {}
  for i = 1, length do out[i] = (i <= #raw) and string.byte(raw, i) or 0 end
  return out
end

local function unhex(hex)
  return (hex:gsub("..", function(pair) return string.char(tonumber(pair, 16)) end))
end

emu = {
  getsystemid = function() return data.system end,
  framecount = function() return data.frames[index].frame end,
  frameadvance = function()
    index = index + 1
    if index > #data.frames then
      for _, handler in ipairs(exits) do handler() end
      os.exit(0)
    end
  end,
}
memory = {
  read_bytes_as_array = function(offset, length, domain)
    if domain == "ROM" then return bytes_of(data.rom:sub(offset + 1), length) end
    if offset == 0 and length == 0x10000 then return bytes_of(data.kernel, length) end
    local hex = data.frames[index].ranges[offset]
    if not hex then error(string.format("unexpected read at 0x%X", offset)) end
    return bytes_of(unhex(hex), length)
  end,
  read_u32_le = function(_offset, _domain) return data.frames[index].rng end,
  readbyte = function(_offset, _domain) return 0 end,
}
joypad = {
  get = function()
    local state = {}
    for _, name in ipairs(data.frames[index].pressed) do state[name] = true end
    return state
  end,
}
gameinfo = {getromname = function() return data.romname end,
            getromhash = function() return data.romhash end}
client = {getversion = function() return "2.9.1" end}
console = {log = function(text) io.stderr:write(text, "\n") end}
event = {onexit = function(handler) exits[#exits + 1] = handler end}

dofile(arg[2])
