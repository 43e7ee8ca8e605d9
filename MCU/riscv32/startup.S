// Reset for the RV32IMAC core of qemu's riscv32 virt machine, run with -bios none: qemu's reset
// code jumps to the image's entry in machine mode. Sets the global and stack pointers and a trap
// vector, then starts the board (MCU/Board/board.c).
    .section .text.start, "ax"
    .global _start
_start:
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    la sp, __stack_top
    la t0, trap
    .option push
    .option arch, +zicsr
    csrw mtvec, t0
    .option pop
    call board_start

// Any trap (no interrupts are enabled): an illegal instruction, a misaligned or faulting access.
    .balign 4
trap:
    call board_fault
