// A long-running program to attach to: it counts ticks, 20 a second, for up to
// two minutes, then prints how many it counted.
package main

import (
	"fmt"
	"time"
)

func tick(count int) int {
	next := count + 1
	return next
}

func main() {
	count := 0
	for i := 0; i < 2400; i++ {
		count = tick(count)
		time.Sleep(50 * time.Millisecond)
	}
	fmt.Printf("ticked %d times\n", count)
}
