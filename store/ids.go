package store

import "crypto/rand"

// IDAlphabet is the characters ids and tokens are made of.
const IDAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// NewID returns 20 random base62 characters from crypto/rand.
func NewID() string {
	var b [20]byte
	out := make([]byte, 20)
	for i := 0; i < 20; {
		if _, err := rand.Read(b[:]); err != nil {
			panic("store: crypto/rand failed: " + err.Error())
		}
		for _, c := range b {
			// 248 = 4*62: rejecting the rest keeps every character equally likely.
			if c < 248 && i < 20 {
				out[i] = IDAlphabet[c%62]
				i++
			}
		}
	}
	return string(out)
}
