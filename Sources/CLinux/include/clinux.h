// The C surface trackd needs from libc and libgpiod, in one module so the host build and the
// Embedded firmware build (which has no Glibc module) see the same declarations.
#ifndef CLINUX_H
#define CLINUX_H

// No _GNU_SOURCE here: it changes glibc's struct definitions (fd_set) from what Foundation's
// modules see, and a test that imports both would not build. GNU-only calls live in shim.c.

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/timerfd.h>
#include <sys/types.h>
#include <sys/un.h>
#include <netinet/in.h>
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

/// CLOCK_MONOTONIC in nanoseconds.
static inline int64_t clinux_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/// CLOCK_REALTIME in nanoseconds since the Unix epoch.
static inline int64_t clinux_realtime_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/// Gives the free memory of the heap back to the kernel (glibc malloc_trim(0)).
void clinux_release_free_memory(void);

/// Serves allocations of at least `bytes` from mappings of their own (glibc M_MMAP_THRESHOLD).
void clinux_map_allocations_from(size_t bytes);

/// Blocks TERM and INT (and, unless `stop_only`, HUP and CHLD, ignoring SIGPIPE) and returns
/// a signalfd reading them (or -1 with errno).
int clinux_signalfd_open(int stop_only);

/// Reads one signal number from a signalfd; 0 when none is pending, -1 with errno on error.
int clinux_signalfd_read(int fd);

/// For a live view on a terminal (trackctl status --watch): blocks TERM, INT, HUP, PIPE and
/// WINCH and returns a signalfd reading them (or -1 with errno). With SIGPIPE blocked a write to
/// a closed pipe fails with EPIPE instead of killing the view before it restores the terminal.
int clinux_signalfd_open_view(void);

/// The size of the terminal on `fd` (TIOCGWINSZ, which Swift cannot pass through the variadic
/// ioctl): 0, or -1 with errno (ENOTTY when `fd` is not a terminal).
static inline int clinux_terminal_size(int fd, unsigned short *rows, unsigned short *columns) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
    *rows = size.ws_row;
    *columns = size.ws_col;
    return 0;
}

/// A listening Unix stream socket at `path` (an old socket file is replaced), non-blocking,
/// close-on-exec, with permissions `mode`; -1 with errno on error. The file appears at `path`
/// only once the socket listens (it is bound under a staging name and renamed), so a client
/// that sees the file can connect. `@name` is an abstract socket.
int clinux_unix_listen(const char *path, unsigned int mode, int backlog);

/// Gives `path` to the group named `group` through the C library's group database (NSS);
/// -1 with errno, ENOENT when no such group exists.
int clinux_chown_group(const char *path, const char *group);

/// Gives `path` to group id `gid` (chown with the owner unchanged); -1 with errno.
static inline int clinux_chown_gid(const char *path, unsigned int gid) {
    return chown(path, (uid_t)-1, (gid_t)gid);
}

/// Connects a Unix stream socket to `path` (blocking); -1 with errno on error.
int clinux_unix_connect(const char *path);

/// Accepts a connection as a non-blocking, close-on-exec descriptor; -1 with errno.
int clinux_accept(int fd);

/// The pseudo-terminal calls (X/Open), each as libc's: -1 (or an errno for ptsname_r) on error.
int clinux_posix_openpt(int flags);
int clinux_grantpt(int fd);
int clinux_unlockpt(int fd);
int clinux_ptsname_r(int fd, char *buffer, size_t length);

/// Sends `length` bytes as one datagram to the Unix socket `path` (a leading '@' means the
/// abstract namespace, as systemd's NOTIFY_SOCKET allows); -1 with errno.
int clinux_unix_send_datagram(const char *path, const void *bytes, size_t length);

/// Sets or clears O_NONBLOCK; -1 with errno.
static inline int clinux_set_nonblocking(int fd, int on) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFL, on ? (flags | O_NONBLOCK) : (flags & ~O_NONBLOCK));
}

