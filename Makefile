# waypointd: build, test, demo, bench and install.
# Quick start on a fresh Debian 12 machine: `make demo`, then `make test`.

SWIFT        ?= swift
DEBUG_BIN     = .build/debug
RELEASE_BIN   = .build/release
PROGRAMS      = waypointd waypointctl waypoint-web

# Installation (GNU conventions: DESTDIR stages, PREFIX is where the files will live).
# Units go under PREFIX: systemd 252 searches /usr/local/lib/systemd/system as well as
# /usr/lib/systemd/system. systemd-sysusers does not search /usr/local, so its file goes to
# /usr/lib/sysusers.d whatever PREFIX is. The config directory is /etc/waypointd, as compiled in.
PREFIX       ?= /usr/local
DESTDIR      ?=
BINDIR        = $(PREFIX)/bin
UNITDIR      ?= $(PREFIX)/lib/systemd/system
SYSUSERSDIR  ?= /usr/lib/sysusers.d
CONFDIR       = /etc/waypointd
DOCDIR        = $(PREFIX)/share/doc/waypointd
MANDIR        = $(PREFIX)/share/man
# bash-completion loads completions on demand from here (XDG_DATA_DIRS holds /usr/local/share).
COMPLETIONDIR = $(PREFIX)/share/bash-completion/completions
# The companion's page (waypoint-web finds it at ../share/waypoint-web beside its program).
PAGEDIR       = $(PREFIX)/share/waypoint-web
PAGE_FILES    = index.html app.js app.css calibration.js compass.js lists.js map.js page.js words.js
# The man pages, built into MAN_BUILD by `make man`: waypointd.conf(5) is generated from the
# shipped config file (scripts/man-conf.sh), the others are mdoc as written.
MAN_BUILD     = .build/man
MAN_PAGES     = man1/waypointctl.1 man5/waypointd.conf.5 man8/waypointd.8 man8/waypoint-web.8
# Where install-files takes the programs from: the static release build by default; tests pass
# the debug build (BIN=.build/debug) to skip the long release build.
BIN          ?= $(RELEASE_BIN)
# Every installed file, the one list that install, uninstall and the tests (InstallTests, the
# README) agree on. `make print-install-files` prints it.
INSTALL_FILES = $(BINDIR)/waypointd $(BINDIR)/waypointctl $(BINDIR)/waypoint-web \
                $(UNITDIR)/waypointd.service $(UNITDIR)/waypointd.socket $(UNITDIR)/waypoint-web.service \
                $(SYSUSERSDIR)/waypointd.conf $(SYSUSERSDIR)/waypoint-web.conf \
                $(CONFDIR)/waypointd.conf $(CONFDIR)/waypoint-web.conf \
                $(DOCDIR)/README.md $(DOCDIR)/waypointd.conf $(DOCDIR)/waypoint-web.conf $(DOCDIR)/LICENSE \
                $(addprefix $(MANDIR)/,$(MAN_PAGES)) \
                $(COMPLETIONDIR)/waypointctl $(COMPLETIONDIR)/waypointd $(COMPLETIONDIR)/waypoint-web \
                $(addprefix $(PAGEDIR)/,$(PAGE_FILES))
# The checked-in units are those of the default PREFIX; installing rewrites their paths.
UNIT_PATHS    = sed -e 's|/usr/local/bin/|$(BINDIR)/|g' -e 's|/usr/local/share/doc/waypointd/|$(DOCDIR)/|g'

.PHONY: all deps build test package-test fuzz soak demo bench install install-files release deb uninstall print-install-files man clean

all: build

## deps: install the Debian packages that are missing (apt-get as root, sudo otherwise)
deps:
	@scripts/deps.sh

## build: debug build of every target; a file importing a target its own does not depend on is an
## error (the layers in ARCHITECTURE.md, e.g. Core never reaching SystemSupport, hold by it)
BUILD_CHECKS  = --explicit-target-dependency-import-check=error
build: deps
	$(SWIFT) build $(BUILD_CHECKS)

