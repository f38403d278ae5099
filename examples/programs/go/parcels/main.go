// Prices parcels whose weights come as text, each packed in nested boxes.
//
// Bug (on purpose): a parcel of exactly 500 g is priced as large, while small goes
// up to 500 g inclusive. A call trace shows it at once: priceOf(grams=500, depth=2)
// returns band "large". Its calls are a call trace's examples: a recursion (layers),
// a function with two results, one an error (parseGrams), and one that returns a
// struct (priceOf).
package main

import (
	"fmt"
	"os"
	"strconv"
)

type price struct {
	cents int
	band  string
}

//go:noinline
func layers(boxes int) int {
	if boxes == 0 {
		return 0
	}
	return 1 + layers(boxes-1)
}

//go:noinline
func parseGrams(text string) (int, error) {
	return strconv.Atoi(text)
}

//go:noinline
func priceOf(grams, depth int) price {
	band := "small"
	if grams >= 500 {
		band = "large"
	}
	return price{grams*2 + depth*50, band}
}

func main() {
	total := 0
	var bands []string
	for _, text := range []string{"120", "heavy", "500"} {
		grams, err := parseGrams(text)
		if err != nil {
			continue
		}
		quote := priceOf(grams, layers(2))
		total += quote.cents
		bands = append(bands, quote.band)
	}
	fmt.Printf("total %d cents, bands %v\n", total, bands)
	if len(bands) == 2 && bands[1] == "small" {
		os.Exit(0)
	}
	os.Exit(15)
}
