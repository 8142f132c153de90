package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/quire-docs/quire/store"
)

// searchIndex checks or rebuilds the search index of a database (issue 24): quire before that
// issue could write wrongly folded text into the PostgreSQL index under concurrent load. check
// prints what it found and fails when a rebuild is needed; rebuild indexes every space again from
// its current revision while quire serves (one space per transaction).
func searchIndex(verb string, args []string, stdout io.Writer) error {
	if verb != "check" && verb != "rebuild" {
		return fmt.Errorf("unknown search-index command %q: check or rebuild", verb)
	}
	cmd := newDBCommand("search-index "+verb, dbUsage)
	if err := cmd.parse(args); err != nil {
		return err
	}
	return cmd.withStore(func(ctx context.Context, st store.Store) error {
		var report *store.SearchIndexReport
		var err error
		if verb == "rebuild" {
			report, err = st.RebuildSearchIndex(ctx)
		} else {
			report, err = st.CheckSearchIndex(ctx)
		}
		if err != nil {
			return err
		}
		if err := json.NewEncoder(stdout).Encode(report); err != nil {
			return err
		}
		if verb == "check" && report.NeedsRebuild() {
			return errors.New("the search index needs a rebuild: run quire search-index rebuild with the same --db")
		}
		return nil
	})
}
