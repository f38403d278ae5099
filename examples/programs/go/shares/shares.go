// Splits a bill between the people who ordered.
//
// Known bug (on purpose): the number of people is counted from the orders that
// are paid for, not from every order, and no order is paid yet: share() divides
// by zero and the program panics. Run with GOTRACEBACK=crash (and
// `ulimit -c unlimited`) and it leaves a core dump to open post-mortem.
package main

import "fmt"

type order struct {
	who   string
	cents int
	paid  bool
}

func share(total, people int) int {
	each := total / people
	return each
}

func main() {
	orders := []order{{"ana", 1250, false}, {"ben", 980, false}}
	total := 0
	people := 0
	for _, o := range orders {
		total += o.cents
		if o.paid { // BUG: every order counts, paid or not
			people++
		}
	}
	fmt.Println("orders", len(orders))
	fmt.Println("each pays", share(total, people))
}
