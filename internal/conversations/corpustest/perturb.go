package corpustest

import (
	"math/rand/v2"
	"strings"
)

// Perturb is body with, drawn from rng word by word (about one word in forty each), a letter
// dropped, two letters swapped (only when swap is set) or the word dropped. The same rng gives
// the same text.
func Perturb(rng *rand.Rand, body string, swap bool) string {
	dropWord := 1
	if swap {
		dropWord = 2
	}
	words := strings.Split(body, " ")
	for w := range words {
		switch r := rng.IntN(40); {
		case r == 0 && len(words[w]) > 4:
			k := 1 + rng.IntN(len(words[w])-3)
			words[w] = words[w][:k] + words[w][k+1:]
		case swap && r == 1 && len(words[w]) > 4:
			b := []byte(words[w])
			k := 1 + rng.IntN(len(b)-3)
			b[k], b[k+1] = b[k+1], b[k]
			words[w] = string(b)
		case r == dropWord:
			words[w] = ""
		}
	}
	return strings.Join(words, " ")
}
