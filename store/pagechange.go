package store

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// PageChange is one change of a content batch. Type is insert_page, update_page, delete_page,
// revert_page, insert_files, or insert_reusable_content, update_reusable_content or
// delete_reusable_content (reusable.go: Ref, ReusableContent, Title and Markdown).
type PageChange struct {
	Type          string
	Ref           *string
	Page          *string // update_page, delete_page, revert_page: the page's id or a ref of the batch
	Title         *string
	Slug          *string // given explicitly: it must be free among the page's siblings
	Emoji         *string // "" removes it
	Icon          *string // "" removes it
	Description   *string
	Hidden        *bool
	NoIndex       *bool
	NoRobotsIndex *bool
	Condition     *string // "" removes it
	LinkTitle     *string // "" removes it
	SetCover      bool    // Cover was given: nil removes it
	Cover         *PageCover
	Markdown      *string
	PageType      *string      // insert_page: PageDocument (nil), PageGroup or PageLink
	Target        *PageTarget  // a link page's target
	SetInto       bool         // Into was given: nil is the top level
	Into          *string      // the parent page's id or a ref of the batch
	Files         []FileUpload // insert_files
	FileIDs       []string     // delete_files: the files to remove (a git pull's, not the API's)
	At            *int         // index among the new siblings; nil: the end
	Revision      *string      // revert_page: the revision to revert to (nil: the batch's base)
	Blocks        []string     // revert_page: block-level reverts, which are refused
	// ReusableContent is the reusable content an update or delete names: its id or a ref of the batch.
	ReusableContent *string
}

// PageOutcome is what a batch did to one page, compared with the revision it started from:
// created, updated or deleted. Ref is the batch's ref of a created page.
type PageOutcome struct {
	PageID string
	Kind   string // created | updated | deleted
	Ref    *string
}

// MaxFileSize is the largest file an insert_files change takes (inline base64 files are held to
// less by the API).
const MaxFileSize = 10 << 20

// Slugify derives a URL slug from a title: lower-case letters and digits joined by hyphens,
// accents dropped.
func Slugify(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range norm.NFKD.String(title) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(unicode.ToLower(r))
		default:
			dash = true
		}
		if b.Len() >= 100 {
			break
		}
	}
	s := strings.Trim(b.String(), "-")
	if len(s) > 100 {
		s = strings.Trim(s[:100], "-")
	}
	if s == "" {
		return "page"
	}
	return s
}

// PositionAt returns the position that places a page at index at among siblings.
func PositionAt(sibs []*RevisionPage, at int) float64 {
	switch {
	case len(sibs) == 0:
		return 0
	case at <= 0:
		return sibs[0].Position - 1
	case at >= len(sibs):
		return sibs[len(sibs)-1].Position + 1
	}
	lo, hi := sibs[at-1].Position, sibs[at].Position
	if mid := lo + (hi-lo)/2; lo < mid && mid < hi {
		return mid
	}
	// The gap is worn out (a float halves only so often): spread the siblings out again.
	for i, s := range sibs {
		s.Position = float64(i)
	}
	return float64(at) - 0.5
}

// ChangeError makes the error of change i of a batch EINVALID, about the change's field (or the
// change, when the error names no field).
func ChangeError(i int, err error) error {
	var e *Error
	if errors.As(err, &e) && e.Field != "" {
		return FieldErrorf(fmt.Sprintf("changes[%d].%s", i, e.Field), "%s", e.Reason)
	}
	reason := err.Error()
	if e != nil {
		reason = e.Reason
	}
	return FieldErrorf(fmt.Sprintf("changes[%d]", i), "%s", reason)
}