## test: build everything and run every test (CI runs this with CI=true), in about ten minutes on
## two cores from a warm build: the unit tests in parallel, the fuzz corpus replayed, then the
## end-to-end suites side by side in shards (scripts/test-end-to-end.sh), a short soak among
## them. The slow checks have targets of their own: soak, fuzz, package-test.
TEST_BUNDLE   = $(DEBUG_BIN)/waypointdPackageTests.xctest
# Each test has its own time limit, which names it; a test stuck in a call that never returns is
# ended with the whole phase after this long (the unit phase takes about 80 s).
UNIT_TEST_SECONDS ?= 900
END_TO_END    = WaypointdTests|InstallTests|WaypointctlTests|GPSClientTests|HealthCheckTests|HapticPlayerRealTimeTests|ControlServerTests|ButtonReaderTests|VoiceTests
test: build
	$(SWIFT) build --build-tests $(BUILD_CHECKS)
	WAYPOINT_BIN_DIR=$(CURDIR)/$(DEBUG_BIN) timeout --kill-after=10 $(UNIT_TEST_SECONDS) $(SWIFT) test --skip-build --skip '$(END_TO_END)'
	WAYPOINT_BIN_DIR=$(CURDIR)/$(DEBUG_BIN) scripts/test-end-to-end.sh $(TEST_BUNDLE)

## soak: the long runs on the release build (linked as it ships): the mixed-load soak for SOAK_SECONDS (1800) and
## the 2 000 000-request pipelined flood
SOAK_SECONDS ?= 1800
soak: build
	$(SWIFT) build -c release --static-swift-stdlib --product waypointd
	$(SWIFT) build --build-tests
	WAYPOINT_BIN_DIR=$(CURDIR)/$(RELEASE_BIN) WAYPOINT_SOAK_SECONDS=$(SOAK_SECONDS) WAYPOINT_FLOOD_REQUESTS=2000000 \
		$(SWIFT) test --skip-build --no-parallel --filter 'SoakTests|ClientBoundsTests'

## package-test: the Debian package built, linted, installed, upgraded, removed and purged in a
## debootstrapped Debian 12 under its own systemd (a few minutes; the root is cached)
package-test: build
	$(SWIFT) build --build-tests $(BUILD_CHECKS)
	WAYPOINT_BIN_DIR=$(CURDIR)/$(DEBUG_BIN) $(SWIFT) test --skip-build --no-parallel --filter 'PackageTests'

## fuzz: the libFuzzer targets (JSON, requests, coordinates, config, recordings, GPX), each for
## FUZZ_SECONDS (60), two at a time, from the seeds in Fuzz/corpus; `make test` replays the
## corpus through the same targets without the fuzzer
FUZZ_SECONDS ?= 60
fuzz:
	@scripts/fuzz.sh $(FUZZ_SECONDS)

## demo: show what works today: bearings on the WGS84 ellipsoid and WMM2025 declination
demo: build
	@scripts/demo.sh $(DEBUG_BIN)

## bench: release build, then the benchmark table (ns per operation), then the whole daemon's
## resource budgets beside gpsd's (the programs built as `make release` builds them)
bench:
	@scripts/deps.sh --bench
	$(SWIFT) build -c release --product waypoint-bench
	$(SWIFT) build -c release --static-swift-stdlib --product waypointd
	$(SWIFT) build -c release --static-swift-stdlib --product waypointctl
	$(SWIFT) build -c release --static-swift-stdlib --product waypoint-web
	@scripts/bench.sh $(RELEASE_BIN)

