#!/usr/bin/env python3
"""`python3 -m unittest discover` that also says where the time went: after the usual report,
each test class's total and the slowest tests (CI runs the grader's own tests through it, so that
a class that grows is seen). Exit status as unittest's: 0 only when every test passed.

  scripts/timed-unittest.py [-s START_DIR] [-p PATTERN] [--slowest N] [NAME ...]

NAMEs (test_worker, test_attacks.Attacks.test_daemon_dies_with_the_test_program) run those
tests only, in the order given, from START_DIR."""

from __future__ import annotations

import argparse
import collections
import sys
import time
import unittest


class TimedResult(unittest.TextTestResult):
    durations: dict[str, float] = {}  # test id -> seconds
    set_ups: dict[str, float] = collections.defaultdict(float)  # class -> seconds between tests
    last_stop = time.monotonic()

    def startTest(self, test):
        self._started = time.monotonic()
        # What ran since the last test ended (a class's setUpClass, the last one's tearDownClass)
        # goes to this test's class.
        TimedResult.set_ups[test.id().rsplit(".", 1)[0]] += self._started - TimedResult.last_stop
        super().startTest(test)

    def stopTest(self, test):
        TimedResult.last_stop = time.monotonic()
        TimedResult.durations[test.id()] = TimedResult.last_stop - self._started
        super().stopTest(test)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-s", "--start-directory", default=".")
    parser.add_argument("-p", "--pattern", default="test*.py")
    parser.add_argument("--slowest", type=int, default=15)
    parser.add_argument("names", nargs="*", help="tests to run instead of discovering them")
    args = parser.parse_args()

    if args.names:
        sys.path.insert(0, args.start_directory)
        suite = unittest.defaultTestLoader.loadTestsFromNames(args.names)
    else:
        suite = unittest.defaultTestLoader.discover(args.start_directory, pattern=args.pattern)
    runner = unittest.TextTestRunner(resultclass=TimedResult, verbosity=1)
    result = runner.run(suite)

    durations = TimedResult.durations
    per_class: dict[str, float] = collections.defaultdict(float, TimedResult.set_ups)
    for test_id, seconds in durations.items():
        per_class[test_id.rsplit(".", 1)[0]] += seconds
    print(f"\ntime per test class ({len(per_class)} classes, {sum(per_class.values()):.0f} s; a "
          "class's set-up counted with it):")
    for name, seconds in sorted(per_class.items(), key=lambda kv: -kv[1]):
        print(f"  {seconds:7.1f} s  {name}")
    print(f"the {min(args.slowest, len(durations))} slowest tests:")
    for test_id, seconds in sorted(durations.items(), key=lambda kv: -kv[1])[:args.slowest]:
        print(f"  {seconds:7.1f} s  {test_id}")
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
