# common/ — the shared readers: pimeta (.perfinst metadata), pitrace (traces),
# pidwarf (DWARF and symbols), and piutil (what they share); and
# xlat-blocks, the translation-table builder perfinst-ld and the runtime share
# (runtime/build.mk compiles it into libperfinst too).  One static library,
# built -fPIC so that a shared object or a fuzz harness can link it too.
#
# Users link $(PICOMMON_LIB) $(PICOMMON_LDLIBS); a program that only uses
# pimeta/pitrace needs just -lelf, but the full list is always safe.

PICOMMON_SRCS   := $(wildcard common/*.c)
PICOMMON_OBJS   := $(PICOMMON_SRCS:common/%.c=$(BUILD)/common/%.o)
PICOMMON_LIB    := $(BUILD)/libpicommon.a
PICOMMON_LDLIBS := -ldwarf -lelf -lz

all: $(PICOMMON_LIB)

$(BUILD)/common:
	mkdir -p $@

$(BUILD)/common/%.o: common/%.c | $(BUILD)/common
	$(CC) $(CFLAGS) -fPIC -MMD -MP -c $< -o $@

$(PICOMMON_LIB): $(PICOMMON_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

-include $(PICOMMON_OBJS:.o=.d)
