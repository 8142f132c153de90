package conversations

// AdjustedRandIndex compares two labellings of the same items (Hubert and Arabie, 1985): 1 when
// they group the items identically, about 0 for independent labellings, negative for worse than
// chance. When both labellings are trivial (one group each, or every item alone in both) the
// expected index equals its maximum and the result is defined as 1.
func AdjustedRandIndex(truth, pred []string) float64 {
	if len(truth) != len(pred) {
		panic("conversations: labellings of different lengths")
	}
	type pair struct{ t, p string }
	cells := map[pair]int{}
	rows := map[string]int{}
	cols := map[string]int{}
	for i := range truth {
		cells[pair{truth[i], pred[i]}]++
		rows[truth[i]]++
		cols[pred[i]]++
	}
	choose2 := func(n int) float64 { return float64(n) * float64(n-1) / 2 }
	var index, sumRows, sumCols float64
	for _, n := range cells {
		index += choose2(n)
	}
	for _, n := range rows {
		sumRows += choose2(n)
	}
	for _, n := range cols {
		sumCols += choose2(n)
	}
	total := choose2(len(truth))
	if total == 0 {
		return 1
	}
	expected := sumRows * sumCols / total
	max := (sumRows + sumCols) / 2
	if max == expected {
		return 1
	}
	return (index - expected) / (max - expected)
}
