-- emucore capture writer, shared by the emulator front scripts (bizhawk_capture.lua,
-- mgba_capture.lua). Plain Lua 5.1..5.4 / LuaJIT: no bit operators, no libraries.
--
-- Writes the capture file format of emucore/capture/fileformat.py (docs/capture.md):
-- a header, then one record whenever the RNG state or any watched range changed since the
-- previous record (only the changed ranges; the first record holds all of them), each line
-- ending in " *" .. Adler-32 of the text before it, then "end COUNT" when the script stops.

local core = {}
core.SCRIPT_VERSION = 1

-- Adler-32 (as zlib.adler32) with plain arithmetic.
function core.adler32(text)
  local a, b = 1, 0
  for i = 1, #text do
    a = (a + string.byte(text, i)) % 65521
    b = (b + a) % 65521
  end
  return string.format("%04x%04x", b, a)
end

-- Bytes (a 0- or 1-based array of numbers, `length` long) as a raw string.
function core.raw(bytes, length, first)
  local parts = {}
  for i = 0, length - 1 do
    parts[#parts + 1] = string.char(bytes[first + i])
  end
  return table.concat(parts)
end

function core.hex(raw)
  return (string.gsub(raw, ".", function(c) return string.format("%02X", string.byte(c)) end))
end

-- The pad word: bit i set when button map.pad_bits[i+1] is down (inverted for active-low
-- pads). `pressed(name)` answers whether a button is down.
function core.pad_word(map, pressed)
  local word, value = 0, 1
  for _, name in ipairs(map.pad_bits) do
    local down = pressed(name)
    if map.pad_active_low then down = not down end
    if down then word = word + value end
    value = value * 2
  end
  local width = (#map.pad_bits > 8) and 4 or 2
  return string.format("%0" .. width .. "X", word)
end

-- Open a capture. info: emulator, script, media (strings).
function core.open(path, map, info)
  local file, err = io.open(path, "w")
  if not file then error("cannot write " .. path .. ": " .. tostring(err)) end
  local header = {
    "emucore-capture " .. map.format_version,
    "game " .. map.game,
    "region " .. map.region,
    "ident " .. map.ident,
    "emulator " .. info.emulator,
    "script " .. info.script .. " " .. core.SCRIPT_VERSION,
    "media " .. (info.media or "-"),
    "watch " .. map.watch,
  }
  file:write(table.concat(header, "\n"), "\n")
  file:flush()
  local cap = {file = file, map = map, count = 0, last = {}, last_rng = nil, path = path}

  -- ranges: name -> raw string; rng: number or nil; frame: number; pad: hex string.
  function cap:add(frame, pad, rng, ranges)
    local parts = {"r " .. string.format("%d", frame) .. " " .. pad}
    parts[2] = rng and string.format("%08X", rng) or "-"
    local changed = false
    for _, r in ipairs(self.map.ranges) do
      local raw = ranges[r.name]
      if raw ~= self.last[r.name] then
        parts[#parts + 1] = r.name .. "=" .. core.hex(raw)
        self.last[r.name] = raw
        changed = true
      end
    end
    if not changed and rng == self.last_rng and self.count > 0 then return false end
    self.last_rng = rng
    local body = table.concat(parts, " ")
    self.file:write(body, " *", core.adler32(body), "\n")
    self.file:flush()
    self.count = self.count + 1
    return true
  end

  function cap:close()
    if self.file then
      self.file:write("end " .. self.count .. "\n")
      self.file:close()
      self.file = nil
    end
  end

  return cap
end

-- "<game>-<YYYYmmdd-HHMMSS>.cap" in the current folder (the wall clock names the file only).
function core.default_path(map)
  return map.game .. "-" .. os.date("%Y%m%d-%H%M%S") .. ".cap"
end

return core
