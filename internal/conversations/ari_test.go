package conversations

import (
	"math"
	"testing"
)

func TestAdjustedRandIndex(t *testing.T) {
	cases := []struct {
		name        string
		truth, pred []string
		want        float64
	}{
		{"identical", []string{"a", "a", "b", "b"}, []string{"a", "a", "b", "b"}, 1},
		{"renamed", []string{"a", "a", "b", "b"}, []string{"x", "x", "y", "y"}, 1},
		{"one split", []string{"a", "a", "b", "b"}, []string{"x", "x", "y", "z"}, 4.0 / 7},
		{"crossed", []string{"a", "a", "b", "b"}, []string{"x", "y", "x", "y"}, -0.5},
		{"all together vs all apart", []string{"a", "a", "a", "a"}, []string{"w", "x", "y", "z"}, 0},
		// Pairs together in both: 1+1+3 = 5; rows 3·3 = 9, columns 1+3+6 = 10, of 36 pairs:
		// expected 9·10/36 = 2.5, maximum 9.5, so (5-2.5)/(9.5-2.5).
		{"three groups", []string{"0", "0", "0", "1", "1", "1", "2", "2", "2"}, []string{"0", "0", "1", "1", "1", "2", "2", "2", "2"}, 2.5 / 7},
		{"single item", []string{"a"}, []string{"x"}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := AdjustedRandIndex(c.truth, c.pred); math.Abs(got-c.want) > 1e-9 {
				t.Fatalf("ARI = %v, want %v", got, c.want)
			}
		})
	}
}
