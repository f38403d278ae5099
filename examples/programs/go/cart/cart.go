// Package cart totals a shopping cart; its total is one short, the bug the tests find.
package cart

// Item is a price and a quantity.
type Item struct {
	Price int
	Qty   int
}

// LineTotal is one item's price times its quantity.
func LineTotal(item Item) int {
	subtotal := item.Price * item.Qty
	return subtotal
}

// Total adds up every line.
func Total(items []Item) int {
	amount := 0
	for i, item := range items {
		// The bug: the last item's quantity is counted one short.
		if i == len(items)-1 {
			item.Qty--
		}
		amount += LineTotal(item)
	}
	return amount
}
