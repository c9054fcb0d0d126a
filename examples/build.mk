# The demo: the whole loop on examples/demo.c with the tools just built.
DEMO := $(BUILD)/demo
.PHONY: run-demo
run-demo: all
	@mkdir -p $(DEMO)
	@echo "== compile with the plugin"
	gcc -O2 -g -fplugin=$(BUILD)/perfinst.so -Iinclude -c examples/demo.c -o $(DEMO)/demo.o
	@echo "== link with perfinst-ld"
	$(BUILD)/perfinst-ld -O2 -o $(DEMO)/demo $(DEMO)/demo.o -pthread
	@echo "== what the plugin recorded"
	$(BUILD)/pmopt dump-meta $(DEMO)/demo | head -25
	@echo "== run"
	rm -f $(DEMO)/demo.pit
	cd $(DEMO) && PERFINST_OUT=demo.pit ./demo
	@echo "== report"
	$(BUILD)/pmopt report $(DEMO)/demo $(DEMO)/demo.pit --top=12
	@echo "== train a counted build, plan, rebuild with the plan, relink in the planned order"
	gcc -O2 -g -fplugin=$(BUILD)/perfinst.so -fplugin-arg-perfinst-all=count \
	  -fplugin-arg-perfinst-sections -Iinclude -c examples/demo.c -o $(DEMO)/train.o
	$(BUILD)/perfinst-ld -O2 -o $(DEMO)/train $(DEMO)/train.o -pthread
	rm -f $(DEMO)/train.pit
	cd $(DEMO) && PERFINST_OUT=train.pit ./train > train.out
	$(BUILD)/pmopt plan --order=exttsp --rebuild -o $(DEMO)/demo.fb $(DEMO)/train $(DEMO)/train.pit
	gcc -O2 -g -fplugin=$(BUILD)/perfinst.so -fplugin-arg-perfinst-feedback=$(DEMO)/demo.fb -fplugin-arg-perfinst-verbose \
	  -fplugin-arg-perfinst-sections -Iinclude -c examples/demo.c -o $(DEMO)/opt.o
	$(BUILD)/perfinst-ld -O2 -o $(DEMO)/opt $(DEMO)/opt.o -pthread
	$(BUILD)/pmopt relink $(DEMO)/opt --feedback $(DEMO)/demo.fb -o $(DEMO)/demo.opt
	cd $(DEMO) && ./demo.opt > opt.out && cmp train.out opt.out && echo "demo.opt: same output, laid out for its training run"
