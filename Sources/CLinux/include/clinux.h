// The C surface trackd needs from libc and libgpiod, in one module so the host build and the
// Embedded firmware build (which has no Glibc module) see the same declarations.
#ifndef CLINUX_H
#define CLINUX_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/types.h>
#include <sys/un.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <gpiod.h>

/// errno of the calling thread (a macro in glibc, so Swift cannot read it directly).
static inline int clinux_errno(void) { return errno; }

/// Sets errno (tests and fakes use it to stage failures).
static inline void clinux_set_errno(int value) { errno = value; }

/// open(2) without variadic arguments, which Swift cannot call.
static inline int clinux_open(const char *path, int flags, unsigned int mode) {
    return open(path, flags, (mode_t)mode);
}

/// fcntl(2) with an int argument.
static inline int clinux_fcntl_int(int fd, int cmd, int arg) { return fcntl(fd, cmd, arg); }

/// ioctl(2) for requests without an argument, e.g. TIOCEXCL (ioctl is variadic).
static inline int clinux_ioctl_none(int fd, unsigned long request) { return ioctl(fd, request); }

/// 1 when the tty is in exclusive mode (TIOCEXCL), 0 when not, -1 with errno set on failure.
/// TIOCGEXCL is a function-like macro, which Swift does not import.
static inline int clinux_tty_is_exclusive(int fd) {
    int exclusive = 0;
    return ioctl(fd, TIOCGEXCL, &exclusive) == -1 ? -1 : exclusive != 0;
}

/// Bytes waiting to be read on a terminal or pipe (FIONREAD), or -1 with errno set.
static inline int clinux_bytes_readable(int fd) {
    int count = 0;
    return ioctl(fd, FIONREAD, &count) == -1 ? -1 : count;
}

/// c_cc[index] = value: Swift sees c_cc as a 32-element tuple.
static inline void clinux_termios_set_cc(struct termios *t, int index, unsigned char value) {
    t->c_cc[index] = value;
}

/// c_cc[index].
static inline unsigned char clinux_termios_cc(const struct termios *t, int index) { return t->c_cc[index]; }

/// The process arguments, captured by a constructor in shim.c (CommandLine is not available in
/// Embedded Swift).
int clinux_argc(void);
char *const *clinux_argv(void);

/// Makes standard output line-buffered so a trap message is not lost at -O.
void clinux_stdout_line_buffered(void);

#endif
