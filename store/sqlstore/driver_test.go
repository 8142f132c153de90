package sqlstore

// The package's own tests open SQLite files, so their binary links the driver that store/sqlite
// links for the program.
import _ "github.com/mattn/go-sqlite3"
