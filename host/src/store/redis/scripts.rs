//! The Lua scripts the Redis store runs: each is one atomic step on the server.
//!
//! Every script takes its keys in one order, `KEYS[1]` the index `rulesc:sessions`,
//! `KEYS[2]` the epoch `rulesc:epoch`, `KEYS[3]` the expiries `rulesc:expiries` and, for a
//! script about one session, `KEYS[4]` its key, and first checks that each key it names
//! holds its kind of value or nothing, so a script that writes fails before its first write
//! rather than halfway (a script's writes are not rolled back when a later command fails).
//! The answer is then the error `WRONGTYPE <kind found> <key>`.
//!
//! Times are the server's (`TIME`), never a client's: the clocks of the machines that share
//! a server may disagree, and one running days ahead must not make every session look old.

/// A script: the helpers every script shares, then `$body`
///
/// No shebang line (`#!lua`), which Redis 6 does not read: without one, Redis refuses a
/// script on a full server (`OOM`) at its first write, and the checks come before it.
macro_rules! script {
    ($body:literal) => {
        concat!(
            r"
local function wrong_kind(kinds)
  for i, kind in ipairs(kinds) do
    local found = redis.call('TYPE', KEYS[i])['ok']
    if found ~= 'none' and found ~= kind then
      return redis.error_reply('WRONGTYPE ' .. found .. ' ' .. KEYS[i])
    end
  end
end
local function now_ms()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
",
            $body
        )
    };
}

/// Reads what a hook call needs of session `ARGV[1]`: its state, the epoch's id and count
/// of sessions, how many sessions the index lists, whether the index lists the session
/// while its key is gone before its expiry (1) or not (0), and the server's time (ms)
pub(super) const READ: &str = script!(
    r"
local err = wrong_kind({'zset', 'hash', 'zset', 'string'})
if err then return err end
local state = redis.call('GET', KEYS[4])
local epoch = redis.call('HMGET', KEYS[2], 'id', 'sessions')
local gone = 0
if not state and redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  local expires = redis.call('ZSCORE', KEYS[3], ARGV[1])
  if not (expires and tonumber(expires) <= now_ms()) then gone = 1 end
end
return {state, epoch[1], epoch[2], redis.call('ZCARD', KEYS[1]), gone, now_ms()}
"
);

/// Writes session `ARGV[1]`'s new state `ARGV[6]`, if its key still holds what was read
/// (`ARGV[2]` is `1` and the key holds `ARGV[3]`, or `ARGV[2]` is `0` and it holds nothing)
/// and the epoch is still the one read (`ARGV[4]`; empty when there was none, and then
/// `ARGV[5]` becomes the epoch); the key expires after `ARGV[7]` ms unless that is `0`.
/// Answers 1 when it wrote, 0 when another client wrote first (nothing was written)
pub(super) const WRITE: &str = script!(
    r"
local err = wrong_kind({'zset', 'hash', 'zset', 'string'})
if err then return err end
local state = redis.call('GET', KEYS[4])
if ARGV[2] == '1' then
  if state ~= ARGV[3] then return 0 end
elseif state then
  return 0
end
local epoch = redis.call('HGET', KEYS[2], 'id')
if ARGV[4] == '' then
  if epoch then return 0 end
  redis.call('HSET', KEYS[2], 'id', ARGV[5], 'sessions', redis.call('ZCARD', KEYS[1]))
elseif epoch ~= ARGV[4] then
  return 0
end
local now = now_ms()
local ttl = tonumber(ARGV[7])
if ttl > 0 then
  redis.call('SET', KEYS[4], ARGV[6], 'PX', ARGV[7])
  redis.call('ZADD', KEYS[3], string.format('%d', now + ttl), ARGV[1])
else
  redis.call('SET', KEYS[4], ARGV[6])
  redis.call('ZREM', KEYS[3], ARGV[1])
end
if redis.call('ZADD', KEYS[1], string.format('%d', now), ARGV[1]) == 1 then
  redis.call('HINCRBY', KEYS[2], 'sessions', 1)
end
return 1
"
);

/// Forgets session `ARGV[1]`: its key, and its entries in the index and the expiries;
/// answers 1 when there was anything to forget. The session's key may hold anything: a
/// reset is how a wrong-typed one is removed
pub(super) const RESET: &str = script!(
    r"
local err = wrong_kind({'zset', 'hash', 'zset'})
if err then return err end
local removed = redis.call('DEL', KEYS[4])
redis.call('ZREM', KEYS[3], ARGV[1])
if redis.call('ZREM', KEYS[1], ARGV[1]) == 1 then
  removed = 1
  if redis.call('EXISTS', KEYS[2]) == 1 then
    redis.call('HINCRBY', KEYS[2], 'sessions', -1)
  end
end
return removed
"
);

/// Forgets at most `ARGV[3]` of the sessions last written more than `ARGV[1]` ms before
/// the server's time (keys prefixed `ARGV[2]`), the oldest first; answers how many of them
/// still had state, and how many it forgot. A script holds the server up while it runs,
/// so each forgets a few hundred and other clients' commands run between two
pub(super) const PRUNE: &str = script!(
    r"
local err = wrong_kind({'zset', 'hash', 'zset'})
if err then return err end
local before = string.format('%d', now_ms() - tonumber(ARGV[1]))
local removed = 0
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. before, 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(ids) do
  removed = removed + redis.call('DEL', ARGV[2] .. id)
  redis.call('ZREM', KEYS[1], id)
  redis.call('ZREM', KEYS[3], id)
end
if #ids > 0 and redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('HINCRBY', KEYS[2], 'sessions', -#ids)
end
return {removed, #ids}
"
);

/// Accepts that the server lost data: forgets the sessions the index lists whose keys
/// (prefixed `ARGV[1]`) are gone, makes `ARGV[2]` the epoch if there is none, and counts
/// the sessions listed. Answers the epoch, how many sessions are kept and how many were
/// forgotten. It walks the whole index: it is run by hand, once per loss
pub(super) const ACKNOWLEDGE: &str = script!(
    r"
local err = wrong_kind({'zset', 'hash', 'zset'})
if err then return err end
local forgotten = 0
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if redis.call('EXISTS', ARGV[1] .. id) == 0 then
    redis.call('ZREM', KEYS[1], id)
    redis.call('ZREM', KEYS[3], id)
    forgotten = forgotten + 1
  end
end
local epoch = redis.call('HGET', KEYS[2], 'id') or ARGV[2]
local kept = redis.call('ZCARD', KEYS[1])
redis.call('HSET', KEYS[2], 'id', epoch, 'sessions', kept)
return {epoch, kept, forgotten}
"
);
