// The board support both targets share: semihosting output and exit, memory set-up at reset,
// the heap Embedded Swift allocates from (posix_memalign/free), and the bytes Hasher seeds from.
// The target's startup code (MCU/armv7em/startup.c, MCU/riscv32/startup.S) calls board_start.
//
// Semihosting: the program asks the debugger, here qemu with -semihosting-config
// enable=on,target=native, to act for it: SYS_OPEN ":tt" opens its console, SYS_WRITE writes to
// it, SYS_EXIT ends qemu with status 0 for ADP_Stopped_ApplicationExit and 1 otherwise (a 32-bit
// target passes the reason itself, not a block).
#include <stdint.h>
#include <string.h>
#include "MCUBoard.h"

enum {
    SYS_OPEN = 0x01,
    SYS_WRITE = 0x05,
    SYS_EXIT = 0x18,
    ADP_Stopped_ApplicationExit = 0x20026,
    ADP_Stopped_RunTimeErrorUnknown = 0x20023,
};

static uintptr_t semihost(uintptr_t operation, const void *argument) {
#if defined(__arm__)
    register uintptr_t r0 __asm__("r0") = operation;
    register const void *r1 __asm__("r1") = argument;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
#elif defined(__riscv)
    // The RISC-V semihosting trap: these three uncompressed instructions, in one page.
    register uintptr_t a0 __asm__("a0") = operation;
    register const void *a1 __asm__("a1") = argument;
    __asm__ volatile(".option push\n .option norvc\n .balign 16\n"
                     " slli zero, zero, 0x1f\n ebreak\n srai zero, zero, 7\n .option pop"
                     : "+r"(a0) : "r"(a1) : "memory");
    return a0;
#else
#error "a board for arm or riscv"
#endif
}

static intptr_t console = -1;

void board_write(const void *bytes, size_t count) {
    if (console < 0) {
        static const char name[] = ":tt";
        uintptr_t open[3] = {(uintptr_t)name, 4 /* "w" */, sizeof name - 1};
        console = (intptr_t)semihost(SYS_OPEN, open);
    }
    uintptr_t write[3] = {(uintptr_t)console, (uintptr_t)bytes, count};
    semihost(SYS_WRITE, write);
}

__attribute__((noreturn)) void board_exit(int status) {
    semihost(SYS_EXIT, (const void *)(uintptr_t)(status == 0 ? ADP_Stopped_ApplicationExit
                                                               : ADP_Stopped_RunTimeErrorUnknown));
    for (;;) {
    }
}

// From the linker script: .data's bytes in flash and in RAM, .bss, the heap.
extern uint8_t __data_source[], __data_start[], __data_end[], __bss_start[], __bss_end[];
extern uint8_t __heap_start[], __heap_end[], __tls_base[];
int harness_main(void);
// picolibc's: copy a TLS block's initial bytes into it; make it the thread's.
void _init_tls(void *block);
void _set_tls(void *block);

// The stack is painted at reset, below the frame of board_start, so board_stack_peak can tell
// how deep the run went: the lowest word no longer holding the paint.
#define STACK_PAINT 0xA5A5A5A5u
extern uint32_t __stack_top[];
extern uint8_t __heap_start[];

static uint8_t *top;

size_t board_stack_peak(void) {
    // From the top of the heap: a stack deeper than its share of RAM shows as such.
    const volatile uint32_t *word = (const uint32_t *)(top ? top : __heap_start);
    while (word < __stack_top && *word == STACK_PAINT) word++;
    return (size_t)((const uint8_t *)__stack_top - (const uint8_t *)word);
}

__attribute__((noreturn)) void board_start(void) {
    memcpy(__data_start, __data_source, (size_t)(__data_end - __data_start));
    memset(__bss_start, 0, (size_t)(__bss_end - __bss_start));
    // Up to a little below this function's own frame (a local's address: the frame address
    // builtin needs a frame pointer).
    volatile uint8_t here = 0;
    uintptr_t limit = (uintptr_t)&here - 128;
    volatile uint32_t *word = (uint32_t *)__heap_start;
    while ((uintptr_t)(word + 1) < limit) *word++ = STACK_PAINT;
    _init_tls(__tls_base);
    _set_tls(__tls_base);
    board_exit(harness_main());
}

__attribute__((noreturn)) void board_fault(void) {
    static const char message[] = "board: fault\n";
    board_write(message, sizeof message - 1);
    board_exit(3);
}

// --- the heap ------------------------------------------------------------------------------------
// First fit over a list of blocks in address order, each with a 16-byte header; a freed block
// merges with the free blocks after it. Enough for TrackCore, which allocates at start-up and
// hardly afterwards.
typedef struct Block {
    size_t size;  // bytes after the header
    size_t free;
    struct Block *next;
    size_t unused;
} Block;

static Block *blocks;
static size_t in_use, peak;

size_t board_heap_in_use(void) { return in_use; }
size_t board_heap_peak(void) { return peak; }

static size_t round_up(size_t value, size_t to) { return (value + to - 1) & ~(to - 1); }

static void *take(Block *block) {
    block->free = 0;
    in_use += block->size + sizeof(Block);
    if (in_use > peak) peak = in_use;
    return block + 1;
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment > 16) return 22;  // EINVAL: Swift asks for at most 16 here
    size = round_up(size ? size : 1, 16);
    Block *last = 0;
    for (Block *block = blocks; block; last = block, block = block->next) {
        if (!block->free || block->size < size) continue;
        if (block->size >= size + sizeof(Block) + 16) {
            Block *rest = (Block *)((uint8_t *)(block + 1) + size);
            rest->size = block->size - size - sizeof(Block);
            rest->free = 1;
            rest->next = block->next;
            block->next = rest;
            block->size = size;
        }
        *result = take(block);
        return 0;
    }
    if (!top) top = (uint8_t *)round_up((uintptr_t)__heap_start, 16);
    if ((size_t)(__heap_end - top) < size + sizeof(Block)) return 12;  // ENOMEM
    Block *block = (Block *)top;
    top += sizeof(Block) + size;
    block->size = size;
    block->next = 0;
    if (last) last->next = block; else blocks = block;
    *result = take(block);
    return 0;
}

void free(void *pointer) {
    if (!pointer) return;
    Block *block = (Block *)pointer - 1;
    block->free = 1;
    in_use -= block->size + sizeof(Block);
    while (block->next && block->next->free) {
        block->size += sizeof(Block) + block->next->size;
        block->next = block->next->next;
    }
}

// Hasher's seed. These boards have no entropy source, and the harness's output must not depend
// on one: a fixed stream (a board with a TRNG reads it here).
void arc4random_buf(void *buffer, size_t count) {
    uint32_t state = 0x9E3779B9u;
    uint8_t *bytes = buffer;
    for (size_t index = 0; index < count; index++) {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        bytes[index] = (uint8_t)state;
    }
}

// --- the data ------------------------------------------------------------------------------------
extern const uint8_t board_capture_start[], board_capture_end[];
extern const uint8_t board_image_start[], board_image_end[];

const uint8_t *board_capture(size_t *count) {
    *count = (size_t)(board_capture_end - board_capture_start);
    return board_capture_start;
}

const uint8_t *board_fence_image(size_t *count) {
    *count = (size_t)(board_image_end - board_image_start);
    return board_image_start;
}
