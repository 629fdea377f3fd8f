#!/usr/bin/env python3
"""The button's figures for `make bench` (issue 42), on the release daemon: `waypointd
--simulate` reading a FIFO as its button device, written as the kernel writes an input device
(`struct input_event`, stamped on CLOCK_MONOTONIC, which is Python's time.monotonic on Linux),
measured from outside.

- release -> motor: from the release that completes a gesture to the first non-zero duty the
  daemon writes (its PWM tree is ordinary files here, polled every 0.2 ms). A long press (the
  release completes it; it pauses and resumes guidance by turns, so the pause's confirmation
  waits for the mute's save) and a triple; a single is complete only when the 0.4 s gap after
  its release has passed, so it is timed from the gap's end. Aim: p95 <= 100 ms.
- the same long press while another device floods 10 000 events a second;
- gap's end -> speech start: a single press, through `where` and `status`, to the moment the
  `speech` command (here one that writes a byte to a FIFO) starts.

    scripts/bench/button.py RELEASE_BIN_DIR
"""

import os
import struct
import subprocess
import sys
import tempfile
import threading
import time

EV_SYN, EV_KEY, KEY_ENTER = 0, 1, 28
RECORD = struct.Struct("@llHHi")
GAP_SECONDS = 0.4
PRESSES = 20


def record(seconds, kind, code, value):
    whole = int(seconds)
    return RECORD.pack(whole, int((seconds - whole) * 1e6), kind, code, value)


def key(seconds, down):
    return record(seconds, EV_KEY, KEY_ENTER, 1 if down else 0) + record(seconds, EV_SYN, 0, 0)


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Bench:
    def __init__(self, binaries, work):
        self.work = work
        self.button = os.path.join(work, "event0")
        self.flood = os.path.join(work, "event1")
        self.spoke = os.path.join(work, "spoke")
        for path in (self.button, self.flood, self.spoke):
            os.mkfifo(path)
        config = os.path.join(work, "waypointd.conf")
        with open(config, "w") as file:
            file.write(f"button {self.button}, {self.flood}\n")
            # The command's start is the byte on the FIFO; the sentence itself is read and dropped.
            file.write(f"speech printf x > {self.spoke}; cat > /dev/null\n")
        state = os.path.join(work, "state")
        self.log = open(os.path.join(work, "daemon.log"), "w")
        self.daemon = subprocess.Popen(
            [os.path.join(binaries, "waypointd"), "--simulate", "--config", config, "--state-dir", state,
             "--socket", os.path.join(work, "control.sock")], stdout=self.log, stderr=self.log)
        self.duty = os.path.join(state, "simulated-sysfs/sys/class/pwm/pwmchip0/pwm0/duty_cycle")
        self.writer = self.open_writer(self.button)
        self.flood_writer = self.open_writer(self.flood)
        # Kept open for reading (non-blocking) so the speech command's writes never block.
        self.spoke_reader = os.open(self.spoke, os.O_RDONLY | os.O_NONBLOCK)
        time.sleep(2)

    def open_writer(self, path):
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                return os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:
                time.sleep(0.05)
        raise SystemExit(f"the daemon never opened {path}")

    def duty_is_on(self):
        try:
            with open(self.duty) as file:
                text = file.read().strip()
            return text not in ("", "0")
        except OSError:
            return False

    def wait_quiet(self):
        """Until the motor has been off for 0.3 s (the last pattern played out)."""
        quiet_since = time.monotonic()
        while time.monotonic() - quiet_since < 0.3:
            if self.duty_is_on():
                quiet_since = time.monotonic()
            time.sleep(0.005)

    def motor_after(self, start, limit=2.0):
        """Seconds from `start` to the first non-zero duty, or None."""
        while time.monotonic() - start < limit:
            if self.duty_is_on():
                return time.monotonic() - start
            time.sleep(0.0002)
        return None

    def press(self, holds):
        """Writes the presses (held for `holds` seconds each, 0.15 s apart) as they happen;
        returns the last release's time."""
        for index, hold in enumerate(holds):
            if index:
                time.sleep(0.15)
            pressed = time.monotonic()
            os.write(self.writer, key(pressed, True))
            time.sleep(hold)
            released = time.monotonic()
            os.write(self.writer, key(released, False))
        return released

    def release_to_motor(self, holds, after_release=0.0):
        samples = []
        for _ in range(PRESSES):
            self.wait_quiet()
            released = self.press(holds)
            latency = self.motor_after(released + after_release)
            if latency is not None:
                samples.append(latency * 1000)
            time.sleep(0.6)
        return samples

    def speech_start(self):
        samples = []
        for _ in range(PRESSES):
            self.wait_quiet()
            while True:  # Whatever an earlier sentence wrote.
                try:
                    if not os.read(self.spoke_reader, 64):
                        break
                except BlockingIOError:
                    break
            released = self.press([0.08])
            start = released + GAP_SECONDS
            # With no writer the FIFO reads as its end (b""), which select calls ready: poll
            # for the byte itself.
            while time.monotonic() - start < 3:
                try:
                    if os.read(self.spoke_reader, 64):
                        samples.append((time.monotonic() - start) * 1000)
                        break
                except BlockingIOError:
                    pass
                time.sleep(0.0002)
            time.sleep(0.8)
        return samples

    def flooding(self, stop):
        """10 000 records a second of another key until `stop` is set."""
        chunk_start = time.monotonic()
        sent = 0
        while not stop.is_set():
            now = time.monotonic()
            batch = b"".join(record(now, EV_KEY, 30 + index % 10, index % 2) for index in range(10))
            try:
                os.write(self.flood_writer, batch)
                sent += 10
            except BlockingIOError:
                pass
            due = chunk_start + sent / 10000
            if due > time.monotonic():
                time.sleep(due - time.monotonic())
        return sent

    def close(self):
        self.daemon.terminate()
        self.daemon.wait(timeout=10)
        for descriptor in (self.writer, self.flood_writer, self.spoke_reader):
            os.close(descriptor)


def row(name, samples, what):
    if not samples:
        return (name, "-", f"ms ({what}: no sample)")
    return (name, f"{percentile(samples, 0.95):.1f}",
            f"ms p95, p50 {percentile(samples, 0.5):.1f}, max {max(samples):.1f}, n {len(samples)} ({what}; aim p95 <= 100)")


def main():
    binaries = sys.argv[1]
    rows = []
    with tempfile.TemporaryDirectory(prefix="button-bench-") as work:
        bench = Bench(binaries, work)
        try:
            rows.append(row("button.single.gap_to_speech", bench.speech_start(), "a single press to the speech command's start"))
            rows.append(row("button.long.release_to_motor", bench.release_to_motor([1.0]), "a long press, pausing and resuming by turns"))
            rows.append(row("button.triple.release_to_motor", bench.release_to_motor([0.08, 0.08, 0.08]), "a triple press"))
            rows.append(row("button.single.gap_to_motor", bench.release_to_motor([0.08], after_release=GAP_SECONDS),
                            "a single press, from the end of the 0.4 s gap"))
            stop = threading.Event()
            flood = threading.Thread(target=bench.flooding, args=(stop,))
            flood.start()
            try:
                rows.append(row("button.long.release_to_motor.flood", bench.release_to_motor([1.0]),
                                "a long press while another device sends 10 000 events a second"))
            finally:
                stop.set()
                flood.join()
        finally:
            bench.close()
    for line in rows:
        print(" ".join(str(part) for part in line))


if __name__ == "__main__":
    main()
