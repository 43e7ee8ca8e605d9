// ttywakeups: what VMIN, VTIME and O_NONBLOCK do to wake-ups of a poll loop reading a tty.
//
//   ttywakeups VMIN VTIME NONBLOCK BAUD EPOCHS
//
// A writer thread plays a receiver on a pty master: one epoch of ten NMEA sentences (561 bytes)
// per second, in 16-byte pieces at the line rate of BAUD, as a UART's FIFO interrupts hand bytes
// to the tty layer. The main thread sets the slave raw with the given VMIN and VTIME, opens it
// blocking or not, and loops: poll for input, then one read(2) of up to 4 KiB. Prints the
// wake-ups (poll returns), bytes read of those sent, the largest single read and the longest a
// read blocked. Stops 3 s after the last epoch, so bytes stranded below VMIN show up as missing.
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static const char epoch_text[] =
    "$GPRMC,123519.00,A,4807.038,N,01131.324,E,022.4,084.4,230394,003.1,W,A*2F\r\n"
    "$GPVTG,084.4,T,,M,022.4,N,041.5,K,A*0D\r\n"
    "$GPGGA,123519.00,4807.038,N,01131.324,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n"
    "$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39\r\n"
    "$GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00*74\r\n"
    "$GPGSV,3,2,11,14,25,170,00,16,57,208,39,18,67,296,40,19,40,246,00*74\r\n"
    "$GPGSV,3,3,11,22,42,067,42,24,14,311,43,27,05,244,00,,,,*4D\r\n"
    "$GPGLL,4807.038,N,01131.324,E,123519.00,A,A*6F\r\n"
    "$GPZDA,123519.00,23,03,1994,00,00*6A\r\n"
    "$GPGST,123519.00,1.2,,,,0.8,0.9,1.5*5A\r\n";

static int master_fd, baud, epochs;
static double start;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void sleep_until(double when) {
    double left = when - now();
    if (left <= 0) return;
    struct timespec t = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)};
    nanosleep(&t, NULL);
}

static void *receiver(void *unused) {
    (void)unused;
    size_t size = strlen(epoch_text);
    double line_free = start;
    for (int epoch = 0; epoch < epochs; epoch++) {
        if (line_free < start + epoch) line_free = start + epoch;
        for (size_t offset = 0; offset < size; offset += 16) {
            size_t count = size - offset < 16 ? size - offset : 16;
            line_free += (double)count * 10.0 / baud;
            sleep_until(line_free);
            if (write(master_fd, epoch_text + offset, count) != (ssize_t)count) perror("write");
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: ttywakeups VMIN VTIME NONBLOCK BAUD EPOCHS\n");
        return 2;
    }
    int vmin = atoi(argv[1]), vtime = atoi(argv[2]), nonblock = atoi(argv[3]);
    baud = atoi(argv[4]);
    epochs = atoi(argv[5]);
    master_fd = posix_openpt(O_RDWR | O_NOCTTY);
    char name[64];
    if (master_fd < 0 || grantpt(master_fd) || unlockpt(master_fd) || ptsname_r(master_fd, name, sizeof name)) {
        perror("pty");
        return 1;
    }
    int slave = open(name, O_RDWR | O_NOCTTY | (nonblock ? O_NONBLOCK : 0));
    struct termios settings;
    if (slave < 0 || tcgetattr(slave, &settings)) {
        perror(name);
        return 1;
    }
    cfmakeraw(&settings);
    settings.c_cflag |= CLOCAL | CREAD;
    settings.c_cc[VMIN] = (cc_t)vmin;
    settings.c_cc[VTIME] = (cc_t)vtime;
    tcsetattr(slave, TCSANOW, &settings);

    start = now() + 0.2;
    pthread_t thread;
    pthread_create(&thread, NULL, receiver, NULL);
    size_t total = strlen(epoch_text) * (size_t)epochs, got = 0;
    long wakeups = 0, largest = 0;
    double longest_block = 0;
    char buffer[4096];
    while (got < total && now() < start + epochs + 3) {
        struct pollfd entry = {slave, POLLIN, 0};
        int ready = poll(&entry, 1, 500);
        if (ready <= 0) continue;
        wakeups++;
        double before = now();
        ssize_t count = read(slave, buffer, sizeof buffer);
        double blocked = now() - before;
        if (blocked > longest_block) longest_block = blocked;
        if (count > 0) {
            got += (size_t)count;
            if (count > largest) largest = count;
        }
    }
    printf("wakeups=%ld epochs=%d bytes=%zu/%zu largest-read=%ld longest-block-ms=%.0f\n", wakeups, epochs,
           got, total, largest, longest_block * 1000);
    return 0;
}
