package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/quire-docs/quire/store/postgres"
	"github.com/quire-docs/quire/store/sqlite"
)

// fileCommand reads the flags of backup and restore: --db, an SQLite file (PostgreSQL has its
// own tools), and the required file flag named file.
func fileCommand(name, dbHelp, file, fileHelp string, args []string) (db, path *string, err error) {
	cmd := newDBCommand(name, dbHelp)
	path = cmd.String(file, "", fileHelp)
	if err := cmd.parse(args); err != nil {
		return nil, nil, err
	}
	if postgres.IsURL(*cmd.db) {
		return nil, nil, errPostgresBackup
	}
	if err := cmd.require(file); err != nil {
		return nil, nil, err
	}
	return cmd.db, path, nil
}

// backup takes a consistent copy of a database, also while quire serves it.
func backup(args []string, stderr io.Writer) error {
	dbPath, to, err := fileCommand("backup", "SQLite database file to back up", "to", "the backup file to write (must not exist)", args)
	if err != nil {
		return err
	}
	if _, err := os.Stat(*to); err == nil {
		return fmt.Errorf("%s exists: a backup never overwrites a file", *to)
	}
	if _, err := os.Stat(*dbPath); err != nil {
		return fmt.Errorf("no database at %s: %w", *dbPath, err)
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.Backup(ctx, *to); err != nil {
		os.Remove(*to)
		return err
	}
	if err := checkDatabase(ctx, *to); err != nil {
		return fmt.Errorf("the backup at %s does not check out: %w", *to, err)
	}
	fmt.Fprintf(stderr, "quire: backed up %s to %s\n", *dbPath, *to)
	return nil
}

// restore puts a backup in place as the database a stopped quire will serve: the backup is
// checked first, and an existing database is never overwritten (move it aside yourself).
func restore(args []string, stderr io.Writer) error {
	dbPath, from, err := fileCommand("restore", "where the database is to be (must not exist)", "from", "the backup file", args)
	if err != nil {
		return err
	}
	ctx := context.Background()
	for _, p := range []string{*dbPath, *dbPath + "-wal", *dbPath + "-shm"} {
		if _, err := os.Stat(p); err == nil {
			return fmt.Errorf("%s exists: stop quire and move the old database aside before restoring", p)
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(*dbPath), ".quire-restore-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	src, err := os.Open(*from)
	if err != nil {
		return err
	}
	defer src.Close()
	if _, err := io.Copy(tmp, src); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	// The copy is checked, not the backup: opening a database may bring its schema up to date,
	// and the backup stays as it was taken.
	if err := checkDatabase(ctx, tmp.Name()); err != nil {
		return fmt.Errorf("%s is not a sound quire database: %w", *from, err)
	}
	if err := os.Rename(tmp.Name(), *dbPath); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "quire: restored %s from %s\n", *dbPath, *from)
	return nil
}

// checkDatabase opens a database file as quire would serve it (bringing its schema up to date)
// and runs SQLite's integrity check.
func checkDatabase(ctx context.Context, path string) error {
	if _, err := os.Stat(path); err != nil {
		return err
	}
	st, err := sqlite.Open(ctx, path)
	if err != nil {
		return err
	}
	defer st.Close()
	return st.CheckIntegrity(ctx)
}
