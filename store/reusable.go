package store

import (
	"path"
	"regexp"
	"strings"
	"time"
)

// Reusable contents: a titled body of markdown kept per revision as pages are, which pages
// include by a reusable-content block. A content batch inserts, updates and deletes them
// (insert_reusable_content, update_reusable_content, delete_reusable_content).

// ReusableContent is a reusable content as a revision holds it.
type ReusableContent struct {
	ID        string
	Title     string
	BodyID    int64 // its markdown's body; 0 until written
	Markdown  string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// IncludesDir is where GitBook's Git Sync layout keeps reusable contents, a file each.
const IncludesDir = ".gitbook/includes"

// ReusableSlug is the name (without .md) a reusable content's file takes in that layout: its
// title slugified, "untitled" when nothing of it is left.
func ReusableSlug(title string) string {
	if s := Slugify(title); s != "" {
		return s
	}
	return "untitled"
}

// IncludeSlug reads what an include tag names as a path to a reusable content's file
// (…/.gitbook/includes/<slug>.md, relative to the page): the slug, ok false when it names an id.
func IncludeSlug(name string) (string, bool) {
	if !strings.HasSuffix(name, ".md") && !strings.Contains(name, "/") {
		return "", false
	}
	return strings.TrimSuffix(path.Base(name), ".md"), true
}

// ResolveInclude finds the reusable content an include tag names among a revision's, by id or
// by the slug of its path: nil when none is, an EINVALID error when a slug names several.
func ResolveInclude(name string, all []*ReusableContent) (*ReusableContent, error) {
	slug, byPath := IncludeSlug(name)
	var found *ReusableContent
	for _, r := range all {
		switch {
		case !byPath && r.ID == name:
			return r, nil
		case byPath && ReusableSlug(r.Title) == slug:
			if found != nil {
				return nil, FieldErrorf("document", "the include %q names more than one reusable content (%q and %q are both titled so); include it by id", name, found.ID, r.ID)
			}
			found = r
		}
	}
	return found, nil
}

// includeTag is an include tag on a line of its own, as the markdown parser reads one.
var includeTag = regexp.MustCompile(`(?m)^([ \t]{0,3}\{%\s*include\s+")([^"\n]+)("\s*%\}[ \t]*\r?)$`)

// RewriteIncludes rewrites the names of the include tags of markdown by what resolve answers for
// each (the name itself to keep it), failing on its first error.
func RewriteIncludes(md string, resolve func(name string) (string, error)) (string, error) {
	if !strings.Contains(md, "include") {
		return md, nil
	}
	var failed error
	out := includeTag.ReplaceAllStringFunc(md, func(m string) string {
		sub := includeTag.FindStringSubmatch(m)
		id, err := resolve(sub[2])
		if err != nil {
			if failed == nil {
				failed = err
			}
			return m
		}
		return sub[1] + id + sub[3]
	})
	return out, failed
}

// Includes resolves the include tags of a batch's markdown: a reusable-content ref of the batch,
// or a path of GitBook's Git Sync layout naming one of the revision's reusable contents as the
// batch leaves them (All: those the revision started with), becomes its id; a path naming none
// fails the batch. An id (or any other name) is kept as written.
func (e *ReusableEdit) Includes(all func() ([]*ReusableContent, error)) func(name string) (string, error) {
	var after []*ReusableContent
	return func(name string) (string, error) {
		if id, ok := e.Refs[name]; ok {
			return id, nil
		}
		if _, byPath := IncludeSlug(name); !byPath {
			return name, nil
		}
		if after == nil {
			before, err := all()
			if err != nil {
				return "", err
			}
			after = []*ReusableContent{}
			for _, r := range before {
				if e.Deleted[r.ID] == nil && e.Changed[r.ID] == nil {
					after = append(after, r)
				}
			}
			for _, r := range e.Changed {
				after = append(after, r)
			}
		}
		r, err := ResolveInclude(name, after)
		if err != nil {
			return "", err
		}
		if r == nil {
			return "", FieldErrorf("document", "the include %q names no reusable content of this content (its file would be %s/<slug of its title>.md)", name, IncludesDir)
		}
		return r.ID, nil
	}
}

// ReusableOutcome is what a batch did to one reusable content: created, updated or deleted.
type ReusableOutcome struct {
	ID   string
	Kind string // created | updated | deleted
	Ref  *string
}

// IsReusableChange tells the reusable-content changes of a batch from the page ones.
func IsReusableChange(typ string) bool {
	switch typ {
	case "insert_reusable_content", "update_reusable_content", "delete_reusable_content":
		return true
	}
	return false
}

// ReusableEdit applies the reusable-content changes of a batch to the reusable contents of the
// revision it starts from, read through Find (nil: the revision holds none with that id).
type ReusableEdit struct {
	Find func(id string) (*ReusableContent, error)
	Now  time.Time
	Refs map[string]string // the batch's reusable-content refs, to the ids they were given
	// Changed and Deleted are the result, by id; Outcomes in the order first touched.
	Changed  map[string]*ReusableContent
	Deleted  map[string]*ReusableContent
	Outcomes []ReusableOutcome
	orig     map[string]bool // ids the starting revision holds
}

// Apply applies the reusable-content changes of a batch (the others are skipped), failing the
// batch with an error naming the change at fault.
func (e *ReusableEdit) Apply(changes []PageChange) error {
	e.Refs, e.Changed, e.Deleted, e.orig = map[string]string{}, map[string]*ReusableContent{}, map[string]*ReusableContent{}, map[string]bool{}
	for i, c := range changes {
		if !IsReusableChange(c.Type) {
			continue
		}
		if err := e.applyOne(c); err != nil {
			return ChangeError(i, err)
		}
	}
	return nil
}

func (e *ReusableEdit) applyOne(c PageChange) error {
	if c.Type == "insert_reusable_content" {
		if c.ReusableContent != nil {
			return FieldErrorf("reusableContent", "is not given when inserting")
		}
		if c.Title == nil || *c.Title == "" {
			return FieldErrorf("title", "is required")
		}
		r := &ReusableContent{ID: NewID(), Title: *c.Title, CreatedAt: e.Now, UpdatedAt: e.Now}
		if c.Markdown != nil {
			r.Markdown = *c.Markdown
		}
		if c.Ref != nil {
			if _, dup := e.Refs[*c.Ref]; dup {
				return FieldErrorf("ref", "%q is already the ref of a reusable content of this batch", *c.Ref)
			}
			e.Refs[*c.Ref] = r.ID
		}
		e.Changed[r.ID] = r
		e.outcome(r.ID, "created", c.Ref)
		return nil
	}
	if c.Ref != nil {
		return FieldErrorf("ref", "is only given when inserting")
	}
	r, err := e.target(c.ReusableContent)
	if err != nil {
		return err
	}
	if c.Type == "delete_reusable_content" {
		delete(e.Changed, r.ID)
		if e.orig[r.ID] {
			e.Deleted[r.ID] = r
			e.outcome(r.ID, "deleted", nil)
		} else {
			e.dropOutcome(r.ID) // inserted and deleted by the same batch: nothing happened
		}
		return nil
	}
	if c.Title != nil {
		if *c.Title == "" {
			return FieldErrorf("title", "cannot be empty")
		}
		r.Title = *c.Title
	}
	if c.Markdown != nil {
		r.Markdown, r.BodyID = *c.Markdown, 0
	}
	r.UpdatedAt = e.Now
	e.Changed[r.ID] = r
	e.outcome(r.ID, "updated", nil)
	return nil
}

// target finds the reusable content a change names, by id or by a ref of the batch.
func (e *ReusableEdit) target(name *string) (*ReusableContent, error) {
	if name == nil || *name == "" {
		return nil, FieldErrorf("reusableContent", "is required")
	}
	id := *name
	if byRef, ok := e.Refs[id]; ok {
		id = byRef
	}
	if e.Deleted[id] != nil {
		return nil, FieldErrorf("reusableContent", "%q is deleted by this batch", *name)
	}
	if r := e.Changed[id]; r != nil {
		return r, nil
	}
	r, err := e.Find(id)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, FieldErrorf("reusableContent", "no reusable content %q in this content", *name)
	}
	e.orig[id] = true
	cp := *r
	return &cp, nil
}

func (e *ReusableEdit) outcome(id, kind string, ref *string) {
	for i, o := range e.Outcomes {
		if o.ID == id {
			if o.Kind != "created" {
				e.Outcomes[i].Kind = kind
			}
			return
		}
	}
	e.Outcomes = append(e.Outcomes, ReusableOutcome{ID: id, Kind: kind, Ref: ref})
}

func (e *ReusableEdit) dropOutcome(id string) {
	for i, o := range e.Outcomes {
		if o.ID == id {
			e.Outcomes = append(e.Outcomes[:i], e.Outcomes[i+1:]...)
			return
		}
	}
}
