package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/quire-docs/quire/internal/gitsync"
	"github.com/quire-docs/quire/store"
)

// importSpace reads a directory in Git Sync layout into a space through one change request,
// merged. Everything is read and checked before the first write; a write failing midway removes
// the space it created (or archives the change request of an existing space).
func importSpace(args []string, stdout, stderr io.Writer) error {
	cmd := newDBCommand("import", dbUsage)
	orgID := cmd.String("org", "", "the organization to import into")
	from := cmd.String("from", "", "the directory to read")
	spaceID := cmd.String("space", "", "an existing space to add the pages to (default: a new space)")
	if err := cmd.parse(args, "org", "from"); err != nil {
		return err
	}
	start := time.Now()
	bar := newProgress(stderr, "reading")
	im, err := gitsync.Read(*from, bar.step)
	bar.finish()
	if err != nil {
		return fmt.Errorf("nothing imported: %w", err)
	}
	for _, n := range im.Notes {
		fmt.Fprintf(stderr, "note: %v\n", n)
	}
	if len(im.Pages) == 0 {
		return errors.New("nothing imported: the table of contents lists no pages")
	}
	var sp *store.Space
	if err := cmd.withStore(func(ctx context.Context, st store.Store) (err error) {
		bar := newProgress(stderr, "writing")
		subject := "Import from " + filepath.Base(*from)
		var applied *gitsync.Applied
		sp, applied, err = gitsync.Apply(ctx, st, im, gitsync.ApplyOptions{OrgID: *orgID, SpaceID: *spaceID, Subject: subject}, bar.step)
		bar.finish()
		if err != nil {
			return fmt.Errorf("nothing imported: %w", err)
		}
		// A space linked to a git branch pushes the import (the server's job runner does it).
		if _, err := store.QueuePush(ctx, st, sp.ID, applied.UserID, subject); err != nil {
			fmt.Fprintf(stderr, "warning: the push to the space's git branch was not queued: %v\n", err)
		}
		return nil
	}); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "imported %d pages, %d files, %d links into space %s (%q) in %s\n",
		len(im.Pages), len(im.Files), im.Links, sp.ID, sp.Title, time.Since(start).Round(time.Millisecond))
	if len(im.Notes) > 0 {
		fmt.Fprintf(stdout, "%d notes: what was kept as written or left out is listed above\n", len(im.Notes))
	}
	return nil
}
