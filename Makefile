# Makefile for pbem, the play-by-email turn service.
#   make run     set up (deps, private PostgreSQL, migrations), build, serve
#   make test    the same set-up with a fresh test database, every suite
#   make bench   benchmarks that print figures
#   make soak    the engines' random play at twenty times the volume, and
#                50 crash cycles of pbemd and PostgreSQL (CRASH_CYCLES=…),
#                5 failovers to a synchronous standby (FAILOVER_CYCLES=…),
#                10 rounds of automatic failovers (AUTOFAILOVER_CYCLES=…)
#   make check   static analysis (cppcheck), the layering check (no include
#                loops), no getenv outside service/core/config.c, no SQL
#                outside service/store/, header guards named after their paths
#   make docs    docs/configuration.md, from pbemd's table of variables
#   make SAN=1 … AddressSanitizer + UndefinedBehaviorSanitizer build
#   V=1          show full command lines
.DEFAULT_GOAL := all
SHELL := /bin/bash

CC ?= cc
BUILD := build
OPT := -O2
ifdef SAN
BUILD := build-san
OPT := -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
endif
# make fuzz builds the same sources with clang and libFuzzer's coverage
# instrumentation, in their own folder (scripts/fuzz.sh, docs/fuzzing.md).
ifdef FUZZ
BUILD := build-fuzz
CC := clang
OPT := -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
endif
# GMime (mail parsing) and the GLib under it, as system headers: their
# warnings are not ours to fix.
GMIME_CFLAGS := $(patsubst -I%,-isystem %,$(shell pkg-config --cflags gmime-3.0 2>/dev/null))
GMIME_LIBS := $(shell pkg-config --libs gmime-3.0 2>/dev/null)
CPPFLAGS := -D_GNU_SOURCE -Irules -Iservice -Iclient -I$(shell pg_config --includedir 2>/dev/null || echo /usr/include/postgresql) $(GMIME_CFLAGS) -MMD -MP
# -pipe: the compiler's stages hand their output on through pipes, not
# temporary files (a clean build of the 600 sources 112-113 s against
# 117-122 s on two cores).
CFLAGS := -std=c11 $(OPT) -g -pipe -Wall -Wextra -Werror -pthread
comma := ,
LDFLAGS := $(if $(SAN),-fsanitize=address$(comma)undefined) -pthread
LIBS := -lmicrohttpd -lpq -lsodium -lcrypto -ljansson -lcurl $(GMIME_LIBS) -licui18n -licuuc -licudata -lm
# pbemd allocates with jemalloc: glibc's malloc spent a sixth of its CPU
# under load, much of it consolidating fast bins whenever a request asked
# for a kilobyte or more (docs/benchmarks.md). So do the benchmark clients
# that play moves, which share the cores with it: parsing each answer with
# jansson is their main cost, and glibc's malloc and free were a quarter
# of that. Not under the sanitizers, which bring their own allocator.
MALLOC_LIBS := $(if $(SAN)$(FUZZ),,-ljemalloc)
TEST_LIBS := -lcriterion $(LIBS)

ifeq ($(V),1)
Q :=
else
Q := @
endif

