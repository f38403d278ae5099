// A program that panics, for exceptionInfo under dlv: it picks each order from its
// shelf, and the last order names shelf 3 of 3 (0-based), so indexing the shelves
// goes out of range. The runtime error panics (exit status 2) after two lines:
//
//	picking 0: bolts
//	picking 2: washers
package main

import "fmt"

var shelves = []string{"bolts", "nuts", "washers"}

func shelfFor(position int) string {
	return shelves[position]
}

func main() {
	orders := []int{0, 2, 3}
	for _, position := range orders {
		fmt.Printf("picking %d: %s\n", position, shelfFor(position))
	}
	fmt.Println("all orders picked")
}
