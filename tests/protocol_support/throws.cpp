// A C++ program that throws and catches: the third quantity is negative, so
// parse_quantity throws std::invalid_argument, which main catches and skips.
#include <cstdio>
#include <stdexcept>

static int parse_quantity(int raw)
{
    if (raw < 0)
        throw std::invalid_argument("negative quantity");
    return raw;
}

int main()
{
    int total = 0;
    const int raws[] = {3, 5, -2, 4};
    for (int raw : raws) {
        try {
            total += parse_quantity(raw);
        } catch (const std::invalid_argument &e) {
            std::printf("skipped: %s\n", e.what());
        }
    }
    std::printf("total %d\n", total);
    return total == 12 ? 0 : 1;
}