RULES_SRC := $(wildcard rules/*.c rules/*/*.c)
SERVICE_SRC := $(filter-out service/main.c,$(wildcard service/*.c service/*/*.c))
CLIENT_SRC := $(wildcard client/*.c)
SUPPORT_SRC := $(wildcard tests/support/*.c)
HARNESS_SRC := $(wildcard tests/rules/*.c)
# A test suite is a folder holding test_*.c files; it becomes one binary.
SUITE_DIRS := $(sort $(patsubst %/,%,$(dir $(wildcard tests/*/test_*.c tests/*/*/test_*.c))))
SUITES := $(patsubst %,$(BUILD)/%/suite,$(SUITE_DIRS))
# The page in a real browser (node + chromium), run by make test.
WEB_TESTS := $(wildcard tests/web/*.test.mjs)

obj = $(patsubst %.c,$(BUILD)/%.o,$(1))

CLI_SRC := $(wildcard cli/*.c)
# The benchmarks are built with everything else, so a change that breaks
# them fails make test, not the next make bench.
BENCHES := $(BUILD)/bench/engines $(BUILD)/bench/service $(BUILD)/bench/notify \
    $(BUILD)/bench/restore $(BUILD)/bench/mail $(BUILD)/bench/ratelimit \
    $(BUILD)/bench/streams $(BUILD)/bench/slow_clients $(BUILD)/bench/growth \
    $(BUILD)/bench/moves_loop $(BUILD)/bench/lobby $(BUILD)/bench/scale \
    $(BUILD)/bench/open_loop $(BUILD)/bench/watchers

# The example bots (examples/bots/): the C one is built with everything
# else, so the bots' suite can play it and a client change cannot break it.
EXAMPLES := $(BUILD)/examples/bots/c/pbem-random-bot

all: $(BUILD)/pbemd $(if $(CLI_SRC),$(BUILD)/pbem) $(SUITES) $(BENCHES) $(EXAMPLES)

# Fuzz targets: tests/fuzz/<target>.c (plus <target>_reach.c, if any), each
# linked twice: <target>-replay runs the corpus tests/fuzz/<target>/ once
# (make test), <target>-fuzz is the libFuzzer binary (make fuzz).
FUZZ_TARGETS := $(filter-out replay %_reach,$(basename $(notdir $(wildcard tests/fuzz/*.c))))
fuzz_objs = $(call obj,tests/fuzz/$(1).c $(wildcard tests/fuzz/$(1)_reach.c))
FUZZ_REPLAYS := $(patsubst %,$(BUILD)/tests/fuzz/%-replay,$(FUZZ_TARGETS))
all: $(FUZZ_REPLAYS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC $<")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/librules.a: $(call obj,$(RULES_SRC))
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/libservice.a: $(call obj,$(SERVICE_SRC))
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/libclient.a: $(call obj,$(CLIENT_SRC))
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/libsupport.a: $(call obj,$(SUPPORT_SRC))
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/libharness.a: $(call obj,$(HARNESS_SRC))
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/pbemd: $(call obj,service/main.c) $(BUILD)/libservice.a $(BUILD)/librules.a
	@$(if $(Q),echo "  LD $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS) $(MALLOC_LIBS)

# Without -lcurl: pbem opens libcurl when a command first uses it
# (cli/curl_lazy.h), so pbem mail-in, run once per message, never loads it.
$(BUILD)/pbem: $(call obj,$(wildcard cli/*.c)) $(BUILD)/libclient.a $(BUILD)/libservice.a $(BUILD)/librules.a
	@$(if $(Q),echo "  LD $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(filter-out -lcurl,$(LIBS))

.SECONDARY:
.SECONDEXPANSION:
# Engine suites need only the rules and the harness: a service file being
# edited never breaks them. They allocate with jemalloc, as the engines do
# in pbemd: glibc's malloc and free were a fifth of random play's CPU, and
# the engine suites are a third of make test's time.
$(BUILD)/tests/rules/%/suite: $$(call obj,$$(wildcard tests/rules/%/*.c)) $(BUILD)/libharness.a $(BUILD)/librules.a
	@$(if $(Q),echo "  LD $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -lcriterion -lsodium -ljansson -lm $(MALLOC_LIBS)

# The chat suite plays a match with a mail player too (the mail scene
# after the libraries: the support library again to resolve it).
$(BUILD)/tests/service/chat/suite: $(call obj,tests/service/mailin/mail_scene.c tests/service/mailin/mail_people.c)
$(BUILD)/tests/service/chat/suite: TEST_LIBS += $(BUILD)/libsupport.a

# The watchers suite opens its streams as the streams suite does.
$(BUILD)/tests/service/watchers/suite: $(call obj,tests/service/streams/streams.c)

$(BUILD)/tests/%/suite: $$(call obj,$$(wildcard tests/%/*.c)) $(BUILD)/libsupport.a $(BUILD)/libclient.a $(BUILD)/libservice.a $(BUILD)/librules.a
	@$(if $(Q),echo "  LD $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(TEST_LIBS)

$(BUILD)/tests/fuzz/%-replay: $$(call fuzz_objs,$$*) $(call obj,tests/fuzz/replay.c) $(BUILD)/libservice.a $(BUILD)/librules.a
	@$(if $(Q),echo "  LD $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/tests/fuzz/%-fuzz: $$(call fuzz_objs,$$*) $(BUILD)/libservice.a $(BUILD)/librules.a
	@$(if $(Q),echo "  LD $@")
	$(Q)$(CC) -fsanitize=fuzzer,address,undefined -pthread -o $@ $^ $(LIBS)

# The libFuzzer binaries; make fuzz calls this with FUZZ=1.
fuzz-targets: $(patsubst %,$(BUILD)/tests/fuzz/%-fuzz,$(FUZZ_TARGETS))

# Each fuzz target for FUZZ_SECONDS (default 60), then a table of
# executions and crashes: make fuzz [FUZZ_SECONDS=…] [TARGETS="httpsig …"]
fuzz:
	$(Q)FUZZ_SECONDS=$(or $(FUZZ_SECONDS),60) scripts/fuzz.sh $(or $(TARGETS),$(FUZZ_TARGETS))

deps:
	$(Q)scripts/deps.sh

# One engine's suite alone, without PostgreSQL: make test-rules GAME=antiquity_quest
test-rules: $(BUILD)/tests/rules/$(GAME)/suite
	$(Q)$(BUILD)/tests/rules/$(GAME)/suite $(ARGS)

# The engines' random play at SOAK times the volume of `make test`
# (default 20): thousands of complete matches per engine. Then CRASH_CYCLES
# (default 50) kills of pbemd and crashes of PostgreSQL under players
# (tests/service/crash, on a PostgreSQL cluster of its own). Then
# FAILOVER_CYCLES (default 5) crashes of a primary and promotions of its
# synchronous standby under players (tests/service/failover), and
# AUTOFAILOVER_CYCLES (default 10) rounds of four faults of a primary that
# pg_auto_failover's monitor fails over by itself. Then the page: whole
# Quarriors and Another Man's Treasure matches touched in the browser.
soak: $(filter $(BUILD)/tests/rules/%,$(SUITES)) $(BUILD)/pbemd $(BUILD)/tests/service/crash/suite $(BUILD)/tests/service/failover/suite
	$(Q)for suite in $(filter-out %/toy/suite,$(filter $(BUILD)/tests/rules/%,$^)); do echo "== $$suite"; \
	    start=$$(date +%s); \
	    PBEM_SOAK=$(or $(SOAK),20) $$suite --jobs 2 || exit 1; \
	    echo "   $$(($$(date +%s) - start)) s"; done
	$(Q)echo "== $(BUILD)/tests/service/crash/suite"; start=$$(date +%s); \
	    tmp=$$(mktemp -d -t pbem-soak.XXXXXX); \
	    TMPDIR=$$tmp PBEM_BIN=$$PWD/$(BUILD)/pbemd \
	    PBEM_RATE_ANONYMOUS=1000000/60 PBEM_RATE_PLAYER=1000000/60 \
	    PBEM_CRASH_CYCLES=$(or $(CRASH_CYCLES),50) \
	    $(BUILD)/tests/service/crash/suite; rc=$$?; rm -rf "$$tmp"; \
	    echo "   $$(($$(date +%s) - start)) s"; [ $$rc -eq 0 ] || exit $$rc
	$(Q)echo "== $(BUILD)/tests/service/failover/suite"; start=$$(date +%s); \
	    tmp=$$(mktemp -d -t pbem-soak.XXXXXX); \
	    TMPDIR=$$tmp PBEM_BIN=$$PWD/$(BUILD)/pbemd \
	    PBEM_RATE_ANONYMOUS=1000000/60 PBEM_RATE_PLAYER=1000000/60 \
	    PBEM_FAILOVER_CYCLES=$(or $(FAILOVER_CYCLES),5) \
	    PBEM_AUTOFAILOVER_CYCLES=$(or $(AUTOFAILOVER_CYCLES),10) \
	    PBEM_AUTOFAILOVER_FAULTS=0123 \
	    $(BUILD)/tests/service/failover/suite; rc=$$?; rm -rf "$$tmp"; \
	    echo "   $$(($$(date +%s) - start)) s"; exit $$rc
	$(Q)scripts/test.sh $(BUILD) tests/web/long/whole-matches.test.mjs

# make run, test and bench build on every core, unless make was given a
# -j of its own: from nothing, the build took 185 s on one core of two.
BUILD_ALL = $(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc)) all

run: deps
	$(Q)$(BUILD_ALL)
	$(Q)scripts/run.sh $(BUILD)

test: deps
	$(Q)$(BUILD_ALL)
	$(Q)scripts/test.sh $(BUILD) $(SUITES) $(WEB_TESTS)

bench: deps
	$(Q)$(BUILD_ALL)
	$(Q)scripts/bench.sh $(BUILD)

$(BUILD)/bench/engines: $(call obj,bench/engines.c) $(BUILD)/librules.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/bench/service: $(call obj,bench/service.c) $(call obj,bench/latency.c) $(call obj,bench/play.c) $(BUILD)/libclient.a $(BUILD)/libservice.a $(BUILD)/librules.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS) $(MALLOC_LIBS)

$(BUILD)/bench/notify: $(call obj,bench/notify.c) $(BUILD)/libclient.a $(BUILD)/libservice.a $(BUILD)/librules.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/bench/moves_loop: $(call obj,bench/moves_loop.c) $(call obj,bench/multi_request.c) $(call obj,bench/latency.c) $(call obj,bench/play.c) $(BUILD)/libclient.a $(BUILD)/libservice.a $(BUILD)/librules.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS) $(MALLOC_LIBS)

$(BUILD)/bench/open_loop: $(call obj,bench/open_loop.c) $(call obj,bench/multi_request.c) $(call obj,bench/latency.c) $(call obj,bench/play.c) $(BUILD)/libclient.a $(BUILD)/libservice.a $(BUILD)/librules.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS) $(MALLOC_LIBS)

$(BUILD)/bench/lobby: $(call obj,bench/lobby.c) $(call obj,bench/db.c) $(call obj,bench/latency.c) $(call obj,bench/play.c) $(BUILD)/libclient.a $(BUILD)/libservice.a $(BUILD)/librules.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/bench/scale: $(call obj,bench/scale.c) $(call obj,bench/db.c) $(call obj,bench/latency.c) $(BUILD)/libservice.a $(BUILD)/librules.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/bench/growth: $(call obj,bench/growth.c) $(call obj,bench/latency.c) $(call obj,bench/play.c) $(BUILD)/libclient.a $(BUILD)/libservice.a $(BUILD)/librules.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS) $(MALLOC_LIBS)

$(BUILD)/bench/restore: $(call obj,bench/restore.c) $(BUILD)/libclient.a $(BUILD)/libservice.a $(BUILD)/librules.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/bench/ratelimit: $(call obj,bench/ratelimit.c) $(BUILD)/libclient.a $(BUILD)/libservice.a $(BUILD)/librules.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/bench/mail: $(call obj,bench/mail.c) $(BUILD)/libclient.a $(BUILD)/libservice.a $(BUILD)/librules.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/bench/streams: $(call obj,bench/streams.c) $(BUILD)/libclient.a $(BUILD)/libservice.a $(BUILD)/librules.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/bench/watchers: $(call obj,bench/watchers.c) $(call obj,bench/latency.c) $(call obj,bench/play.c) $(BUILD)/libclient.a $(BUILD)/libservice.a $(BUILD)/librules.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/examples/bots/c/pbem-random-bot: $(call obj,examples/bots/c/bot.c) $(BUILD)/libclient.a $(BUILD)/libservice.a $(BUILD)/librules.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/bench/slow_clients: $(call obj,bench/slow_clients.c)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -pthread

# Checks a match from its public log: make verify MATCH=m_123 [URL=…]
verify: $(BUILD)/pbem
	$(Q)$(BUILD)/pbem verify $(if $(URL),--url $(URL)) $(MATCH)

# Static analysis, no include loop between service/ modules or folders,
# the environment read in service/core/config.c only, SQL in service/store/
# only, and every header's guard its path.
check:
	scripts/cycles.sh
	scripts/check_getenv.sh
	scripts/check_sql.sh
	scripts/header_guards.sh
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability \
	    --inline-suppr -Irules -Iservice rules service cli

# docs/configuration.md is written by the table in service/core/config.c;
# tests/service/config fails when the two differ.
docs: $(BUILD)/pbemd
	$(Q)$(BUILD)/pbemd config --markdown > docs/configuration.md

clean:
	rm -rf build build-san build-fuzz

.PHONY: all deps run test test-rules soak bench verify check docs clean
.PHONY: fuzz fuzz-targets
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
