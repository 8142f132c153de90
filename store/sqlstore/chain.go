package sqlstore

// lineRef is a line read up to a seq.
type lineRef struct {
	line int64
	upto int64
	head int64 // the line's head when the chain was read
}

// chain is where a revision's content lives: its own line at its seq, then the line that one
// forked from at the fork's seq, and so on up to a line with no parent. A page's version in the
// revision is the one valid in the first element that touched it.
type chain []lineRef
