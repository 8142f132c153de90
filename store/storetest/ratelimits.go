package storetest

import (
	"context"
	"testing"
)

// rateLimits: counts added by several nodes to one window sum up, windows are apart, a bucket
// nobody counted reads 0, and windows before the previous one are deleted.
func rateLimits(t *testing.T, open Opener) {
	st := open(t, nil)
	ctx := context.Background()
	const w = int64(1_800_000_000)
	if n, err := st.RateUsage(ctx, w, "a"); err != nil || n != 0 {
		t.Fatalf("unknown bucket: %d %v", n, err)
	}
	got, err := st.AddRateUsage(ctx, w, map[string]int{"a": 3, "b": 1})
	if err != nil || got["a"] != 3 || got["b"] != 1 {
		t.Fatalf("first node: %v %v", got, err)
	}
	got, err = st.AddRateUsage(ctx, w, map[string]int{"a": 4})
	if err != nil || got["a"] != 7 || len(got) != 1 {
		t.Fatalf("second node: %v %v", got, err)
	}
	if n, err := st.RateUsage(ctx, w, "a"); err != nil || n != 7 {
		t.Fatalf("shared count %d %v, want 7", n, err)
	}
	if got, err = st.AddRateUsage(ctx, w+60, map[string]int{"a": 1}); err != nil || got["a"] != 1 {
		t.Fatalf("next window: %v %v", got, err)
	}
	if n, _ := st.RateUsage(ctx, w, "a"); n != 7 {
		t.Fatalf("the previous window is kept: %d, want 7", n)
	}
	if _, err = st.AddRateUsage(ctx, w+120, map[string]int{"b": 1}); err != nil {
		t.Fatal(err)
	}
	if n, _ := st.RateUsage(ctx, w, "a"); n != 0 {
		t.Fatalf("a window two minutes old still counts %d", n)
	}
}
