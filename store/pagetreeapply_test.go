package store

import (
	"fmt"
	"testing"
	"time"
)

// memorySource is a revision's pages in memory, counting the reads by id.
type memorySource struct {
	pages map[string]RevisionPage
	reads int
}

func (m *memorySource) Pages(ids []string, _ bool) (map[string]*RevisionPage, error) {
	m.reads++
	out := map[string]*RevisionPage{}
	for _, id := range ids {
		if p, ok := m.pages[id]; ok {
			out[id] = &p
		}
	}
	return out, nil
}

func (m *memorySource) Children(parent *string) ([]*RevisionPage, error) {
	var out []*RevisionPage
	for _, p := range m.pages {
		if (parent == nil) == (p.ParentID == nil) && (parent == nil || *parent == *p.ParentID) {
			out = append(out, &p)
		}
	}
	return out, nil
}

func (m *memorySource) ByPath(path string, _ bool) (*RevisionPage, error) {
	for _, p := range m.pages {
		if p.Path == path {
			return &p, nil
		}
	}
	return nil, nil
}

// A batch reads the pages it names in one read of its revision, not one per change; a name
// that is a ref of the batch still finds the page the batch inserted.
func TestApplyReadsNamedPagesAtOnce(t *testing.T) {
	src := &memorySource{pages: map[string]RevisionPage{}}
	var changes []PageChange
	for i := range 10 {
		id := fmt.Sprintf("page%02d", i)
		src.pages[id] = RevisionPage{ID: id, Title: id, Slug: id, Path: id, Position: float64(i), BodyID: 1}
		page, title := id, "Page "+id
		changes = append(changes, PageChange{Type: "update_page", Page: &page, Title: &title})
	}
	ref, newTitle, renamed := "fresh", "Fresh", "Fresh, renamed"
	changes = append(changes, PageChange{Type: "insert_page", Ref: &ref, Title: &newTitle},
		PageChange{Type: "update_page", Page: &ref, Title: &renamed})
	tree := NewPageTree(src, time.Now())
	if err := tree.Apply(changes); err != nil {
		t.Fatal(err)
	}
	if src.reads != 1 {
		t.Errorf("the batch read its pages by id %d times, want 1", src.reads)
	}
	changed, _ := tree.Result()
	titles := map[string]string{}
	for _, p := range changed {
		titles[p.ID] = p.Title
	}
	if len(changed) != 11 || titles["page03"] != "Page page03" || titles[tree.Refs["fresh"]] != "Fresh, renamed" {
		t.Fatalf("changed %d pages: %v", len(changed), titles)
	}
}
