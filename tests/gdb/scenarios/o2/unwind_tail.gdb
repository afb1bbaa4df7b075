# Stopped at the jump of a tail call (`addi sp` done, `auipc t1; jr t1`
# to go): bt names the right caller, and finish from there comes back to
# it when the tail-called function returns (docs/toolchain.md, "Epilogue
# CFI"). -O2 only: at -O0 clang makes no tail call.
# mode: chain
set breakpoint pending on
break gdb_kernels.c:@MARK_chain_tail@ if $thread_x == 5
continue
delete
python [gdb.execute("stepi", to_string=True) for _ in range(300) if not (gdb.selected_frame().name() == "chain_mid" and gdb.selected_frame().architecture().disassemble(gdb.selected_frame().pc())[0]["asm"].startswith("jr"))]
x/i $pc
bt
finish
printf "AFTER %d\n", $thread_x
continue
# expect-gdb: => 0x[0-9a-f]+ <chain_mid\+[0-9]+>:\s+jr
# expect-gdb: #1 +0x[0-9a-f]+ in chain \(out=0x[0-9a-f]+\) at .*gdb_kernels.c:@MARK_chain_call@
# reject-gdb: #1 .*__ws_thread_exit
# expect-gdb: ^(0x[0-9a-f]+ in )?chain \(out=0x[0-9a-f]+\) at .*gdb_kernels.c:(@MARK_chain_call@|@MARK_chain_store@)$
# expect-gdb: AFTER 5
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
