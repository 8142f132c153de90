package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
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

// parseWithEnv reads each flag first from its QUIRE_… variable, then from the command line
// (flags win); --help lists both.
func parseWithEnv(fs *flag.FlagSet, args []string) error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if v, ok := os.LookupEnv(envName(f.Name)); ok && err == nil {
			if e := f.Value.Set(v); e != nil {
				err = fmt.Errorf("%s=%q: %w", envName(f.Name), v, e)
			}
		}
	})
	if err != nil {
		return err
	}
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprintf(out, "usage: quire %s [flags]\n\nEach flag can also be set by its environment variable; a flag given wins.\n\n", fs.Name())
		fs.VisitAll(func(f *flag.Flag) {
			def := ""
			if f.DefValue != "" {
				def = fmt.Sprintf(" (default %s)", f.DefValue)
			}
			fmt.Fprintf(out, "  --%s  $%s\n        %s%s\n", f.Name, envName(f.Name), f.Usage, def)
		})
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return errHelpShown
		}
		return err
	}
	return nil
}

func ptr[T any](v T) *T { return &v }

// envName is the environment variable a flag can also be set by: --rate-limit is QUIRE_RATE_LIMIT.
func envName(flagName string) string {
	return "QUIRE_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// errHelpShown ends a command whose --help was printed: nothing failed.
var errHelpShown = errors.New("help shown")
