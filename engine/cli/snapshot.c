/*
 * snapshot.c - a run saved and resumed (see snapshot.h for the model).
 *
 * The arena is one mapping reserved at start (MAP_NORESERVE: pages cost
 * only once touched), its header at its base: the bump pointer and a free
 * list per size class.  Blocks are multiples of 16 bytes from 32 to 256,
 * then four sizes to each power of two (5, 6, 7, 8 x 2^(p-2)), with a
 * 16-byte header naming the class, so a free is a push and a malloc a pop
 * or a bump -- simple enough that the allocator's whole state is the used
 * part of the mapping, which is all a snapshot copies.  (Powers of two, as
 * the classes were, left 40% of a small scenario's arena unused -- a
 * 16 KiB pool took 32 KiB with its header -- and every snapshot copied
 * it.)
 *
 * The session stack is a mapping of its own with a guard page below.  A
 * run starts on it with makecontext/setcontext; km_snap_take saves the
 * registers with _setjmp and the stack from just below its own frame to
 * the top; a resume writes both memories back from the main stack (never
 * the one being overwritten) and jumps to the saved registers with
 * _longjmp, as the end of a run jumps back to the main stack.  _setjmp
 * and _longjmp leave the signal mask alone (which no run changes), so
 * unlike getcontext and swapcontext they make no system call: a resume,
 * a take and the way back cost no trip to the kernel.
 *
 * Cost: a take or a resume is a copy of the arena's used part and of the
 * stack's (a few hundred KiB for a small scenario); a run from its start
 * one setcontext (a system call, for the signal mask).
 *
 * Page faults: the arena and the copies of the snapshots are touched
 * once each, page by page, and on the virtual machines this runs on a
 * fault costs 13-20 us -- at 150 KiB an arena and four copies (the
 * exhaustive search at depth 2), some 190 faults, more than the search's
 * copies themselves.  So the arena and the copies live in mappings
 * aligned on 2 MiB and marked MADV_HUGEPAGE: where the kernel gives
 * transparent huge pages, the first touch of each 2 MiB is one fault
 * (zeroing 2 MiB, some 0.2 ms) and the copies of a small scenario share
 * one.  The copies are carved from their mapping (store_get); a copy
 * that outgrows its chunk takes a bigger one and leaves its old chunk to
 * the next copy that fits.  Where the kernel has no huge pages this is
 * the ordinary paging, and when the store's reservation cannot be made
 * or is full the copies come from malloc as they did.
 */
#include "snapshot.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

/* Under valgrind: the session stack is one it knows, and the frames a
 * resume writes back are addressable again (it marked them free when the
 * run that had them returned). */
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define KM_SNAP_VALGRIND 1
#endif
#endif
#ifndef KM_SNAP_VALGRIND
#define VALGRIND_STACK_REGISTER(lo, hi) 0
#define VALGRIND_MAKE_MEM_UNDEFINED(p, n) 0
#endif

#if defined(__SANITIZE_ADDRESS__)
#define KM_SNAP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KM_SNAP_ASAN 1
#endif
#endif

/* Set by heap_wrap.c, in the binaries whose allocations it reroutes. */
extern const bool km_heap_rerouted __attribute__((weak));

#define ARENA_SIZE ((size_t)8 << 30)	/* reserved, not committed */
#define STORE_SIZE ((size_t)8 << 30)	/* the copies' reservation, likewise */
#define STACK_SIZE ((size_t)16 << 20)
#define PAGE 4096
#define HUGE ((size_t)2 << 20)		/* a transparent huge page */
#define SMALL 256		/* blocks to here: multiples of 16 bytes */
#define NCLASS 128		/* 16 small, then 4 a power of two to 2^35 */

struct arena_hdr {
	char *brk;
	void *free[NCLASS];
};

struct block {
	uint32_t cls;
	uint32_t magic;
	uint64_t pad;
};

#define BLOCK_MAGIC 0x6b6d6172u

bool km_arena_on;
static char *arena;		/* NULL: not set up; (char *)-1 after a failure */
static bool arena_fresh;	/* reset once, at the first run */
static char *stack_base, *stack_top;
static ucontext_t fresh_uc;
static jmp_buf main_jb;
static void (*fresh_entry)(void);
static bool in_run;
/* The snapshots' copies (store_get): [store, store_brk) carved, and the
 * chunks given back, each headed by its size and the next. */
static char *store, *store_brk, *store_end;
struct chunk {
	size_t room;
	struct chunk *next;
};
static struct chunk *store_free;

static struct arena_hdr *hdr(void)
{
	return (struct arena_hdr *)arena;
}

#ifndef KM_SNAP_ASAN	/* under ASan there are no snapshots, so no arena */
/*
 * A private anonymous mapping of @size bytes, reserved, not committed,
 * starting on a 2 MiB boundary and marked for transparent huge pages
 * (a hint: the kernel may give none).  NULL when it cannot be made.
 */
