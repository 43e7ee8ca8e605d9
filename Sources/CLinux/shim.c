// Process arguments, stdio set-up and the GNU-only calls Swift cannot reach otherwise.
#define _GNU_SOURCE 1
#include "clinux.h"
#include <stddef.h>
#include <grp.h>
#include <malloc.h>
#include <spawn.h>
#include <sys/wait.h>
#include <netinet/tcp.h>

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

const char *clinux_error_description(int number) { return strerrordesc_np(number); }

void clinux_release_free_memory(void) { malloc_trim(0); }

void clinux_map_allocations_from(size_t bytes) { mallopt(M_MMAP_THRESHOLD, (int)bytes); }

int clinux_signalfd_open(int stop_only) {
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGINT);
    if (!stop_only) {
        sigaddset(&mask, SIGHUP);
        sigaddset(&mask, SIGCHLD);
        // A control client that disconnects mid-reply must not kill the daemon.
        signal(SIGPIPE, SIG_IGN);
    }
    if (sigprocmask(SIG_BLOCK, &mask, NULL) != 0) return -1;
    return signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
}

int clinux_signalfd_open_view(void) {
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGINT);
    sigaddset(&mask, SIGHUP);
    sigaddset(&mask, SIGPIPE);
    sigaddset(&mask, SIGWINCH);
    if (sigprocmask(SIG_BLOCK, &mask, NULL) != 0) return -1;
    return signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
}

int clinux_signalfd_read(int fd) {
    struct signalfd_siginfo info;
    ssize_t got = read(fd, &info, sizeof info);
    if (got < 0) return errno == EAGAIN ? 0 : -1;
    if (got != (ssize_t)sizeof info) return 0;
    return (int)info.ssi_signo;
}

static int fill_address(struct sockaddr_un *address, const char *path, socklen_t *length) {
    size_t size = strlen(path);
    if (size == 0 || size >= sizeof address->sun_path) { errno = ENAMETOOLONG; return -1; }
    memset(address, 0, sizeof *address);
    address->sun_family = AF_UNIX;
    memcpy(address->sun_path, path, size);
    if (path[0] == '@') address->sun_path[0] = '\0';
    *length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + size);
    return 0;
}

int clinux_unix_listen(const char *path, unsigned int mode, int backlog) {
    struct sockaddr_un address;
    socklen_t length;
    if (fill_address(&address, path, &length) != 0) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (path[0] == '@') {
        if (bind(fd, (struct sockaddr *)&address, length) != 0 || listen(fd, backlog) != 0) {
            int saved = errno;
            close(fd);
            errno = saved;
            return -1;
        }
        return fd;
    }
    // A client that connects between bind() and listen() is refused (ECONNREFUSED), and one
    // that sees the file before chmod() may be denied. So the socket is bound under a name of
    // the same length in the same directory (the last byte turned into '~'), made ready, and
    // only then renamed over `path`: the file at `path` is, from the moment it exists, a socket
    // that accepts. rename() also replaces a stale socket from a crash in one step.
    char staging[sizeof address.sun_path];
    size_t size = strlen(path);
    memcpy(staging, path, size + 1);
    staging[size - 1] = staging[size - 1] == '~' ? '#' : '~';
    memcpy(address.sun_path, staging, size);
    unlink(staging);
    if (bind(fd, (struct sockaddr *)&address, length) != 0 || chmod(staging, (mode_t)mode) != 0 ||
        listen(fd, backlog) != 0 || rename(staging, path) != 0) {
        int saved = errno;
        close(fd);
        unlink(staging);
        errno = saved;
        return -1;
    }
    return fd;
}

