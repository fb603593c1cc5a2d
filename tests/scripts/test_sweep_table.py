"""scripts/sweep_table.py's merge: a run's entries replace the same (implementation, size); with a
run label, the references that another labeled call timed beside its own API's entries stay,
and those no entry needs any more go; the file is written whole and the table divides by the
references of each entry's own call."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import sweep_table

SCRIPT = os.path.join(os.path.dirname(sweep_table.__file__), "sweep_table.py")


def entry(impl, us, run=None, size=1024):
    e = {"implementation": impl, "width": size, "height": size, "median_us": us, "available": True,
         "bandwidth_gbs": 1.0, "gflops": 1.0, "rel_error": 1e-7}
    if run:
        e["run"] = run
    return e


def picked(entries):
    return sorted((e["implementation"], e.get("run"), e["median_us"]) for e in entries)


class Merge(unittest.TestCase):
    def test_without_a_label_the_run_replaces_every_entry_of_its_key(self):
        base = [entry("cufft", 20.0, "a"), entry("cufft", 21.0, "b"), entry("fftscope-gl-fast", 30.0),
                entry("clfft", 50.0)]
        merged = sweep_table.merge(base, [entry("cufft", 16.0), entry("fftscope-gl-fast", 19.0)])
        self.assertEqual(picked(merged), [("clfft", None, 50.0), ("cufft", None, 16.0),
                                          ("fftscope-gl-fast", None, 19.0)])

    def test_a_labeled_run_keeps_the_other_calls_references(self):
        base = [entry("cufft", 20.0), entry("clfft", 50.0), entry("fftscope-cl-fast", 24.0),
                entry("fftscope-gl-fast", 30.0)]
        cl = sweep_table.merge(base, [entry("cufft", 21.0), entry("fftscope-cl-fast", 23.0)], "cl-call")
        both = sweep_table.merge(cl, [entry("cufft", 16.0), entry("fftscope-gl-fast", 19.0)], "gl-call")
        self.assertEqual(picked(both), [("clfft", None, 50.0), ("cufft", "cl-call", 21.0), ("cufft", "gl-call", 16.0),
                                        ("fftscope-cl-fast", "cl-call", 23.0), ("fftscope-gl-fast", "gl-call", 19.0)])

    def test_a_reference_whose_call_has_no_entry_left_is_dropped(self):
        both = [entry("cufft", 21.0, "cl-call"), entry("fftscope-cl-fast", 23.0, "cl-call"),
                entry("cufft", 16.0, "gl-call"), entry("fftscope-gl-fast", 19.0, "gl-call")]
        # A later call times both APIs: the two earlier calls' references serve nothing.
        merged = sweep_table.merge(both, [entry("cufft", 17.0), entry("fftscope-cl-fast", 22.0),
                                          entry("fftscope-gl-fast", 18.0)], "new")
        self.assertEqual(picked(merged), [("cufft", "new", 17.0), ("fftscope-cl-fast", "new", 22.0),
                                          ("fftscope-gl-fast", "new", 18.0)])
        # The same call's references measured again replace its own, not the other call's.
        again = sweep_table.merge(both, [entry("cufft", 15.0), entry("fftscope-gl-fast", 18.5)], "gl-call")
        self.assertEqual(picked(again), [("cufft", "cl-call", 21.0), ("cufft", "gl-call", 15.0),
                                         ("fftscope-cl-fast", "cl-call", 23.0), ("fftscope-gl-fast", "gl-call", 18.5)])


class CommandLine(unittest.TestCase):
    def run_script(self, *args):
        return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)

    def test_usage_and_the_table_against_each_calls_cufft(self):
        self.assertEqual(self.run_script().returncode, 2)
        with tempfile.TemporaryDirectory() as d:
            paths = [os.path.join(d, n) for n in ("base.json", "run.json", "out.json")]
            for path, entries in zip(paths, ([entry("cufft", 20.0, "cl-call"), entry("fftscope-cl-fast", 24.0, "cl-call")],
                                             [entry("cufft", 16.0), entry("fftscope-gl-fast", 20.0)])):
                with open(path, "w") as f:
                    json.dump({"entries": entries}, f)
            result = self.run_script(*paths, "gl-call")
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(paths[2]) as f:
                self.assertEqual(len(json.load(f)["entries"]), 4)
            self.assertFalse(os.path.exists(paths[2] + ".tmp"))
            lines = {line.split()[1]: line.split() for line in result.stdout.splitlines()[1:]}
            self.assertEqual(lines["fftscope-cl-fast"][5], "1.20")  # 24 / its own call's 20
            self.assertEqual(lines["fftscope-gl-fast"][5], "1.25")  # 20 / its own call's 16
            self.assertEqual(lines["fftscope-gl-fast"][-1], "gl-call")


if __name__ == "__main__":
    unittest.main()
