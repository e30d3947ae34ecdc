-- A stand-in for mGBA's scripting API (0.10), enough to run tools/capture/mgba_capture.lua
-- under plain Lua 5.4. Usage: lua fake_mgba.lua ROM_TITLE FRAMES SCRIPT.lua OUT.cap [STOP_AFTER]
-- The fake Game Boy's RAM is zero except $CEEF (the "opponent" byte), which counts frames, as
-- the test ROM of tests/capture/test_capture_mgba.py does on real hardware.
local title, frames = arg[1], tonumber(arg[2])
local frame, ram, handlers = 0, {}, {}
EMUCORE_CAPTURE = arg[4]
EMUCORE_CAPTURE_FRAMES = tonumber(arg[5])  -- optional
C = {PLATFORM = {GBA = 0, GB = 1}, CHECKSUM = {CRC32 = 0}}
emu = {}
function emu:platform() return C.PLATFORM.GB end
function emu:readRange(address, length)
  local out = {}
  for i = 0, length - 1 do
    local at = address + i
    local byte = ram[at] or 0
    if at >= 0x134 and at < 0x134 + #title then byte = string.byte(title, at - 0x134 + 1) end
    out[#out + 1] = string.char(byte)
  end
  return table.concat(out)
end
function emu:read8(_address) return 0 end
function emu:checksum(_kind) return "\x12\x34\x56\x78" end
function emu:getKeys() return frame % 3 == 0 and 1 or 0 end  -- A held every third frame
function emu:currentFrame() return frame end
console = {}
function console:log(text) io.stderr:write(text, "\n") end
callbacks = {}
function callbacks:add(name, handler) handlers[name] = handlers[name] or {}
  table.insert(handlers[name], handler) end
dofile(arg[3])
for _ = 1, frames do
  frame = frame + 1
  ram[0xCEEF] = frame % 256
  for _, handler in ipairs(handlers.frame or {}) do handler() end
end
for _, handler in ipairs(handlers.shutdown or {}) do handler() end
