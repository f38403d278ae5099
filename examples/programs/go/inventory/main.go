// Command inventory decides which items to reorder and how many units. An
// item is restocked when its stock is at or below its threshold; the order
// brings it back up to its target level.
//
// Known bug (on purpose): needsRestock uses < instead of <=, so an item whose
// stock equals its threshold exactly ("nuts") is never reordered.
package main

import (
	"fmt"
	"os"
)

type Item struct {
	Name      string
	Stock     int
	Threshold int
	Target    int
}

type Order struct {
	Name  string
	Units int
}

func needsRestock(item Item) bool {
	return item.Stock < item.Threshold // BUG: should be <=
}

func restock(items []Item) []Order {
	var orders []Order
	for _, item := range items {
		due := needsRestock(item)
		if !due {
			continue
		}
		qty := item.Target - item.Stock
		orders = append(orders, Order{Name: item.Name, Units: qty})
	}
	return orders
}

func main() {
	items := []Item{
		{Name: "bolts", Stock: 12, Threshold: 20, Target: 50},
		{Name: "nuts", Stock: 20, Threshold: 20, Target: 60},
		{Name: "washers", Stock: 45, Threshold: 30, Target: 80},
		{Name: "screws", Stock: 5, Threshold: 10, Target: 40},
	}
	const expectedUnits = 113
	orders := restock(items)
	total := 0
	for _, o := range orders {
		total += o.Units
	}
	fmt.Printf("ordered %d units across %d items\n", total, len(orders))
	if total != expectedUnits {
		fmt.Printf("expected %d units: MISMATCH\n", expectedUnits)
		os.Exit(5)
	}
	fmt.Println("OK")
}
