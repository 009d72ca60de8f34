# lockmuseum - a runnable museum of Linux kernel locking, 1991-2023.
#
#   make run      build, then open the museum (GUI with a display, else the
#                 headless tour into out/)
#   make test     build, then run every test (unit, scenario, CLI, sanitizers)
#   make deps     install the Debian packages the build needs (as root)
#   make sanitize build and run the tests under ASan and UBSan
#   make install  PREFIX=/usr/local DESTDIR=
#   make bench    the benchmark figures (no pass/fail)
#   make bench-compare BASE=REV  this tree's figures against REV's, as ratios
#
# The targets people type first make sure the packages are there (the
# `deps-check` step), then run a second make that does the work, so that
# pkg-config is only asked once the libraries exist.

PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
CC      ?= cc

# pkg-config names, and the Debian packages that provide them.
PC_CORE := lua5.4 jansson
PC_VIEW := sdl2 SDL2_ttf SDL2_image
PC_TEST := cmocka
DEBS    := pkg-config liblua5.4-dev libjansson-dev libsdl2-dev libsdl2-ttf-dev \
           libsdl2-image-dev libcmocka-dev valgrind xvfb xdotool parallel
# Commands the tests need besides the libraries: valgrind, a virtual
# display (Xvfb) with xdotool to drive the window as a visitor would, and
# GNU parallel for the sweep test.
TEST_CMDS := pkg-config valgrind Xvfb xdotool

WARN    := -Wall -Wextra -Wshadow -Wundef -Wwrite-strings -Wstrict-prototypes \
           -Wmissing-prototypes -Wno-unused-parameter
OPT     ?= -O2 -g
CFLAGS_BASE := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(OPT) $(WARN) $(EXTRA_CFLAGS)
ifeq ($(CI),true)
CFLAGS_BASE += -Werror
endif
LDFLAGS_BASE := $(EXTRA_LDFLAGS)

# Evaluated lazily, inside the second make, after deps-check.
PCFLAGS  = $(shell pkg-config --cflags $(PC_CORE) $(PC_VIEW))
PCLIBS   = $(shell pkg-config --libs $(PC_CORE) $(PC_VIEW)) -lm
# The program links no SDL: the view is a shared object it opens when it
# first draws (engine/cli/view_lib.c), and it uses the program's symbols.
# Lua is linked statically where its archive is installed (Debian's
# liblua5.4-dev ships liblua5.4.a beside the .so): a start then maps and
# relocates one library fewer (docs/performance.md, section 7, has the
# pairs).  Without the archive, or with LUA_STATIC=0, the shared library.
# jansson stays shared: --wrap reroutes every malloc of the objects it
# links, and an archive's would join the explorer's snapshot arena
# (heap_wrap.c), where the library's own allocations have no place.
LUA_STATIC ?= 1
LUA_A    = $(if $(filter 1,$(LUA_STATIC)),$(firstword $(wildcard $(addsuffix \
             /lib$(patsubst -l%,%,$(firstword $(filter -llua%,$(shell pkg-config --libs-only-l \
             lua5.4)))).a,$(shell pkg-config --variable=libdir lua5.4)))))
LUA_LIBS = $(if $(LUA_A),$(LUA_A) -lm,$(shell pkg-config --libs lua5.4))
MAINLIBS = $(LUA_LIBS) $(shell pkg-config --libs jansson) -ldl -lm
VIEWLIBS = $(shell pkg-config --libs $(PC_VIEW) jansson) -lm
TESTFLAGS = $(shell pkg-config --cflags $(PC_TEST))
TESTLIBS  = $(shell pkg-config --libs $(PC_TEST))

