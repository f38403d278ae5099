/* A long-running program to attach to: it counts ticks, 20 a second, for up to
 * two minutes, then prints how many it counted. */
#include <stdio.h>
#include <unistd.h>

static int tick(int count) {
    int next = count + 1;
    return next;
}

int main(void) {
    int count = 0;
    for (int i = 0; i < 2400; i++) {
        count = tick(count);
        usleep(50 * 1000);
    }
    printf("ticked %d times\n", count);
    return 0;
}
