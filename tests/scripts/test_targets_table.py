"""scripts/targets_table.py's verdicts on a made-up sweep whose ratios are known: each target's
line (at or under, strictly under for "faster than"), three decimals where two would round a
miss onto its line, sizes without an entry named, unavailable entries left out (and named where the reference had
no plan)."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import targets_table

SCRIPT = os.path.join(os.path.dirname(targets_table.__file__), "targets_table.py")


def entry(impl, w, h, us, available=True):
    return {"implementation": impl, "width": w, "height": h, "median_us": us, "available": available}


SWEEP = {
    "copy_bandwidth_gbs": 1000,
    "entries": [
        entry("cufft", 4096, 4096, 100.0), entry("fftscope-cl-fast", 4096, 4096, 85.0),
        entry("fftscope-gl-fast", 4096, 4096, 120.1), entry("vkfft-opencl", 4096, 4096, 110.0),
        entry("opencl-copy", 4096, 4096, 65.4),
        entry("cufft", 256, 256, 10.0), entry("fftscope-cl-fast", 256, 256, 12.5),
        entry("fftscope-gl-fast", 256, 256, 11.9), entry("vkfft-opencl", 256, 256, 20.0),
        entry("cufft-r2c-display", 256, 256, 20.0), entry("fftscope-cl-display", 256, 256, 15.0),
        entry("fftscope-gl-display", 256, 256, 15.2),
        entry("cufft", 512, 512, 15.0), entry("fftscope-gl-fast", 512, 512, 16.0), entry("vkfft-opencl", 512, 512, 16.0),
        entry("fftscope-cl-fast", 512, 512, 14.0),
        entry("cufft", 1920, 1080, 40.0), entry("fftscope-gl-fast", 1920, 1080, 30.0),
        # A library that refused the size: never a reference.
        entry("clfft", 1920, 1080, 0.0, available=False),
    ],
}


def rows(text):
    return {line.split(" | ")[0].lstrip("| "): line for line in text.splitlines() if line.startswith("| ")}


class Targets(unittest.TestCase):
    def setUp(self):
        self.sweep = targets_table.Sweep(SWEEP)
        self.rows = rows(targets_table.targets(self.sweep))

    def cells(self, target):
        return [c.strip() for c in self.rows[target].strip("| ").split(" | ")[1:]]

    def test_4096_against_cufft_and_two_copies(self):
        self.assertEqual(self.cells("4096² ≤ 1.0× cuFFT"), ["✓ 85.0 µs, 0.85×", "✗ 120.1 µs, 1.20×"])
        # Two copies of the run: 130.8 us; two passes at 1 000 GB/s: 4 * 4096^2 * 8 B = 536.9 us.
        cl, gl = self.cells("4096² within 1.3× of two copy passes")
        self.assertEqual(cl, "✓ 0.65× of the run's copies; ✓ 0.16× at 1 000 GB/s")
        self.assertEqual(gl, "✓ 0.92× of the run's copies; ✓ 0.22× at 1 000 GB/s")

    def test_a_miss_just_over_the_line_shows_three_decimals(self):
        cl, gl = self.cells("every sweep size ≤ 1.2× cuFFT")
        self.assertEqual(cl, "✗ at 256² (1.25×); not measured at 1920×1080")  # cuFFT only there
        self.assertEqual(gl, "✗ at 4096² (1.201×)")

    def test_faster_than_means_strictly_and_names_sizes_without_the_reference(self):
        cl, gl = self.cells("every sweep size faster than VkFFT (OpenCL)")
        self.assertEqual(cl, "✓ (at most 0.88×, at 512²)")
        self.assertEqual(gl, "✗ at 512² (1.00×), 4096² (1.09×); not measured at 1920×1080")

    def test_a_ratio_on_an_at_most_line_meets_it(self):
        cl, gl = self.cells("real image → display ≤ 0.75× cuFFT's R2C + display")
        self.assertEqual(cl, "✓ (at most 0.75×, at 256²)")
        self.assertEqual(gl, "✗ at 256² (0.76×)")

    def test_a_reference_with_no_available_entry_is_not_in_the_run(self):
        self.assertEqual(self.cells("every sweep size faster than clFFT"), ["not in this run", "not in this run"])

    def test_a_size_the_reference_has_no_plan_for_is_named_as_such(self):
        doc = json.loads(json.dumps(SWEEP))
        doc["entries"].append(entry("clfft", 4096, 4096, 400.0))
        cl, gl = [c.strip() for c in rows(targets_table.targets(targets_table.Sweep(doc)))[
            "every sweep size faster than clFFT"].strip("| ").split(" | ")[1:]]
        # No CL entry at 1920 x 1080: nothing to name there.
        self.assertEqual(cl, "✓ (at most 0.21×, at 4096²); not measured at 256², 512²")
        self.assertEqual(gl, "✓ (at most 0.30×, at 4096²); not measured at 256², 512²; clFFT has no plan at 1920×1080")

    def test_side_by_side_rows_in_size_order_with_missing_cells(self):
        table = targets_table.side_by_side(self.sweep).splitlines()
        self.assertEqual([line.split(" | ")[0] for line in table[2:]], ["| 256²", "| 512²", "| 1920×1080", "| 4096²"])
        self.assertEqual(table[-1], "| 4096² | 100.0 | 130.8 | 110.0 | 85.0 (0.85×, 0.77×) | 120.1 (1.201×, 1.09×) | – | – | – |")
        self.assertEqual(table[-2], "| 1920×1080 | 40.0 | – | – | – | 30.0 (0.75×) | – | – | – |")


class SideBySideByCall(unittest.TestCase):
    """Each API timed in its own call: every ratio against that call's references."""

    def setUp(self):
        def at(run, impl, us):
            return dict(entry(impl, 1024, 1024, us), run=run)

        self.sweep = targets_table.Sweep({"entries": [
            at("cl-call", "cufft", 20.0), at("cl-call", "vkfft-opencl", 25.0), at("cl-call", "fftscope-cl-fast", 24.0),
            at("cl-call", "cufft-r2c-display", 30.0), at("cl-call", "fftscope-cl-display", 22.0),
            at("gl-call", "cufft", 16.0), at("gl-call", "vkfft-opencl", 25.0), at("gl-call", "fftscope-gl-fast", 19.0),
            at("gl-call", "cufft-r2c-display", 24.0), at("gl-call", "fftscope-gl-display", 18.6),
            entry("clfft", 1024, 1024, 50.0),  # unlabeled: an earlier call's, shared by both
        ]})

    def test_ratios_use_the_own_calls_references_and_cells_show_both(self):
        row = targets_table.side_by_side(self.sweep).splitlines()[-1]
        # CL 24 / 20 = 1.20 (on the line), GL 19 / 16 = 1.19; against the other call's cuFFT they
        # would read 1.50 and 0.95. VkFFT read alike in both calls: one value.
        self.assertEqual(row, "| 1024² | 20.0 / 16.0 | – | 25.0 | 24.0 (1.20×, 0.96×) | 19.0 (1.19×, 0.76×) "
                              "| 30.0 / 24.0 | 22.0 (0.73×) | 18.6 (0.78×) |")

    def test_verdicts_use_the_own_calls_references(self):
        found = rows(targets_table.targets(self.sweep))
        cells = {name: [c.strip() for c in line.strip("| ").split(" | ")[1:]] for name, line in found.items()}
        self.assertEqual(cells["every sweep size ≤ 1.2× cuFFT"], ["✓ (at most 1.20×, at 1024²)",
                                                                 "✓ (at most 1.19×, at 1024²)"])
        self.assertEqual(cells["real image → display ≤ 0.75× cuFFT's R2C + display"],
                         ["✓ (at most 0.73×, at 1024²)", "✗ at 1024² (0.78×)"])
        self.assertEqual(cells["every sweep size faster than clFFT"], ["✓ (at most 0.48×, at 1024²)",
                                                                      "✓ (at most 0.38×, at 1024²)"])


class CommandLine(unittest.TestCase):
    def run_script(self, *args):
        return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)

    def test_usage_and_bad_input_exit_codes(self):
        self.assertEqual(self.run_script().returncode, 2)
        with tempfile.TemporaryDirectory() as d:
            bad = os.path.join(d, "bad.json")
            with open(bad, "w") as f:
                f.write("{not json")
            result = self.run_script(bad)
            self.assertEqual(result.returncode, 3)
            self.assertEqual(len(result.stderr.strip().splitlines()), 1)
            good = os.path.join(d, "sweep.json")
            with open(good, "w") as f:
                json.dump(SWEEP, f)
            result = self.run_script(good)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn("✓ met, ✗ not:", result.stdout)


if __name__ == "__main__":
    unittest.main()
