package server_test

import "testing"

// The names server tests used before the kit, kept so that test files written against them on
// branches merged after it build unchanged (web, openapi, integrations and translations use
// them). New tests use the kit's names; once those files are ported this file goes.

type (
	crWorld      = world
	contentWorld = world
)

func crNewWorld(t testing.TB) *world      { t.Helper(); return newWorld(t) }
func newContentWorld(t testing.TB) *world { t.Helper(); return newWorld(t) }

func crInsertInto(title, markdown, ref, into string) map[string]any {
	return insertMarkdown(title, markdown, ref, "into", into)
}

var (
	crInsert = insertMarkdown
	crEdit   = editPage
	crMove   = movePage
	crDelete = deletePage
	md       = markdownDoc
)
