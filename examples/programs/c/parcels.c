/* Total weight of a chain of parcels.
 *
 * Known bug (on purpose): total_weight() stops when the parcel it is on has no
 * weight, not when the chain ends, so it walks past the last parcel and reads
 * through a null pointer: the program dies of SIGSEGV (a core dump to open
 * post-mortem, with `ulimit -c unlimited`).
 */
#include <stdio.h>

struct parcel {
    int grams;
    struct parcel *next;
};

static int total_weight(const struct parcel *first)
{
    int total = 0;
    const struct parcel *at = first;
    while (at->grams != 0) { /* BUG: should be `at != NULL` */
        total += at->grams;
        at = at->next;
    }
    return total;
}

int main(void)
{
    struct parcel small = {250, NULL};
    struct parcel large = {1200, &small};
    struct parcel first = {400, &large};
    int parcels = 3;
    printf("weighing %d parcels\n", parcels);
    fflush(stdout);
    printf("total %d g\n", total_weight(&first));
    return 0;
}
