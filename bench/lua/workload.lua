-- workload.lua — a deterministic Lua workload for perfinst's benchmarks
-- (bench/workloads.sh; the lua5.4 Debian source package ships no test
-- scripts, so these exercise the interpreter the way ordinary programs do).
--
--   lua workload.lua [SIZE [MIX]]
--
-- SIZE scales every part (default 1); MIX is "all" (default), or one of
-- "calls", "tables", "strings", "sort", "objects", "coro".  The last line is
--   checksum=XXXXXXXX size=S mix=M
-- and is the same for every build of the interpreter.

local size = tonumber(arg and arg[1]) or 1
local mix = arg and arg[2] or "all"
local h = 2166136261
local function mixin(v)
  if type(v) == "number" then v = math.tointeger(v) or math.floor(v * 1000) end
  if type(v) == "string" then
    for i = 1, #v, 7 do h = ((h ~ v:byte(i)) * 16777619) & 0xffffffff end
  else
    h = ((h ~ (v & 0xffffffff)) * 16777619) & 0xffffffff
  end
end
local seed = 12345
local function rnd(n) seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n end
local N = math.max(1, math.floor(size * 1000))

local parts = {}

function parts.calls()  -- recursion, closures, varargs, upvalues
  local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
  mixin(fib(18 + math.floor(math.log(size + 1, 2))))
  local function adder(k) return function(x) return x + k end end
  local s = 0
  for i = 1, N * 60 do s = adder(i % 7)(s) % 1000003 end
  mixin(s)
  local function sum(...) local t = 0 for _, v in ipairs({...}) do t = t + v end return t end
  s = 0
  for i = 1, N * 30 do s = s + sum(i, i + 1, i + 2, select('#', i, i)) end
  mixin(s)
end

function parts.tables()  -- arrays, hashes, insert/remove, next
  local t = {}
  for i = 1, N * 40 do t[i] = i * 3 % 17 end
  local s = 0
  for i = #t, 1, -3 do s = s + t[i] end
  mixin(s)
  local hsh = {}
  for i = 1, N * 20 do hsh["k" .. (i % 997)] = (hsh["k" .. (i % 997)] or 0) + i end
  local keys = {}
  for k in pairs(hsh) do keys[#keys + 1] = k end
  table.sort(keys)
  for _, k in ipairs(keys) do mixin(hsh[k]) end
  local q = {}
  for i = 1, N * 10 do q[#q + 1] = i end
  for i = 1, N * 5 do table.remove(q) end
  for i = 1, 200 do table.insert(q, 1 + rnd(#q + 1), i) end  -- (a few: each moves the tail)
  mixin(#q); mixin(q[1]); mixin(q[#q])
end

function parts.strings()  -- formatting, patterns, concatenation
  local buf = {}
  for i = 1, N * 8 do
    buf[#buf + 1] = string.format("%05d:%s:%.3f", i, string.rep("ab", i % 5), i / 7)
  end
  local s = table.concat(buf, ";")
  mixin(#s)
  local n = 0
  for a, b in s:gmatch("(%d+):(%a*)") do n = n + #a + #b end
  mixin(n)
  mixin((s:gsub("ab", "X")):sub(1, 200))
  mixin(s:upper():find("ABAB", 1, true) or 0)
  local words = {}
  for w in ("the quick brown fox jumps over the lazy dog "):rep(N // 4 + 1):gmatch("%a+") do
    words[w] = (words[w] or 0) + 1
  end
  mixin(words.the); mixin(words.dog)
end

function parts.sort()  -- table.sort with a Lua comparator
  for r = 1, 4 do
    local a = {}
    for i = 1, N * 6 do a[i] = { k = rnd(100000), s = tostring(rnd(1000)) } end
    table.sort(a, function(x, y) if x.k ~= y.k then return x.k < y.k end return x.s < y.s end)
    mixin(a[1].k); mixin(a[#a].k); mixin(a[#a // 2].s)
    local b = {}
    for i = 1, N * 6 do b[i] = rnd(1000000) end
    table.sort(b, function(x, y) return x > y end)
    mixin(b[1]); mixin(b[#b])
  end
end

function parts.objects()  -- metatables, methods, __index/__add
  local V = {}
  V.__index = V
  V.__add = function(a, b) return setmetatable({ x = a.x + b.x, y = a.y + b.y }, V) end
  function V.new(x, y) return setmetatable({ x = x, y = y }, V) end
  function V:len2() return self.x * self.x + self.y * self.y end
  local acc = V.new(0, 0)
  for i = 1, N * 40 do acc = acc + V.new(i % 3, -(i % 5)) end
  mixin(acc:len2())
  local Animal = {}
  Animal.__index = Animal
  function Animal:speak() return self.sound .. self.name end
  local Dog = setmetatable({ sound = "woof" }, Animal)
  Dog.__index = Dog
  local n = 0
  for i = 1, N * 20 do n = n + #setmetatable({ name = tostring(i) }, Dog):speak() end
  mixin(n)
end

function parts.coro()  -- coroutines, pcall/error
  local gen = coroutine.wrap(function()
    for i = 1, N * 30 do coroutine.yield(i * 2) end
  end)
  local s = 0
  for _ = 1, N * 30 do s = s + gen() end
  mixin(s)
  local errs = 0
  for i = 1, N * 10 do
    local ok = pcall(function() if i % 3 == 0 then error("e" .. i) end return i end)
    if not ok then errs = errs + 1 end
  end
  mixin(errs)
end

local order = { "calls", "tables", "strings", "sort", "objects", "coro" }
local ran = false
for _, name in ipairs(order) do
  if mix == "all" or mix == name then parts[name](); ran = true end
end
if not ran then io.stderr:write("workload.lua: unknown mix " .. mix .. "\n"); os.exit(2) end
print(string.format("checksum=%08x size=%g mix=%s", h, size, mix))
