package sqlstore

import (
	"errors"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// The package's own tests open SQLite files, so their binary links the driver that store/sqlite
// links for the program, and classifies its errors the same way (store/sqlite cannot be imported
// here: it imports this package).
func testIsUnique(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && se.ExtendedCode == sqlite3.ErrConstraintUnique
}
