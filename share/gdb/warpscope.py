# gdb commands for Warpscope's gdb server. Load with
#   (gdb) source share/gdb/warpscope.py
# ws-focus block X [Y [Z]] thread X [Y [Z]]
#   Select the thread that runs those block and thread coordinates and show
#   its frame. With a gdb thread per lane (the default) that is the lane's
#   thread; with a gdb thread per warp (WARPSCOPE_DEBUG threads=warp) the
#   lane becomes its warp's focus, and gdb's register cache is flushed so
#   registers, locals and the frame are read again from the new lane.
import re
import gdb


class WarpscopeFocus(gdb.Command):
    """Select the thread running block X [Y [Z]] thread X [Y [Z]]."""

    def __init__(self):
        super().__init__("ws-focus", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        reply = gdb.execute("monitor focus " + arg, to_string=True)
        found = re.search(r"is (?:lane \d+ of )?target thread (\d+)", reply)
        if not found:
            raise gdb.GdbError(reply.strip() or "monitor focus gave no answer")
        tid = int(found.group(1))
        thread = next((t for t in gdb.selected_inferior().threads() if t.ptid[1] == tid), None)
        if thread is None:
            raise gdb.GdbError("gdb does not list target thread %d yet (try `info threads`)" % tid)
        thread.switch()
        gdb.execute("maintenance flush register-cache", to_string=True)
        gdb.write("[Switching to thread %d (Thread %d): %s]\n" % (thread.num, tid, reply.split(" is ")[0]))
        gdb.execute("frame")


WarpscopeFocus()
