# gdb helpers for the frame-debugger scenarios: the values the program
# must show at each stop, computed here from its inputs the way the kernel
# computes them (not read from the target), and the step/reverse-step
# exactness check.
import gdb, re

def i32(v):
    v &= 0xffffffff
    return v - (1 << 32) if v & 0x80000000 else v

def mix(a, b):
    m = i32(a * 31 + b)
    return m ^ (m >> 3)

def marks(path):
    out = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            m = re.search(r'MARK:([a-z_]+)', line)
            if m:
                out[m.group(1)] = n
    return out

class Expect(gdb.Command):
    """rd-expect: check acc (and m in mix) against the host's computation."""
    def __init__(self):
        super().__init__("rd-expect", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        frame = gdb.selected_frame()
        sal = frame.find_sal()
        mk = marks(sal.symtab.fullname())
        line = sal.line
        if frame.name() == "mix":
            a, b = int(frame.read_var("a")), int(frame.read_var("b"))
            caller = frame.older()
            i = int(caller.read_var("i"))
            inv = int(caller.read_var("in")[i])
            ok = a == inv and b == i
            if line == mk["mix_ret"]:
                ok = ok and int(frame.read_var("m")) == i32(a * 31 + b)
            print("RD-CHECK %s mix line %d a=%d b=%d" % ("OK" if ok else "FAIL", line, a, b))
            return
        i = int(frame.read_var("i"))
        inv = int(frame.read_var("in")[i])
        acc = int(frame.read_var("acc"))
        v = mix(inv, i) + 7
        if line == mk["call"]:
            want = inv
        elif line == mk["add"]:
            want = mix(inv, i)
        elif line in (mk["loop"], mk["body"]):
            # at the loop's first line k may not be set yet: 0 iterations
            k = int(frame.read_var("k"))
            done = k if 0 <= k <= 3 else 0
            vals = [v]
            for kk in range(3):
                vals.append(i32(vals[-1] * 3 + kk))
            want = vals[done]
            if line == mk["loop"] and acc == vals[0]:
                want = vals[0]
        elif line == mk["store"]:
            for kk in range(3):
                v = i32(v * 3 + kk)
            want = v
        else:
            print("RD-CHECK SKIP line %d" % line)
            return
        print("RD-CHECK %s line %d i=%d acc=%d want=%d" % ("OK" if acc == want else "FAIL", line, i, acc, want))

REGS = ["x%d" % n for n in range(1, 32)] + ["pc"] + ["f%d" % n for n in range(32)]

def reg_bits(name):
    # the raw bits, also of float registers ("(raw 0x3f800000)")
    text = gdb.execute("info registers " + name, to_string=True)
    m = re.search(r"raw (0x[0-9a-f]+)", text)
    if m:
        return int(m.group(1), 16)
    return int(gdb.parse_and_eval("$" + name).cast(gdb.lookup_type("unsigned int")))

def snapshot():
    return {r: reg_bits(r) for r in REGS}

class Exact(gdb.Command):
    """rd-exact N: stepi N times, reverse-stepi N times; registers bit for bit."""
    def __init__(self):
        super().__init__("rd-exact", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        n = int(arg)
        before = snapshot()
        pcs = []
        for _ in range(n):
            gdb.execute("stepi", to_string=True)
            pcs.append(int(gdb.parse_and_eval("$pc").cast(gdb.lookup_type("unsigned int"))))
        moved = snapshot() != before
        for _ in range(n):
            gdb.execute("reverse-stepi", to_string=True)
        after = snapshot()
        diff = [r for r in REGS if before[r] != after[r]]
        print("RD-EXACT %s %d steps moved=%s pcs=%s diff=%s" %
              ("OK" if not diff and moved else "FAIL", n, moved, ",".join("%x" % p for p in pcs), diff))

Expect()
Exact()

class PixelCheck(gdb.Command):
    """rd-pixel FILE: at cube_fs's last line, the ws_vec4 it returns
    (stored through its result pointer, kept in a2 by the compiled code;
    gdb's `finish` cannot show it: the callee does not return that
    pointer in a0) against the pixel the replayed frame holds (FILE:
    "r g b a" written by rd_serve), within one unorm8 step."""
    def __init__(self):
        super().__init__("rd-pixel", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        with open(arg.strip()) as f:
            want = [int(v) for v in f.read().split()]
        v = gdb.parse_and_eval("*(float (*)[4])$a2")
        got = [float(v[c]) for c in range(4)]
        unorm = [int(round(min(max(c, 0.0), 1.0) * 255)) for c in got]
        ok = all(abs(a - b) <= 1 for a, b in zip(unorm, want))
        print("RD-PIXEL %s shader %s frame %s" % ("OK" if ok else "FAIL", unorm, want))

PixelCheck()
