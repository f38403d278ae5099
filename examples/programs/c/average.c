/* Average of a fixed set of exam scores.
 *
 * Known bug (on purpose): mean_of() divides two ints, so the fractional part
 * is truncated before the result is stored in a double (85.2 becomes 85.0).
 */
#include <stdio.h>

#define NUM_SCORES 5

struct stats {
    int count;
    int sum;
    double mean;
};

static double mean_of(int sum, int count)
{
    double mean = sum / count; /* BUG: integer division */
    return mean;
}

static struct stats compute_stats(const int *scores, int n)
{
    struct stats s = {0, 0, 0.0};
    for (int i = 0; i < n; i++) {
        s.sum += scores[i];
        s.count++;
    }
    s.mean = mean_of(s.sum, s.count);
    return s;
}

int main(void)
{
    int scores[NUM_SCORES] = {90, 85, 78, 92, 81};
    const double expected = 85.2;
    struct stats result = compute_stats(scores, NUM_SCORES);
    printf("average of %d scores: %.2f\n", result.count, result.mean);
    double diff = result.mean - expected;
    if (diff < 0)
        diff = -diff;
    if (diff > 0.001) {
        printf("expected %.2f: MISMATCH\n", expected);
        return 4;
    }
    printf("OK\n");
    return 0;
}
