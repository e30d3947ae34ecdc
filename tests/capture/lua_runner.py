"""Lua 5.4 from PyPI (``lupa``) for the capture-script tests: a syntax check and a way to run a
script with stand-in emulator APIs, in-process, so the README's test command needs no system
Lua (the scripts target BizHawk's and mGBA's Lua 5.4)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lupa import lua54

# Captures io.stderr and turns os.exit into an error the runner catches (os.exit would end
# the test process).
PRELUDE = """
local buffer = {}
__emucore_stderr = buffer
io.stderr = {write = function(self, ...)
  for _, part in ipairs({...}) do buffer[#buffer + 1] = tostring(part) end
  return self
end}
os.exit = function(code) error({emucore_exit = code == nil and 0 or code}, 0) end
"""


@dataclass
class Result:
    """What a run left: the exit code (0 when the script returned) and its stderr text."""

    returncode: int
    stderr: str


def syntax_error(path: Path) -> str | None:
    """None when ``path`` compiles as Lua 5.4, else the compiler's message."""
    lua = lua54.LuaRuntime(unpack_returned_tuples=True)
    check = lua.eval("function(text, name) local f, e = load(text, name) "
                     "if f then return nil end return e end")
    message = check(path.read_text(encoding="utf-8"), "=" + path.name)
    return None if message is None else str(message)


def run(script: Path, *args: str) -> Result:
    """Run ``script`` with ``arg[1..]`` = ``args``, as ``lua SCRIPT ARGS...`` would."""
    lua = lua54.LuaRuntime(unpack_returned_tuples=True)
    lua.execute(PRELUDE)
    g = lua.globals()
    g.arg = lua.table_from({0: str(script), **{i + 1: a for i, a in enumerate(args)}})
    outcome = lua.execute("return pcall(dofile, ...)", str(script))
    ok, error = outcome[:2] if isinstance(outcome, tuple) else (outcome, None)
    stderr = "".join(g.__emucore_stderr.values())
    if ok:
        return Result(0, stderr)
    if lua.eval("function(e) return type(e) == 'table' and e.emucore_exit ~= nil end")(error):
        code = error.emucore_exit
        return Result(int(code) if not isinstance(code, bool) else (0 if code else 1), stderr)
    return Result(1, stderr + str(error) + "\n")
