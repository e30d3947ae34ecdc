-- emucore capture script for BizHawk (2.6 or later): PlayStation (Forbidden Memories,
-- SLUS-01411) and Game Boy (Duel Monsters, title YUGIOU). docs/capture.md says how to use it.
--
-- Load it in Tools > Lua Console while the game runs, before the duel starts (at the duelist
-- select screen). It writes <game>-<date>.cap next to BizHawk's working folder (or the path
-- in the global EMUCORE_CAPTURE if set) and finishes the file when the script is stopped.

local here = (debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "")
local core = dofile(here .. "capture_core.lua")
local SCRIPT = "bizhawk_capture.lua"

local function read_string(offset, length, domain)
  local bytes = memory.read_bytes_as_array(offset, length, domain)
  return core.raw(bytes, length, 1)
end

-- Identify the game: the Game Boy cartridge title and destination code in the ROM header;
-- for the PlayStation the boot string SLUS_014.11 in the kernel's RAM, else BizHawk's
-- database name of the disc.
local function identify()
  local system = emu.getsystemid()
  if system == "GB" or system == "GBC" or system == "SGB" then
    local map = dofile(here .. "dm1_addresses.lua")
    local title = read_string(0x134, 16, "ROM")
    if title:sub(1, #map.ident) ~= map.ident then
      return nil, "ROM title '" .. title:gsub("%z", "") .. "' is not " .. map.ident
    end
    if memory.readbyte(0x14A, "ROM") ~= 0 then
      return nil, "destination code is not Japan: emucore describes region " .. map.region
    end
    return map
  elseif system == "PSX" then
    local map = dofile(here .. "fm_addresses.lua")
    local kernel = read_string(0, 0x10000, map.domain)
    if kernel:find(map.ident, 1, true) then return map end
    local name = gameinfo.getromname() or ""
    if name:find("Forbidden Memories", 1, true) and name:find("USA", 1, true) then
      return map
    end
    return nil, "boot string " .. map.ident .. " not found and the disc is '" .. name .. "'"
  end
  return nil, "system " .. tostring(system) .. " has no emucore capture map"
end

local map, why = identify()
if not map then
  console.log("emucore capture: not started: " .. why)
  return
end

local function pressed_fn(state)
  return function(name)
    local want = name:lower()
    for key, value in pairs(state) do
      local k = key:lower()
      if value == true and (k == want or k:sub(-#want - 1) == " " .. want) then return true end
    end
    return false
  end
end

local path = EMUCORE_CAPTURE or core.default_path(map)
local cap = core.open(path, map, {
  emulator = "BizHawk " .. (client.getversion and client.getversion() or "?"),
  script = SCRIPT,
  media = gameinfo.getromhash() or "-",
})
event.onexit(function() cap:close() end)
console.log("emucore capture: writing " .. path .. " (" .. map.game .. ")")

while true do
  local ranges = {}
  for _, r in ipairs(map.ranges) do
    ranges[r.name] = read_string(r.offset, r.length, map.domain)
  end
  local rng = map.rng_offset and memory.read_u32_le(map.rng_offset, map.domain) or nil
  cap:add(emu.framecount(), core.pad_word(map, pressed_fn(joypad.get())), rng, ranges)
  emu.frameadvance()
end
