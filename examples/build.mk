# The demo: the whole loop on examples/demo.c with the tools just built,
# through the flags a project's own build would take (docs/adopting.md):
# pkg-config finds build/perfinst-uninstalled.pc.
DEMO := $(BUILD)/demo
PI_PC = PKG_CONFIG_PATH=$(abspath $(BUILD)) pkg-config
.PHONY: run-demo
run-demo: all
	@mkdir -p $(DEMO)
	@echo "== the flags: pkg-config --cflags / --libs perfinst"
	$(PI_PC) --cflags --libs perfinst
	@echo "== compile with the plugin"
	gcc -O2 -g $$($(PI_PC) --cflags perfinst) -c examples/demo.c -o $(DEMO)/demo.o
	@echo "== link: gcc runs perfinst's link stage (runtime, translation table, recipe)"
	gcc -O2 $$($(PI_PC) --libs perfinst) -o $(DEMO)/demo $(DEMO)/demo.o -pthread
	@echo "== what the plugin recorded"
	$(BUILD)/pmopt dump-meta $(DEMO)/demo | head -25
	@echo "== run"
	rm -f $(DEMO)/demo.pit
	cd $(DEMO) && PERFINST_OUT=demo.pit ./demo
	@echo "== report"
	$(BUILD)/pmopt report $(DEMO)/demo $(DEMO)/demo.pit --top=12
	@echo "== train a counted build, plan, rebuild with the plan, relink in the planned order"
	gcc -O2 -g $$($(PI_PC) --cflags perfinst) -fplugin-arg-perfinst-all=count \
	  -fplugin-arg-perfinst-clean-copies=all -fplugin-arg-perfinst-sections -c examples/demo.c -o $(DEMO)/train.o
	gcc -O2 $$($(PI_PC) --libs perfinst) -o $(DEMO)/train $(DEMO)/train.o -pthread
	rm -f $(DEMO)/train.pit
	cd $(DEMO) && PERFINST_OUT=train.pit ./train > train.out
	$(BUILD)/pmopt plan --order=auto --rebuild -o $(DEMO)/demo.fb $(DEMO)/train $(DEMO)/train.pit
	gcc -O2 -g $$($(PI_PC) --cflags perfinst) -fplugin-arg-perfinst-feedback=$(DEMO)/demo.fb \
	  -fplugin-arg-perfinst-verbose -fplugin-arg-perfinst-sections -c examples/demo.c -o $(DEMO)/opt.o
	gcc -O2 $$($(PI_PC) --libs perfinst) -o $(DEMO)/opt $(DEMO)/opt.o -pthread
	$(BUILD)/pmopt relink $(DEMO)/opt --feedback $(DEMO)/demo.fb -o $(DEMO)/demo.opt
	cd $(DEMO) && ./demo.opt > opt.out && cmp train.out opt.out && echo "demo.opt: same output, laid out for its training run"
