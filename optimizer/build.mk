# optimizer/ — pmopt, in layers (docs/design.md "pmopt's layers"): pmopt.c,
# the command table; one folder per command family (report/, plan/,
# relink/, inspect/); model/, what they share (a program and its traces
# loaded, the profile, stacks, the cache model, the orders).
# libiberty (Debian libiberty-dev): the C++ demangler of model/names.c; zlib
# (zlib1g-dev): gzip of the pprof export (inspect/export-pprof.c).

PMOPT_DIRS := optimizer optimizer/model optimizer/report optimizer/plan optimizer/relink \
              optimizer/inspect
PMOPT_INC := $(addprefix -I,$(PMOPT_DIRS))
PMOPT_SRCS := $(wildcard $(addsuffix /*.c,$(PMOPT_DIRS)))
PMOPT_OBJS := $(PMOPT_SRCS:optimizer/%.c=$(BUILD)/optimizer/%.o)

all: $(BUILD)/pmopt

$(addprefix $(BUILD)/,$(PMOPT_DIRS)):
	mkdir -p $@

$(BUILD)/optimizer/%.o: optimizer/%.c | $(addprefix $(BUILD)/,$(PMOPT_DIRS))
	$(CC) $(CFLAGS) $(PMOPT_INC) -MMD -MP -c $< -o $@

PMOPT_LDLIBS := $(PICOMMON_LDLIBS) -liberty -lz -lm

$(BUILD)/pmopt: $(PMOPT_OBJS) $(PICOMMON_LIB)
	$(CC) $(LDFLAGS) -o $@ $(PMOPT_OBJS) $(PICOMMON_LIB) $(PMOPT_LDLIBS)

-include $(PMOPT_OBJS:.o=.d)
