// Quotes shipping for parcels whose weights (grams) come as arguments.
//
// Bug (on purpose): a parcel of exactly 500 g takes the large rate, while the small
// rate covers up to 500 g inclusive (`<` for `<=` in band). Run it on `120 499`
// (exit 0) and on `120 500` (exit 16): the first difference between the two runs'
// call traces is the band call whose argument is 500, and the largeRate call only
// the failing run makes.
package main

import (
	"fmt"
	"os"
	"strconv"
)

//go:noinline
func band(grams int) string {
	if grams < 500 {
		return "small"
	}
	return "large"
}

//go:noinline
func smallRate(grams int) int {
	return grams * 2
}

//go:noinline
func largeRate(grams int) int {
	return grams * 3
}

//go:noinline
func quote(grams int) int {
	if band(grams) == "small" {
		return smallRate(grams)
	}
	return largeRate(grams)
}

func main() {
	total, gramsInAll := 0, 0
	for _, arg := range os.Args[1:] {
		grams, err := strconv.Atoi(arg)
		if err != nil {
			fmt.Println("not a weight:", arg)
			os.Exit(2)
		}
		total += quote(grams)
		gramsInAll += grams
	}
	fmt.Printf("total %d cents\n", total)
	// Every parcel here weighs at most 500 g: each should cost 2 cents a gram.
	if total != 2*gramsInAll {
		os.Exit(16)
	}
}
