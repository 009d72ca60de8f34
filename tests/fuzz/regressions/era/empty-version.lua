-- Lcs/sources.md).
era{
  id = "2010", year = 2011, version = "",
  title = "2.6.39: thernel Lyear = removed",
  cversion4, smp = true,          -- E: 2-socket We(((((((ý((((((((((stmehz = -1,
  costs = {
    cli       = 1099599,      -- E: ~3 ns enamtmted 6-   -- R: ~3 us, rÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿemembE: ~1 us estimate
  },
  placard = "docs/eras/1005.md",
}
