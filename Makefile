# The two commands a table or a developer needs (both work on a fresh Debian 12 or 13 / Raspberry Pi
# OS machine with only Python 3.11+ and apt):
#   make run   - set everything up and start the touchscreen app (simulated hardware off the Pi)
#   make test  - set everything up and run the whole test suite (lint, types, tests)
# Measuring, by hand:
#   make bench - measure the performance ratios (benchmarks/bench.py; BENCH_ARGS="--dir /mnt/sd" etc.)

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
# Debian packages (trixie renamed some libraries, e.g. libzbar0t64, which apt picks for the old
# name; the check accepts either): venv support, Kivy under X/Xvfb, the browser for the phone-page tests,
# the QR decoder the tests use, systemd-analyze for the deploy/ unit checks, tmux for the
# command-line test in a real terminal, iproute2 (ip) for the boot test's network namespace, and the
# table's voice (espeak-ng, ALSA's aplay), and fuse3 (libfuse3, fusermount3) for the power-cut test's
# forgetting file system.
APT_PACKAGES := python3-venv xvfb libgl1-mesa-dri libegl1 libmtdev1 chromium libzbar0 xdotool systemd tmux iproute2 espeak-ng alsa-utils fuse3

.PHONY: run test bench apt venv lint clean pi-check pi-boot bench-ai lock power-cut

apt:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$p $${p}t64 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo"; \
	  else echo "missing Debian packages:$$missing (run as root to install them)"; exit 1; fi; \
	  echo "installing Debian packages:$$missing"; \
	  $$SUDO deploy/apt-get-waiting update -qq && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive deploy/apt-get-waiting install -y -qq $$missing; \
	fi

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $@

venv: $(VENV)/.installed

lint: venv
	$(PY) -m ruff check companion hardware ui tests benchmarks
	$(PY) -m ruff format --check companion hardware ui tests benchmarks
	$(PY) -m mypy companion hardware ui

# The test files run in parallel, one worker per core up to 4 (each UI and browser test starts its
# own Xvfb display, app process and browser); the slowest tests are listed at the end. Every test's
# outcome, with the failures' messages and output, stays in artifacts/test-report.xml (JUnit XML),
# so a red run names its tests after the terminal is gone.
test: apt venv lint
	$(PY) -m pytest -n auto --maxprocesses=4 --dist loadfile --durations=15 --junitxml=artifacts/test-report.xml

bench: apt venv
	$(PY) benchmarks/bench.py $(BENCH_ARGS)

run: apt venv
	$(VENV)/bin/companion

# Pull the plug, not the process: `companion serve` on a file system that forgets what was not
# flushed, phones playing the three games, 300 power cuts (about 20 minutes; 30 of them run in
# `make test`). Its last line: power cuts: N, acked actions: A, lost: L, corrupt: C, failed starts: F.
# Options through POWER_CUT_ARGS, e.g. make power-cut POWER_CUT_ARGS="--cuts 50 --keep /tmp/cuts".
power-cut: apt venv
	$(PY) tests/powercut/evening.py --cuts 300 $(POWER_CUT_ARGS)

# The Pi appliance checked on emulated Debian arm64 systems of both releases, bookworm and trixie
# (slow: about an hour from fresh roots; not part of `make test`): the real installer, then the
# installed app as the service user under an arm64 Xvfb. See deploy/README.md. Options through
# PI_CHECK_ARGS, e.g. make pi-check PI_CHECK_ARGS="--release trixie --fresh".
pi-check:
	@if [ "$$(id -u)" = 0 ]; then deploy/check-arm64.sh $(PI_CHECK_ARGS); else sudo deploy/check-arm64.sh $(PI_CHECK_ARGS); fi

# The real boot (slow; not part of `make test`): a whole emulated arm64 machine per release, booted
# by its kernel and systemd, the README's Pi steps inside it, then the table on its KMS/DRM display,
# touch through evdev, a phone, speech, the watchdog, power cuts and a late network. See
# deploy/README.md. Options through PI_BOOT_ARGS, e.g. make pi-boot PI_BOOT_ARGS="--release trixie".
pi-boot: venv
	@if [ "$$(id -u)" = 0 ]; then $(PY) deploy/pi_boot.py $(PI_BOOT_ARGS); else sudo $(PY) deploy/pi_boot.py $(PI_BOOT_ARGS); fi

# The installer's pinned Python packages with their hashes (deploy/requirements/), for Python 3.11
# (bookworm) and 3.13 (trixie) on aarch64 (a Pi) and x86_64, from pyproject.toml's dependencies.
lock: venv
	$(PY) -m pip install -q uv
	@for py in 3.11 3.13; do for arch in aarch64 x86_64; do \
	  $(VENV)/bin/uv pip compile pyproject.toml --python-platform $$arch-unknown-linux-gnu --python-version $$py \
	    --generate-hashes --no-annotate --custom-compile-command "make lock" --quiet \
	    -o deploy/requirements/py$$py-$$arch.txt || exit 1; \
	done; done

# The Mister X AI against detective teams, 1,000 seeded games per pairing on 2 worker processes
# (long: about an hour). Pass options with BENCH_AI_ARGS, e.g. make bench-ai BENCH_AI_ARGS="--games 100 --x hard";
# --pi-speed also times the AI's decisions on a cgroup-capped core calibrated to a Raspberry Pi 4 (root). See docs/ai.md.
bench-ai: venv
	$(PY) benchmarks/bench_ai.py $(BENCH_AI_ARGS)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
