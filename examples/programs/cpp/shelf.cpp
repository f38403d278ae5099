// Which items on a shelf to reorder, in C++: an item needs reordering when its
// stock is at or below its minimum, and the order fills it up to its capacity.
//
// Known bug (on purpose): Shelf::reorder() fills an item up to its minimum
// instead of its capacity. Run with the argument `lookup` to look up a sku the
// shelf does not hold: std::map::at throws std::out_of_range, uncaught.

#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

struct Item {
    std::string sku;
    int stock;
    int minimum;
    int capacity;
};

class Shelf {
public:
    explicit Shelf(std::vector<Item> items) : items_(std::move(items)) {
        for (const Item &item : items_) {
            index_[item.sku] = item.stock;
        }
    }

    int units_to_order(const Item &item) const {
        int missing = item.minimum - item.stock; // BUG: should be capacity - stock
        return missing;
    }

    std::map<std::string, int> reorder() const {
        std::map<std::string, int> orders;
        for (const Item &item : items_) {
            if (item.stock <= item.minimum) {
                orders[item.sku] = units_to_order(item);
            }
        }
        return orders;
    }

    int stock_of(const std::string &sku) const { return index_.at(sku); }

private:
    std::vector<Item> items_;
    std::map<std::string, int> index_;
};

int main(int argc, char **argv) {
    Shelf shelf({{"flour", 2, 5, 20}, {"sugar", 9, 4, 12}, {"salt", 4, 4, 10}});
    if (argc > 1 && std::string(argv[1]) == "lookup") {
        std::printf("yeast: %d\n", shelf.stock_of("yeast"));
        return 0;
    }
    std::map<std::string, int> orders = shelf.reorder();
    int total = 0;
    for (const auto &order : orders) {
        total += order.second;
    }
    std::printf("ordered %d units of %zu items\n", total, orders.size());
    if (total != 24) {
        std::printf("expected 24 units: MISMATCH\n");
        return 10;
    }
    return 0;
}
