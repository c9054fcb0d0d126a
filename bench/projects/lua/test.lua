-- bench/projects/lua/test.lua SCALE: the held-out workload (not seen in
-- training): numeric loops, a JSON-like serializer, matrix products, string
-- search and a LRU cache; prints checksums only.
local scale = tonumber(arg and arg[1]) or 1
local out = {}

-- serializer over nested tables
local function ser(v, buf)
  local t = type(v)
  if t == "table" then
    buf[#buf + 1] = "{"
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = tostring(k) end
    table.sort(keys)
    for i, k in ipairs(keys) do
      if i > 1 then buf[#buf + 1] = "," end
      buf[#buf + 1] = string.format("%q:", k)
      ser(v[k] ~= nil and v[k] or v[tonumber(k)], buf)
    end
    buf[#buf + 1] = "}"
  elseif t == "string" then buf[#buf + 1] = string.format("%q", v)
  else buf[#buf + 1] = tostring(v) end
end
local doc = {}
for i = 1, math.floor(300 * scale) do
  doc[i] = {name = "node" .. i, value = i * 1.5, tags = {"a" .. i % 7, "b" .. i % 11}, ok = i % 2 == 0}
end
local buf = {}
ser(doc, buf)
local s = table.concat(buf)
out[#out + 1] = "json " .. #s .. " " .. select(2, s:gsub("node", ""))

-- matrix product
local function mat(n, f) local m = {} for i = 1, n do m[i] = {} for j = 1, n do m[i][j] = f(i, j) end end return m end
local n = 40 + math.floor(10 * scale)
local A = mat(n, function(i, j) return (i + j) % 7 end)
local B = mat(n, function(i, j) return (i * j) % 5 end)
local C = mat(n, function() return 0 end)
for i = 1, n do
  local Ai, Ci = A[i], C[i]
  for k = 1, n do
    local a, Bk = Ai[k], B[k]
    for j = 1, n do Ci[j] = Ci[j] + a * Bk[j] end
  end
end
local tr = 0
for i = 1, n do tr = tr + C[i][i] end
out[#out + 1] = "matrix " .. tr

-- string search
local hay = string.rep("abcdefghij", math.floor(2000 * scale)) .. "needle" .. string.rep("xyz", 1000)
local found = 0
for i = 1, 200 do if hay:find("needle", 1, true) then found = found + 1 end end
out[#out + 1] = "search " .. found .. " " .. #hay

-- LRU cache with a doubly linked list
local LRU = {}
LRU.__index = LRU
function LRU.new(cap)
  local head, tail = {}, {}
  head.next, tail.prev = tail, head
  return setmetatable({cap = cap, n = 0, map = {}, head = head, tail = tail}, LRU)
end
function LRU:unlink(e) e.prev.next, e.next.prev = e.next, e.prev end
function LRU:front(e) e.next, e.prev = self.head.next, self.head; self.head.next.prev = e; self.head.next = e end
function LRU:get(k)
  local e = self.map[k]
  if not e then return nil end
  self:unlink(e); self:front(e); return e.v
end
function LRU:put(k, v)
  local e = self.map[k]
  if e then e.v = v; self:unlink(e); self:front(e); return end
  if self.n == self.cap then
    local last = self.tail.prev
    self:unlink(last); self.map[last.k] = nil; self.n = self.n - 1
  end
  e = {k = k, v = v}; self.map[k] = e; self:front(e); self.n = self.n + 1
end
local cache, hits = LRU.new(512), 0
local x = 7
for i = 1, math.floor(80000 * scale) do
  x = (x * 48271) % 2147483647
  local k = x % 2000
  if cache:get(k) then hits = hits + 1 else cache:put(k, i) end
end
out[#out + 1] = "lru " .. hits

print(table.concat(out, "\n"))
