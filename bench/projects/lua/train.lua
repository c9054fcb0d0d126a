-- bench/projects/lua/train.lua SCALE: the training workload (table-heavy
-- code, string building, sorting with a comparator, closures, coroutines);
-- prints checksums only.
local scale = tonumber(arg and arg[1]) or 1
local out = {}

-- a small object model: accounts with transactions
local Account = {}
Account.__index = Account
function Account.new(id) return setmetatable({id = id, balance = 0, log = {}}, Account) end
function Account:deposit(v) self.balance = self.balance + v; self.log[#self.log + 1] = v end
function Account:withdraw(v)
  if v > self.balance then return false end
  self.balance = self.balance - v; self.log[#self.log + 1] = -v; return true
end
local seed = 12345
local function rnd(n) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n end
local accounts = {}
for i = 1, 200 do accounts[i] = Account.new(i) end
local refused = 0
for _ = 1, math.floor(60000 * scale) do
  local a = accounts[rnd(200) + 1]
  if rnd(3) == 0 then
    if not a:withdraw(rnd(500)) then refused = refused + 1 end
  else
    a:deposit(rnd(300))
  end
end
local total = 0
for _, a in ipairs(accounts) do total = total + a.balance end
out[#out + 1] = "accounts " .. total .. " " .. refused

-- sort records by two keys with a comparator
local recs = {}
for i = 1, math.floor(20000 * scale) do recs[i] = {k = rnd(1000), v = rnd(100000), i = i} end
table.sort(recs, function(x, y) if x.k ~= y.k then return x.k < y.k end return x.i < y.i end)
local h = 0
for i = 1, #recs, 97 do h = (h * 31 + recs[i].v) % 1000000007 end
out[#out + 1] = "sort " .. h

-- string building and pattern matching
local parts = {}
for i = 1, math.floor(20000 * scale) do parts[#parts + 1] = string.format("item%05d=%d;", i, (i * 7919) % 1000) end
local text = table.concat(parts)
local sum = 0
for k, v in text:gmatch("item(%d+)=(%d+);") do sum = sum + tonumber(k) % 7 + tonumber(v) end
out[#out + 1] = "strings " .. #text .. " " .. sum

-- closures and coroutines: a generator pipeline
local function gen(n) return coroutine.wrap(function() for i = 1, n do coroutine.yield(i) end end) end
local function filter(p, g) return coroutine.wrap(function() for v in g do if p(v) then coroutine.yield(v) end end end) end
local function map(f, g) return coroutine.wrap(function() for v in g do coroutine.yield(f(v)) end end) end
local acc = 0
for v in map(function(x) return x * x % 1000 end, filter(function(x) return x % 3 ~= 0 end, gen(math.floor(30000 * scale)))) do
  acc = acc + v
end
out[#out + 1] = "pipeline " .. acc

-- recursion
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
out[#out + 1] = "fib " .. fib(18 + math.floor(4 * scale))

print(table.concat(out, "\n"))
