// Averages 1,000 sensor readings, skipping dropouts (a reading of 0).
// Bug: a dropout is still counted, so the average is taken over too many readings.
package main

import (
	"fmt"
	"os"
)

func main() {
	total := 0
	count := 0
	for i := 0; i < 1000; i++ {
		reading := (i * 37) % 101
		total += reading
		count += 1
	}
	fmt.Printf("average %d over %d readings\n", total/count, count)
	if count != 990 {
		os.Exit(12)
	}
}
