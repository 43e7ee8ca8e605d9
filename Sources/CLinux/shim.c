// Process arguments and stdio set-up that Swift cannot express in every build.
#include "clinux.h"

static int saved_argc;
static char *const *saved_argv;

// glibc passes argc, argv and envp to ELF constructors; this works in the host build and in the
// Embedded builds alike, where CommandLine does not exist.
__attribute__((constructor)) static void clinux_capture_args(int argc, char **argv, char **envp) {
    (void)envp;
    saved_argc = argc;
    saved_argv = argv;
}

int clinux_argc(void) { return saved_argc; }

char *const *clinux_argv(void) { return saved_argv; }

void clinux_stdout_line_buffered(void) { setvbuf(stdout, NULL, _IOLBF, 0); }
