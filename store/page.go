package store

// DefaultLimit is the page size when the caller gives none.
const DefaultLimit = 50

// Page asks for one page of a list: Cursor is the opaque `page` a previous list answered as its
// next page ("" for the first page).
type Page struct {
	Cursor string
	Limit  int
}

// List is one page of a list: the items, the total count under the same filters, and the cursor
// of the next page ("" on the last page).
type List[T any] struct {
	Items []T
	Count int
	Next  string
}

func (p Page) Size() int {
	if p.Limit <= 0 {
		return DefaultLimit
	}
	return p.Limit
}
