# optimizer/ — pmopt: one file per subcommand (cmd-*.c), dispatch in pmopt.c.
# libiberty (Debian libiberty-dev): the C++ demangler of names.c.

PMOPT_SRCS := $(wildcard optimizer/*.c)
PMOPT_OBJS := $(PMOPT_SRCS:optimizer/%.c=$(BUILD)/optimizer/%.o)

all: $(BUILD)/pmopt

$(BUILD)/optimizer:
	mkdir -p $@

$(BUILD)/optimizer/%.o: optimizer/%.c | $(BUILD)/optimizer
	$(CC) $(CFLAGS) -Ioptimizer -MMD -MP -c $< -o $@

PMOPT_LDLIBS := $(PICOMMON_LDLIBS) -liberty -lm

$(BUILD)/pmopt: $(PMOPT_OBJS) $(PICOMMON_LIB)
	$(CC) $(LDFLAGS) -o $@ $(PMOPT_OBJS) $(PICOMMON_LIB) $(PMOPT_LDLIBS)

-include $(PMOPT_OBJS:.o=.d)