/// A listening TCP socket on `address` (4 bytes of IPv4 or, when `ipv6`, 16 of IPv6, network
/// order) and `port`: non-blocking, close-on-exec, SO_REUSEADDR, IPv6 sockets IPv6-only (so
/// `0.0.0.0` and `::` can both be bound). -1 with errno on error.
int clinux_tcp_listen(int ipv6, const unsigned char *address, unsigned short port, int backlog);

/// A TCP connection to `address` (4 bytes of IPv4 or, when `ipv6`, 16 of IPv6, network order)
/// and `port`, started without waiting: a non-blocking, close-on-exec socket with TCP_NODELAY
/// (small packets go out at once, not held back by Nagle's algorithm), connect(2) begun. Returns
/// the descriptor and sets `*in_progress` to 1 when the connection is still being made (wait
/// for the socket to be writable, then read `clinux_socket_error`), 0 when it is made already
/// (loopback can be); -1 with errno on error (ECONNREFUSED, ENETUNREACH …).
int clinux_tcp_connect(int ipv6, const unsigned char *address, unsigned short port, int *in_progress);

/// The pending error of socket `fd` (SO_ERROR: 0 once a non-blocking connect succeeded, e.g.
/// ECONNREFUSED when it failed), or -1 with errno.
int clinux_socket_error(int fd);

/// send(2) without SIGPIPE.
static inline ssize_t clinux_send(int fd, const void *bytes, size_t length) {
    return send(fd, bytes, length, MSG_NOSIGNAL);
}
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

/// The English text of errno `number` (glibc's strerrordesc_np, which skips strerror's message
/// catalogue look-up and the locale code behind it), or NULL for a number glibc does not know.
const char *clinux_error_description(int number);

/// The name of a directory entry from readdir(3) (Swift sees d_name as a 256-element tuple).
static inline const char *clinux_dirent_name(const struct dirent *entry) { return entry->d_name; }

/// Bytes an unprivileged process may still write on the file system holding `path`
/// (statvfs f_bavail × f_frsize), or -1 with errno.
static inline int64_t clinux_available_bytes(const char *path) {
    struct statvfs info;
    if (statvfs(path, &info) != 0) return -1;
    return (int64_t)info.f_bavail * (int64_t)info.f_frsize;
}

/// The size in bytes of the file system holding `path` (statvfs f_blocks × f_frsize), or -1
/// with errno.
static inline int64_t clinux_total_bytes(const char *path) {
    struct statvfs info;
    if (statvfs(path, &info) != 0) return -1;
    return (int64_t)info.f_blocks * (int64_t)info.f_frsize;
}

/// The device numbers of the file system holding `path` (st_dev as major and minor, the
/// numbers /proc/self/mountinfo lists), 0 or -1 with errno.
static inline int clinux_device_numbers(const char *path, unsigned int *major_number, unsigned int *minor_number) {
    struct stat info;
    if (stat(path, &info) != 0) return -1;
    *major_number = major(info.st_dev);
    *minor_number = minor(info.st_dev);
    return 0;
}

/// The size in bytes of the open file `fd` (0 for most /proc and /sys files), or -1 with errno.
static inline int64_t clinux_descriptor_size(int fd) {
    struct stat info;
    if (fstat(fd, &info) != 0) return -1;
    return (int64_t)info.st_size;
}

/// Maps `size` bytes of `fd` read-only and private, advising random access (no read-ahead: a
/// lookup reads only the pages it touches); NULL with errno on failure (MAP_FAILED is a macro
/// Swift cannot see).
static inline const void *clinux_map_readonly(int fd, size_t size) {
    void *address = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (address == MAP_FAILED) return NULL;
    (void)madvise(address, size, MADV_RANDOM);
    return address;
}

/// The size in bytes of the file at `path`, or -1 with errno.
static inline int64_t clinux_file_size(const char *path) {
    struct stat info;
    if (stat(path, &info) != 0) return -1;
    return (int64_t)info.st_size;
}

