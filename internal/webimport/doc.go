// Package webimport turns what an import run is given — uploaded markdown, HTML and zip files, or
// a website crawled through the guarded fetcher — into a directory in GitBook's Git Sync layout
// (one markdown file per page, SUMMARY.md in order), which internal/gitsync reads and applies: one
// importer for git, uploads and websites. HTML becomes markdown with JohannesKaufmann's
// html-to-markdown.
package webimport