int clinux_tcp_listen(int ipv6, const unsigned char *address, unsigned short port, int backlog) {
    int fd = socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int one = 1;
    (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    int result;
    if (ipv6) {
        (void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
        struct sockaddr_in6 bound;
        memset(&bound, 0, sizeof bound);
        bound.sin6_family = AF_INET6;
        bound.sin6_port = htons(port);
        memcpy(&bound.sin6_addr, address, 16);
        result = bind(fd, (struct sockaddr *)&bound, sizeof bound);
    } else {
        struct sockaddr_in bound;
        memset(&bound, 0, sizeof bound);
        bound.sin_family = AF_INET;
        bound.sin_port = htons(port);
        memcpy(&bound.sin_addr, address, 4);
        result = bind(fd, (struct sockaddr *)&bound, sizeof bound);
    }
    if (result != 0 || listen(fd, backlog) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int clinux_tcp_connect(int ipv6, const unsigned char *address, unsigned short port, int *in_progress) {
    int fd = socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int one = 1;
    (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    int result;
    if (ipv6) {
        struct sockaddr_in6 peer;
        memset(&peer, 0, sizeof peer);
        peer.sin6_family = AF_INET6;
        peer.sin6_port = htons(port);
        memcpy(&peer.sin6_addr, address, 16);
        result = connect(fd, (struct sockaddr *)&peer, sizeof peer);
    } else {
        struct sockaddr_in peer;
        memset(&peer, 0, sizeof peer);
        peer.sin_family = AF_INET;
        peer.sin_port = htons(port);
        memcpy(&peer.sin_addr, address, 4);
        result = connect(fd, (struct sockaddr *)&peer, sizeof peer);
    }
    if (result == 0) {
        *in_progress = 0;
        return fd;
    }
    if (errno == EINPROGRESS) {
        *in_progress = 1;
        return fd;
    }
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
}

int clinux_socket_error(int fd) {
    int error = 0;
    socklen_t length = sizeof error;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0) return -1;
    return error;
}

int clinux_unix_connect(const char *path) {
    struct sockaddr_un address;
    socklen_t length;
    if (fill_address(&address, path, &length) != 0) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (connect(fd, (struct sockaddr *)&address, length) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int clinux_unix_send_datagram(const char *path, const void *bytes, size_t length) {
    struct sockaddr_un address;
    socklen_t address_length;
    if (fill_address(&address, path, &address_length) != 0) return -1;
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    ssize_t sent = sendto(fd, bytes, length, MSG_NOSIGNAL, (struct sockaddr *)&address, address_length);
    int saved = errno;
    close(fd);
    errno = saved;
    return sent < 0 ? -1 : 0;
}

int clinux_chown_group(const char *path, const char *group) {
    struct group *entry = getgrnam(group);
    if (entry == NULL) { errno = ENOENT; return -1; }
    return chown(path, (uid_t)-1, entry->gr_gid);
}

int clinux_accept(int fd) { return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); }

int clinux_posix_openpt(int flags) { return posix_openpt(flags); }
int clinux_grantpt(int fd) { return grantpt(fd); }
int clinux_unlockpt(int fd) { return unlockpt(fd); }
int clinux_ptsname_r(int fd, char *buffer, size_t length) { return ptsname_r(fd, buffer, length); }

int clinux_spawn(const char *path, char *const argv[], char *const envp[]) {
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_t actions;
    int error = posix_spawnattr_init(&attributes);
    if (error != 0) { errno = error; return -1; }
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
    error = posix_spawn_file_actions_init(&actions);
    if (error == 0) error = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    pid_t pid = -1;
    if (error == 0) error = posix_spawn(&pid, path, &actions, &attributes, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (error != 0) { errno = error; return -1; }
    return (int)pid;
}

int clinux_reap(int pid, int *status) {
    return (int)waitpid((pid_t)pid, status, WNOHANG);
}

int clinux_exit_code(int status) {
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return -1;
}

int clinux_spawn_piped(const char *file, char *const argv[], int *output_fd, int *error_fd) {
    int output[2], errors[2];
    if (pipe2(output, O_CLOEXEC) != 0) return -1;
    if (pipe2(errors, O_CLOEXEC) != 0) {
        int saved = errno;
        close(output[0]);
        close(output[1]);
        errno = saved;
        return -1;
    }
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_t actions;
    int error = posix_spawnattr_init(&attributes);
    if (error == 0) {
        sigset_t none, all;
        sigemptyset(&none);
        sigfillset(&all);
        posix_spawnattr_setsigmask(&attributes, &none);
        posix_spawnattr_setsigdefault(&attributes, &all);
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
        error = posix_spawn_file_actions_init(&actions);
        if (error == 0) {
            error = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
            // dup2 clears close-on-exec on the child's copies only.
            if (error == 0) error = posix_spawn_file_actions_adddup2(&actions, output[1], 1);
            if (error == 0) error = posix_spawn_file_actions_adddup2(&actions, errors[1], 2);
            pid_t pid = -1;
            if (error == 0) error = posix_spawnp(&pid, file, &actions, &attributes, argv, environ);
            posix_spawn_file_actions_destroy(&actions);
            posix_spawnattr_destroy(&attributes);
            close(output[1]);
            close(errors[1]);
            if (error == 0) {
                *output_fd = output[0];
                *error_fd = errors[0];
                return (int)pid;
            }
            close(output[0]);
            close(errors[0]);
            errno = error;
            return -1;
        }
        posix_spawnattr_destroy(&attributes);
    }
    close(output[0]);
    close(output[1]);
    close(errors[0]);
    close(errors[1]);
    errno = error;
    return -1;
}

int clinux_wait(int pid, int *status) {
    int result;
    do {
        result = (int)waitpid((pid_t)pid, status, 0);
    } while (result < 0 && errno == EINTR);
    return result;
}
