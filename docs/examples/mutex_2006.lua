-- mutex_2006.lua: Linux 2.6.16, the first kernel with struct mutex.  Two
-- tasks serialise on a directory's i_mutex.  A mutex has one owner: only it
-- may unlock, never an interrupt handler, and it may not take the mutex
-- twice.  --set bug=... breaks one rule at a time:
--   bug=none        correct use (the default)
--   bug=not_owner   a helper task unlocks the mutex the owner took
--   bug=irq         an interrupt handler unlocks it
--   bug=recursive   the owner locks it a second time (self-deadlock)
scenario{
  name = "mutex_2006",
  title = "A mutex and its owner rules",
  era = "2.6.16",
  cpus = 2,
}

local bug = param("bug", "none")

local i_mutex = lock{ name = "i_mutex", kind = "mutex" }
local size    = var{ name = "i_size" }
local done    = completion{ name = "handed_over" }

for i = 1, 2 do
  task{ name = "writer/" .. i, run = function()
    for k = 1, 10 do
      down(i_mutex)                               -- mutex_lock(&inode->i_mutex)
      if bug == "recursive" and i == 2 and k == 5 then
        down(i_mutex)                             -- BUG: it already owns it
      end
      add(size, 4096)
      compute(us(20))
      if (bug == "not_owner" or bug == "irq") and i == 1 and k == 1 then
        complete(done)                            -- leave the unlock to someone else
      else
        up(i_mutex)                               -- mutex_unlock(&inode->i_mutex)
      end
      compute(us(10))
    end
  end }
end

if bug == "not_owner" then
  task{ name = "helper", run = function()
    wait_for_completion(done)
    up(i_mutex)                                   -- BUG: not the owner
  end }
elseif bug == "irq" then
  local unlocked = false
  irq{ name = "disk", cpu = 1, every = us(50), handler = function()
    if not unlocked then
      unlocked = true
      up(i_mutex)                                 -- BUG: unlock from irq context
    end
  end }
end

check(function(r)
  return r.vars.i_size == 20 * 4096,
         string.format("i_size = %d", r.vars.i_size)
end)
