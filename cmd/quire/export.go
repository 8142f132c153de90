package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/quire-docs/quire/internal/gitsync"
	"github.com/quire-docs/quire/store"
)

// exportSpace writes a space's current revision in GitBook's Git Sync layout.
func exportSpace(args []string, stdout, stderr io.Writer) error {
	cmd := newDBCommand("export", dbUsage)
	spaceID := cmd.String("space", "", "the space to export")
	to := cmd.String("to", "", "the directory to write (empty or absent)")
	if err := cmd.parse(args, "space", "to"); err != nil {
		return err
	}
	start := time.Now()
	var sp *gitsync.Space
	if err := cmd.withStore(func(ctx context.Context, st store.Store) (err error) {
		sp, err = gitsync.Load(ctx, st, *spaceID)
		return err
	}); err != nil {
		return err
	}
	bar := newProgress(stderr, "exporting")
	stats, err := gitsync.Export(*to, sp, bar.step)
	bar.finish()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "exported %d pages, %d files, %d reusable contents, %d links to %s in %s\n",
		stats.Pages, stats.Files, stats.Reusable, stats.Links, *to, time.Since(start).Round(time.Millisecond))
	if stats.Unresolved > 0 {
		fmt.Fprintf(stderr, "warning: %d relative links lead to nothing in the space and were kept as written (import keeps them too, and notes them)\n",
			stats.Unresolved)
	}
	if stats.SkippedLinks > 0 {
		fmt.Fprintf(stderr, "warning: %d link pages open a page without a file of its own (a group, a link); they were left out\n",
			stats.SkippedLinks)
	}
	return nil
}
