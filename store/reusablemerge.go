package store

// MergeReusable three-way merges one reusable content as base, main and the change request hold
// it (nil: absent there). take tells whether main must change to the result (nil: deleted); a
// content changed differently on both sides is a conflict. Contents are compared by title and
// markdown.
func MergeReusable(base, main, cr *ReusableContent) (result *ReusableContent, take bool, conflict *MergeConflict) {
	same := func(a, b *ReusableContent) bool {
		return a == nil && b == nil || a != nil && b != nil && a.Title == b.Title && a.Markdown == b.Markdown
	}
	switch {
	case same(base, cr), same(main, cr):
		return nil, false, nil
	case same(base, main):
		return cr, true, nil
	}
	c := &MergeConflict{Reason: "reusable content changed on both sides"}
	for _, r := range []*ReusableContent{cr, main, base} {
		if r != nil {
			c.PageID, c.Title = r.ID, r.Title
			break
		}
	}
	return nil, false, c
}
