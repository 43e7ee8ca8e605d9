/* ledsample: prints every change of gpio-sim line values, with CLOCK_MONOTONIC time.
 *
 * usage: ledsample SYSFS_DIR NAME... (line i is SYSFS_DIR/sim_gpio<i>/value, named NAME i)
 * Output, one line per edge: "LED <ms since start> <name> <0|1>", the first value of every
 * line at 0 ms. Polls every millisecond: the LED patterns' shortest step is 100 ms. */
#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define MAX_LINES 8

static long long now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc - 2 > MAX_LINES) {
        fprintf(stderr, "usage: ledsample SYSFS_DIR NAME...\n");
        return 64;
    }
    int lines = argc - 2, fds[MAX_LINES], last[MAX_LINES];
    for (int i = 0; i < lines; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/sim_gpio%d/value", argv[1], i);
        fds[i] = open(path, O_RDONLY);
        if (fds[i] < 0) { perror(path); return 1; }
        last[i] = -1;
    }
    long long start = now_us();
    for (;;) {
        for (int i = 0; i < lines; i++) {
            char c;
            if (pread(fds[i], &c, 1, 0) != 1) continue;
            int value = c == '1';
            if (value != last[i]) {
                long long t = now_us() - start;
                printf("LED %lld.%03lld %s %d\n", t / 1000, t % 1000, argv[i + 2], value);
                fflush(stdout);
                last[i] = value;
            }
        }
        struct timespec d = { 0, 1000000L };
        nanosleep(&d, 0);
    }
}
