/* Prices parcels whose weights come as text, each packed in nested boxes.
 *
 * Bug (on purpose): a parcel of exactly 500 g is priced as large, while small
 * goes up to 500 g inclusive. A call trace shows it at once: price_of(grams=500,
 * depth=2) returns band 1 (large). Its calls are a call trace's examples: a
 * recursion (layers) and a function that returns a struct (price_of).
 */
#include <stdio.h>
#include <stdlib.h>

struct price {
    int cents;
    int band; /* 0: small, 1: large */
};

static int layers(int boxes)
{
    if (boxes == 0)
        return 0;
    return 1 + layers(boxes - 1);
}

static int parse_grams(const char *text)
{
    return atoi(text);
}

static struct price price_of(int grams, int depth)
{
    struct price p = { grams * 2 + depth * 50, grams < 500 ? 0 : 1 };
    return p;
}

int main(void)
{
    const char *weights[] = { "120", "500" };
    int total = 0;
    int large = 0;
    for (int i = 0; i < 2; i++) {
        struct price quote = price_of(parse_grams(weights[i]), layers(2));
        total += quote.cents;
        large += quote.band;
    }
    printf("total %d cents, %d large\n", total, large);
    return large == 0 ? 0 : 15;
}
