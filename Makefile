# The README's commands, plus the ones developers use every day.
.PHONY: demo test output bench bench-quick build release clean fuzz fuzz-campaign

demo:                ## bootstrap, build, run on SampleLogs/ into Output/
	scripts/demo

test:                ## bootstrap, build, run every test
	scripts/test

output: demo         ## regenerate the committed Output/

build:
	swift build

release:
	swift build -c release --product lifeline

bench:               ## every corpus shape at 250 MB, 500 MB and 1 GB beside wc -l, rg and lnav; Benchmarks/results/
	scripts/bench

bench-quick:         ## 100 MB of each shape, one run: a smoke run of the benchmark
	scripts/bench --quick

FUZZ_SECONDS ?= 60
fuzz:                ## libFuzzer targets (Fuzz/), FUZZ_SECONDS each; crashes into .build-fuzz/findings/
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz

FUZZ_MINUTES ?= 10
fuzz-campaign:       ## every target FUZZ_MINUTES, two at a time; its table into Documentation/Reliability.md
	scripts/fuzz --campaign $(FUZZ_MINUTES)

clean:
	rm -rf .build .build-*