CORE_SRC := $(wildcard engine/*.c)
LUA_SRC  := $(wildcard engine/lua/*.c)
CLI_SRC  := $(filter-out engine/cli/main.c engine/cli/heap_wrap.c,$(wildcard engine/cli/*.c))
REPORT_SRC := $(wildcard engine/report/*.c)
VIEW_SRC := $(wildcard engine/view/*.c)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_LIB_SRC := $(filter-out tests/unit/test_%.c,$(wildcard tests/unit/*.c))

CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/%.o)
# The view is a shared object: its objects are position-independent, and
# kept apart (pic/) so that no object built otherwise is mistaken for one.
VIEW_OBJ := $(VIEW_SRC:%.c=$(BUILD)/pic/%.o)
MAIN_OBJ := $(CORE_OBJ) $(LUA_SRC:%.c=$(BUILD)/%.o) $(CLI_SRC:%.c=$(BUILD)/%.o) \
            $(REPORT_SRC:%.c=$(BUILD)/%.o)
# Everything, for the unit tests and the benchmarks (the view linked in).
LIB_OBJ  := $(MAIN_OBJ) $(VIEW_OBJ)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
UNIT_LIB_OBJ := $(UNIT_LIB_SRC:%.c=$(BUILD)/%.o)

BIN := $(BUILD)/lockmuseum
VIEW_SO := $(BUILD)/lockmuseum-view.so
DATADIR := $(PREFIX)/share/lockmuseum
LIBDIR  := $(PREFIX)/lib/lockmuseum

.PHONY: all run test sanitize install uninstall clean deps deps-check bench bench-build bench-compare \
        check-sanitized screenshots \
        build build-tests check-unit check-scenarios check-cli check-gui check-docs check-reproductions \
        check-hostile check-valgrind check-fuzz-regressions check-sweeps check-structure \
        check-determinism check-bench-compare test-real run-real

all: deps-check
	@$(MAKE) --no-print-directory build

run: deps-check
	@$(MAKE) --no-print-directory run-real

test: deps-check
	@$(MAKE) --no-print-directory test-real

# The sanitizers' build: ASan and UBSan at -O1.  Their run-times are
# linked into each program (-static-libasan, -static-libubsan), not loaded
# as libasan.so and libubsan.so: each shared run-time carries its own copy
# of the sanitizers' common tables in its .bss (a 4 MB stack depot each),
# and LeakSanitizer scans every module's .bss at exit, so a process
# touched some 2,400 pages more, and loaded libstdc++ besides; the ASan
# suites start thousands of processes (docs/performance.md, section 12).
# The checks are the same: the same instrumentation, the same run-time.
SAN_OPT := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
SAN_LDFLAGS := -fsanitize=address,undefined -static-libasan -static-libubsan

sanitize: deps-check
	@$(MAKE) --no-print-directory BUILD=build-san OPT="$(SAN_OPT)" \
	  EXTRA_LDFLAGS="$(SAN_LDFLAGS)" check-unit check-scenarios check-cli

# The benchmark: the program built with optimisation into build-bench/,
# then the drivers of tests/bench/ linked against the same objects (the
# core driver against the core alone, with the unit tests' C host).
BENCH_BUILD := build-bench
BENCH_OPT   := -O2 -DNDEBUG
BENCH_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(BENCH_OPT) $(WARN) \
               $(EXTRA_CFLAGS) -Iengine -Itests/unit -Itests/bench
BENCH_CORE_OBJ = $(patsubst $(BUILD)/%,$(BENCH_BUILD)/%,$(CORE_OBJ))
BENCH_LIB_OBJ  = $(patsubst $(BUILD)/%,$(BENCH_BUILD)/%,$(LIB_OBJ))
BENCH_BIN      = $(BENCH_BUILD)/tests/bench

# SimPy is the yardstick of figure 10: installed here if it can be (as
# root), and the figure skipped if not.
bench: deps-check
	@$(MAKE) --no-print-directory bench-build
	@/usr/bin/python3 -c 'import simpy' 2>/dev/null || \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y python3-simpy3 >/dev/null 2>&1 || \
	  echo "lockmuseum: python3-simpy3 could not be installed; figure 10 is skipped"
	@tests/bench.sh $(BENCH_BUILD)/lockmuseum

# The program and the drivers, built and not run: what bench-compare
# builds in the base's copy as well as here.
bench-build:
	@$(MAKE) --no-print-directory BUILD=$(BENCH_BUILD) OPT="$(BENCH_OPT)" build
	@mkdir -p $(BENCH_BIN)
	@echo "lockmuseum: building the benchmark drivers into $(BENCH_BIN)"
	@$(CC) $(BENCH_CFLAGS) -o $(BENCH_BIN)/bench_core tests/bench/bench_core.c \
	  tests/unit/script_host.c $(BENCH_CORE_OBJ) $(LDFLAGS_BASE) -lm
	@$(CC) $(BENCH_CFLAGS) $(PCFLAGS) -o $(BENCH_BIN)/bench_lua tests/bench/bench_lua.c \
	  $(BENCH_LIB_OBJ) $(LDFLAGS_BASE) $(PCLIBS)
	@$(CC) $(BENCH_CFLAGS) -o $(BENCH_BIN)/bench_spawn tests/bench/bench_spawn.c
	@$(CC) $(BENCH_CFLAGS) $(PCFLAGS) -o $(BENCH_BIN)/bench_view tests/bench/bench_view.c \
	  $(BENCH_LIB_OBJ) $(LDFLAGS_BASE) $(PCLIBS)

# The gate: this tree against BASE (a commit, main by default), each
# figure run alternately in the two and reported as the median ratio of
# the pairs, so that the machine's drift cancels (tests/bench_compare.sh).
BASE ?= main
bench-compare: deps-check
	@$(MAKE) --no-print-directory bench-build
	@tests/bench_compare.sh "$(BASE)"

# Install what is missing, once: apt-get update, then apt-get install -y.
# Each check only collects a name (an `exit` here would end the recipe's
# shell before anything was installed); tests/run_deps_check.sh runs this
# with a command that does not exist and DEPS_INSTALL replaced.
DEPS_INSTALL = $(MAKE) --no-print-directory deps
deps-check:
	@missing=; \
	for c in $(TEST_CMDS); do \
	  command -v $$c >/dev/null 2>&1 || missing="$$missing $$c"; \
	done; \
	parallel --version 2>/dev/null | grep -q 'GNU parallel' || missing="$$missing parallel"; \
	for p in $(PC_CORE) $(PC_VIEW) $(PC_TEST); do \
	  pkg-config --exists $$p 2>/dev/null || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "lockmuseum: missing:$$missing; installing: $(DEBS)"; \
	  $(DEPS_INSTALL); \
	fi

deps:
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y $(DEBS)

build: $(BIN) $(VIEW_SO) $(DRAW_BIN)

# A test command, its wall time printed after it (tests/timed.sh).
TIMED := tests/timed.sh

# The program: no SDL; its symbols exported for the view (-rdynamic).
# The view is built with it, so that a binary is never without its view.
# Its own allocations go through engine/cli/heap_wrap.c (--wrap), so that
# the explorer's runs can be snapshotted (engine/cli/snapshot.h).
HEAP_WRAP := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,--wrap=strdup,--wrap=strndup
PROG_OBJ = $(MAIN_OBJ) $(BUILD)/engine/cli/main.o $(BUILD)/engine/cli/heap_wrap.o

# The program linked statically (static-pie: its image still placed at a
# random address), where Lua's and jansson's archives are installed: a
# start then runs no dynamic loader, maps no library and relocates no
# symbol of one, which is a third of what a one-task run costs
# (docs/performance.md, section 7, "Linked statically").  A static program
# cannot give the view its symbols, so the same objects are linked
# dynamically too, as lockmuseum-draw (installed in LIBDIR, beside the
# view), and a command that draws is handed to it by exec() before it does
# anything (engine/cli/view_lib.c, km_view_lib_exec).  --wrap must still
# reroute only the allocations of the program's objects and Lua's, not the
# C library's nor jansson's (heap_wrap.c), and in a static link it would
# reach every archive: so the program's objects and Lua are first linked
# into one relocatable object with --wrap, and that object then with the
# C library and jansson without it.  PROG_STATIC=0, an archive missing,
# or a sanitizer (which needs the dynamic loader) links one dynamic
# program, as before.  valgrind cannot see the allocations of a static
# program: check-valgrind runs lockmuseum-draw, the same objects.
PROG_STATIC ?= 1
JANSSON_A = $(firstword $(wildcard $(shell pkg-config --variable=libdir jansson)/libjansson.a))
STATIC_OK = $(if $(and $(filter 1,$(PROG_STATIC)),$(LUA_A),$(JANSSON_A)),$(if $(findstring \
              -fsanitize,$(OPT) $(EXTRA_CFLAGS) $(EXTRA_LDFLAGS)),,1))
DRAW_BIN = $(if $(STATIC_OK),$(BUILD)/lockmuseum-draw)
# The dynamic program: the one valgrind can watch.
DYN_BIN  = $(if $(STATIC_OK),$(DRAW_BIN),$(BIN))

# The link's settings, kept in a file rewritten only when they change: a
# build directory linked one way (PROG_STATIC=0, LUA_STATIC=0, an archive
# installed or removed since) relinks when a setting changes, not only
# when an object does.  Make compares the file's time after its recipe ran.
LINK_STAMP    = $(BUILD)/link-settings
LINK_SETTINGS = static=$(STATIC_OK) lua=$(LUA_A) jansson=$(JANSSON_A) libs=$(MAINLIBS) \
                view=$(VIEWLIBS) ld=$(LDFLAGS_BASE)
$(LINK_STAMP): FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' '$(LINK_SETTINGS)' | cmp -s - $@ || printf '%s\n' '$(LINK_SETTINGS)' >$@
FORCE:
.PHONY: FORCE

ifeq ($(STATIC_OK),1)
$(BIN): $(BUILD)/lockmuseum-static.o $(LINK_STAMP) | $(VIEW_SO) $(DRAW_BIN)
	$(CC) -static-pie -o $@ $< $(LDFLAGS_BASE) $(JANSSON_A) -lm

$(BUILD)/lockmuseum-static.o: $(PROG_OBJ) $(LINK_STAMP)
	$(CC) -r -nostdlib -o $@ $(PROG_OBJ) $(HEAP_WRAP) $(LUA_A)

$(DRAW_BIN): $(PROG_OBJ) $(LINK_STAMP) | $(VIEW_SO)
	$(CC) -rdynamic -o $@ $(PROG_OBJ) $(LDFLAGS_BASE) $(HEAP_WRAP) $(MAINLIBS)
else
$(BIN): $(PROG_OBJ) $(LINK_STAMP) | $(VIEW_SO)
	$(CC) -rdynamic -o $@ $(PROG_OBJ) $(LDFLAGS_BASE) $(HEAP_WRAP) $(MAINLIBS)
endif

$(VIEW_SO): $(VIEW_OBJ) $(LINK_STAMP)
	$(CC) -shared -o $@ $(VIEW_OBJ) $(LDFLAGS_BASE) $(VIEWLIBS)

# The core builds without Lua, jansson or SDL flags: it must not include them.
$(CORE_OBJ): $(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -DKM_DATADIR='"$(DATADIR)"' -MMD -MP -c -o $@ $<

# The layers above the core: Lua, reports, the command line.
$(filter-out $(CORE_OBJ) $(VIEW_OBJ),$(LIB_OBJ)) $(BUILD)/engine/cli/main.o \
  $(BUILD)/engine/cli/heap_wrap.o: $(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(PCFLAGS) -DKM_DATADIR='"$(DATADIR)"' -DKM_LIBDIR='"$(LIBDIR)"' \
	  -MMD -MP -c -o $@ $<

# The sandbox's prelude, compiled at build time by the Lua the program
# links, linked the same way (engine/lua/gen/prelude_dump.c): a run loads its bytecode instead
# of parsing the text in each of its two Lua states.
PRELUDE_BC := $(BUILD)/gen/prelude_bc.h
$(BUILD)/gen/prelude_dump: engine/lua/gen/prelude_dump.c engine/lua/prelude.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(shell pkg-config --cflags lua5.4) -o $@ $< $(LDFLAGS_BASE) $(LUA_LIBS)
$(PRELUDE_BC): $(BUILD)/gen/prelude_dump
	$(BUILD)/gen/prelude_dump $@
$(BUILD)/engine/lua/sandbox_order.o: $(PRELUDE_BC)
$(BUILD)/engine/lua/sandbox_order.o: private CFLAGS_BASE += -I$(BUILD)/gen -DKM_PRELUDE_BC

# The view.
$(VIEW_OBJ): $(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(PCFLAGS) -fPIC -MMD -MP -c -o $@ $<

$(BUILD)/tests/unit/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(PCFLAGS) $(TESTFLAGS) -Iengine -MMD -MP -c -o $@ $<

$(BUILD)/tests/test_%: $(BUILD)/tests/unit/test_%.o $(UNIT_LIB_OBJ) $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDFLAGS_BASE) $(PCLIBS) $(TESTLIBS)

# test_cli_main and test_cli_options call the command line as a function:
# main.c without main().
$(BUILD)/tests/test_cli_main $(BUILD)/tests/test_cli_options: $(BUILD)/tests/cli_main_nomain.o
$(BUILD)/tests/cli_main_nomain.o: engine/cli/main.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(PCFLAGS) -DKM_DATADIR='"$(DATADIR)"' -DKM_LIBDIR='"$(LIBDIR)"' \
	  -DKM_CLI_NO_MAIN -MMD -MP -c -o $@ $<

build-tests: $(BIN) $(UNIT_BIN)

# KM_TEST_SANITIZED=1 under the sanitizers: test_view_text_fit draws its
# pictures at one size instead of three (docs/performance.md, section 12).
check-unit: build-tests
	@KM_TEST_SANITIZED=$(SANITIZED) $(TIMED) tests/run_unit.sh $(BUILD)

# Under the sanitizers (SANITIZED=1, check-sanitized) the run-ahead's
# matrix leaves out the museum scripts in ten modes and eras each, its
# long runs: run_scenarios.sh runs every script with the sanitizers just
# before, and the -O2 suite compares every combination both ways; the
# scenario tests (each in a mode and era of its own too) and challenges
# still run both ways with the sanitizers (tests/run_runahead.sh).
SANITIZED ?= 0
check-scenarios: $(BIN)
	@$(TIMED) tests/run_scenarios.sh $(BIN)
	@RUNAHEAD_TESTS_ONLY=$(SANITIZED) $(TIMED) tests/run_runahead.sh $(BIN)
	@$(TIMED) tests/run_challenges.sh $(BIN)

check-cli: $(BIN)
	@$(TIMED) tests/run_cli.sh $(BIN)
	@$(TIMED) tests/run_cli_contract.sh $(BIN)
	@$(TIMED) tests/run_cli_lecture.sh $(BIN)
	@$(TIMED) tests/run_startup.sh $(BIN)
	@$(TIMED) tests/run_explore.sh $(BIN)
	@$(TIMED) tests/run_play.sh $(BIN)

check-gui: $(BIN)
	@$(TIMED) tests/run_gui.sh $(BIN)
	@$(TIMED) tests/screenshots.sh --check $(BIN)

# The documentation's screenshots, from the real window under Xvfb
# (tests/screenshots.sh says how, and why make test compares pixels).
screenshots: deps-check
	@$(MAKE) --no-print-directory build
	@tests/screenshots.sh $(BIN) docs/screenshots

check-docs: $(BIN)
	@$(TIMED) tests/run_doctests.sh $(BIN)
	@$(TIMED) tests/run_shown_outputs.sh $(BIN)

check-reproductions: $(BIN)
	@$(TIMED) tests/run_reproductions.sh $(BIN)

check-hostile: $(BIN)
	@$(TIMED) tests/run_hostile.sh $(BIN)
	@$(TIMED) tests/run_hostile_inputs.sh $(BIN)

# A sweep through GNU parallel, merged back with compare --from.
check-sweeps: $(BIN)
	@$(TIMED) tests/run_sweeps.sh $(BIN)

check-determinism: $(BIN)
	@$(TIMED) tests/run_determinism.sh $(BIN)

# The speed gate builds and runs from a fresh clone (small runs).
check-bench-compare:
	@$(TIMED) tests/run_bench_compare.sh

check-valgrind: $(BIN)
	@$(TIMED) tests/run_valgrind.sh $(DYN_BIN)

check-fuzz-regressions: $(BIN)
	@$(TIMED) tests/run_fuzz_regressions.sh $(BIN)

# The shape of the source: includes point down the layers, and every
# function the engine exports has a caller.
check-structure: $(BIN)
	@$(TIMED) tests/check_layers.sh engine
	@$(TIMED) tests/run_layers_check.sh
	@$(TIMED) tests/check_callers.sh
	@$(TIMED) tests/check_floors.sh $(BUILD)
	@$(TIMED) tests/run_floors_check.sh $(BUILD)
	@$(TIMED) tests/check_sizes.sh
	@$(TIMED) tests/run_deps_check.sh
	@$(TIMED) tests/run_link_settings.sh

# The suites are independent of each other, so they run TEST_JOBS at a
# time (the number of CPUs), each one's output kept together; the
# sanitizer build runs as one more suite beside them.  The builds are
# jobs of the same make: the program's (which most suites wait for), the
# sanitizers' and the speed gate's clone build side by side, nothing
# built twice in one tree.  The longest chains come first, so that no
# long suite starts last and runs alone at the end: check-sanitized (its
# build, then five suites under ASan and UBSan), the gate (two builds),
# valgrind.  Each suite's wall time is printed (docs/performance.md,
# section 12, has a table of them).
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
TEST_SUITES := check-sanitized check-bench-compare check-valgrind check-unit check-cli \
               check-hostile check-scenarios check-determinism check-gui check-reproductions \
               check-docs check-sweeps check-structure

# KM_PYTHON3: the interpreter behind python3, found once for every runner
# (a version manager's shim costs half a second of CPU time a call;
# tests/lib_runner.sh).
test-real:
	@[ -n "$${KM_PYTHON3:-}" ] || KM_PYTHON3=$$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null); \
	  export KM_PYTHON3; \
	  $(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=target $(TEST_SUITES)
	@echo "lockmuseum: all tests passed"

check-sanitized:
	@$(MAKE) --no-print-directory BUILD=build-san SANITIZED=1 OPT="$(SAN_OPT)" \
	  EXTRA_LDFLAGS="$(SAN_LDFLAGS)" check-unit check-scenarios check-cli check-hostile \
	  check-fuzz-regressions

# The museum: the window on the first exhibit of the tour where there is
# a display; elsewhere the headless tour (report on stdout, a PNG per
# exhibit under out/), which the binary announces itself.
run-real: $(BIN)
	@$(BIN)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(DATADIR)/eras $(DESTDIR)$(DATADIR)/scripts \
	  $(DESTDIR)$(DATADIR)/assets $(DESTDIR)$(DATADIR)/docs $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/lockmuseum
	install -d $(DESTDIR)$(LIBDIR)
	install -m 644 $(VIEW_SO) $(DESTDIR)$(LIBDIR)/lockmuseum-view.so
	$(if $(DRAW_BIN),install -m 755 $(DRAW_BIN) $(DESTDIR)$(LIBDIR)/lockmuseum-draw)
	install -m 644 eras/*.lua $(DESTDIR)$(DATADIR)/eras/
	install -d $(DESTDIR)$(DATADIR)/eras/machines
	install -m 644 eras/machines/*.lua $(DESTDIR)$(DATADIR)/eras/machines/
	install -m 644 scripts/*.lua $(DESTDIR)$(DATADIR)/scripts/
	install -d $(DESTDIR)$(DATADIR)/scripts/challenges
	install -m 644 scripts/challenges/*.lua $(DESTDIR)$(DATADIR)/scripts/challenges/
	install -d $(DESTDIR)$(DATADIR)/scripts/challenges/solutions
	install -m 644 scripts/challenges/solutions/*.schedule \
	  $(DESTDIR)$(DATADIR)/scripts/challenges/solutions/
	cp -R docs/. $(DESTDIR)$(DATADIR)/docs/
	-cp -R assets/. $(DESTDIR)$(DATADIR)/assets/
	install -m 644 docs/lockmuseum.1 $(DESTDIR)$(PREFIX)/share/man/man1/lockmuseum.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/lockmuseum $(DESTDIR)$(PREFIX)/share/man/man1/lockmuseum.1
	rm -rf $(DESTDIR)$(DATADIR) $(DESTDIR)$(LIBDIR)

clean:
	rm -rf build build-san build-bench build-bench-compare out

# Keep the test objects: they are intermediate files of the test binaries.
.SECONDARY:

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# ------------------------------------------------------------------ fuzz --
# make fuzz             build the libFuzzer harnesses (tests/fuzz/fuzz_*.c)
#                       and run each for FUZZ_SECONDS, from a seed corpus of
#                       scripts/, tests/ and eras/ (tests/fuzz/corpus/, not
#                       committed); a crash, leak or timeout stops it and
#                       leaves the input in tests/fuzz/artifacts/HARNESS/
# make fuzz-HARNESS     one of them: fuzz-scenario, fuzz-era, fuzz-cli,
#                       fuzz-report, fuzz-schedule
# make fuzz-regress     replay tests/fuzz/regressions/HARNESS/* once each
#                       (HARNESS/pending/ holds inputs of bugs not fixed yet)
# FUZZ_OPTS adds libFuzzer options, e.g. "-fork=1 -ignore_timeouts=1
# -ignore_crashes=1 -ignore_ooms=1" to keep going after a finding.
# Needs clang and its fuzzer runtime (Debian: clang, libclang-rt-14-dev).
FUZZ_CC        ?= clang
FUZZ_SECONDS   ?= 60
FUZZ_OPTS      ?=
FUZZ_SAN       := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_HARNESSES := scenario era cli report schedule
FUZZ_DIR        = $(BUILD)/fuzz
FUZZ_SRC       := $(CORE_SRC) $(LUA_SRC) $(wildcard engine/report/report_*.c) \
                  engine/report/json_sink.c engine/report/out_file.c \
                  engine/report/trace_export.c engine/report/trace_chrome.c \
                  engine/report/trace_ftrace.c engine/report/trace_spool.c \
                  engine/cli/session.c engine/cli/out.c
FUZZ_OBJ        = $(FUZZ_SRC:%.c=$(FUZZ_DIR)/%.o)
# fuzz_cli calls the whole command line (km_cli_main), view and all.
FUZZ_CLI_SRC   := $(filter-out $(FUZZ_SRC),$(CLI_SRC) $(REPORT_SRC) $(VIEW_SRC)) engine/cli/main.c
FUZZ_CLI_OBJ    = $(FUZZ_CLI_SRC:%.c=$(FUZZ_DIR)/%.o)
FUZZ_CFLAGS     = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -g -O1 \
                  -fno-omit-frame-pointer $(FUZZ_SAN) $(WARN) \
                  $(shell pkg-config --cflags $(PC_CORE) $(PC_VIEW)) -DKM_DATADIR='"$(DATADIR)"'
FUZZ_LIBS       = $(shell pkg-config --libs $(PC_CORE)) -lm
FUZZ_RUN_OPTS   = -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1

.PHONY: fuzz fuzz-build fuzz-regress

fuzz: deps-check
	@$(MAKE) --no-print-directory $(FUZZ_HARNESSES:%=fuzz-%)

fuzz-build: $(FUZZ_HARNESSES:%=$(FUZZ_DIR)/fuzz_%)

fuzz-regress: fuzz-build
	@status=0; for h in $(FUZZ_HARNESSES); do \
	  set --; for f in tests/fuzz/regressions/$$h/*; do [ -f "$$f" ] && set -- "$$@" "$$f"; done; \
	  [ $$# -gt 0 ] || continue; \
	  echo "fuzz-regress: $$h: $$# input(s)"; \
	  $(FUZZ_DIR)/fuzz_$$h -timeout=10 -rss_limit_mb=2048 "$$@" >$(FUZZ_DIR)/regress-$$h.log 2>&1 || \
	    { status=1; echo "fuzz-regress: $$h FAILED (see $(FUZZ_DIR)/regress-$$h.log)"; }; \
	done; exit $$status

fuzz-%: $(FUZZ_DIR)/fuzz_%
	@mkdir -p tests/fuzz/corpus/$* tests/fuzz/artifacts/$*
	@tests/fuzz/seed_corpus.sh $* tests/fuzz/corpus/$*
	$(FUZZ_DIR)/fuzz_$* -max_total_time=$(FUZZ_SECONDS) $(FUZZ_RUN_OPTS) \
	  $(if $(wildcard tests/fuzz/$*.dict),-dict=tests/fuzz/$*.dict) $(FUZZ_OPTS) \
	  -artifact_prefix=tests/fuzz/artifacts/$*/ tests/fuzz/corpus/$*

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h $(FUZZ_OBJ)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -DKM_FUZZ_ROOT='"$(CURDIR)"' -o $@ $< \
	  $(FUZZ_OBJ) $(FUZZ_EXTRA_OBJ) $(FUZZ_LIBS)

$(FUZZ_DIR)/fuzz_cli: $(FUZZ_CLI_OBJ)
$(FUZZ_DIR)/fuzz_cli: FUZZ_EXTRA_OBJ = $(FUZZ_CLI_OBJ)
$(FUZZ_DIR)/fuzz_cli: FUZZ_LIBS = $(shell pkg-config --libs $(PC_CORE) $(PC_VIEW)) -ldl -lm
$(FUZZ_DIR)/engine/cli/main.o: FUZZ_CFLAGS += -DKM_CLI_NO_MAIN
# fuzz_report runs `compare --from` through the command line, as fuzz_cli.
$(FUZZ_DIR)/fuzz_report: $(FUZZ_CLI_OBJ)
$(FUZZ_DIR)/fuzz_report: FUZZ_EXTRA_OBJ = $(FUZZ_CLI_OBJ)
$(FUZZ_DIR)/fuzz_report: FUZZ_LIBS = $(shell pkg-config --libs $(PC_CORE) $(PC_VIEW)) -ldl -lm
# fuzz_schedule reads (and writes) schedule files: schedule.c alone.
$(FUZZ_DIR)/fuzz_schedule: $(FUZZ_DIR)/engine/cli/schedule.o
$(FUZZ_DIR)/fuzz_schedule: FUZZ_EXTRA_OBJ = $(FUZZ_DIR)/engine/cli/schedule.o

$(FUZZ_DIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<
