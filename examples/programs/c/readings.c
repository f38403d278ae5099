/* Averages 1,000 sensor readings, skipping dropouts (a reading of 0).
 * Bug: a dropout is still counted, so the average is taken over too many readings. */
#include <stdio.h>

int main(void) {
    int total = 0;
    int count = 0;
    for (int i = 0; i < 1000; i++) {
        int reading = (i * 37) % 101;
        total += reading;
        count += 1;
    }
    printf("average %d over %d readings\n", total / count, count);
    return count == 990 ? 0 : 12;
}
