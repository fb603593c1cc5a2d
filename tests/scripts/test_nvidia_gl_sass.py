"""scripts/nvidia_gl_sass.py's reading of nvdisasm's text: every instruction counted, past address
0xfff0 too (the twenty-eighth session's counts stopped at 4 096), predicates dropped, the global
accesses told apart by their modifiers."""
import unittest

import nvidia_gl_sass


def nvdisasm_line(address, text):
    # nvdisasm -b SM90: the address in at least 4 hex digits, then the instruction.
    return f"        /*{address:04x}*/                   {text} ;"


class Opcodes(unittest.TestCase):
    def program(self, count):
        lines = ["\t.text.", "        .headerflags    @\"EF_CUDA_SM90\""]
        for i in range(count):
            text = ("@!P0 LDG.E.64.STRONG.SM R2, [R6.U32+UR6]" if i % 100 == 0 else
                    "@!UP1 STG.E.64.STRONG.SM [R4.U32+UR8], R2" if i % 100 == 1 else
                    "@PT BAR.SYNC 0x0" if i % 100 == 2 else "FFMA R0, R1, R2, R3")
            lines.append(nvdisasm_line(16 * i, text))
        return "\n".join(lines) + "\n"

    def test_counts_every_instruction_past_4096(self):
        ops = nvidia_gl_sass.opcodes(self.program(4300))
        self.assertEqual(len(ops), 4300)
        self.assertEqual(ops.count("LDG.E.64.STRONG.SM"), 43)
        self.assertEqual(ops.count("STG.E.64.STRONG.SM"), 43)
        self.assertEqual(ops.count("BAR.SYNC"), 43)

    def test_summary_names_the_accesses(self):
        line = nvidia_gl_sass.summary("p_5", 128, nvidia_gl_sass.opcodes(self.program(4300)))
        self.assertTrue(line.startswith("p_5: 4300 instructions, 128 registers, BAR 43,"), line)
        self.assertIn("LDG.E.64.STRONG.SM 43", line)
        self.assertIn("STG.E.64.STRONG.SM 43", line)

    def test_encoding_comments_are_not_instructions(self):
        # cuobjdump's form carries the encoding as a second comment on the line.
        text = "        /*0ad0*/  LDG.E.64.CONSTANT R4, desc[UR6][R4.64] ;  /* 0x0000000604047981 */\n"
        self.assertEqual(nvidia_gl_sass.opcodes(text), ["LDG.E.64.CONSTANT"])


if __name__ == "__main__":
    unittest.main()
