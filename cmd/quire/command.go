package main

import (
	"context"
	"errors"
	"flag"
	"strings"

	"github.com/quire-docs/quire/store"
)

// dbCommand is what the commands that work on a database share: their flags (--db first, each
// also read from its QUIRE_… variable) and opening the store --db names.
type dbCommand struct {
	*flag.FlagSet
	db *string
}

// newDBCommand starts a command's flags with --db (./quire.db by default), described by dbHelp.
func newDBCommand(name, dbHelp string) dbCommand {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	return dbCommand{FlagSet: fs, db: fs.String("db", "./quire.db", dbHelp)}
}

// parse reads the flags from the environment, then from args, and checks that the required
// ones are set.
func (c dbCommand) parse(args []string, required ...string) error {
	if err := parseWithEnv(c.FlagSet, args); err != nil {
		return err
	}
	return c.require(required...)
}

// require fails, naming them all, when any of the named flags was left empty.
func (c dbCommand) require(names ...string) error {
	for _, name := range names {
		if c.Lookup(name).Value.String() == "" {
			verb := " is required"
			if len(names) > 1 {
				verb = " are required"
			}
			return errors.New("--" + strings.Join(names, " and --") + verb)
		}
	}
	return nil
}

// withStore opens the store --db names, runs fn on it and closes it.
func (c dbCommand) withStore(fn func(ctx context.Context, st store.Store) error) error {
	ctx := context.Background()
	st, err := openStore(ctx, *c.db)
	if err != nil {
		return err
	}
	defer st.Close()
	return fn(ctx, st)
}
