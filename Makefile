# waypointd: build, test, demo, bench and install.
# Quick start on a fresh Debian 12 machine: `make demo`, then `make test`.

SWIFT        ?= swift
PREFIX       ?= /usr/local
DESTDIR      ?=
BINDIR        = $(DESTDIR)$(PREFIX)/bin
DEBUG_BIN     = .build/debug
RELEASE_BIN   = .build/release
PROGRAMS      = waypointd waypointctl

.PHONY: all deps build test demo bench install uninstall clean

all: build

## deps: install the Debian packages that are missing (apt-get as root, sudo otherwise)
deps:
	@scripts/deps.sh

## build: debug build of every target
build: deps
	$(SWIFT) build

## test: build everything and run every test (CI runs this with CI=true)
test: build
	WAYPOINT_BIN_DIR=$(CURDIR)/$(DEBUG_BIN) $(SWIFT) test

## demo: show what works today: bearings on the WGS84 ellipsoid and WMM2025 declination
demo: build
	@scripts/demo.sh $(DEBUG_BIN)

## bench: release build, then the benchmark table (ns per operation)
bench:
	@scripts/deps.sh --bench
	$(SWIFT) build -c release --product waypoint-bench
	@scripts/bench.sh $(RELEASE_BIN)

## install: release binaries into $(DESTDIR)$(PREFIX)/bin
install:
	$(SWIFT) build -c release --static-swift-stdlib
	install -d $(BINDIR)
	for program in $(PROGRAMS); do install -m 0755 $(RELEASE_BIN)/$$program $(BINDIR)/$$program; done

uninstall:
	for program in $(PROGRAMS); do rm -f $(BINDIR)/$$program; done

clean:
	rm -rf .build
