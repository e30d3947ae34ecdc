-- emucore capture script for mGBA (0.10 or later, Tools > Scripting): Game Boy Duel Monsters
-- (ROM title YUGIOU). docs/capture.md says how to use it.
--
-- Load it while the game runs, before the duel starts. It writes <game>-<date>.cap in mGBA's
-- working folder (or the path in the global EMUCORE_CAPTURE if set) and finishes the file
-- when the script or the game stops.

local here = (debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "")
local core = dofile(here .. "capture_core.lua")
local map = dofile(here .. "dm1_addresses.lua")
local SCRIPT = "mgba_capture.lua"

local function identify()
  if emu:platform() ~= C.PLATFORM.GB then return "this is not a Game Boy game" end
  local title = emu:readRange(0x134, 16)
  if title:sub(1, #map.ident) ~= map.ident then
    return "ROM title '" .. title:gsub("%z", "") .. "' is not " .. map.ident
  end
  if emu:read8(0x14A) ~= 0 then
    return "destination code is not Japan: emucore describes region " .. map.region
  end
  return nil
end

local why = identify()
if why then
  console:log("emucore capture: not started: " .. why)
  return
end

local path = EMUCORE_CAPTURE or core.default_path(map)
local cap = core.open(path, map, {
  emulator = "mGBA",
  script = SCRIPT,
  media = emu:checksum(C.CHECKSUM.CRC32) and core.hex(emu:checksum(C.CHECKSUM.CRC32)) or "-",
})
console:log("emucore capture: writing " .. path .. " (" .. map.game .. ")")

local function on_frame()
  local ranges = {}
  for _, r in ipairs(map.ranges) do
    ranges[r.name] = emu:readRange(r.offset, r.length)
  end
  local keys = emu:getKeys()  -- bit 0 A, 1 B, 2 Select, 3 Start, 4 Right, 5 Left, 6 Up, 7 Down
  local function pressed(name)
    for i, bit_name in ipairs(map.pad_bits) do
      if bit_name == name then return math.floor(keys / 2 ^ (i - 1)) % 2 == 1 end
    end
    return false
  end
  cap:add(emu:currentFrame(), core.pad_word(map, pressed), nil, ranges)
end

-- EMUCORE_CAPTURE_FRAMES (a global, optional): finish the file after that many frames, for
-- unattended runs (mGBA has no way for a script to quit the emulator).
local frames_left = EMUCORE_CAPTURE_FRAMES

callbacks:add("frame", function()
  if not cap.file then return end
  on_frame()
  if frames_left then
    frames_left = frames_left - 1
    if frames_left <= 0 then
      cap:close()
      console:log("emucore capture: finished " .. path)
    end
  end
end)
callbacks:add("shutdown", function() cap:close() end)
callbacks:add("stop", function() cap:close() end)
