-- bench/projects/lua/check.lua: assertions over the language and the
-- standard library (Lua's source package ships no test suite); prints the
-- number of checks passed and exits non-zero at the first failure.
local n = 0
local function check(c, what)
  if not c then error("check failed: " .. what, 2) end
  n = n + 1
end

-- arithmetic and integers
check(7 // 2 == 3 and -7 // 2 == -4 and 7 % -3 == -2, "floor division and modulo")
check(math.type(1) == "integer" and math.type(1.0) == "float", "math.type")
check(1 << 62 == 4611686018427387904 and (1 << 63) < 0, "shifts")
check(math.maxinteger + 1 == math.mininteger, "integer wraparound")
check(3 / 2 == 1.5 and 2^10 == 1024.0, "float division and power")
check(tostring(0.1 + 0.2) == "0.3" and string.format("%.17g", 0.1) == "0.10000000000000001", "float printing")
check(math.floor(-3.5) == -4 and math.ceil(-3.5) == -3 and math.fmod(7, 3) == 1, "math")
check(tonumber("0x10") == 16 and tonumber("10", 2) == 2 and tonumber("z", 36) == 35, "tonumber")
check(math.ult(1, -1) and not math.ult(-1, 1), "math.ult")

-- strings
local s = "The quick brown fox jumps over the lazy dog"
check(#s == 43 and s:upper():sub(5, 9) == "QUICK", "upper, sub")
check(s:find("fox") == 17 and s:find("cat") == nil, "find")
check(select(2, s:gsub("o", "0")) == 4, "gsub count")
check(s:gsub("(%w+)", "<%1>"):sub(1, 10) == "<The> <qui", "gsub captures")
check(("%d %5.2f %s %q"):format(42, 3.14159, "x", "a\nb") == '42  3.14 x "a\\\nb"', "format")
check(("abc"):rep(3, ",") == "abc,abc,abc" and ("x"):byte() == 120 and string.char(72, 105) == "Hi", "rep, byte, char")
local words = {}
for w in s:gmatch("%a+") do words[#words + 1] = w end
check(#words == 9 and words[9] == "dog", "gmatch")
check(("  trim  "):match("^%s*(.-)%s*$") == "trim", "match")
check(string.pack("<i4", 258) == "\2\1\0\0" and string.unpack("<i4", "\2\1\0\0") == 258, "pack")
check(utf8.len("héllo") == 5 and utf8.char(233) == "é", "utf8")
check(("%5s|%-5s|"):format("a", "b") == "    a|b    |", "padding")

-- tables
local t = {}
for i = 1, 100 do t[i] = (i * 37) % 101 end
table.sort(t)
check(t[1] == 1 and t[100] == 100, "sort")
table.sort(t, function(a, b) return a > b end)
check(t[1] == 100 and t[100] == 1, "sort with a comparator")
check(table.concat({1, 2, 3}, "-") == "1-2-3", "concat")
table.insert(t, 1, 0); check(t[1] == 0 and #t == 101, "insert")
check(table.remove(t, 1) == 0 and #t == 100, "remove")
check(select("#", table.unpack({1, nil, 3}, 1, 3)) == 3, "unpack")
local m = table.move({1, 2, 3}, 1, 3, 2, {})
check(m[2] == 1 and m[4] == 3, "move")
local keys = 0
for _ in pairs({a = 1, b = 2, c = 3, 4, 5}) do keys = keys + 1 end
check(keys == 5, "pairs")

-- functions, closures, varargs, tail calls
local function counter()
  local c = 0
  return function() c = c + 1; return c end
end
local c1, c2 = counter(), counter()
c1(); c1()
check(c1() == 3 and c2() == 1, "closures")
local function sum(...)
  local r = 0
  for i = 1, select("#", ...) do r = r + select(i, ...) end
  return r
end
check(sum(1, 2, 3, 4) == 10, "varargs")
local function loop(k, acc) if k == 0 then return acc end return loop(k - 1, acc + k) end
check(loop(100000, 0) == 5000050000, "tail calls")

-- metatables
local V = {}
V.__index = V
V.__add = function(a, b) return setmetatable({x = a.x + b.x}, V) end
V.__eq = function(a, b) return a.x == b.x end
V.__tostring = function(a) return "V(" .. a.x .. ")" end
V.__len = function(a) return a.x end
local a, b = setmetatable({x = 1}, V), setmetatable({x = 2}, V)
check(tostring(a + b) == "V(3)" and a + b == setmetatable({x = 3}, V) and #b == 2, "metamethods")
local prox = setmetatable({}, {__index = function(_, k) return k * 2 end})
check(prox[21] == 42, "__index function")

-- errors
local ok, err = pcall(function() error({code = 7}) end)
check(not ok and err.code == 7, "pcall with a table")
ok, err = pcall(function() local x = nil; return x.y end)
check(not ok and err:find("attempt to index") ~= nil, "runtime error message")
check(select(2, xpcall(function() error("e") end, function(m) return "h:" .. m end)):find("^h:") ~= nil, "xpcall")

-- coroutines
local co = coroutine.wrap(function(x)
  local y = coroutine.yield(x + 1)
  local z = coroutine.yield(y * 2)
  return z .. "!"
end)
check(co(1) == 2 and co(10) == 20 and co("end") == "end!", "coroutines")
local gen = coroutine.create(function() for i = 1, 3 do coroutine.yield(i) end end)
local got = {}
while true do
  local okc, v = coroutine.resume(gen)
  if not v then break end
  got[#got + 1] = v
end
check(#got == 3 and coroutine.status(gen) == "dead", "resume")

-- garbage collection, weak tables
local weak = setmetatable({}, {__mode = "k"})
do weak[{}] = true end
collectgarbage(); collectgarbage()
check(next(weak) == nil, "weak keys collected")
check(collectgarbage("count") > 0, "collectgarbage count")

-- load, string.dump
local f = load("return 1 + ...")
check(f(41) == 42, "load")
local g = load(string.dump(function(x) return x * 3 end))
check(g(5) == 15, "dump and load")
check(load("syntax error here") == nil, "load error")

-- os, io (without touching the file system)
check(type(os.time()) == "number" and os.date("!%Y", 0) == "1970", "os")
check(io.write and type(io.stdout) == "userdata", "io")

-- goto, integer for loops, numeric edge cases
local k = 0
::again:: k = k + 1
if k < 5 then goto again end
check(k == 5, "goto")
local steps = 0
for i = 10, 1, -3 do steps = steps + 1 end
check(steps == 4, "for with a negative step")
check(math.huge > math.maxinteger and -math.huge < math.mininteger and (0/0) ~= (0/0), "inf and nan")

print(n .. " checks passed")
