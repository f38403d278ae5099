/* Quotes shipping for parcels whose weights (grams) come as arguments.
 *
 * Bug (on purpose): a parcel of exactly 500 g takes the large rate, while the
 * small rate covers up to 500 g inclusive (`<` for `<=` in band). Run it on
 * `120 499` (exit 0) and on `120 500` (exit 16): the first difference between the
 * two runs' call traces is band(grams=500) returning 1 (large), and the
 * large_rate call only the failing run makes.
 */
#include <stdio.h>
#include <stdlib.h>

static int band(int grams)
{
    return grams < 500 ? 0 : 1; /* 0: small, 1: large */
}

static int small_rate(int grams)
{
    return grams * 2;
}

static int large_rate(int grams)
{
    return grams * 3;
}

static int quote(int grams)
{
    if (band(grams) == 0)
        return small_rate(grams);
    return large_rate(grams);
}

int main(int argc, char **argv)
{
    int total = 0;
    int grams_in_all = 0;
    for (int i = 1; i < argc; i++) {
        int grams = atoi(argv[i]);
        total += quote(grams);
        grams_in_all += grams;
    }
    printf("total %d cents\n", total);
    /* Every parcel here weighs at most 500 g: each should cost 2 cents a gram. */
    return total == 2 * grams_in_all ? 0 : 16;
}
