-- expect-exit: 2
-- expect-stderr: sandbox_randomseed\.lua:5: math\.randomseed is not available
-- The run's seed decides every draw: math.randomseed is refused.
scenario{ name = "sandbox_randomseed" }
math.randomseed(42)