## man: the man pages into .build/man, linted with mandoc (warnings are errors)
man:
	@mkdir -p $(MAN_BUILD)/man1 $(MAN_BUILD)/man5 $(MAN_BUILD)/man8
	@# Each page is written beside its place and renamed over it: the tests run make
	@# install-files side by side, and none may read a page another is halfway through writing.
	for page in man1/waypointctl.1 man8/waypointd.8 man8/waypoint-web.8; do \
	    cp man/$${page#*/} $(MAN_BUILD)/$$page.$$$$ && mv $(MAN_BUILD)/$$page.$$$$ $(MAN_BUILD)/$$page; \
	done
	scripts/man-conf.sh > $(MAN_BUILD)/man5/waypointd.conf.5.$$$$ && mv $(MAN_BUILD)/man5/waypointd.conf.5.$$$$ $(MAN_BUILD)/man5/waypointd.conf.5
	mandoc -Tlint -Wwarning $(addprefix $(MAN_BUILD)/,$(MAN_PAGES))

## install: static release build, then install-files (PREFIX=/usr/local, DESTDIR= for staging)
install: release install-files

## release: the two programs built with the Swift runtime linked in (no toolchain on the Pi);
## SWIFT_SCRATCH=DIR builds in DIR instead of .build (the package build's own directory)
SWIFT_SCRATCH ?=
RELEASE_FLAGS = -c release --static-swift-stdlib $(if $(SWIFT_SCRATCH),--scratch-path $(SWIFT_SCRATCH))
release:
	$(SWIFT) build $(RELEASE_FLAGS) --product waypointd
	$(SWIFT) build $(RELEASE_FLAGS) --product waypointctl
	$(SWIFT) build $(RELEASE_FLAGS) --product waypoint-web

## deb: the Debian package for this machine's architecture into .build/deb, with dpkg-buildpackage
## and debian/rules (which runs `make release` into .build/package and `make install-files` with
## Debian's paths); DEB_VERSION=V builds the same tree as version V. Check it with
## `lintian .build/deb/waypointd.changes`.
DEB_OUT       = .build/deb
DEB_VERSION  ?=
deb: deps
	rm -rf $(DEB_OUT) && mkdir -p $(DEB_OUT)
	WAYPOINT_DEB_OUT=$(DEB_OUT) WAYPOINT_DEB_VERSION=$(DEB_VERSION) dpkg-buildpackage --build=binary --no-sign \
	    --buildinfo-option=-u$(DEB_OUT) --buildinfo-file=$(DEB_OUT)/waypointd.buildinfo \
	    --changes-option=-u$(DEB_OUT) --changes-file=$(DEB_OUT)/waypointd.changes
	@ls $(DEB_OUT)/*.deb

## install-files: copy the built programs from $(BIN), units, sysusers, config and docs; an
## existing $(CONFDIR)/waypointd.conf is kept
install-files: man
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSUSERSDIR) $(DESTDIR)$(CONFDIR) $(DESTDIR)$(DOCDIR)
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8
	for page in $(MAN_PAGES); do install -m 0644 $(MAN_BUILD)/$$page $(DESTDIR)$(MANDIR)/$$page; done
	install -m 0644 LICENSE $(DESTDIR)$(DOCDIR)/LICENSE
	install -d $(DESTDIR)$(COMPLETIONDIR)
	for program in $(PROGRAMS); do install -m 0644 completion/$$program.bash $(DESTDIR)$(COMPLETIONDIR)/$$program; done
	for program in $(PROGRAMS); do install -m 0755 $(BIN)/$$program $(DESTDIR)$(BINDIR)/$$program; done
	install -d $(DESTDIR)$(PAGEDIR)
	for file in $(PAGE_FILES); do install -m 0644 Web/$$file $(DESTDIR)$(PAGEDIR)/$$file; done
	for unit in waypointd.service waypointd.socket waypoint-web.service; do \
	    $(UNIT_PATHS) systemd/$$unit > $(DESTDIR)$(UNITDIR)/$$unit && chmod 0644 $(DESTDIR)$(UNITDIR)/$$unit; \
	done
	install -m 0644 systemd/waypointd.sysusers $(DESTDIR)$(SYSUSERSDIR)/waypointd.conf
	install -m 0644 systemd/waypoint-web.sysusers $(DESTDIR)$(SYSUSERSDIR)/waypoint-web.conf
	for conf in waypointd waypoint-web; do \
	    test -e $(DESTDIR)$(CONFDIR)/$$conf.conf || install -m 0644 config/$$conf.conf $(DESTDIR)$(CONFDIR)/$$conf.conf; \
	    install -m 0644 config/$$conf.conf $(DESTDIR)$(DOCDIR)/$$conf.conf; \
	done
	install -m 0644 README.md $(DESTDIR)$(DOCDIR)/README.md

## uninstall: remove the installed files; the config only if it is still the shipped one
uninstall:
	for conf in waypointd waypoint-web; do \
	    if cmp -s config/$$conf.conf $(DESTDIR)$(CONFDIR)/$$conf.conf; then rm -f $(DESTDIR)$(CONFDIR)/$$conf.conf; \
	    elif test -e $(DESTDIR)$(CONFDIR)/$$conf.conf; then echo "uninstall: keeping the edited $(DESTDIR)$(CONFDIR)/$$conf.conf"; fi; \
	done
	rm -f $(addprefix $(DESTDIR),$(filter-out $(CONFDIR)/waypointd.conf $(CONFDIR)/waypoint-web.conf,$(INSTALL_FILES)))
	rmdir $(DESTDIR)$(DOCDIR) $(DESTDIR)$(CONFDIR) $(DESTDIR)$(PAGEDIR) 2>/dev/null || true
	rmdir $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(COMPLETIONDIR) 2>/dev/null || true

## print-install-files: the installed paths, one a line (without DESTDIR)
print-install-files:
	@printf '%s\n' $(INSTALL_FILES)

clean:
	rm -rf .build
