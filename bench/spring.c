/* The bare spring loop of `panelsim bench` in C: NumericSpring.advance's arithmetic
 * (Sources/PanelSimCore/FloatingPanel/NumericSpring.swift), term for term, over the same springs and step count.
 *
 * Build and run (panelsim bench does both, with the springs and step count it measured):
 *   gcc -O2 -o /tmp/spring bench/spring.c
 *   /tmp/spring STEPS x0 v0 xt zeta omega h pixel [x0 v0 xt zeta omega h pixel ...]
 * Output: steps=N seconds=S checksum=C (CPU seconds of this process; checksum in %a, which must
 * equal the Swift loop's bit for bit: same operations in the same order, IEEE double, no FMA).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct { double x0, v0, target, zeta, omega, h, pixel; } spring;

static double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

__attribute__((noinline))
static double loop(const spring *springs, long count, long steps) {
    double checksum = 0.0;
    long done = 0, k = 0;
    double x = springs[0].x0, v = springs[0].v0;
    while (done < steps) {
        const spring s = springs[k];
        const double h = s.h, zeta = s.zeta, omega = s.omega, target = s.target, pixel = s.pixel;
        int settled = 0;
        while (!settled && done < steps) {
            const double pre = x;
            const double f = 1 + 2 * h * zeta * omega;
            const double h2 = h * h;
            const double o2 = omega * omega;
            const double det = f + h2 * o2;
            x = (f * x + h * v + h2 * o2 * target) / det;
            v = (v + h * o2 * (target - x)) / det;
            settled = fabs(target - x) <= pixel && fabs(pre - x) / pixel <= 1;
            done += 1;
        }
        checksum += x;
        k = (k + 1) % count;
        x = springs[k].x0; v = springs[k].v0;
    }
    return checksum + x;
}

int main(int argc, char **argv) {
    if (argc < 9 || (argc - 2) % 7 != 0) {
        fprintf(stderr, "usage: %s STEPS x0 v0 xt zeta omega h pixel [...]\n", argv[0]);
        return 2;
    }
    long steps = strtol(argv[1], NULL, 10);
    long count = (argc - 2) / 7;
    spring *springs = malloc(sizeof(spring) * (size_t)count);
    for (long i = 0; i < count; i++) {
        double *p = &springs[i].x0;
        for (int j = 0; j < 7; j++) p[j] = strtod(argv[2 + 7 * i + j], NULL);
    }
    double start = cpu_seconds();
    double checksum = loop(springs, count, steps);
    double elapsed = cpu_seconds() - start;
    printf("steps=%ld seconds=%.9f checksum=%a\n", steps, elapsed, checksum);
    free(springs);
    return 0;
}
