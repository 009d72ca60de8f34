/*
 * abba.pml - two processes take two locks in opposite orders: SPIN finds
 * the deadlock as an invalid end state.  The model of
 * tests/explore/fixed_abba.lua for SPIN (make bench, figure 10).
 */
bit a, b;
active proctype ab()
{
	atomic { a == 0 -> a = 1 };
	atomic { b == 0 -> b = 1 };
	b = 0;
	a = 0
}
active proctype ba()
{
	atomic { b == 0 -> b = 1 };
	atomic { a == 0 -> a = 1 };
	a = 0;
	b = 0
}