/// Starts the program at `path` (no PATH search, no shell) with `argv` and `envp` (both
/// NULL-terminated) through posix_spawn: the child gets an empty signal mask and default
/// dispositions (the daemon blocks its signals for the signalfd and ignores SIGPIPE), standard
/// input from /dev/null, and its own process group. Returns the pid, or -1 with errno set.
int clinux_spawn(const char *path, char *const argv[], char *const envp[]);

/// One unit of the NTP shared-memory refclock: gpsd's `struct shmTime` (ntpshm.h, itself ntpd's
/// refclock_shm.c), field for field, the layout ntpd's and chrony's SHM drivers read. On a
/// 64-bit Linux: mode 0, count 4, clockTimeStampSec 8, clockTimeStampUSec 16,
/// receiveTimeStampSec 24, receiveTimeStampUSec 32, leap 36, precision 40, nsamples 44,
/// valid 48, clockTimeStampNSec 52, receiveTimeStampNSec 56, dummy 60..91; 96 bytes.
struct clinux_shm_time {
    int mode;
    volatile int count;
    time_t clockTimeStampSec;
    int clockTimeStampUSec;
    time_t receiveTimeStampSec;
    int receiveTimeStampUSec;
    int leap;
    int precision;
    int nsamples;
    volatile int valid;
    unsigned clockTimeStampNSec;
    unsigned receiveTimeStampNSec;
    int dummy[8];
};

/// shmget(2) of System V segment `key` sized for one `struct clinux_shm_time` (created with
/// `perm` when absent) and shmat(2) of it: the segment, or NULL with errno set.
static inline struct clinux_shm_time *clinux_shm_time_attach(int key, int perm) {
    int id = shmget((key_t)key, sizeof(struct clinux_shm_time), IPC_CREAT | perm);
    if (id == -1) return NULL;
    void *segment = shmat(id, NULL, 0);
    if (segment == (void *)-1) return NULL;
    return (struct clinux_shm_time *)segment;
}

/// shmdt(2).
static inline int clinux_shm_detach(const void *segment) { return shmdt(segment); }

/// The permission bits of System V segment `key` (e.g. 0600), or -1 with errno set.
static inline int clinux_shm_mode(int key) {
    int id = shmget((key_t)key, 0, 0);
    if (id == -1) return -1;
    struct shmid_ds info;
    if (shmctl(id, IPC_STAT, &info) == -1) return -1;
    return (int)(info.shm_perm.mode & 0777);
}

/// Removes System V segment `key` (IPC_RMID; it goes once the last process detaches): 0, or -1
/// with errno set.
static inline int clinux_shm_remove(int key) {
    int id = shmget((key_t)key, 0, 0);
    if (id == -1) return -1;
    return shmctl(id, IPC_RMID, NULL);
}

/// A full memory barrier: no load or store moves across it, in the compiler or the CPU.
static inline void clinux_memory_barrier(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

/// A store and a load that the compiler keeps, in order (the `volatile int` fields of a segment
/// another process reads).
static inline void clinux_store_volatile(volatile int *field, int value) { *field = value; }
static inline int clinux_load_volatile(const volatile int *field) { return *field; }

/// Reaps child `pid` if it has finished, without waiting: `pid` (exit status in `*status`, as
/// waitpid gives it), 0 while it runs, -1 with errno set (ECHILD: no such child).
/// posix_spawnp(3) of `file` (searched in PATH) with `argv` and this process's environment:
/// standard input /dev/null, standard output and error into two new pipes whose reading ends
/// (close-on-exec) come back in `output_fd` and `error_fd`. The pid, or -1 with errno set.
int clinux_spawn_piped(const char *file, char *const argv[], int *output_fd, int *error_fd);

/// waitpid(2) for `pid` until it exits (EINTR retried); the pid, or -1 with errno set.
int clinux_wait(int pid, int *status);

int clinux_reap(int pid, int *status);

/// The exit code of a waitpid status, or 128 + the signal number for a child killed by one.
int clinux_exit_code(int status);

#endif
