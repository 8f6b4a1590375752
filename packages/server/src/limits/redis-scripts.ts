/**
 * The Lua scripts of the Redis counter store (`redis-counters.ts`): each operation is one script,
 * which Redis runs atomically, so instances sharing one Redis never allow more than a limit
 * together. A key is a hash of its count (`c`) and its window's end (`r`, ms since the epoch, as
 * the app's clock says); its expiry (PEXPIRE, Redis's clock) only lets Redis forget it.
 */

/** KEYS[1]; ARGV: limit, window ms, now, amount. Counts all of amount or nothing: { count, end, 1 if counted }. */
export const TAKE = `
local now = tonumber(ARGV[3])
local h = redis.call('HMGET', KEYS[1], 'c', 'r')
local count = tonumber(h[1])
local reset = tonumber(h[2])
if count == nil or reset == nil or reset <= now then
  count = 0
  reset = now + tonumber(ARGV[2])
end
local r = string.format('%.0f', reset)
local amount = tonumber(ARGV[4])
if count + amount > tonumber(ARGV[1]) then return {count, r, 0} end
count = count + amount
redis.call('HSET', KEYS[1], 'c', count, 'r', r)
redis.call('PEXPIRE', KEYS[1], math.max(1, reset - now))
return {count, r, 1}`;

/** KEYS[1]; ARGV: window ms, now. Counts one and moves the end to now + window ms: { count, end }. */
export const EXTEND = `
local ms = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
local h = redis.call('HMGET', KEYS[1], 'c', 'r')
local count = tonumber(h[1])
local reset = tonumber(h[2])
if count == nil or reset == nil or reset <= now then count = 0 end
count = count + 1
local r = string.format('%.0f', now + ms)
redis.call('HSET', KEYS[1], 'c', count, 'r', r)
redis.call('PEXPIRE', KEYS[1], ms)
return {count, r}`;

/** KEYS: the keys. Answers each key's { count, end }, empty strings for a key with none. */
export const PEEK = `
local out = {}
for i, key in ipairs(KEYS) do
  local h = redis.call('HMGET', key, 'c', 'r')
  out[i] = {h[1] or '', h[2] or ''}
end
return out`;

/** KEYS[1]; ARGV: now. Takes back one count of an open window. */
export const GIVE_BACK = `
local h = redis.call('HMGET', KEYS[1], 'c', 'r')
local count = tonumber(h[1])
local reset = tonumber(h[2])
if count ~= nil and reset ~= nil and reset > tonumber(ARGV[1]) and count > 0 then
  redis.call('HINCRBY', KEYS[1], 'c', -1)
end
return 0`;
