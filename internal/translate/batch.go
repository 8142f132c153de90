package translate

import "fmt"

// batchError says which request of a page's texts failed: texts start+1 to end of n.
func batchError(start, end, n int, err error) error {
	if start == 0 && end == n {
		return err
	}
	return fmt.Errorf("texts %d–%d of %d: %w", start+1, end, n, err)
}

// Limits of one POST /translate: the segments of a page go in as few requests as these allow.
const (
	maxBatchSegments = 64
	maxBatchChars    = 8000
)
