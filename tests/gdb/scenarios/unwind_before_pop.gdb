# Stopped in a function's epilogue after the reloads, at its `addi sp`
# (at -O0 after `lw s0`, when the CFA that clang's CFI computes from s0
# is the caller's): bt names the right caller and finish returns to it
# (docs/toolchain.md, "Epilogue CFI"). Run on the -O0 and -O2 module.
# mode: chain
set breakpoint pending on
break gdb_kernels.c:@MARK_chain_ret@ if $thread_x == 2
continue
delete
python import re; [gdb.execute("stepi", to_string=True) for _ in range(300) if not (gdb.selected_frame().name() == "chain_mid" and re.match(r"addi?\s+sp,\s*sp,\s*[0-9]", gdb.selected_frame().architecture().disassemble(gdb.selected_frame().pc())[0]["asm"]))]
x/i $pc
bt
finish
printf "AFTER %d\n", $thread_x
continue
# expect-gdb: => 0x[0-9a-f]+ <chain_mid\+[0-9]+>:\s+addi?\s+sp,\s*sp,\s*[0-9]
# expect-gdb: #1 +0x[0-9a-f]+ in chain \(out=0x[0-9a-f]+\) at .*gdb_kernels.c:@MARK_chain_call@
# reject-gdb: #1 .*__ws_thread_exit
# expect-gdb: ^(0x[0-9a-f]+ in )?chain \(out=0x[0-9a-f]+\) at .*gdb_kernels.c:(@MARK_chain_call@|@MARK_chain_store@)$
# expect-gdb: Value returned is \$[0-9]+ = 29
# expect-gdb: AFTER 2
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
