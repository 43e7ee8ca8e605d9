// What the harness's Swift code needs from the board (board.c and the startup code of each
// target): output through semihosting, the end of the program, and the data linked into the
// image (the receiver capture and the compiled fence image, MCU/Board/data.S).
#ifndef MCU_BOARD_H
#define MCU_BOARD_H

#include <stddef.h>
#include <stdint.h>

/// Writes `count` bytes to the debugger's (qemu's) standard output: semihosting SYS_WRITE.
void board_write(const void *bytes, size_t count);

/// The receiver capture linked into the image; its length in `*count`.
const uint8_t *board_capture(size_t *count);

/// The compiled fence image linked into the image (16-byte aligned); its length in `*count`.
const uint8_t *board_fence_image(size_t *count);

/// Bytes of heap the run has in use now, and at most so far.
size_t board_heap_in_use(void);
size_t board_heap_peak(void);

/// Bytes of stack the run used at most (from the paint of the stack at reset).
size_t board_stack_peak(void);

#endif
