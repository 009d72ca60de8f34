-- expect-exit: 2
-- expect-stderr: sandbox_require_indirect\.lua:6: attempt to call a nil value \(field '\?'\)
-- require is not hiding anywhere: not in _G, not in _ENV, not under
-- another name.
scenario{ name = "sandbox_require_indirect" }
_G["req" .. "uire"]("os")
