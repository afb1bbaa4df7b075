# Stopped at a `ret` of a function that called others (after its
# epilogue's reloads and `addi sp`): bt names the right caller and finish
# returns to it. clang's CFI describes prologues only; until `warpscope cc`
# added the epilogue rows gdb read ra from the popped frame and named
# __ws_thread_exit as the caller (docs/toolchain.md, "Epilogue CFI").
# Run on the -O0 and the -O2 module.
# mode: chain
set breakpoint pending on
break gdb_kernels.c:@MARK_chain_ret@ if $thread_x == 1
continue
delete
python [gdb.execute("stepi", to_string=True) for _ in range(300) if not (gdb.selected_frame().name() == "chain_mid" and gdb.selected_frame().architecture().disassemble(gdb.selected_frame().pc())[0]["asm"].startswith("ret"))]
x/i $pc
bt
finish
printf "AFTER %d\n", $thread_x
continue
# expect-gdb: => 0x[0-9a-f]+ <chain_mid\+[0-9]+>:\s+ret
# expect-gdb: #0 +0x[0-9a-f]+ in chain_mid \(
# expect-gdb: #1 +0x[0-9a-f]+ in chain \(out=0x[0-9a-f]+\) at .*gdb_kernels.c:@MARK_chain_call@
# reject-gdb: #1 .*__ws_thread_exit
# expect-gdb: ^(0x[0-9a-f]+ in )?chain \(out=0x[0-9a-f]+\) at .*gdb_kernels.c:(@MARK_chain_call@|@MARK_chain_store@)$
# expect-gdb: Value returned is \$[0-9]+ = 17
# expect-gdb: AFTER 1
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
