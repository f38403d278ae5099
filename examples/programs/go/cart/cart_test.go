package cart

import "testing"

func TestTotal(t *testing.T) {
	got := Total([]Item{{10, 2}, {1, 22}})
	if got != 42 {
		t.Errorf("Total() = %d, want 42", got)
	}
}

func TestEmpty(t *testing.T) {
	if got := Total(nil); got != 0 {
		t.Errorf("Total(nil) = %d, want 0", got)
	}
}
