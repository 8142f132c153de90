package store

// Pointer names a sibling: a space or a collection.
type Pointer struct {
	Kind string // "space" or "collection"
	ID   string
}

// Move says where an item goes: under Parent (when SetParent; nil is the top level), just
// before or after a sibling (at the end when neither).
type Move struct {
	SetParent bool
	Parent    *string
	Before    *Pointer
	After     *Pointer
}
