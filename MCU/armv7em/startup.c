// Reset for the Cortex-M4 (qemu's mps2-an386): the vector table, then the FPU switched on and
// the board started (MCU/Board/board.c). The core loads the stack pointer and the reset handler
// from the table's first two words.
#include <stdint.h>

extern uint8_t __stack_top[];
void board_start(void) __attribute__((noreturn));
void board_fault(void) __attribute__((noreturn));
void board_reset(void) __attribute__((noreturn));

void board_reset(void) {
    // CPACR: full access to coprocessors 10 and 11, the FPU (TrackCore's code uses its
    // single-precision registers; doubles go through libgcc's soft-float routines).
    *(volatile uint32_t *)0xE000ED88 |= 0xFu << 20;
    __asm__ volatile("dsb\n isb" ::: "memory");
    board_start();
}

static void fault(void) { board_fault(); }

// Reset, then NMI, HardFault, MemManage, BusFault and UsageFault; no interrupts are enabled.
__attribute__((section(".vectors"), used)) static const void *const vectors[16] = {
    __stack_top, board_reset, fault, fault, fault, fault, fault,
};

// The personality routines of ARM's C++ exception tables: the Unicode tables of the Embedded
// Swift library come with unwind entries that name them, and libgcc's would bring its unwinder
// (with abort and signal handling) into the image. Nothing unwinds on this board: a call is a
// fault.
void __aeabi_unwind_cpp_pr0(void) { board_fault(); }
void __aeabi_unwind_cpp_pr1(void) { board_fault(); }
void __aeabi_unwind_cpp_pr2(void) { board_fault(); }
