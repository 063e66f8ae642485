"""Self-test of the doc-example extractor and runner, so that the docs test can fail.

The extractor is checked on fixtures/extract.md (marked, unmarked, continued, skipped,
grouped and refused commands) and on markers it must refuse; the runner is run on
fixtures/tree/README.md against fixtures/fake_fluxview.py, whose outputs are made to miss
what the commands claim, and must report exactly the failures that were planted.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from doc_examples import DocTestError, extract, strip_comment, substitute_args  # noqa: E402

FIXTURES = os.path.join(HERE, "fixtures")


def extracted(name="extract.md"):
    with open(os.path.join(FIXTURES, name), encoding="utf-8") as f:
        return extract(name, f.read())


class ExtractorTest(unittest.TestCase):
    def test_commands_lines_and_text(self):
        got = [(e.line, e.written) for e in extracted()]
        self.assertEqual(got, [
            (6, "fluxview list"),
            (7, "fluxview run heat/hot-spot --set grid.n=96 --steps 400 --output out/a"),
            (11, "mpirun -np 4 fluxview run fv/sedov --set grid.n=256 --output 'out/#not a comment'"),
            (18, "fluxview run heat/hot-wall --set grid.n=128 --set heat.alpha=2 --output out/hw"),
            (19, "fluxview bench fv/sedov --backend cuda"),
            (20, "fluxview"),
            (28, 'fluxview run fv/sod --set fv.axis=y --output "out/with space"'),
            (39, "fluxview run fv/sedov --checkpoint-every 1 --output out/s"),
            (45, "fluxview run --restart out/s/checkpoint_000001.h5 --output out/s2"),
            (46, "fluxview run --restart out/s/checkpoint_000001.h5 --output out/s3"),
        ])

    def test_unmarked_commands_run_as_written(self):
        ex = extracted()
        for e in ex[:3]:
            self.assertIsNone(e.skip)
            self.assertIsNone(e.xfail)
            self.assertEqual(e.exit, 0)
            self.assertEqual(e.command(), e.written)

    def test_args_replace_options_and_keys_and_append_the_rest(self):
        hot_wall = extracted()[3]
        self.assertEqual(hot_wall.command(),
                         "fluxview run heat/hot-wall --set grid.n=8 --set heat.alpha=2 "
                         "--output out/hw --steps 3 --every 1")
        self.assertEqual(hot_wall.files, ["out/hw/snapshot_*.vti"])
        self.assertIsNone(hot_wall.skip)

    def test_selector_picks_its_command_only(self):
        ex = extracted()
        self.assertEqual(ex[4].skip, "needs an NVIDIA GPU")
        self.assertEqual(ex[4].args, [])
        self.assertIsNone(ex[3].skip)

    def test_a_selector_equal_to_a_command_picks_only_that_one(self):
        ex = extracted()
        self.assertEqual(ex[5].command(), "env -u DISPLAY fluxview")
        self.assertEqual([e.run for e in ex[:5]], [None] * 5)

    def test_multi_line_marker_applies_to_the_whole_block(self):
        sod = extracted()[6]
        self.assertEqual((sod.exit, sod.output, sod.timeout), (2, ["fv.axis = y"], 30.0))
        self.assertEqual(sod.command(), sod.written)

    def test_groups_xfail_and_whole_replacement(self):
        ex = extracted()
        self.assertEqual([e.group for e in ex[7:]], ["restart"] * 3)
        self.assertIsNone(ex[7].xfail)
        self.assertEqual([ex[8].xfail, ex[9].xfail], ["a known bug"] * 2)
        self.assertEqual(ex[9].command(),
                         "fluxview run --restart out/s/checkpoint_000001.h5 --steps 1 --output out/s3")
        self.assertEqual(ex[8].command(), ex[8].written)

    def test_comment_stripping_respects_quotes_and_words(self):
        self.assertEqual(strip_comment("a b # c"), "a b")
        self.assertEqual(strip_comment("a 'b # c'"), "a 'b # c'")
        self.assertEqual(strip_comment('a "#b" c#d # e'), 'a "#b" c#d')

    def test_substitution_of_flags_values_and_keys(self):
        words = ["mpirun", "-np", "4", "fluxview", "run", "x", "--set", "grid.n=256", "--headless"]
        self.assertEqual(substitute_args(words, ["-np", "2", "--set", "grid.n=16", "--headless", "--steps", "5"]),
                         ["mpirun", "-np", "2", "fluxview", "run", "x", "--set", "grid.n=16", "--headless",
                          "--steps", "5"])

    def refused(self, text):
        with self.assertRaises(DocTestError) as ctx:
            extract("bad.md", text)
        return str(ctx.exception)

    def test_bad_markers_are_refused_with_file_and_line(self):
        block = "```sh\nfluxview list\n```\n"
        self.assertRegex(self.refused("<!-- doc-test: skipp: typo -->\n" + block),
                         r"^bad.md:1: .*unknown directive 'skipp'")
        self.assertRegex(self.refused("\n<!-- doc-test `bench`: skip: x -->\n" + block),
                         r"^bad.md:2: .*`bench` matches no command")
        self.assertRegex(self.refused("<!-- doc-test: skip: x -->\nSome text.\n" + block),
                         r"^bad.md:1: .*not followed by a code block")
        self.assertRegex(self.refused("<!-- doc-test: skip: x -->\n```python\nx = 1\n```\n"),
                         r"not read")
        self.assertRegex(self.refused("<!-- doc-test: exit: two -->\n" + block), r"doc-test exit")
        self.assertRegex(self.refused("<!-- doc-test: args: grid.n=16 -->\n" + block), r"not an option")
        self.assertRegex(self.refused("<!-- doc-test: skip -->\n" + block), r"needs a value")
        self.assertRegex(self.refused("<!-- doc-test: same: a.vti -->\n" + block), r"names two files")
        self.assertRegex(self.refused("<!-- doc-test\nskip: x\n" + block), r"not closed")
        self.assertRegex(self.refused(block + "<!-- doc-test: skip: x -->\n"), r"not followed by a code block")


class RunnerTest(unittest.TestCase):
    """The runner against a fake fluxview whose outputs miss what some commands claim."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="doc-examples-selftest-")
        bin_dir = os.path.join(cls.tmp, "bin")
        os.makedirs(bin_dir)
        fake = os.path.join(bin_dir, "fluxview")
        shutil.copy(os.path.join(FIXTURES, "fake_fluxview.py"), fake)
        os.chmod(fake, 0o755)
        r = subprocess.run([sys.executable, os.path.join(HERE, "run_doc_examples.py"), "--fluxview", fake,
                            "--source", os.path.join(FIXTURES, "tree"), "--work", os.path.join(cls.tmp, "work"),
                            "--jobs", "2", "README.md"], capture_output=True, text=True, timeout=120)
        cls.code, cls.out = r.returncode, r.stdout + r.stderr

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def failures(self):
        return sorted(set(int(n) for n in re.findall(r"^  FAIL README.md:(\d+):", self.out, re.M)))

    def test_exactly_the_planted_failures_fail(self):
        self.assertEqual(self.code, 1, self.out)
        self.assertIn("10 passed, 1 xfail, 1 skipped, 8 failed", self.out)
        self.assertEqual(self.failures(), [6, 8, 17, 28, 31, 32, 33, 34], self.out)

    def test_each_failure_says_why(self):
        for why in ["out/n/run.json was not written",
                    "a frame in out/p/frames is not a PNG",
                    "refused with exit code 2 but out/w was created",
                    "did not finish within 1 s",
                    "marked xfail (was broken once) but passes now",
                    "no file matches out/missing.csv",
                    "'a phrase that is not printed' is not in the output",
                    "assets/note.txt and d.txt differ"]:
            self.assertIn(why, self.out)

    def test_a_failure_names_file_line_command_exit_code_and_output(self):
        block = self.out[self.out.index("FAIL README.md:6:"):]
        self.assertRegex(block, r"^FAIL README.md:6: fluxview run no-run-json --output out/n\n"
                                r"  exit code: 0 \(expected 0\)\n")
        self.assertIn("      | fluxview: output in out/n", block)

    def test_skipped_commands_are_listed_with_their_reason(self):
        self.assertIn("README.md:29: fluxview run needs-gpu --backend cuda\n      because: needs an NVIDIA GPU",
                      self.out)

    def test_a_lost_display_is_tried_again_and_reported(self):
        self.assertIn("retry README.md:11: ParaView lost its X display", self.out)
        self.assertRegex(self.out, r"ok    README.md:11 .*flaky-display")
        self.assertIn("retried after ParaView lost its X display (1): README.md:11", self.out)

    def test_passing_examples_leave_no_directory(self):
        left = sorted(d for d in os.listdir(os.path.join(self.tmp, "work")) if not d.startswith("."))
        self.assertEqual(len(left), 8, left)  # one per failed example, kept to look at


if __name__ == "__main__":
    unittest.main()
