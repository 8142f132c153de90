// Package server is quire's HTTP side: the one implementation of the API's generated strict
// interface (gen.StrictServerInterface), one file per API area, the middleware (request ids,
// logs, metrics, panic recovery, authentication, rate limits, body limits, request validation
// against the embedded openapi.yaml), and the contract itself (/openapi.json, /openapi.yaml). It reaches data only through
// the store contract (store.Store) and decides who may do what with the access rules
// (server/access). It must never import a SQL driver, database/sql or a store implementation (the
// store tells which of its errors mean the database is unavailable: store.Admin.Unavailable), nor
// the web pages (server/web): cmd/quire mounts those beside the API on the same Echo instance and
// hands them to the API as its Server.Web, for the flows that end on a page (a SAML login started
// from the app, a browser asking for an OpenAPI document). TestLayers (deps_test.go) checks these
// rules.
//
// # How the code is laid out
//
// Errors take one path: the store returns a `store.Error` (a code, the field at fault, the reason,
// no HTTP wording) and `server/errors.go` alone turns it into the answer (status by code; a field as
// `Invalid body field "…"` or `Invalid query parameter "…"`, worded like request validation).
//
// Handlers: the generated strict interface gives every operation its own method, request and
// response types, so operations of one shape (a space's and a change request's content, links,
// files and comments; a site's sections and site spaces) are thin per-operation wrappers around one
// shared function, and each such file names its wrappers at the top. The store's domain types hold
// no backend bookkeeping: which row a page was read from is sqlstore's own (its views record it).
//
// Server tests share one kit: `server/harness_test.go` (a test server per test, every answer checked
// against openapi.yaml; `getJSON`/`sendJSON` send and decode in one step) and `server/kit_test.go`
// (the `world` cast — admin, editor, reader, commenter, guest, an outsider — with the
// change-request, content and list steps, `spaceWithPages`, `rivals` for two change requests on one
// base, page-change builders, `listAll` and assertions). The organization tests seat their people by
// role with `newCast(t, "bob:read", "dave:guest")` (`server/cast_test.go`: alice administers Acme,
// olga is the outsider; `strangers` runs the outsider-404 and no-token-401 subtests), or take
// `newAcme` for alice alone. What collections and spaces do alike (create, update, move and transfer
// refusals, reads) is one table over both (`server/placement_test.go`). Each test builds its own
// server and runs with `t.Parallel()`. Below the server: `storetest.MustOwner` (a user who
// administers an organization) starts store-level tests and benchmarks, `store/postgres/pgtest` gives
// a test a fresh PostgreSQL database (or skips it without a cluster), and
// `internal/conversations/corpustest` reads the labelled conversation corpus.
//
// All Go commands use `-tags sqlite_fts5` (the Makefile does this). `make fuzz` fuzzes the request
// decoding, search, cursors, link extraction and the markdown round trip beyond their committed
// corpora (`FUZZTIME=30s` per target).
package server
