// Package store is quire's storage contract: the domain types, the error codes and the interfaces
// the server, the job runner and the commands use. It knows no database: store/sqlite implements
// it, and store/storetest checks an implementation against it.
package store