static char *map_huge(size_t size)
{
	char *m = mmap(NULL, size + HUGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	char *a = (char *)(((uintptr_t)m + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
	if (a > m)
		munmap(m, (size_t)(a - m));
	if (a + size < m + size + HUGE)
		munmap(a + size, (size_t)(m + size + HUGE - (a + size)));
#ifdef MADV_HUGEPAGE
	(void)madvise(a, size, MADV_HUGEPAGE);
#endif
	return a;
}
#endif

bool km_snap_usable(void)
{
#ifdef KM_SNAP_ASAN
	return false;
#else
	if (!&km_heap_rerouted || !km_heap_rerouted)
		return false;
	if (arena == (char *)-1)
		return false;
	if (arena)
		return true;
	char *h = map_huge(ARENA_SIZE);
	void *a = h ? (void *)h : MAP_FAILED;
	void *s = a == MAP_FAILED ? MAP_FAILED :
		  mmap(NULL, STACK_SIZE + PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (s == MAP_FAILED || mprotect(s, PAGE, PROT_NONE) < 0) {
		if (a != MAP_FAILED)
			munmap(a, ARENA_SIZE);
		if (s != MAP_FAILED)
			munmap(s, STACK_SIZE + PAGE);
		arena = (char *)-1;
		return false;
	}
	arena = a;
	store = map_huge(STORE_SIZE);	/* else the copies are malloc's */
	store_brk = store;
	store_end = store ? store + STORE_SIZE : NULL;
	stack_base = (char *)s + PAGE;
	stack_top = stack_base + STACK_SIZE;
	(void)VALGRIND_STACK_REGISTER(stack_base, stack_top);
	arena_fresh = true;
	return true;
#endif
}

/* ------------------------------------------------------------ the arena -- */

bool km_arena_holds(const void *p)
{
	return arena && arena != (char *)-1 && (const char *)p >= arena &&
	       (const char *)p < arena + ARENA_SIZE;
}

/* The class of a block of @need bytes (header included), need <= 2^35:
 * 2-16 are 32-256 bytes by 16 (16 bytes would leave no room for the free
 * list's link), then 4 (p - 8) + q + 17 is (5 + q) x 2^(p-2) for the
 * power p below the size. */
static uint32_t class_of(size_t n)
{
	size_t need = n + sizeof(struct block);
	if (need <= SMALL)
		return need <= 32 ? 2 : (uint32_t)((need + 15) / 16);
	size_t m = need - 1;
	uint32_t p = 63 - (uint32_t)__builtin_clzll((unsigned long long)m);
	uint32_t q = (uint32_t)(m >> (p - 2)) & 3;
	return 4 * (p - 8) + q + 17;
}

static size_t class_size(uint32_t c)
{
	if (c <= SMALL / 16)
		return (size_t)c * 16;
	uint32_t p = (c - 17) / 4 + 8, q = (c - 17) % 4;
	return (size_t)(5 + q) << (p - 2);
}

void *km_arena_malloc(size_t n)
{
	if (n > ARENA_SIZE / 2)
		return NULL;
	uint32_t c = class_of(n);
	struct arena_hdr *h = hdr();
	struct block *b = h->free[c];
	if (b) {
		h->free[c] = *(void **)(b + 1);
	} else {
		size_t size = class_size(c);
		if ((size_t)(arena + ARENA_SIZE - h->brk) < size)
			return NULL;
		b = (struct block *)h->brk;
		h->brk += size;
	}
	b->cls = c;
	b->magic = BLOCK_MAGIC;
	return b + 1;
}

void km_arena_free(void *p)
{
	if (!p)
		return;
	struct block *b = (struct block *)p - 1;
	if (b->magic != BLOCK_MAGIC || b->cls >= NCLASS)
		abort();	/* not a block of the arena: memory is corrupt */
	b->magic = 0;
	*(void **)p = hdr()->free[b->cls];
	hdr()->free[b->cls] = b;
}

void *km_arena_realloc(void *p, size_t n)
{
	if (!p)
		return km_arena_malloc(n);
	struct block *b = (struct block *)p - 1;
	if (b->magic != BLOCK_MAGIC || b->cls >= NCLASS)
		abort();
	size_t cap = class_size(b->cls) - sizeof(*b);
	if (n <= cap)
		return p;
	void *q = km_arena_malloc(n);
	if (!q)
		return NULL;
	memcpy(q, p, cap);
	km_arena_free(p);
	return q;
}

static void arena_reset(void)
{
	struct arena_hdr *h = hdr();
	memset(h, 0, sizeof(*h));
	h->brk = arena + ((sizeof(*h) + 63) & ~(size_t)63);
}

bool km_snap_pause(void)
{
	bool was = km_arena_on;
	km_arena_on = false;
	return was;
}

void km_snap_unpause(bool was)
{
	km_arena_on = was;
}

/* ------------------------------------------------------------ the runs -- */

static void trampoline(void)
{
	fresh_entry();
	km_snap_leave();
}

int km_snap_run(struct km_snap *from, void (*entry)(void))
{
	if (!km_snap_usable() || in_run)
		return -1;
	in_run = true;
	if (from && from->valid) {
		/* from the main stack: the session stack is not in use */
		memcpy(arena, from->heap, from->heap_len);
		/* and the words swapcontext pushes below the saved pointer */
		if (from->lo - 256 >= stack_base)
			(void)VALGRIND_MAKE_MEM_UNDEFINED(from->lo - 256, from->stack_len + 256);
		memcpy(from->lo, from->stack, from->stack_len);
		km_arena_on = false;	/* it resumes where the arena was paused */
		if (!_setjmp(main_jb))
			_longjmp(from->jb, 1);
	} else {
		if (arena_fresh) {
			arena_reset();
			arena_fresh = false;
		}
		getcontext(&fresh_uc);
		fresh_uc.uc_stack.ss_sp = stack_base;
		fresh_uc.uc_stack.ss_size = STACK_SIZE;
		fresh_uc.uc_link = NULL;
		makecontext(&fresh_uc, trampoline, 0);
		fresh_entry = entry;
		km_arena_on = true;
		if (!_setjmp(main_jb))
			setcontext(&fresh_uc);
	}
	km_arena_on = false;
	in_run = false;
	return 0;
}

void km_snap_leave(void)
{
	km_arena_on = false;
	_longjmp(main_jb, 1);
}

/* The lowest address of the stack live in the caller (km_snap_take,
 * after its _setjmp): its stack pointer where the platform lets us read
 * it (nothing below it is live: the caller calls, so it keeps nothing in
 * a red zone), else this function's own frame, below the caller's, less
 * a margin. */
#if defined(__x86_64__)
#define STACK_LOW(lo) __asm__ volatile("movq %%rsp, %0" : "=r"(lo))
#else
__attribute__((noinline)) static char *stack_low(void)
{
	return (char *)__builtin_frame_address(0) - 256;
}
#define STACK_LOW(lo) ((lo) = stack_low())
#endif

static bool keep(char **buf, size_t *cap, const void *src, size_t len)
{
	if (len > *cap) {
		char *n = realloc(*buf, len);
		if (!n)
			return false;
		*buf = n;
		*cap = len;
	}
	memcpy(*buf, src, len);
	return true;
}

/* ---------------------------------------------------- the copies' store -- */

static bool in_store(const char *p)
{
	return store && p >= store && p < store_end;
}

/* A chunk of at least @need bytes from the store, its size in *@room: one
 * given back that fits, else a new one with an eighth to spare (a run's
 * arena grows as it goes); NULL when the store has no room. */
static char *store_get(size_t need, size_t *room)
{
	for (struct chunk **pp = &store_free; *pp; pp = &(*pp)->next) {
		if ((*pp)->room >= need) {
			struct chunk *c = *pp;
			*pp = c->next;
			*room = c->room;
			return (char *)c;
		}
	}
	if (!store || need > STORE_SIZE / 2)
		return NULL;
	size_t want = (need + need / 8 + PAGE - 1) & ~(size_t)(PAGE - 1);
	if (want < sizeof(struct chunk))
		want = PAGE;
	if ((size_t)(store_end - store_brk) < want)
		return NULL;
	char *c = store_brk;
	store_brk += want;
	*room = want;
	return c;
}

static void heap_release(struct km_snap *sn)
{
	if (in_store(sn->heap)) {
		struct chunk *c = (struct chunk *)(void *)sn->heap;
		c->room = sn->heap_room;
		c->next = store_free;
		store_free = c;
	} else {
		free(sn->heap);
	}
	sn->heap = NULL;
	sn->heap_room = 0;
}

/* The arena's used part copied into @sn's chunk, a bigger one when it
 * has outgrown it.  heap_cap is the most it has held (km_snap_bytes). */
static bool keep_heap(struct km_snap *sn, size_t len)
{
	if (len > sn->heap_room || !sn->heap) {
		size_t room;
		char *n = store_get(len, &room);
		if (!n) {
			n = malloc(len ? len : 1);
			if (!n)
				return false;
			room = len;
		}
		heap_release(sn);
		sn->heap = n;
		sn->heap_room = room;
	}
	if (len > sn->heap_cap)
		sn->heap_cap = len;
	memcpy(sn->heap, arena, len);
	return true;
}

__attribute__((noinline)) int km_snap_take(struct km_snap *sn, uint32_t at)
{
	if (!in_run || !sn)
		return -1;
	sn->valid = false;
	if (_setjmp(sn->jb))
		return 1;	/* resumed (km_snap_run) */
	char *lo;
	STACK_LOW(lo);
	if (lo < stack_base)
		return -1;
	size_t used = (size_t)(hdr()->brk - arena);
	if (!keep(&sn->stack, &sn->stack_cap, lo, (size_t)(stack_top - lo)) ||
	    !keep_heap(sn, used))
		return -1;
	sn->lo = lo;
	sn->stack_len = (size_t)(stack_top - lo);
	sn->heap_len = used;
	sn->at = at;
	sn->valid = true;
	return 0;
}

size_t km_snap_bytes(const struct km_snap *sn)
{
	return sn->stack_cap + sn->heap_cap;
}

void km_snap_free(struct km_snap *sn)
{
	free(sn->stack);
	heap_release(sn);
	sn->stack = NULL;
	sn->stack_cap = sn->heap_cap = sn->stack_len = sn->heap_len = 0;
	sn->valid = false;
}
